# SPDX-License-Identifier: MIT
"""airbench94 -- Keller Jordan's CIFAR-10 speed record (PyPI airbench==0.1.8: 94 % test accuracy
in 3.83 s on an A100) -- timed by DeviceBench as the reference for our own implementation of
the same recipe, on the same device and data (reference/airbench/README.md).

  scripts/install-torch.sh && scripts/install-airbench.sh      # the venv, then airbench 0.1.8
  devicebench-cli run --workload script --script reference/airbench/airbench_reference.py \\
      --python ~/.cache/devicebench/venv-torch2.11.0/bin/python \\
      --device cuda --target-accuracy 94 --epochs 10

The package's own code is imported and used as it is: its hyper-parameters (`hyp`), network
pieces (Conv, BatchNorm, ConvGroup, Flatten, Mul), data loader (CifarLoader: normalisation,
alternating flip, translate-by-2 crops), whitening initialisation (init_whitening_conv),
lookahead (LookaheadState) and test-time-augmented inference (infer). Two of its functions are
CUDA-bound and are copied here line for line with the changes below: make_net94 (its
`.half().cuda()`) and utils.train (its loop, CUDA events and prints).

EVERYTHING CHANGED against airbench 0.1.8, and why
--------------------------------------------------
 1. Device and precision. The package puts the net, the data and the loaders on 'cuda' in
    float16 (make_net94: `net.half().cuda()`; CifarLoader: `torch.load(map_location=
    torch.device(gpu))`, `images.half() / 255`). Here the device is the run's (--device:
    run.device) and the "half" dtype is --dtype: auto = float16 on CUDA (exactly the
    package), and off CUDA bfloat16 on a CPU with AMX or AVX-512-BF16 (the flags amx_bf16 /
    avx512_bf16 in /proc/cpuinfo; and a torch that pads bfloat16: torch 1.13 cannot) else
    float32 -- CPUs have no fast float16 convolutions. The
    loaders get the run's device (the package's own `gpu` argument) and their images are
    made as the package makes them, `(uint8.to(dtype) / 255).permute(0, 3, 1, 2)` in
    channels_last, with the dtype in place of half. BatchNorm stays float32, as the package
    keeps it (`mod.float()`). Caveat: bfloat16 has 3 fewer mantissa bits than float16 and the
    package keeps no float32 master weights, so small SGD and lookahead updates round away
    more often in bfloat16; that 94 % holds in bfloat16 is not established (float32:
    --script-arg=--dtype=float32).
 2. Lookahead in bfloat16. LookaheadState.update averages only tensors whose dtype is in
    (torch.half, torch.float); a bfloat16 net's conv and linear weights would silently never
    be averaged. bfloat16 is added to that tuple (LookaheadState below); nothing else of it
    changes. On CUDA/float16 and float32 it is the package's behaviour exactly.
 3. The data come from CIFAR-10's binary files, not torchvision's download: the package's
    CifarLoader reads <path>/train.pt and test.pt ({'images': uint8 N x 32 x 32 x 3 (HWC, as
    torchvision's dataset.data), 'labels': int64 N, 'classes': the ten names}) and downloads
    with torchvision only when they are missing. They are written here, once, from
    data_batch_1..5.bin and test_batch.bin (same images in the same order as torchvision's
    python pickles), into a cache folder outside the repository (--cache-dir); the loader
    then finds them and downloads nothing. The cache's subfolder is named by the binary
    files' SHA-256, so other data never reuse it.
 4. Timing. The package times with CUDA events: the whitening initialisation, each pass's
    training (its per-epoch val_acc evaluation excluded) and the final TTA evaluation.
    DeviceBench times each epoch's body instead (run.epochs): the whitening initialisation is
    done inside epoch 1 (so it is timed, as in the package), the net is built before the
    clock (as in the package), and each epoch's test evaluation is inside its epoch (see 5).
 5. Evaluation each epoch. DeviceBench's --target-accuracy needs a test accuracy every epoch,
    and the time to 94 % must hold the evaluation that reached it. The package evaluates with
    tta_level=0 after every pass (val_acc, untimed) and with its TTA (tta_level=2) once at the
    end (tta_val_acc, timed). Here: every epoch but the last reports the package's val_acc
    (tta_level 0: 1 forward of the test set, ~7 % of an epoch's compute) and the last epoch
    reports the package's TTA accuracy (tta_level 2: 6 forwards, ~40 % of an epoch's compute,
    which 9 extra times would add ~3.6 epochs of work the package never does); both inside
    the timed epoch. --epoch-tta-level=2 evaluates every epoch with the TTA instead. The test
    loss (plain mean cross-entropy of the same logits) is reported too; the package has none.
 6. Steps are reported: run.step(loss / batch) after each optimizer step (the package's
    train_loss: loss.item() / batch_size), kept on the device (no synchronisation).
 7. An untimed warm-up in the set-up (--warmup-steps, 1): one forward and backward of the
    first batch on a deep copy of the net (no optimizer, no random numbers drawn, the real
    net untouched) and one inference at the test batch shape, so that cuDNN's benchmark
    (which the package turns on) and oneDNN's first-call set-up are not in epoch 1 -- the
    package's README does the same with warmup94() before its timed runs.
 8. --train-images N / --test-images N keep the first N images (a quick test); N >= 1024 for
    training (the loader drops the last partial batch). The whitening still uses the first
    5,000 training images (or all N when fewer), as the package.
 9. DeviceBench's epoch count. One DeviceBench epoch is one pass of the package's loop
    (`for epoch in range(ceil(epochs))`), 10 for its 9.9 epochs, the 10th ending at step
    ceil(48 * 9.9) = 476. More epochs than ceil(--train-epochs) are refused; fewer stop the
    same schedule early (said on stderr), the last of them evaluated with the TTA.
Nothing else: batch 1024, 9.9 epochs, label smoothing 0.2, lr 11.5 and wd 0.0153 per 1024
(decoupled), momentum 0.85 (Nesterov), bias scaler 64, whitening (2x2 patches, eps 5e-4, bias
trained 3 epochs), lookahead every 5 steps, the triangular schedule, alternating flip,
translate 2, TTA level 2, BatchNorm momentum 0.6 and eps 1e-12, scaling 1/9: the package's.
"""
import argparse
import copy
import hashlib
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch import nn

