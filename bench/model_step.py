#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The Python side of bench/model_step.sh: times ResNet-18 (CIFAR form) training steps in
# PyTorch, the same step the engine's sweep cell times (devicebench-cli sweep): a batch of
# uint8 images converted to float in [0, 1] (ToTensor's arithmetic), forward, cross-entropy,
# zero_grad, backward, SGD step (lr 0.01, no momentum), NCHW, on the CPU.
# The model is torchvision's resnet18 with the CIFAR stem (3x3 conv, stride 1, no max-pool)
# and 10 classes: 11,173,962 parameters, as the engine's (printed, and checked).
# Prints one line of JSON: {"model", "batch_size", "threads", "torch", "parameters",
# "step_seconds": [...], "median_step_s", "images_per_s"}.
#
# usage: model_step.py [--batch-size 64] [--threads N] [--warmup-steps 3] [--steps 10]
import argparse
import json
import statistics
import time

import torch
import torchvision

RESNET18_CIFAR_PARAMETERS = 11_173_962


def resnet18_cifar() -> torch.nn.Module:
    model = torchvision.models.resnet18(num_classes=10)
    model.conv1 = torch.nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
    model.maxpool = torch.nn.Identity()
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--warmup-steps", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    model = resnet18_cifar()
    parameters = sum(p.numel() for p in model.parameters() if p.requires_grad)
    if parameters != RESNET18_CIFAR_PARAMETERS:
        raise SystemExit(f"resnet18 (CIFAR) has {parameters} parameters, expected "
                         f"{RESNET18_CIFAR_PARAMETERS}")
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    steps = args.warmup_steps + args.steps
    images = torch.randint(0, 256, (steps * args.batch_size, 3, 32, 32), dtype=torch.uint8)
    labels = torch.randint(0, 10, (steps * args.batch_size,))
    seconds = []
    for i in range(steps):
        start = i * args.batch_size
        t0 = time.perf_counter()
        x = images[start:start + args.batch_size].float().div_(255.0)
        y = labels[start:start + args.batch_size]
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        t1 = time.perf_counter()
        if i >= args.warmup_steps:
            seconds.append(t1 - t0)
    median = statistics.median(seconds)
    print(json.dumps({
        "model": "resnet18", "batch_size": args.batch_size, "threads": torch.get_num_threads(),
        "torch": torch.__version__, "parameters": parameters, "step_seconds": seconds,
        "median_step_s": median, "images_per_s": args.batch_size / median,
    }))


if __name__ == "__main__":
    main()
