#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest scripts.make_cifar10_py: bench/make-cifar10-py.py turns binary CIFAR-10 files into
the Python version that torchvision's CIFAR10 reads, holding the same images and labels in the
same order, and keeps the first N training images across the batch files.

Makes a small binary folder in a scratch directory (6 batch files of 7 generated records
each, batches.meta.txt), converts it with --train-images 17 --test-images 5 and checks:
training images = records 0-6 of data_batch_1, 0-6 of data_batch_2, 0-2 of data_batch_3, in
that order, data_batch_4/5 empty; test images = the first 5 of test_batch; each image's 3,072
bytes and label equal to the record's; batches.meta's label_names. Reads the pickles with
torchvision's CIFAR10 (check_integrity replaced, as the article's script does) when
torchvision is importable, else with pickle as torchvision does (encoding="latin1").
Also checks a file of a wrong size is refused (exit 3, naming the file).
Usage: check_make_cifar10_py.py PATH/TO/bench/make-cifar10-py.py
"""

import os
import pickle
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print(f"FAIL: {sys.executable} has no numpy, which make-cifar10-py.py needs (apt-get install "
          "python3-numpy, or pip install numpy)")
    sys.exit(1)

NAMES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]
FILES = [f"data_batch_{k}" for k in range(1, 6)] + ["test_batch"]


def make_binary(folder, records):
    rng = np.random.default_rng(7)
    content = {}
    for name in FILES:
        raw = rng.integers(0, 256, size=(records, 3073), dtype=np.uint8)
        raw[:, 0] = rng.integers(0, 10, size=records)
        raw.tofile(os.path.join(folder, name + ".bin"))
        content[name] = raw
    with open(os.path.join(folder, "batches.meta.txt"), "w", encoding="ascii") as f:
        f.write("\n".join(NAMES) + "\n\n")
    return content


def load(root, train):
    """(data uint8 [n, 32, 32, 3], labels) the way torchvision reads ROOT/cifar-10-batches-py."""
    try:
        import torchvision.datasets.cifar as cifar
    except ImportError:
        cifar = None
    if cifar is not None:
        cifar.check_integrity = lambda *args, **kwargs: True
        ds = cifar.CIFAR10(root=root, train=train, download=False)
        assert ds.classes == NAMES, f"classes {ds.classes}"
        return np.asarray(ds.data), list(ds.targets), "torchvision " + __import__("torchvision").__version__
    folder = os.path.join(root, "cifar-10-batches-py")
    data, labels = [], []
    for name in (FILES[:5] if train else FILES[5:]):
        with open(os.path.join(folder, name), "rb") as f:
            entry = pickle.load(f, encoding="latin1")
        data.append(entry["data"])
        labels.extend(entry["labels"])
    with open(os.path.join(folder, "batches.meta"), "rb") as f:
        assert pickle.load(f, encoding="latin1")["label_names"] == NAMES
    return np.vstack(data).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1), labels, "pickle"


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    converter = argv[1]
    failures = []
    with tempfile.TemporaryDirectory(prefix="devicebench-mkpy-") as tmp:
        binary = os.path.join(tmp, "bin")
        os.mkdir(binary)
        content = make_binary(binary, 7)
        run = subprocess.run([sys.executable, converter, binary, tmp, "--train-images", "17",
                              "--test-images", "5"], capture_output=True, text=True)
        print(run.stdout + run.stderr, end="")
        if run.returncode != 0:
            print(f"FAIL: the converter exited with {run.returncode}")
            return 1
        want_train = np.vstack([content["data_batch_1"], content["data_batch_2"],
                                content["data_batch_3"][:3]])
        want_test = content["test_batch"][:5]
        for train, want in [(True, want_train), (False, want_test)]:
            data, labels, reader = load(tmp, train)
            split = "training" if train else "test"
            pixels = want[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
            if data.shape != pixels.shape or not np.array_equal(data, pixels):
                failures.append(f"{split} images differ from the records ({reader}: shape "
                                f"{data.shape}, expected {pixels.shape})")
            if labels != [int(x) for x in want[:, 0]]:
                failures.append(f"{split} labels {labels} differ from {list(want[:, 0])}")
        print(f"read back with {reader}")

        with open(os.path.join(binary, "data_batch_3.bin"), "ab") as f:
            f.write(b"\0")  # one byte too many
        bad = subprocess.run([sys.executable, converter, binary, os.path.join(tmp, "bad")],
                             capture_output=True, text=True)
        if bad.returncode != 3 or "data_batch_3.bin" not in bad.stderr:
            failures.append(f"a 21,512-byte batch file: exit {bad.returncode}, stderr "
                            f"{bad.stderr.strip()!r} (expected exit 3 naming the file)")
    for message in failures:
        print("FAIL: " + message)
    if not failures:
        print("OK: the pickles hold the first 17 training and 5 test records, bytes and labels")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