import devicebench
from airbench import lib_airbench94 as ab94
from airbench import utils as abu

RECORD_BYTES = 1 + 3 * 32 * 32
TRAIN_FILES = ["data_batch_%d.bin" % i for i in range(1, 6)]
TEST_FILE = "test_batch.bin"
CLASSES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship",
           "truck"]  # torchvision's CIFAR10.classes, in label order (batches.meta.txt)


def default_data_dir():
    """docs/DATA.md's order after --data-dir: $DEVICEBENCH_DATA, then the cache's folder."""
    if os.environ.get("DEVICEBENCH_DATA"):
        return os.environ["DEVICEBENCH_DATA"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "devicebench", "cifar-10-batches-bin")


def default_cache_dir():
    if os.environ.get("DEVICEBENCH_AIRBENCH_CACHE"):
        return os.environ["DEVICEBENCH_AIRBENCH_CACHE"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "devicebench", "airbench-cifar10")


def parse_arguments(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", default=default_data_dir(),
                   help="CIFAR-10's binary files (default: $DEVICEBENCH_DATA, else "
                        "$XDG_CACHE_HOME/devicebench/cifar-10-batches-bin)")
    p.add_argument("--cache-dir", default=default_cache_dir(),
                   help="where train.pt/test.pt for airbench's CifarLoader are written, in a "
                        "subfolder named by the data's SHA-256 "
                        "(default: $DEVICEBENCH_AIRBENCH_CACHE, else "
                        "$XDG_CACHE_HOME/devicebench/airbench-cifar10)")
    p.add_argument("--train-images", type=int, default=0, help="the first N (0: all 50,000)")
    p.add_argument("--test-images", type=int, default=0, help="the first N (0: all 10,000)")
    p.add_argument("--dtype", default="auto", choices=["auto", "float16", "bfloat16", "float32"],
                   help="the package's half: auto = float16 on CUDA, bfloat16 on a CPU with "
                        "AMX/AVX-512-BF16, else float32")
    p.add_argument("--train-epochs", type=float, default=ab94.hyp["opt"]["train_epochs"],
                   help="the schedule's length, train94's `epochs` (9.9)")
    p.add_argument("--epoch-tta-level", type=int, default=0, choices=[0, 1, 2],
                   help="TTA of the evaluation after every epoch but the last (the package's "
                        "val_acc: 0); the last uses the package's tta_level (2)")
    p.add_argument("--warmup-steps", type=int, default=1,
                   help="untimed forward+backward passes on a copy of the net before epoch 1")
    return p.parse_args(argv)


# -- data: airbench's train.pt / test.pt from the binary files ---------------------------------

