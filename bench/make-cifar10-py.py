#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the Python version of CIFAR-10 (the folder torchvision's CIFAR10 reads) from the
binary version, so the article's script (../shared/reference/article_script.py) can run here.

usage: bench/make-cifar10-py.py BIN_DIR OUT_ROOT [--train-images N] [--test-images M]

BIN_DIR   the binary version: data_batch_1..5.bin, test_batch.bin (10,000 records of 3,073
          bytes each: 1 label byte 0-9, then 3,072 pixel bytes, 1,024 red, 1,024 green,
          1,024 blue, rows top to bottom), and batches.meta.txt (the 10 class names).
OUT_ROOT  receives OUT_ROOT/cifar-10-batches-py/ (created; existing files there replaced).
--train-images N, --test-images M: keep only the first N training / M test images, in file
          order (data_batch_1 first), the same images as `devicebench-cli run --train-images N
          --test-images M`; 0 (default) keeps all. Later batch files then hold 0 images.

What it writes is the layout torchvision.datasets.CIFAR10 reads (torchvision/datasets/
cifar.py): data_batch_1..5 and test_batch, each a pickled dict with "data" (numpy uint8,
images x 3072, the binary record's pixel bytes unchanged, which CIFAR10 reshapes to
(-1, 3, 32, 32)), "labels" (list of int) and "batch_label" (str); and batches.meta, a pickled
dict with "label_names" (list of 10 str), "num_cases_per_batch" 10000 and "num_vis" 3072.
Missing against the official files: "filenames" (the binary version has none; torchvision
does not read it). Keys are str (pickle protocol 2 is readable by any Python 3;
torchvision loads with encoding="latin1", which leaves str keys as they are).

MD5: CIFAR10() checks every file's MD5 against the official pickles' sums (_check_integrity
for the six batches, _load_meta for batches.meta, both through the module-level
torchvision.datasets.cifar.check_integrity), whatever `download` is. Files rebuilt here hold
the same arrays but not the same bytes, so those checks fail; article_script.py replaces that
function (its line marked CHANGED), and bench/run-article-script.py relies on that. With
download=False nothing is fetched either way.
"""

import argparse
import os
import pickle
import sys

import numpy as np

RECORD = 3073
PER_FILE = 10000
TRAIN_FILES = [f"data_batch_{k}" for k in range(1, 6)]


def read_batch(path):
    """(data uint8 [n, 3072], labels list[int]) of one binary batch file; exits 3 if bad."""
    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except OSError as e:
        sys.exit(f"make-cifar10-py: cannot read {path}: {e}")
    if raw.size == 0 or raw.size % RECORD != 0:
        print(f"make-cifar10-py: {path} has {raw.size} bytes, not a whole number of "
              f"3,073-byte CIFAR-10 records", file=sys.stderr)
        sys.exit(3)
    records = raw.reshape(-1, RECORD)
    labels = records[:, 0]
    if labels.max() > 9:
        bad = int(np.argmax(labels > 9))
        print(f"make-cifar10-py: {path}: record {bad} has label byte {labels[bad]}; CIFAR-10 "
              "labels are 0-9", file=sys.stderr)
        sys.exit(3)
    return np.ascontiguousarray(records[:, 1:]), [int(x) for x in labels]


def write_pickle(path, value):
    """Writes atomically: a file beside PATH, then renamed over it."""
    partial = path + ".partial"
    with open(partial, "wb") as f:
        pickle.dump(value, f, protocol=2)
    os.replace(partial, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir")
    parser.add_argument("out_root")
    parser.add_argument("--train-images", type=int, default=0)
    parser.add_argument("--test-images", type=int, default=0)
    args = parser.parse_args()
    if not 0 <= args.train_images <= 5 * PER_FILE or not 0 <= args.test_images <= PER_FILE:
        parser.error("--train-images must be 0..50000 and --test-images 0..10000")
    names_path = os.path.join(args.bin_dir, "batches.meta.txt")
    try:
        with open(names_path, encoding="ascii") as f:
            label_names = [line.strip() for line in f if line.strip()]
    except OSError as e:
        sys.exit(f"make-cifar10-py: cannot read the class names {names_path}: {e}")
    if len(label_names) != 10:
        sys.exit(f"make-cifar10-py: {names_path} holds {len(label_names)} names, not 10")

    out = os.path.join(args.out_root, "cifar-10-batches-py")
    os.makedirs(out, exist_ok=True)
    left = args.train_images or 5 * PER_FILE
    for k, name in enumerate(TRAIN_FILES, start=1):
        data, labels = read_batch(os.path.join(args.bin_dir, name + ".bin"))
        keep = max(0, min(left, len(labels)))
        left -= keep
        write_pickle(os.path.join(out, name), {"batch_label": f"training batch {k} of 5",
                                               "labels": labels[:keep], "data": data[:keep]})
    data, labels = read_batch(os.path.join(args.bin_dir, "test_batch.bin"))
    keep = args.test_images or len(labels)
    write_pickle(os.path.join(out, "test_batch"), {"batch_label": "testing batch 1 of 1",
                                                   "labels": labels[:keep], "data": data[:keep]})
    write_pickle(os.path.join(out, "batches.meta"), {"num_cases_per_batch": PER_FILE,
                                                     "label_names": label_names,
                                                     "num_vis": 3072})
    print(f"wrote {out}: {(args.train_images or 5 * PER_FILE) - max(left, 0)} training and "
          f"{keep} test images")
    return 0


if __name__ == "__main__":
    sys.exit(main())
