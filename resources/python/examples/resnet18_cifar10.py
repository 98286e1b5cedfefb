# SPDX-License-Identifier: MIT
"""torchvision's ResNet-18 on CIFAR-10, timed by DeviceBench's module: a heavier model a user
would try (11 M parameters), with the usual normalisation, SGD with momentum and a cosine
learning rate (docs/YOUR-SCRIPT.md).

  devicebench-cli run --workload script --script resnet18_cifar10.py \\
      --script-arg=--data-dir=/path/to/cifar-10-batches-bin --device cuda --epochs 5

Needs torchvision (only its model). Alone (python3 resnet18_cifar10.py --data-dir ...) it
trains untimed.
"""
import torch
import torchvision
from torch import nn

import devicebench
from cifar10_binary import batches, parse_arguments, read_cifar10

MEAN = torch.tensor([0.4914, 0.4822, 0.4465]).view(1, 3, 1, 1)
STD = torch.tensor([0.2470, 0.2435, 0.2616]).view(1, 3, 1, 1)


def main():
    args = parse_arguments(batch_size=128, lr=0.05)
    train_x, train_y, test_x, test_y = read_cifar10(args.data_dir, args.train_images,
                                                    args.test_images)
    train_x, test_x = (train_x - MEAN) / STD, (test_x - MEAN) / STD
    model = torchvision.models.resnet18(num_classes=10)
    run = devicebench.run(model=model, batch_size=args.batch_size, lr=args.lr)
    device = torch.device(run.device)
    model = model.to(device)
    loss_function = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    for _ in run.epochs(args.epochs):
        model.train()
        for x, y in batches(train_x, train_y, args.batch_size):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = loss_function(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            run.step(loss, images=x)
        schedule.step()
        model.eval()
        with torch.no_grad():
            loss_sum, correct = 0, 0
            for x, y in batches(test_x, test_y, args.batch_size):
                x, y = x.to(device), y.to(device)
                outputs = model(x)
                loss_sum = loss_sum + loss_function(outputs, y) * y.shape[0]
                correct = correct + (outputs.argmax(1) == y).sum()
        run.test(loss=loss_sum / len(test_y), accuracy=correct / len(test_y))


if __name__ == "__main__":
    main()
