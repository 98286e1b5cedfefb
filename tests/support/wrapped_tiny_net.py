# SPDX-License-Identifier: MIT
# A script as many are written, for the tests of what a script run says it trained: a model in
# DataParallel, the optimizer's learning rate, 20 images in batches of 8 (a short last batch of
# 4), each step's batch given to the module. TinyNet has 10 trainable parameters.
import torch

import devicebench


class TinyNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


net = torch.nn.DataParallel(TinyNet())
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
run = devicebench.run(model=net, batch_size=8, lr=optimizer)
data = torch.randn(20, 4)
for epoch in run.epochs(3):
    for start in range(0, 20, 8):
        x = data[start:start + 8]
        loss = net(x).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        run.step(loss, images=x)
