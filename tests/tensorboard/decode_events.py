#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads a TensorBoard event file without DeviceBench's code: an independent check of the
writer (engine/logs/src/tensorboard.cpp).

The TFRecord framing is read here (little-endian uint64 length, masked CRC-32C of the length,
data, masked CRC-32C of the data), both CRCs are checked with the `crc32c` module (Debian:
python3-crc32c), and each record's data is decoded by `protoc --decode=tensorboard.Event`
(Debian: protobuf-compiler) against the message definitions in proto/ beside this script.

Usage: decode_events.py EVENT_FILE
Prints one line per record:
    file_version <version>
    scalar <step> <tag> <value>       (value: the float32, shortest repr)
    text <step> <tag> <text as a JSON string>
Exit status: 0 read; 1 a bad record (CRC, truncated, not decodable) or a missing tool.
"""

import codecs
import json
import os
import shutil
import struct
import subprocess
import sys

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "proto")
MASK_DELTA = 0xA282EAD8


class DecodeError(Exception):
    pass


def require_tools():
    """The decoder's tools, or a DecodeError saying how to install them."""
    missing = []
    try:
        import crc32c  # noqa: F401
    except ImportError:
        missing.append(f"the Python module crc32c in {sys.executable} "
                       "(Debian package python3-crc32c, for /usr/bin/python3)")
    if shutil.which("protoc") is None:
        missing.append("protoc (Debian package protobuf-compiler)")
    if missing:
        raise DecodeError("missing " + " and ".join(missing) +
                          "; scripts/install-deps.sh installs them")


def masked_crc(data):
    import crc32c
    crc = crc32c.crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + MASK_DELTA) & 0xFFFFFFFF


def read_records(path):
    """The data of every record, after checking both CRCs of each."""
    with open(path, "rb") as f:
        content = f.read()
    records = []
    at = 0
    while at < len(content):
        if at + 12 > len(content):
            raise DecodeError(f"{path}: truncated record header at byte {at}")
        header = content[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (length_crc,) = struct.unpack("<I", content[at + 8:at + 12])
        if length_crc != masked_crc(header):
            raise DecodeError(f"{path}: bad length CRC at byte {at}")
        end = at + 12 + length
        if end + 4 > len(content):
            raise DecodeError(f"{path}: truncated record at byte {at} ({length} bytes)")
        data = content[at + 12:end]
        (data_crc,) = struct.unpack("<I", content[end:end + 4])
        if data_crc != masked_crc(data):
            raise DecodeError(f"{path}: bad data CRC at byte {at}")
        records.append(data)
        at = end + 4
    return records


def protoc_decode(data):
    result = subprocess.run(
        ["protoc", "-I", PROTO_DIR, "--decode=tensorboard.Event", "event.proto"],
        input=data, capture_output=True, check=False)
    if result.returncode != 0:
        raise DecodeError("protoc could not decode a record: " +
                          result.stderr.decode(errors="replace").strip())
    return result.stdout.decode()


def parse_text_format(text):
    """protoc's text output as nested dicts; every field's values in a list."""
    root = {}
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            child = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(child)
            stack.append(child)
        else:
            key, _, value = line.partition(": ")
            if value.startswith('"') and value.endswith('"'):
                # C-style escapes (\n, \", octal \ooo bytes); raw UTF-8 stays as it is.
                value = codecs.escape_decode(value[1:-1].encode())[0]
            stack[-1].setdefault(key, []).append(value)
    return root


def describe(event):
    """One printed line for a decoded Event."""
    step = int(event.get("step", ["0"])[0])
    if "file_version" in event:
        return "file_version " + event["file_version"][0].decode()
    lines = []
    for summary in event.get("summary", []):
        for value in summary.get("value", []):
            tag = value["tag"][0].decode()
            if "simple_value" in value:
                f32 = struct.unpack("<f", struct.pack("<f", float(value["simple_value"][0])))[0]
                lines.append(f"scalar {step} {tag} {f32!r}")
            elif "tensor" in value:
                tensor = value["tensor"][0]
                plugin = value["metadata"][0]["plugin_data"][0]["plugin_name"][0].decode()
                if tensor.get("dtype") != ["DT_STRING"] or plugin != "text":
                    raise DecodeError(f"tag {tag}: not a text summary: {value}")
                text = b"".join(tensor["string_val"]).decode()
                lines.append(f"text {step} {tag} {json.dumps(text)}")
            else:
                raise DecodeError(f"tag {tag}: neither a scalar nor a text: {value}")
    if not lines:
        raise DecodeError(f"an event with neither file_version nor summary: {event}")
    return "\n".join(lines)


def decode_file(path):
    require_tools()
    return [describe(parse_text_format(protoc_decode(r))) for r in read_records(path)]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    try:
        for line in decode_file(argv[1]):
            print(line)
    except (DecodeError, OSError) as e:
        print(f"decode_events.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
