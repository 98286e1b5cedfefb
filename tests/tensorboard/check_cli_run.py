#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest tensorboard.cli_event_file: a CLI run's TensorBoard event file, read back by the
independent decoder (decode_events.py: crc32c + protoc), holds the run's own values.

Runs `devicebench-cli run --synthetic --epochs 2 --train-images 256 --test-images 64
--loss-every 3 --logdir TMP --record TMP/run.json`, decodes the one event file under
TMP/<run name>/, and compares with the run record the same run wrote: the file-version event
first, the config text, `train/loss` at every recorded step, and `test/loss`, `test/accuracy`,
`epoch/seconds`, `epoch/images_per_s` at every epoch, each equal to the record's value rounded
to float32. Fails (never skips) when the decoder's tools are missing.

Usage: check_cli_run.py PATH/TO/devicebench-cli
"""

import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode_events  # noqa: E402


def f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    cli = argv[1]
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    with tempfile.TemporaryDirectory(prefix="devicebench-tb-") as tmp:
        logdir = os.path.join(tmp, "logs")
        record_path = os.path.join(tmp, "run.json")
        command = [cli, "run", "--synthetic", "--epochs", "2", "--train-images", "256",
                   "--test-images", "64", "--loss-every", "3", "--logdir", logdir,
                   "--record", record_path]
        run = subprocess.run(command, capture_output=True, text=True, check=False)
        print("$ " + " ".join(command))
        print(run.stdout, end="")
        print(run.stderr, end="", file=sys.stderr)
        if run.returncode != 0:
            print(f"FAIL: the run exited with {run.returncode}")
            return 1
        runs = os.listdir(logdir)
        if len(runs) != 1:
            print(f"FAIL: expected one run folder in {logdir}, found {runs}")
            return 1
        files = os.listdir(os.path.join(logdir, runs[0]))
        if len(files) != 1 or not files[0].startswith("events.out.tfevents."):
            print(f"FAIL: expected one events.out.tfevents.* file, found {files}")
            return 1
        event_file = os.path.join(logdir, runs[0], files[0])
        check(f"wrote TensorBoard events {event_file}" in run.stdout,
              "the CLI does not say where it wrote the event file")
        try:
            lines = decode_events.decode_file(event_file)
        except decode_events.DecodeError as e:
            print(f"FAIL: {e}")
            return 1
        with open(record_path, encoding="utf-8") as f:
            record = json.load(f)

    print(f"decoded {len(lines)} records of {runs[0]}/{files[0]}:")
    for line in lines:
        print("  " + line)

    check(lines[0] == "file_version brain.Event:2",
          f"the first record is not the file version: {lines[0]}")
    texts = [line for line in lines if line.startswith("text ")]
    check(len(texts) == 1 and texts[0].startswith("text 0 config "),
          f"expected one config text at step 0, got {texts}")
    if texts:
        config = json.loads(texts[0].split(" ", 3)[3])
        check("| epochs | 2 |" in config, "the config text lacks '| epochs | 2 |'")
        check("| training images | 256 |" in config,
              "the config text lacks '| training images | 256 |'")

    decoded = {}  # tag -> [(step, value)] in file order
    for line in lines:
        if line.startswith("scalar "):
            _, step, tag, value = line.split(" ", 3)
            decoded.setdefault(tag, []).append((int(step), float(value)))

    expected = {"train/loss": [(s["step"], f32(s["loss"])) for s in record["steps"]]}
    for tag, key in [("test/loss", "testLoss"), ("test/accuracy", "testAccuracy"),
                     ("epoch/seconds", "seconds"), ("epoch/images_per_s", "imagesPerSecond")]:
        expected[tag] = [(e["epoch"], f32(e[key])) for e in record["epochs"]]
    check(len(record["epochs"]) == 2, f"the record has {len(record['epochs'])} epochs, not 2")
    check(len(record["steps"]) == 8, f"the record has {len(record['steps'])} step losses, not 8")
    check(set(decoded) == set(expected),
          f"tags {sorted(decoded)} differ from {sorted(expected)}")
    for tag, want in expected.items():
        got = decoded.get(tag, [])
        check(got == want, f"{tag}: decoded {got}, the record has {want}")

    if failures:
        for message in failures:
            print("FAIL: " + message)
        return 1
    print(f"OK: {sum(len(v) for v in expected.values())} scalars and the config match the record")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
