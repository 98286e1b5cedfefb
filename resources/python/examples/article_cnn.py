# SPDX-License-Identifier: MIT
"""The article's CNN and training loop, timed by DeviceBench's module: the five lines marked
DEVICEBENCH are all it takes (docs/YOUR-SCRIPT.md).

  devicebench-cli run --workload script --script article_cnn.py \\
      --script-arg=--data-dir=/path/to/cifar-10-batches-bin --device cpu,cuda --interleave

On the same data, seed and threads its step losses and test accuracy are the article-script
workload's (tests/engine/script_run_test.cpp holds it to that). Alone (python3 article_cnn.py
--data-dir ...) it trains and prints the same, untimed.
"""
import torch
from torch import nn

import devicebench  # DEVICEBENCH
from cifar10_binary import batches, parse_arguments, read_cifar10


class TX(nn.Module):  # the article's network, unchanged
    def __init__(self):
        super(TX, self).__init__()
        self.model = nn.Sequential(
            nn.Conv2d(in_channels=3, out_channels=32, kernel_size=5, stride=1, padding=2),
            nn.MaxPool2d(kernel_size=2),
            nn.Conv2d(in_channels=32, out_channels=32, kernel_size=5, stride=1, padding=2),
            nn.MaxPool2d(kernel_size=2),
            nn.Conv2d(in_channels=32, out_channels=64, kernel_size=5, stride=1, padding=2),
            nn.MaxPool2d(kernel_size=2),
            nn.Flatten(),
            nn.Linear(in_features=64 * 4 * 4, out_features=64),
            nn.Linear(in_features=64, out_features=10)
        )

    def forward(self, input):
        return self.model(input)


def main():
    args = parse_arguments(batch_size=64, lr=0.01)
    train_x, train_y, test_x, test_y = read_cifar10(args.data_dir, args.train_images,
                                                    args.test_images)
    run = devicebench.run(model="article-cnn", batch_size=args.batch_size,  # DEVICEBENCH
                          lr=args.lr)
    device = torch.device(run.device)  # DEVICEBENCH (it also seeded torch: run.seed)
    tx = TX().to(device)
    run.set_model(tx)
    loss_function = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(tx.parameters(), lr=args.lr)
    for epoch in run.epochs(args.epochs):  # DEVICEBENCH
        for imgs, targets in batches(train_x, train_y, args.batch_size):
            imgs, targets = imgs.to(device), targets.to(device)
            loss = loss_function(tx(imgs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            run.step(loss, images=imgs)  # DEVICEBENCH
        with torch.no_grad():
            loss_images, correct = 0, 0
            for img, target in batches(test_x, test_y, args.batch_size):
                img, target = img.to(device), target.to(device)
                outputs = tx(img)
                loss_images = loss_images + loss_function(outputs, target) * target.shape[0]
                correct = correct + (outputs.argmax(1) == target).sum()
        run.test(loss=loss_images / len(test_y), accuracy=correct / len(test_y))  # DEVICEBENCH
        print("epoch %d done" % epoch)


if __name__ == "__main__":
    main()