def read_binary(folder, names):
    """(images uint8 N x 32 x 32 x 3, HWC like torchvision's dataset.data; labels int64 N)."""
    raw = bytearray()
    for name in names:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            data = f.read()
        if not data or len(data) % RECORD_BYTES:
            raise ValueError("%s is not a whole number of CIFAR-10 records" % path)
        raw += data
    records = torch.frombuffer(raw, dtype=torch.uint8).view(-1, RECORD_BYTES)
    images = records[:, 1:].reshape(-1, 3, 32, 32).permute(0, 2, 3, 1).contiguous()
    return images, records[:, 0].long().clone()


def data_digest(data_dir):
    """The first 16 hex digits of the SHA-256 of the six binary files: names the cache's
    subfolder, so that other data (another copy, another order) never reuse these tensors."""
    missing = [n for n in TRAIN_FILES + [TEST_FILE]
               if not os.path.isfile(os.path.join(data_dir, n))]
    if missing:
        raise FileNotFoundError(
            "CIFAR-10's binary files are not in %s (missing %s): give "
            "--script-arg=--data-dir=DIR or $DEVICEBENCH_DATA, or get them with "
            "`devicebench-cli fetch-data`" % (data_dir, ", ".join(missing)))
    digest = hashlib.sha256()
    for name in TRAIN_FILES + [TEST_FILE]:
        with open(os.path.join(data_dir, name), "rb") as f:
            for block in iter(lambda: f.read(1 << 22), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


def ensure_cached(data_dir, cache_root):
    """cache_root/<data digest>/ with train.pt and test.pt (the dicts CifarLoader reads),
    written when missing; returns that folder."""
    cache_dir = os.path.join(cache_root, data_digest(data_dir))
    expected = {"train.pt": (TRAIN_FILES, 50000), "test.pt": ([TEST_FILE], 10000)}
    os.makedirs(cache_dir, exist_ok=True)
    for pt, (names, count) in expected.items():
        path = os.path.join(cache_dir, pt)
        if os.path.exists(path):
            continue
        images, labels = read_binary(data_dir, names)
        if len(labels) != count:
            raise ValueError("%s holds %d images, CIFAR-10's %s has %d"
                             % (data_dir, len(labels), pt, count))
        tmp = "%s.tmp-%d" % (path, os.getpid())
        torch.save({"images": images, "labels": labels, "classes": list(CLASSES)}, tmp)
        os.replace(tmp, path)  # atomic: another run sees the whole file or none
        print("airbench_reference: wrote %s from %s" % (path, data_dir), file=sys.stderr)
    return cache_dir


def make_loader(cache_dir, train, device, dtype, count):
    """The package's CifarLoader on `device`, its images in `dtype` (change 1), the first
    `count` images kept (change 8)."""
    if train:
        loader = abu.CifarLoader(cache_dir, train=True, batch_size=ab94.hyp["opt"]["batch_size"],
                                 aug=ab94.hyp["aug"], altflip=True, gpu=device)
    else:  # as utils.train makes its test loader
        loader = abu.CifarLoader(cache_dir, train=False, batch_size=2000, gpu=device)
    if dtype != torch.half:  # the package's own expression, with `dtype` in place of half
        data = torch.load(os.path.join(cache_dir, "train.pt" if train else "test.pt"),
                          map_location=device)
        loader.images = (data["images"].to(dtype) / 255).permute(0, 3, 1, 2).to(
            memory_format=torch.channels_last)
    if count > 0:
        loader.images, loader.labels = loader.images[:count], loader.labels[:count]
    return loader


# -- the network: make_net94 with the device and dtype (change 1) -------------------------------

def make_net94(device, dtype, widths=ab94.hyp["net"]["widths"],
               batchnorm_momentum=ab94.hyp["net"]["batchnorm_momentum"]):
    whiten_kernel_size = 2
    whiten_width = 2 * 3 * whiten_kernel_size**2
    net = nn.Sequential(
        ab94.Conv(3, whiten_width, whiten_kernel_size, padding=0, bias=True),
        nn.GELU(),
        ab94.ConvGroup(whiten_width,     widths["block1"], batchnorm_momentum),
        ab94.ConvGroup(widths["block1"], widths["block2"], batchnorm_momentum),
        ab94.ConvGroup(widths["block2"], widths["block3"], batchnorm_momentum),
        nn.MaxPool2d(3),
        ab94.Flatten(),
        nn.Linear(widths["block3"], 10, bias=False),
        ab94.Mul(ab94.hyp["net"]["scaling_factor"]),
    )
    net[0].weight.requires_grad = False
    net = net.to(dtype).to(device)  # the package: net.half().cuda()
    net = net.to(memory_format=torch.channels_last)
    for mod in net.modules():
        if isinstance(mod, ab94.BatchNorm):
            mod.float()
    return net


class LookaheadState(abu.LookaheadState):
    """The package's, with bfloat16 among the dtypes it averages (change 2)."""

    def update(self, net, decay):
        for ema_param, net_param in zip(self.net_ema.values(), net.state_dict().values()):
            if net_param.dtype in (torch.half, torch.float, torch.bfloat16):
                ema_param.lerp_(net_param, 1-decay)
                net_param.copy_(ema_param)


def cpu_has_bf16():
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(f.read().split())
    except OSError:
        return False
    return bool(flags & {"amx_bf16", "avx512_bf16"})


def choose_dtype(device, asked):
    if asked != "auto":
        return getattr(torch, asked)
    if device.startswith("cuda"):
        return torch.half
    if device == "cpu" and cpu_has_bf16():
        try:  # the loader's reflect padding: torch 1.13 (Debian's) has none in bfloat16
            F.pad(torch.zeros(1, 1, 4, 4, dtype=torch.bfloat16), (2,) * 4, "reflect")
        except RuntimeError as error:
            print("airbench_reference: float32, not bfloat16: this torch (%s) cannot pad "
                  "bfloat16 (%s)" % (torch.__version__, error), file=sys.stderr)
            return torch.float32
        return torch.bfloat16
    return torch.float32


# -- training: utils.train's recipe, its loop under DeviceBench ---------------------------------

class Recipe:
    """utils.train's set-up, as the package writes it (hyper-parameters from hyp: train94's
    defaults), split from its loop so that the loop can be timed by DeviceBench and a step
    timed alone (time_steps.py)."""

    def __init__(self, train_loader, device, dtype, epochs=ab94.hyp["opt"]["train_epochs"]):
        h = ab94.hyp
        label_smoothing, learning_rate = h["opt"]["label_smoothing"], h["opt"]["lr"]
        bias_scaler, momentum = h["opt"]["bias_scaler"], h["opt"]["momentum"]
        weight_decay = h["opt"]["weight_decay"]
        self.whiten_bias_epochs = h["opt"]["whiten_bias_epochs"]
        self.tta_level = h["net"]["tta_level"]
        self.train_loader, self.epochs = train_loader, epochs
        train_loader.epoch = 0

        batch_size = train_loader.batch_size
        self.batch_size = batch_size
        kilostep_scale = 1024 * (1 + 1 / (1 - momentum))
        lr = learning_rate / kilostep_scale  # un-decoupled learning rate for PyTorch SGD
        wd = weight_decay * batch_size / kilostep_scale
        lr_biases = lr * bias_scaler

        self.loss_fn = nn.CrossEntropyLoss(label_smoothing=label_smoothing, reduction="none")
        self.total_train_steps = math.ceil(len(train_loader) * epochs)

        self.model = model = make_net94(device, dtype)
        self.current_steps = 0

        norm_biases = [p for k, p in model.named_parameters() if "norm" in k and p.requires_grad]
        other_params = [p for k, p in model.named_parameters()
                        if "norm" not in k and p.requires_grad]
        param_configs = [dict(params=norm_biases, lr=lr_biases, weight_decay=wd/lr_biases),
                         dict(params=other_params, lr=lr, weight_decay=wd/lr)]
        self.optimizer = torch.optim.SGD(param_configs, momentum=momentum, nesterov=True)

        def triangle(steps, start=0, end=0, peak=0.5):
            xp = torch.tensor([0, int(peak * steps), steps])
            fp = torch.tensor([start, 1, end])
            x = torch.arange(1+steps)
            m = (fp[1:] - fp[:-1]) / (xp[1:] - xp[:-1])
            b = fp[:-1] - (m * xp[:-1])
            indices = torch.sum(torch.ge(x[:, None], xp[None, :]), 1) - 1
            indices = torch.clamp(indices, 0, len(m) - 1)
            return m[indices] * x + b[indices]
        lr_schedule = triangle(self.total_train_steps, start=0.2, end=0.07, peak=0.23)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer,
                                                           lambda i: lr_schedule[i])

        self.alpha_schedule = 0.95**5 * (torch.arange(self.total_train_steps+1)
                                         / self.total_train_steps)**3
        self.lookahead_state = LookaheadState(model)

    def init_whitening(self):
        # Initialize the whitening layer using training images
        train_images = self.train_loader.normalize(self.train_loader.images[:5000])
        abu.init_whitening_conv(self.model[0], train_images)

    def start_epoch(self, epoch):
        """epoch: the package's, from 0."""
        self.model[0].bias.requires_grad = (epoch < self.whiten_bias_epochs)
        self.model.train()

    def step(self, inputs, labels):
        """One step of the package's loop; returns (loss sum, done: the schedule's end)."""
        model, optimizer = self.model, self.optimizer
        outputs = model(inputs)
        loss = self.loss_fn(outputs, labels).sum()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        self.scheduler.step()

        self.current_steps += 1

        if self.current_steps % 5 == 0:
            self.lookahead_state.update(model, decay=self.alpha_schedule[self.current_steps].item())

        if self.current_steps >= self.total_train_steps:
            if self.lookahead_state is not None:
                self.lookahead_state.update(model, decay=1.0)
            return loss, True
        return loss, False

    def evaluate(self, test_loader, tta_level):
        """(accuracy as utils.evaluate computes it, mean cross-entropy of the same logits)."""
        logits = abu.infer(self.model, test_loader, tta_level)
        accuracy = (logits.argmax(1) == test_loader.labels).float().mean()
        loss = F.cross_entropy(logits.float(), test_loader.labels)
        return accuracy, loss


