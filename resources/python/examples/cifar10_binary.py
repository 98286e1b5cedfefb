# SPDX-License-Identifier: MIT
"""CIFAR-10's binary version (data_batch_1..5.bin, test_batch.bin: records of one label byte and
3,072 image bytes, channel-major) as tensors, with torch alone: the examples' data."""
import argparse
import os

import torch

RECORD_BYTES = 1 + 3 * 32 * 32
TRAIN_FILES = ["data_batch_%d.bin" % i for i in range(1, 6)]
TEST_FILE = "test_batch.bin"


def read_split(folder, names, count=0):
    """(images N x 3 x 32 x 32 float32 in [0, 1], labels N int64) of the files `names`, in
    order; `count` > 0 keeps the first `count` images. The floats are the bytes / 255, as
    torchvision's ToTensor makes them."""
    raw = bytearray()
    for name in names:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            data = f.read()
        if not data or len(data) % RECORD_BYTES:
            raise ValueError("%s is not a whole number of CIFAR-10 records" % path)
        raw += data
    records = torch.frombuffer(raw, dtype=torch.uint8).view(-1, RECORD_BYTES)
    if count > 0:
        records = records[:count]
    images = records[:, 1:].reshape(-1, 3, 32, 32).float().div(255)
    return images, records[:, 0].long()


def read_cifar10(folder, train_images=0, test_images=0):
    """(train images, train labels, test images, test labels) of the folder."""
    return read_split(folder, TRAIN_FILES, train_images) + read_split(folder, [TEST_FILE],
                                                                       test_images)


def batches(images, labels, batch_size):
    """The data in order, `batch_size` images a step (the last step may have fewer)."""
    for start in range(0, len(labels), batch_size):
        yield images[start:start + batch_size], labels[start:start + batch_size]


def parse_arguments(batch_size, lr):
    """The examples' command line: --data-dir (required), --epochs, --batch-size, --lr,
    --train-images, --test-images (0: all)."""
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=batch_size)
    p.add_argument("--lr", type=float, default=lr)
    p.add_argument("--train-images", type=int, default=0)
    p.add_argument("--test-images", type=int, default=0)
    return p.parse_args()
