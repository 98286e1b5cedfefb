#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the article's own script (../shared/reference/article_script.py) unchanged, with the
thread count set and, where the `tensorboard` package is missing, a stand-in SummaryWriter;
then prints each epoch's time at full precision.

usage: run-article-script.py [--script PATH] [--threads N] [--tensorboard auto|real|shim]
                             ROOT EPOCHS DEVICE LOGDIR

ROOT, EPOCHS, DEVICE, LOGDIR go to the script as its own arguments (ROOT holds
cifar-10-batches-py/, made by bench/make-cifar10-py.py).
--threads N   torch.set_num_threads(N) before the script runs (0, the default, leaves
              PyTorch's own choice); the script itself never sets it.
--tensorboard real: the script's own `from torch.utils.tensorboard import SummaryWriter`
              (needs the PyPI `tensorboard` package); shim: a stand-in writer that does what
              the real one costs the training loop (each add_scalar turns its value into a
              Python float, which for a tensor on a GPU waits for the device, as the real
              writer does) and writes "tag step value" lines to LOGDIR/scalars.txt instead of
              event files; auto (default): real when tensorboard is importable, else shim.
Prints, after the script's own output:
  article-script torch T torchvision V threads N tensorboard real|shim device D
                 cudnn.allow_tf32 B cuda.matmul.allow_tf32 B cudnn.benchmark B
  epoch K seconds S test_loss_sum L
where S is the script's own epoch time (time.time() around the training and test passes,
read from its epoch_time_list) and L its loss_total (sum of per-batch mean test losses),
known only for the last epoch (earlier epochs print nan).
"""

import argparse
import importlib.util
import os
import runpy
import sys
import types

DEFAULT_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                              "shared", "reference", "article_script.py")


class ShimSummaryWriter:
    """Stand-in for torch.utils.tensorboard.SummaryWriter: add_scalar and close only, which
    is all the article's script calls."""

    def __init__(self, log_dir=None, *args, **kwargs):
        os.makedirs(log_dir or "runs", exist_ok=True)
        self._file = open(os.path.join(log_dir or "runs", "scalars.txt"), "w", encoding="utf-8")

    def add_scalar(self, tag, scalar_value, global_step=None, *args, **kwargs):
        value = float(scalar_value)  # a device tensor: waits for the device, like the real one
        self._file.write(f"{tag} {global_step} {value!r}\n")

    def flush(self):
        self._file.flush()

    def close(self):
        self._file.close()


def install_shim():
    module = types.ModuleType("torch.utils.tensorboard")
    module.SummaryWriter = ShimSummaryWriter
    sys.modules["torch.utils.tensorboard"] = module


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    parser.add_argument("--script", default=os.path.normpath(DEFAULT_SCRIPT))
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--tensorboard", choices=["auto", "real", "shim"], default="auto")
    parser.add_argument("root")
    parser.add_argument("epochs", type=int)
    parser.add_argument("device")
    parser.add_argument("logdir")
    args = parser.parse_args()
    if not os.path.isfile(args.script):
        print(f"run-article-script: the article's script is not at {args.script} (--script)",
              file=sys.stderr)
        return 2
    import torch
    import torchvision

    have_tensorboard = importlib.util.find_spec("tensorboard") is not None
    if args.tensorboard == "real" and not have_tensorboard:
        print(f"run-article-script: {sys.executable} has no tensorboard package "
              "(pip install tensorboard, or --tensorboard shim)", file=sys.stderr)
        return 2
    mode = "real" if args.tensorboard == "real" or (args.tensorboard == "auto" and
                                                    have_tensorboard) else "shim"
    if mode == "shim":
        install_shim()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    sys.argv = [args.script, args.root, str(args.epochs), args.device, args.logdir]
    scope = runpy.run_path(args.script, run_name="__main__")
    times = scope["epoch_time_list"]
    last_loss = float(scope["loss_total"])
    print(f"article-script torch {torch.__version__} torchvision {torchvision.__version__} "
          f"threads {torch.get_num_threads()} tensorboard {mode} device {args.device} "
          f"cudnn.allow_tf32 {torch.backends.cudnn.allow_tf32} "
          f"cuda.matmul.allow_tf32 {torch.backends.cuda.matmul.allow_tf32} "
          f"cudnn.benchmark {torch.backends.cudnn.benchmark}")
    for k, seconds in enumerate(times, start=1):
        loss = last_loss if k == len(times) else float("nan")
        print(f"epoch {k} seconds {seconds:.6f} test_loss_sum {loss:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
