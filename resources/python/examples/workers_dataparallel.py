# SPDX-License-Identifier: MIT
"""A training script as many are written: a Dataset read by a DataLoader with worker processes,
the model wrapped in torch.nn.DataParallel, the optimizer's learning rate and every batch's
size told to DeviceBench's module (docs/YOUR-SCRIPT.md). The network is a small residual CNN.

  devicebench-cli run --workload script --script workers_dataparallel.py \\
      --script-arg=--data-dir=/path/to/cifar-10-batches-bin --device cpu --epochs 3

The record names it "workers_dataparallel.py: SmallResNet in DataParallel"; its steps and
images are counted, the last short batch as it is. Alone (python3 workers_dataparallel.py
--data-dir ...) it trains untimed.
"""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import devicebench
from cifar10_binary import parse_arguments, read_cifar10


class SmallResNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(width), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(width, width, 3, padding=1, bias=False),
                                   nn.BatchNorm2d(width), nn.ReLU(),
                                   nn.Conv2d(width, width, 3, padding=1, bias=False),
                                   nn.BatchNorm2d(width))
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, 10))

    def forward(self, x):
        x = self.stem(x)
        return self.head(torch.relu(x + self.block(x)))


def main():
    p = parse_arguments(batch_size=100, lr=0.05)
    train_x, train_y, test_x, test_y = read_cifar10(p.data_dir, p.train_images, p.test_images)
    train = DataLoader(TensorDataset(train_x, train_y), batch_size=p.batch_size, shuffle=True,
                       num_workers=2, persistent_workers=True)
    test = DataLoader(TensorDataset(test_x, test_y), batch_size=500, num_workers=2)
    model = nn.DataParallel(SmallResNet())  # on the GPUs torch sees; on a CPU, the module
    optimizer = torch.optim.SGD(model.parameters(), lr=p.lr, momentum=0.9)
    run = devicebench.run(model=model, batch_size=p.batch_size, lr=optimizer)
    device = torch.device(run.device)
    model = model.to(device)
    for _ in run.epochs(p.epochs):
        model.train()
        for x, y in train:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            run.step(loss, images=x)  # the batch as it came: a short last one counts short
        model.eval()
        with torch.no_grad():
            loss_sum, correct = 0.0, 0
            for x, y in test:
                out = model(x.to(device))
                loss_sum += nn.functional.cross_entropy(out, y.to(device), reduction="sum")
                correct += (out.argmax(1) == y.to(device)).sum()
        run.test(loss=loss_sum / len(test_y), accuracy=correct / len(test_y))


if __name__ == "__main__":
    main()
