#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest tensorboard.reader: TensorBoard's own reader loads a CLI run's --logdir output and
finds the run's own values in it.

Runs `devicebench-cli run --synthetic --epochs 2 --train-images 256 --test-images 64
--loss-every 3 --logdir TMP --record TMP/run.json`, then loads TMP/<run name>/ with
`tensorboard.backend.event_processing.event_accumulator.EventAccumulator` (the reader behind
`tensorboard --logdir`, PyPI package `tensorboard`) and checks against the run record the same
run wrote:
- the file version the reader saw ("brain.Event:2");
- the scalar tags: exactly train/loss, test/loss, test/accuracy, epoch/seconds,
  epoch/images_per_s;
- train/loss at every recorded step, the four epoch tags at every epoch (steps 1, 2), each
  value equal to the record's value rounded to float32 (TensorBoard stores float32);
- the `config` text (text plugin, step 0) holding the run's settings table.

Fails (never skips) when the interpreter lacks the `tensorboard` package, naming the pip line.
Usage: check_tensorboard_reader.py PATH/TO/devicebench-cli
"""

import json
import os
import struct
import subprocess
import sys
import tempfile

SCALAR_TAGS = {"test/loss": "testLoss", "test/accuracy": "testAccuracy",
               "epoch/seconds": "seconds", "epoch/images_per_s": "imagesPerSecond"}


def f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def import_reader():
    """The EventAccumulator class and tensor_util, or exits 1 naming what to install."""
    try:
        from tensorboard.backend.event_processing import event_accumulator
        from tensorboard.util import tensor_util
        import tensorboard
    except ImportError as e:
        print(f"FAIL: {sys.executable} cannot import TensorBoard's reader ({e}); install it "
              f"with: {sys.executable} -m pip install tensorboard==2.21.0 (or configure with "
              f"-DDEVICEBENCH_TENSORBOARD_PYTHON=/path/to/a/python/with/tensorboard)")
        sys.exit(1)
    print(f"reader: tensorboard {tensorboard.__version__} from {tensorboard.__file__}")
    return event_accumulator, tensor_util


def run_cli(cli, tmp):
    """Runs the CLI; returns (run folder, record dict) or exits 1 with the reason."""
    logdir = os.path.join(tmp, "logs")
    record_path = os.path.join(tmp, "run.json")
    command = [cli, "run", "--synthetic", "--epochs", "2", "--train-images", "256",
               "--test-images", "64", "--loss-every", "3", "--logdir", logdir,
               "--record", record_path]
    print("$ " + " ".join(command))
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    print(run.stdout, end="")
    print(run.stderr, end="", file=sys.stderr)
    if run.returncode != 0:
        print(f"FAIL: the run exited with {run.returncode}")
        sys.exit(1)
    runs = os.listdir(logdir)
    if len(runs) != 1:
        print(f"FAIL: expected one run folder in {logdir}, found {runs}")
        sys.exit(1)
    with open(record_path, encoding="utf-8") as f:
        record = json.load(f)
    return os.path.join(logdir, runs[0]), record


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    event_accumulator, tensor_util = import_reader()
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    with tempfile.TemporaryDirectory(prefix="devicebench-tbreader-") as tmp:
        run_dir, record = run_cli(argv[1], tmp)
        # 0 = keep every event of a kind (the default keeps a sample of 1,000 scalars).
        accumulator = event_accumulator.EventAccumulator(
            run_dir, size_guidance={event_accumulator.SCALARS: 0,
                                    event_accumulator.TENSORS: 0})
        accumulator.Reload()
        tags = accumulator.Tags()
        scalars = {tag: [(e.step, e.value) for e in accumulator.Scalars(tag)]
                   for tag in tags[event_accumulator.SCALARS]}
        texts = {tag: [(e.step, tensor_util.make_ndarray(e.tensor_proto))
                       for e in accumulator.Tensors(tag)]
                 for tag in tags[event_accumulator.TENSORS]}
        file_version = accumulator.file_version
        try:  # tag -> plugin content, from each value's SummaryMetadata.plugin_data
            text_tags = accumulator.PluginTagToContent("text")
        except KeyError:  # no value names the text plugin
            text_tags = {}

    print(f"TensorBoard read {os.path.basename(run_dir)}: file version {file_version}, "
          f"scalar tags {sorted(scalars)}, tensor tags {sorted(texts)}")
    for tag, values in sorted(scalars.items()):
        print(f"  {tag}: {values}")

    check(file_version == 2.0, f"file version {file_version}, expected 2 (brain.Event:2)")
    expected = {"train/loss": [(s["step"], f32(s["loss"])) for s in record["steps"]]}
    for tag, key in SCALAR_TAGS.items():
        expected[tag] = [(e["epoch"], f32(e[key])) for e in record["epochs"]]
    check(len(record["epochs"]) == 2, f"the record has {len(record['epochs'])} epochs, not 2")
    check(len(record["steps"]) == 8, f"the record has {len(record['steps'])} step losses, not 8")
    check(set(scalars) == set(expected),
          f"scalar tags {sorted(scalars)} differ from {sorted(expected)}")
    for tag, want in expected.items():
        got = scalars.get(tag, [])
        check(got == want, f"{tag}: TensorBoard read {got}, the record has {want}")

    check(list(text_tags) == ["config"],
          f"the text plugin lists tags {list(text_tags)}, expected ['config']")
    config = texts.get("config", [])
    check(len(config) == 1 and config[0][0] == 0,
          f"expected one config text at step 0, got steps {[s for s, _ in config]}")
    if config:
        value = config[0][1].reshape(-1)[0]
        text = value.decode("utf-8") if isinstance(value, bytes) else str(value)
        check("| epochs | 2 |" in text, "the config text lacks '| epochs | 2 |'")
        check("| training images | 256 |" in text,
              "the config text lacks '| training images | 256 |'")

    if failures:
        for message in failures:
            print("FAIL: " + message)
        return 1
    print(f"OK: TensorBoard's EventAccumulator read {sum(len(v) for v in expected.values())} "
          "scalars and the config text, all equal to the run record")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