def warm_up(recipe, test_loader, steps):
    """Change 7: untimed first calls on a copy of the net; draws no random numbers."""
    if steps <= 0:
        return
    net = copy.deepcopy(recipe.model)
    loader = recipe.train_loader
    inputs = loader.normalize(loader.images[:loader.batch_size])
    labels = loader.labels[:loader.batch_size]
    net.train()
    for _ in range(steps):
        recipe.loss_fn(net(inputs), labels).sum().backward()
    net.eval()
    with torch.no_grad():
        net(test_loader.normalize(test_loader.images[:2000]))
    del net


def main(argv=None):
    args = parse_arguments(argv)
    run = devicebench.run(model="airbench94", batch_size=ab94.hyp["opt"]["batch_size"])
    device = run.device
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError("--device %s: this torch (%s) sees no CUDA device"
                           % (device, torch.__version__))
    dtype = choose_dtype(device, args.dtype)
    passes = math.ceil(args.train_epochs)  # the package's `for epoch in range(ceil(epochs))`
    asked = int(run.asked_epochs or passes) if run.active else passes
    if asked > passes:
        raise ValueError("airbench94's schedule (--train-epochs %g) is %d passes of the data; "
                         "DeviceBench asks %d epochs: give --epochs %d or fewer"
                         % (args.train_epochs, passes, asked, passes))
    if asked < passes:
        print("airbench_reference: %d of the schedule's %d passes (the schedule stays the %g-"
              "epoch one); the last is evaluated with the TTA" % (asked, passes,
                                                                 args.train_epochs),
              file=sys.stderr)
    print("airbench_reference: device %s, dtype %s, torch %s, threads %d"
          % (device, str(dtype).replace("torch.", ""), torch.__version__,
             torch.get_num_threads()), file=sys.stderr)

    cache_dir = ensure_cached(args.data_dir, args.cache_dir)
    train_loader = make_loader(cache_dir, True, device, dtype, args.train_images)
    test_loader = make_loader(cache_dir, False, device, dtype, args.test_images)
    if len(train_loader) == 0:
        raise ValueError("--train-images %d is less than one batch of %d"
                         % (len(train_loader.images), train_loader.batch_size))

    recipe = Recipe(train_loader, device, dtype, epochs=args.train_epochs)
    run.set_model(recipe.model)
    warm_up(recipe, test_loader, args.warmup_steps)

    done = False
    for epoch in run.epochs(passes):  # DeviceBench's epoch = one pass of the package's loop
        if epoch == 1:
            recipe.init_whitening()  # timed, as the package times it
        recipe.start_epoch(epoch - 1)
        for inputs, labels in train_loader:
            loss, done = recipe.step(inputs, labels)
            run.step(loss.detach() / len(labels))  # the package's train_loss: per image
            if done:
                break
        last = done or epoch == asked
        level = recipe.tta_level if last else args.epoch_tta_level
        accuracy, test_loss = recipe.evaluate(test_loader, level)
        run.test(loss=test_loss, accuracy=accuracy)
        if not run.active or last:
            print("airbench_reference: epoch %d, steps %d, tta_level %d: test accuracy %.4f"
                  % (epoch, recipe.current_steps, level, float(accuracy)), file=sys.stderr)


if __name__ == "__main__":
    main()
