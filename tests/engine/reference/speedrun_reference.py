# SPDX-License-Identifier: MIT
"""The speedrun's parts in PyTorch, as airbench94 writes them (Keller Jordan, 2024; the PyPI
package airbench 0.1.8), on deterministic inputs the C++ test builds the same way: the values the
engine's speedrun (engine/train/src/speedrun.h) must reproduce. Prints one JSON object.

Usage: speedrun_reference.py whiten|schedule|optimiser|lookahead|tta
"""
import json
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


def wave(shape, phase=0.0, step=0.37):
    """sin(step * i + phase) over the elements of `shape`, row-major: the inputs of both sides."""
    n = math.prod(shape)
    return torch.sin(torch.arange(n, dtype=torch.float64) * step + phase).float().view(*shape)


def noise(shape):
    """frac(sin(12.9898 i) x 43758.5453) - 0.5: well spread values, the same on both sides."""
    v = torch.sin(torch.arange(math.prod(shape), dtype=torch.float64) * 12.9898) * 43758.5453
    return (v - torch.floor(v) - 0.5).float().view(*shape)


def whiten():
    # airbench94: get_patches, get_whitening_parameters, init_whitening_conv (eps 5e-4).
    x = noise((4, 3, 6, 6))
    c, (h, w) = x.shape[1], (2, 2)
    patches = x.unfold(2, h, 1).unfold(3, w, 1).transpose(1, 3).reshape(-1, c, h, w).float()
    n = patches.shape[0]
    flat = patches.view(n, -1)
    cov = (flat.T @ flat) / n
    values, vectors = torch.linalg.eigh(cov, UPLO='U')
    values = values.flip(0).view(-1, 1, 1, 1)
    vectors = vectors.T.reshape(c * h * w, c, h, w).flip(0)
    scaled = vectors / torch.sqrt(values + 5e-4)
    return {"weights": torch.cat((scaled, -scaled)).flatten().tolist()}


def get_lr(step, total):
    warmup_steps = int(total * 0.23)
    warmdown_steps = total - warmup_steps
    if step < warmup_steps:
        frac = step / warmup_steps
        return 0.2 * (1 - frac) + 1.0 * frac
    frac = (step - warmup_steps) / warmdown_steps
    return 1.0 * (1 - frac) + 0.07 * frac


def schedule():
    total = 97
    alpha = 0.95**5 * (torch.arange(total + 1) / total)**3
    steps = [0, 1, 21, 22, 23, 50, 96]
    return {"total": total, "steps": steps, "lr": [get_lr(s, total) for s in steps],
            "decay": [alpha[s].item() for s in [5, 50, 95, 97]]}


def optimiser():
    # airbench94's param groups: norm biases at lr x bias_scaler, decay wd / group lr.
    batch_size, momentum = 256, 0.85
    kilostep_scale = 1024 * (1 + 1 / (1 - momentum))
    lr = 11.5 / kilostep_scale
    wd = 0.0153 * batch_size / kilostep_scale
    lr_biases = lr * 64.0
    bias = wave((5,), 0.1).requires_grad_()
    weight = wave((3, 4), 0.2).requires_grad_()
    opt = torch.optim.SGD([dict(params=[bias], lr=lr_biases, weight_decay=wd / lr_biases),
                           dict(params=[weight], lr=lr, weight_decay=wd / lr)],
                          momentum=momentum, nesterov=True)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: get_lr(s, 10))
    for k in range(3):
        bias.grad = wave((5,), 1.0 + k)
        weight.grad = wave((3, 4), 2.0 + k)
        opt.step()
        sched.step()
    return {"bias": bias.detach().tolist(), "weight": weight.detach().flatten().tolist()}


def lookahead():
    net = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    with torch.no_grad():
        for i, t in enumerate(list(net.parameters()) + [net[1].running_mean, net[1].running_var]):
            t.copy_(wave(tuple(t.shape), 0.5 * i))
    ema = {k: v.clone() for k, v in net.state_dict().items()}
    with torch.no_grad():
        for i, t in enumerate(list(net.parameters()) + [net[1].running_mean, net[1].running_var]):
            t.copy_(wave(tuple(t.shape), 3.0 + i))
        for e, p in zip(ema.values(), net.state_dict().values()):
            if p.dtype in (torch.half, torch.float):
                e.lerp_(p, 1 - 0.3)
                p.copy_(e)
    return {"values": torch.cat([t.flatten() for t in net.state_dict().values()
                                 if t.dtype == torch.float]).tolist()}


class BatchNorm(nn.BatchNorm2d):
    def __init__(self, num_features, momentum=0.6, eps=1e-12):
        super().__init__(num_features, eps=eps, momentum=1 - momentum)
        self.weight.requires_grad = False


class ConvGroup(nn.Module):
    def __init__(self, channels_in, channels_out):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels_out, 3, padding='same', bias=False)
        self.pool = nn.MaxPool2d(2)
        self.norm1 = BatchNorm(channels_out)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding='same', bias=False)
        self.norm2 = BatchNorm(channels_out)
        self.activ = nn.GELU()

    def forward(self, x):
        x = self.activ(self.norm1(self.pool(self.conv1(x))))
        return self.activ(self.norm2(self.conv2(x)))


class Mul(nn.Module):
    def forward(self, x):
        return x * (1 / 9)


def make_net():
    return nn.Sequential(nn.Conv2d(3, 24, 2, padding=0, bias=True), nn.GELU(),
                         ConvGroup(24, 64), ConvGroup(64, 256), ConvGroup(256, 256),
                         nn.MaxPool2d(3), nn.Flatten(), nn.Linear(256, 10, bias=False), Mul())


def tta():
    # airbench94's infer_mirror_translate (tta_level 2) and infer_mirror (1), in eval mode.
    net = make_net().eval()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.05 * wave(tuple(p.shape), 0.3 * i, 0.11))
    x = wave((2, 3, 32, 32), 0.0, 0.013)

    def mirror(inputs):
        return 0.5 * net(inputs) + 0.5 * net(inputs.flip(-1))

    with torch.no_grad():
        level1 = mirror(x)
        padded = F.pad(x, (1,) * 4, 'reflect')
        translated = torch.stack([mirror(padded[:, :, 0:32, 0:32]),
                                  mirror(padded[:, :, 2:34, 2:34])]).mean(0)
        level2 = 0.5 * level1 + 0.5 * translated
        return {"level0": net(x).flatten().tolist(), "level1": level1.flatten().tolist(),
                "level2": level2.flatten().tolist()}


if __name__ == "__main__":
    print(json.dumps({"whiten": whiten, "schedule": schedule, "optimiser": optimiser,
                      "lookahead": lookahead, "tta": tta}[sys.argv[1]]()))
