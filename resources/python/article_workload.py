#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The published article's training script as a DeviceBench workload (--workload article-script).

DeviceBench runs this program in a child Python process. It trains exactly what the article's
script (shared/reference/article_script.py) times, epoch for epoch, and reports on stdout one
JSON event line per line (started, steps, epoch, ended; docs/article-workload.md). Everything
else it says goes to stderr. What differs from the published script is marked CHANGED.
With --turns (interleaved runs) it waits for a line "take" on stdin before its set-up and
before each epoch, and hands the turn back with a "pass" line after its set-up and each epoch
but the last; the end of stdin counts as a stop.

usage:
  article_workload.py --data-dir BIN_DIR --cache-dir DIR --device cpu|cuda|cuda:N --threads N
      --epochs N --batch-size N --lr X --seed N --warmup-epochs N
      [--train-images N] [--test-images N] [--logdir DIR] [--turns]
  article_workload.py --check [--device D]

Python 3.9+, the standard library, torch and torchvision (with its numpy); tensorboard when it
can be imported.
"""
import argparse
import hashlib
import json
import math
import os
import pickle
import platform
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback

# The event lines get the real stdout; anything else printed (the script's own messages,
# library warnings) goes to stderr, so that stdout holds nothing but events.
_EVENTS = sys.stdout
sys.stdout = sys.stderr

TRAIN_FILES = ["data_batch_%d.bin" % i for i in range(1, 6)]
TEST_FILE = "test_batch.bin"
IMAGE_BYTES = 3 * 32 * 32
RECORD_BYTES = 1 + IMAGE_BYTES
TRAIN_AVAILABLE = 50000
TEST_AVAILABLE = 10000
LABEL_NAMES = ["airplane", "automobile", "bird", "cat", "deer",
               "dog", "frog", "horse", "ship", "truck"]
CACHE_FOLDER = "cifar-10-batches-py"
MANIFEST = "devicebench-cache.json"
CHECK_UNUSABLE = 3


class Cancelled(Exception):
    """SIGTERM or SIGINT arrived during training; the run ends "cancelled"."""


class Diverged(Exception):
    """A loss that is not finite; the run ends "diverged"."""


class Stop:
    """What the signal handlers see. During training a signal only sets `requested`, read
    between steps. Before it (imports, the data cache, the model: seconds) the handler itself
    ends the program: it removes the half-made folders in `cleanup`, prints the "ended" line
    and exits, since an exception raised inside an import of torch's C++ code is not safe.
    In --check it just exits."""
    requested = ""
    phase = "set-up"  # "set-up", "training" or "check"
    cleanup = []


def stopped_during(epoch):
    """The reason of a stop inside an epoch, worded as DeviceBench's engine words it (its Stop
    is this SIGTERM; a Ctrl-C, SIGINT), with the signal named."""
    return "stopped by the user during epoch %d (%s)" % (epoch, Stop.requested)


def _on_signal(signum, _frame):
    Stop.requested = signal.Signals(signum).name
    if Stop.phase == "check":
        os._exit(CHECK_UNUSABLE)
    if Stop.phase == "set-up":
        for path in list(Stop.cleanup):
            shutil.rmtree(path, ignore_errors=True)
        emit({"event": "ended", "status": "cancelled",
              "reason": "stopped by %s before training began" % Stop.requested})
        os._exit(0)


def emit(event):
    """One event line, flushed. Numbers that are not finite become null (JSON has no NaN)."""
    _EVENTS.write(json.dumps(_finite(event), allow_nan=False) + "\n")
    _EVENTS.flush()


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


# ----------------------------------------------------------------------------------------------
# Turns (--turns): the parent of interleaved runs hands the turn from child to child


class Turns:
    """The child's side of the parent's turns (docs/child-runs.md). take() waits for a line
    "take" on stdin (other lines are ignored); hand_back() writes the "pass" line. Without
    --turns both do nothing. Waiting polls stdin in short slices, so a signal is seen within
    a slice: in set-up the handler ends the program itself; in training it sets
    Stop.requested, which take() turns into Cancelled. The end of stdin (the parent closed
    it) is a stop too."""
    POLL_SECONDS = 0.05

    def __init__(self, enabled):
        self.enabled = enabled
        self.pending = b""  # bytes read after the last whole line

    def take(self, before):
        """Returns once the turn is ours; `before` names what it is for ("the set-up",
        "epoch 3") in the reason of a stop."""
        if not self.enabled:
            return
        while not self._next_line_is_take(before):
            pass

    def hand_back(self):
        if self.enabled:
            emit({"event": "pass"})

    def _next_line_is_take(self, before):
        while b"\n" not in self.pending:
            if Stop.requested:
                raise Cancelled("stopped by %s before %s" % (Stop.requested, before))
            self.pending += self._read_some(before)
        line, self.pending = self.pending.split(b"\n", 1)
        return line.strip() == b"take"

    def _read_some(self, before):
        """What stdin holds now (b"" when nothing arrived within a slice)."""
        try:
            ready, _, _ = select.select([0], [], [], self.POLL_SECONDS)
            data = os.read(0, 4096) if ready else None
        except OSError as error:
            raise Cancelled("cannot read stdin before %s (%s): taken as a stop"
                            % (before, error))
        if data == b"":
            raise Cancelled("the parent closed stdin before %s" % before)
        return data or b""


# ----------------------------------------------------------------------------------------------
# The command line


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ValueError("bad command line: " + message)


def parse_args(argv):
    p = _Parser(prog="article_workload.py", add_help=True)
    p.add_argument("--check", action="store_true")
    p.add_argument("--data-dir")
    p.add_argument("--cache-dir")
    p.add_argument("--device")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--warmup-epochs", type=int, default=2)
    p.add_argument("--train-images", type=int, default=0)
    p.add_argument("--test-images", type=int, default=0)
    p.add_argument("--target-accuracy", type=float)  # percent: stop after the epoch reaching it
    p.add_argument("--logdir")
    p.add_argument("--turns", action="store_true")  # interleaved runs: wait for "take" lines
    args = p.parse_args(argv)
    if args.device is not None:
        check_device_name(args.device)  # a bad command line, also for --check
    if args.check:
        return args
    for name in ("data_dir", "cache_dir"):
        if not getattr(args, name):
            raise ValueError("bad command line: --%s is required" % name.replace("_", "-"))
    for name in ("epochs", "batch_size"):
        if getattr(args, name) < 1:
            raise ValueError("bad command line: --%s must be at least 1" % name.replace("_", "-"))
    for name in ("threads", "warmup_epochs", "train_images", "test_images", "seed"):
        if getattr(args, name) < 0:
            raise ValueError("bad command line: --%s must not be negative"
                             % name.replace("_", "-"))
    if not (args.lr > 0 and math.isfinite(args.lr)):
        raise ValueError("bad command line: --lr must be a finite number above 0")
    target = args.target_accuracy
    if target is not None and not (math.isfinite(target) and 0 < target <= 100):
        raise ValueError("bad command line: --target-accuracy must be a percentage above 0 and "
                         "at most 100")
    return args


def is_cuda_device(device):
    return device == "cuda" or device.startswith("cuda:")


def check_device_name(device):
    if device == "cpu" or device == "cuda":
        return
    if device.startswith("cuda:") and device[5:].isdigit():
        return
    raise ValueError("bad command line: --device must be cpu, cuda or cuda:N (got %r)" % device)


# ----------------------------------------------------------------------------------------------
# --check and the imports


def matching_torchvision(torch_version):
    """The torchvision release made for a torch release: 1.13 -> 0.14, 2.1 -> 0.16."""
    try:
        major, minor = (int(x) for x in torch_version.split("+")[0].split(".")[:2])
    except ValueError:
        return ""
    if major == 1:
        return "0.%d" % (minor + 1)
    if major == 2:
        return "0.%d" % (minor + 15)
    return ""


def probe_modules():
    """What this interpreter can import, without letting a failing import end the program."""
    found = {"torch": None, "torchvision": None, "errors": {}}
    for name in ("torch", "torchvision"):
        try:
            module = __import__(name)
            found[name] = module
        except Exception as error:  # ImportError, or a torchvision built for another torch
            found["errors"][name] = "%s: %s" % (type(error).__name__, error)
    return found


def install_problem(found, device):
    """"" when torch and torchvision import (and CUDA works when asked for); else a sentence
    naming what is missing and how to install it."""
    torch = found["torch"]
    if torch is None:
        return ("torch cannot be imported (%s): apt install python3-torch python3-torchvision, "
                "or pip install torch torchvision" % found["errors"]["torch"])
    if found["torchvision"] is None:
        wanted = matching_torchvision(torch.__version__)
        pin = "==%s.*" % wanted if wanted else ""
        return ("torchvision cannot be imported (%s): apt install python3-torchvision, "
                "or pip install torchvision%s (the release matching torch %s)"
                % (found["errors"]["torchvision"], pin, torch.__version__))
    if device and is_cuda_device(device):
        if not torch.version.cuda:
            return ("this torch (%s) was built without CUDA: install a CUDA build of torch "
                    "(https://pytorch.org/get-started/locally/), or run on the cpu"
                    % torch.__version__)
        if not torch.cuda.is_available():
            return ("this torch (%s, CUDA %s) sees no GPU: torch.cuda.is_available() is false "
                    "(no NVIDIA driver, or no device visible)" % (torch.__version__,
                                                                 torch.version.cuda))
    return ""


def tensorboard_writer_class():
    """The article's SummaryWriter when torch.utils.tensorboard imports, else None."""
    try:
        from torch.utils.tensorboard import SummaryWriter
        return SummaryWriter
    except Exception:
        return None


def run_check(device):
    found = probe_modules()
    torch, torchvision = found["torch"], found["torchvision"]
    problem = install_problem(found, device)
    cuda_ok = False
    if torch is not None:
        try:
            cuda_ok = bool(torch.cuda.is_available())
        except Exception:
            cuda_ok = False
    emit({
        "python": platform.python_version(),
        "pythonExecutable": sys.executable,
        "torch": torch.__version__ if torch is not None else None,
        "torchvision": torchvision.__version__ if torchvision is not None else None,
        "cudaAvailable": cuda_ok,
        "cuda": (torch.version.cuda or "") if torch is not None else "",
        "tensorboard": torch is not None and tensorboard_writer_class() is not None,
        "missing": [name for name in ("torch", "torchvision") if found[name] is None],
        "problem": problem,
    })
    return CHECK_UNUSABLE if problem else 0


# ----------------------------------------------------------------------------------------------
# The data: torchvision's Python version of CIFAR-10, made once from the binary version


def read_binary_split(bin_dir, names):
    """[(name, labels list, uint8 array N x 3072)] of the binary files, checked."""
    import numpy as np
    split = []
    for name in names:
        path = os.path.join(bin_dir, name)
        if not os.path.isfile(path):
            raise RuntimeError("the data folder %s has no %s (the binary CIFAR-10 needs "
                               "data_batch_1..5.bin and test_batch.bin)" % (bin_dir, name))
        with open(path, "rb") as f:
            raw = f.read()
        if not raw or len(raw) % RECORD_BYTES:
            raise RuntimeError("%s has %d bytes, not a whole number of 3,073-byte CIFAR-10 "
                               "records" % (path, len(raw)))
        records = np.frombuffer(raw, dtype=np.uint8).reshape(-1, RECORD_BYTES)
        labels = records[:, 0]
        if int(labels.max()) > 9:
            raise RuntimeError("%s holds a label byte above 9; CIFAR-10 labels are 0-9" % path)
        split.append((name, labels.tolist(), np.ascontiguousarray(records[:, 1:])))
    return split


def source_key(bin_dir):
    """The cache's key: a hash of the binary files' names, sizes and modification times
    (nanoseconds), so a changed data folder gets a new cache without reading 180 MB."""
    digest = hashlib.sha256()
    for name in TRAIN_FILES + [TEST_FILE]:
        st = os.stat(os.path.join(bin_dir, name))
        digest.update(("%s %d %d\n" % (name, st.st_size, st.st_mtime_ns)).encode())
    return digest.hexdigest()[:16]


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def label_names(bin_dir):
    path = os.path.join(bin_dir, "batches.meta.txt")
    try:
        with open(path) as f:
            names = [line.strip() for line in f if line.strip()]
        return names if len(names) == 10 else LABEL_NAMES
    except OSError:
        return LABEL_NAMES


def write_python_version(bin_dir, folder):
    """The pickles torchvision's CIFAR10 reads, with the official dicts' keys. The keys are
    str, not bytes: torchvision loads with encoding="latin1" and indexes entry["data"], which
    is what the official (Python 2) pickles give it. Protocol 4 stores the arrays' bytes as
    they are (protocol 2 would inflate them by a third)."""
    batches = [("data_batch_%d" % i, "training batch %d of 5" % i, name)
               for i, name in enumerate(TRAIN_FILES, start=1)]
    batches.append(("test_batch", "testing batch 1 of 1", TEST_FILE))
    for out_name, batch_label, (name, labels, data) in zip(
            [b[0] for b in batches], [b[1] for b in batches],
            read_binary_split(bin_dir, [b[2] for b in batches])):
        entry = {"batch_label": batch_label, "labels": labels, "data": data,
                 "filenames": ["%s_%05d.png" % (out_name, i) for i in range(len(labels))]}
        with open(os.path.join(folder, out_name), "wb") as f:
            pickle.dump(entry, f, protocol=4)
    meta = {"num_cases_per_batch": 10000, "label_names": label_names(bin_dir),
            "num_vis": IMAGE_BYTES}
    with open(os.path.join(folder, "batches.meta"), "wb") as f:
        pickle.dump(meta, f, protocol=4)


def cache_is_valid(folder, key):
    """The manifest names this key, and every file it lists has its size and SHA-256."""
    try:
        with open(os.path.join(folder, MANIFEST)) as f:
            manifest = json.load(f)
        if manifest.get("key") != key or not manifest.get("files"):
            return False
        for name, want in manifest["files"].items():
            path = os.path.join(folder, name)
            if os.path.getsize(path) != want["size"] or file_sha256(path) != want["sha256"]:
                return False
        return True
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def remove_abandoned_builds(cache_dir):
    """Removes the half-made caches of programs that were killed while building one (their
    folder names ".building-<pid>-..." a process that is gone); those of running ones stay."""
    for name in os.listdir(cache_dir):
        parts = name.split("-")
        if not name.startswith(".building-"):
            continue
        pid = int(parts[1]) if len(parts) > 2 and parts[1].isdigit() else 0
        if pid > 0 and _process_exists(pid):
            continue
        shutil.rmtree(os.path.join(cache_dir, name), ignore_errors=True)


def _process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: running
        return True
    return True


def build_cache(bin_dir, cache_dir, key):
    """Writes the Python version into a temporary folder beside the cache and renames it into
    place, so a run never sees half a cache; the manifest is written last."""
    os.makedirs(cache_dir, exist_ok=True)
    remove_abandoned_builds(cache_dir)
    work = tempfile.mkdtemp(prefix=".building-%d-" % os.getpid(), dir=cache_dir)
    Stop.cleanup.append(work)
    try:
        fresh = os.path.join(work, CACHE_FOLDER)
        os.mkdir(fresh)
        write_python_version(bin_dir, fresh)
        files = {name: {"size": os.path.getsize(os.path.join(fresh, name)),
                        "sha256": file_sha256(os.path.join(fresh, name))}
                 for name in sorted(os.listdir(fresh))}
        with open(os.path.join(fresh, MANIFEST), "w") as f:
            json.dump({"key": key, "source": os.path.abspath(bin_dir), "files": files}, f,
                      indent=1)
        target = os.path.join(cache_dir, CACHE_FOLDER)
        if os.path.exists(target):
            os.rename(target, os.path.join(work, "old"))
        os.rename(fresh, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        Stop.cleanup.remove(work)


def ensure_cache(bin_dir, cache_dir):
    """cache_dir, holding a checked cifar-10-batches-py made from bin_dir (rebuilt when it is
    missing, of other data, truncated or corrupt). Returns (root, rebuilt)."""
    if os.path.exists(bin_dir) and not os.path.isdir(bin_dir):
        raise RuntimeError("the data folder %s is a file, not a folder" % bin_dir)
    if not os.path.isdir(bin_dir):
        raise RuntimeError("the data folder %s does not exist" % bin_dir)
    for name in TRAIN_FILES + [TEST_FILE]:
        if not os.path.isfile(os.path.join(bin_dir, name)):
            raise RuntimeError("the data folder %s has no %s (the binary CIFAR-10 needs "
                               "data_batch_1..5.bin and test_batch.bin)" % (bin_dir, name))
    key = source_key(bin_dir)
    folder = os.path.join(cache_dir, CACHE_FOLDER)
    if cache_is_valid(folder, key):
        return cache_dir, False
    print("making %s from %s" % (folder, bin_dir), file=sys.stderr)
    build_cache(bin_dir, cache_dir, key)
    if not cache_is_valid(folder, key):
        raise RuntimeError("the converted data in %s did not check out after writing" % folder)
    return cache_dir, True


# ----------------------------------------------------------------------------------------------
# The run


class NoOpWriter:
    """Stands in for SummaryWriter when tensorboard cannot be imported: the same calls, no
    event files. It still reads each value to the host (float()), as SummaryWriter.add_scalar
    does, so the device synchronisations of the article's loop stay."""

    def __init__(self, logdir=None):
        self.logdir = logdir

    def add_scalar(self, tag, scalar_value, global_step=None):
        float(scalar_value)

    def close(self):
        pass


def start_device(torch, device_arg):
    """(torch.device, canonical name, device name, seconds of the first CUDA init)."""
    if not is_cuda_device(device_arg):
        return torch.device("cpu"), "cpu", "CPU", 0.0
    found = {"torch": torch, "torchvision": True, "errors": {}}
    problem = install_problem(found, device_arg)
    if problem:
        raise RuntimeError(problem)
    device = torch.device(device_arg)
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index >= torch.cuda.device_count():
        raise RuntimeError("there is no %s: this machine has %d CUDA device(s)"
                           % (device_arg, torch.cuda.device_count()))
    device = torch.device("cuda", index)
    began = time.perf_counter()
    torch.zeros(1, device=device)
    torch.cuda.synchronize(device)
    return device, "cuda:%d" % index, torch.cuda.get_device_name(device), \
        time.perf_counter() - began


def first_images(torch, dataset, count, split_name, where):
    """CHANGED: --train-images/--test-images N > 0 train and test on the first N images."""
    if count == 0:
        return dataset
    if count > len(dataset):
        raise RuntimeError("asked for %d %s images, but %s holds %d"
                           % (count, split_name, where, len(dataset)))
    return torch.utils.data.Subset(dataset, range(count))


def load_datasets(torch, torchvision, args):
    root, _ = ensure_cache(args.data_dir, args.cache_dir)
    # CHANGED: accept Python-version files rebuilt from the binary version (same data, other
    # bytes), as the reference does.
    torchvision.datasets.cifar.check_integrity = lambda *a, **k: True
    train_datasets = torchvision.datasets.CIFAR10(root=root, train=True,
                                                  transform=torchvision.transforms.ToTensor(),
                                                  download=False)  # CHANGED: was True
    test_datasets = torchvision.datasets.CIFAR10(root=root, train=False,
                                                 transform=torchvision.transforms.ToTensor(),
                                                 download=False)  # CHANGED: was True
    where = args.data_dir
    train_datasets = first_images(torch, train_datasets, args.train_images, "training", where)
    test_datasets = first_images(torch, test_datasets, args.test_images, "test", where)
    return root, train_datasets, test_datasets


def make_network(torch):
    nn = torch.nn

    # 定义网络 (the article's network, unchanged)
    class TX(nn.Module):
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
            output = self.model(input)
            return output

    return TX


def program_info(torch, torchvision, writer_class):
    note = ""
    if writer_class is None:
        note = ("torch.utils.tensorboard cannot be imported (no tensorboard package): the "
                "article's SummaryWriter calls go to a stand-in that reads each value but "
                "writes no event files")
    return {"python": platform.python_version(), "pythonExecutable": sys.executable,
            "torch": torch.__version__, "torchvision": torchvision.__version__,
            "cuda": torch.version.cuda or "",
            "cudnn": str(torch.backends.cudnn.version() or "") if torch.version.cuda else "",
            "tensorboard": writer_class is not None, "programNote": note}


def check_loss(value, step, epoch):
    if not math.isfinite(value):
        raise Diverged("training loss became %s at step %d (epoch %d); lower the learning rate"
                       % (value, step, epoch))


def run_epochs(torch, s):
    """The article's loop (its timed region), epoch for epoch. `s` holds what was set up."""
    tx, device, loss_function, optimizer, write = s.tx, s.device, s.loss_function, \
        s.optimizer, s.write
    train_loader, test_loader = s.train_loader, s.test_loader
    train_total_step = 0
    test_total_step = 0
    for i in range(s.args.epochs):
        s.turns.take("epoch %d" % (i + 1))  # CHANGED: --turns waits here, outside the epoch
        started_unix = time.time()  # CHANGED: reported as the epoch's startedUnixSeconds
        start_time = time.time()
        print(f"-----------第{i + 1}轮训练开始-----------")  # CHANGED: to stderr
        loss_sum = 0  # CHANGED: the epoch's summed step losses (a tensor on the device)
        for data in train_loader:
            if Stop.requested:  # CHANGED: SIGTERM/SIGINT end the run between steps
                raise Cancelled(stopped_during(i + 1))
            imgs, targets = data
            imgs = imgs.to(device)
            targets = targets.to(device)
            output = tx(imgs)
            loss = loss_function(output, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_sum = loss_sum + loss.detach()  # CHANGED: for the epoch's trainLoss
            train_total_step = train_total_step + 1
            if train_total_step % 100 == 0:
                value = loss.item()
                print(f"训练次数{train_total_step},损失为{value}")  # CHANGED: to stderr
                write.add_scalar("train_loss", loss, train_total_step)
                # CHANGED: the step's loss as an event line
                emit({"event": "steps",
                      "steps": [{"epoch": i + 1, "step": train_total_step, "loss": value}]})
                check_loss(value, train_total_step, i + 1)

        test_start = time.time()  # CHANGED: the evaluation's part of the epoch (testSeconds)
        with torch.no_grad():
            loss_total = 0
            loss_images = 0  # CHANGED: summed per-image cross-entropy, for testLoss
            correct = 0  # CHANGED: correct predictions, for testAccuracy
            for data in test_loader:
                if Stop.requested:  # CHANGED: as in training
                    raise Cancelled(stopped_during(i + 1))
                img, target = data
                img = img.to(device)
                target = target.to(device)
                outputs = tx(img)
                loss = loss_function(outputs, target)
                loss_total = loss_total + loss
                loss_images = loss_images + loss * target.shape[0]  # CHANGED
                correct = correct + (outputs.argmax(1) == target).sum()  # CHANGED
                test_total_step = test_total_step + 1
                write.add_scalar("test_loss", loss, test_total_step)
            print(f"测试集损失{loss_total.item()}")  # CHANGED: to stderr

        end_time = time.time()
        one_epoch_time = end_time - start_time
        print(f"第{i + 1}轮训练结束时间消耗为{one_epoch_time:.2f}秒")  # CHANGED: to stderr
        times = (one_epoch_time, end_time - test_start, started_unix)
        if report_epoch(s, i + 1, times, float(loss_sum), float(loss_images), int(correct),
                        train_total_step):
            break  # CHANGED: --target-accuracy reached: the run's work is done


def reaches_target(accuracy, target):
    """Whether a test accuracy (a fraction) reaches a target in percent, as the engine says."""
    return target is not None and accuracy * 100.0 >= target - 1e-9


def report_epoch(s, epoch, times, loss_sum, loss_images, correct, step):
    """CHANGED: the epoch's results as an event line (outside its time); a training or test
    loss that is not finite then ends the run as diverged. True when the epoch reached the
    target accuracy (--target-accuracy), after which no epoch follows."""
    seconds, test_seconds, started_unix = times
    train_loss = loss_sum / s.steps_per_epoch
    test_loss = loss_images / s.test_images
    accuracy = correct / s.test_images
    emit({"event": "epoch", "epoch": {
        "epoch": epoch, "seconds": seconds, "testSeconds": min(test_seconds, seconds),
        "warmup": epoch <= s.args.warmup_epochs,
        "trainLoss": train_loss, "testLoss": test_loss,
        "testAccuracy": accuracy,
        "imagesPerSecond": (s.train_images + s.test_images) / seconds if seconds > 0 else None,
        "startedUnixSeconds": started_unix}})
    if not math.isfinite(train_loss):
        raise Diverged("training loss became %s in epoch %d (its mean over the epoch's %d "
                       "steps, up to step %d); lower the learning rate"
                       % (train_loss, epoch, s.steps_per_epoch, step))
    if not math.isfinite(test_loss):
        raise Diverged("test loss became %s in epoch %d; lower the learning rate"
                       % (test_loss, epoch))
    reached = reaches_target(accuracy, s.args.target_accuracy)
    if epoch < s.args.epochs and not reached:  # after the last, the "ended" line ends the turn
        s.turns.hand_back()
    return reached


class Setup:
    """What the loop needs, made before epoch 1."""


def set_up(torch, torchvision, args, turns):
    s = Setup()
    s.args = args
    s.turns = turns
    if args.threads > 0:
        torch.set_num_threads(args.threads)  # CHANGED: intra-op threads from the command line
    # 1. 创建设备 (CHANGED: from the command line; the first CUDA init timed on its own)
    s.device, device_name, pretty_name, init_seconds = start_device(torch, args.device)
    root, train_datasets, test_datasets = load_datasets(torch, torchvision, args)
    DataLoader = torch.utils.data.DataLoader
    s.train_loader = DataLoader(dataset=train_datasets, batch_size=args.batch_size)
    s.test_loader = DataLoader(dataset=test_datasets, batch_size=args.batch_size)
    TX = make_network(torch)
    torch.manual_seed(args.seed)  # CHANGED: the same seed gives the same initial weights
    # 2. 模型迁移到GPU
    s.tx = TX().to(s.device)
    s.loss_function = torch.nn.CrossEntropyLoss()
    s.optimizer = torch.optim.SGD(s.tx.parameters(), lr=args.lr)  # CHANGED: lr was 0.01
    writer_class = tensorboard_writer_class()
    s.logdir = args.logdir or tempfile.mkdtemp(prefix="article-workload-tb-")  # CHANGED
    if not args.logdir:
        Stop.cleanup.append(s.logdir)
    s.write = (writer_class or NoOpWriter)(s.logdir)
    s.train_images, s.test_images = len(train_datasets), len(test_datasets)
    s.steps_per_epoch = -(-s.train_images // args.batch_size)
    Stop.phase = "training"  # from here a signal is read between steps
    emit({"event": "started", "started": {
        "device": device_name, "deviceName": pretty_name, "threads": torch.get_num_threads(),
        "trainImages": s.train_images, "testImages": s.test_images,
        "stepsPerEpoch": s.steps_per_epoch,
        "dataDescription": "%s (torchvision CIFAR10 from %s)"
                           % (os.path.abspath(os.path.join(root, CACHE_FOLDER)), args.data_dir),
        "synthetic": False, "deviceInitSeconds": init_seconds,
        "modelParameters": sum(p.numel() for p in s.tx.parameters() if p.requires_grad),
        "multiplyAddsPerImage": 0},
        "program": program_info(torch, torchvision, writer_class)})
    return s


def import_for_run():
    found = probe_modules()
    problem = install_problem(found, None)
    if problem:
        raise RuntimeError(problem)
    import torchvision.datasets  # noqa: F401  (the submodules the script uses)
    import torchvision.transforms  # noqa: F401
    import torch.utils.data  # noqa: F401
    return found["torch"], found["torchvision"]


def run(args):
    """Sets up, trains, and ends with one "ended" line whatever happens."""
    s = None
    args.device = args.device or "cpu"
    turns = Turns(args.turns)
    try:
        check_device_name(args.device)
        turns.take("the set-up")  # --turns: nothing is imported or made before the first turn
        torch, torchvision = import_for_run()
        s = set_up(torch, torchvision, args, turns)
        if Stop.requested:
            raise Cancelled("stopped by %s before training began" % Stop.requested)
        turns.hand_back()  # the set-up's turn ends after the "started" line
        run_epochs(torch, s)
        status, reason, code = "finished", "", 0
    except Cancelled as stop:
        status, reason, code = "cancelled", str(stop), 0
    except Diverged as stop:
        status, reason, code = "diverged", str(stop), 0
    except Exception as error:
        traceback.print_exc(file=sys.stderr)
        status, reason, code = "failed", str(error) or type(error).__name__, 1
    finally:
        Stop.phase = "training"
        close_writer(s, args)
    emit({"event": "ended", "status": status, "reason": reason})
    return code


def close_writer(s, args):
    if s is None or not hasattr(s, "write"):
        return
    try:
        s.write.close()
    finally:
        if not args.logdir:
            shutil.rmtree(s.logdir, ignore_errors=True)


def main(argv):
    if "--check" in argv:
        Stop.phase = "check"
    # Each way a run is asked to end: kill, Ctrl-C, a closed terminal, Ctrl-\\.
    for stop in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(stop, _on_signal)
    try:
        args = parse_args(argv)
    except ValueError as error:
        print(error, file=sys.stderr)
        if "--check" in argv:  # still one line for the caller to read
            emit({"python": platform.python_version(), "pythonExecutable": sys.executable,
                  "missing": [], "problem": str(error)})
            return CHECK_UNUSABLE
        emit({"event": "ended", "status": "failed", "reason": str(error)})
        return 2
    if args.check:
        return run_check(args.device)
    return run(args)


if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    except BrokenPipeError:  # the parent stopped reading: nothing left to tell
        os._exit(1)
    # The events are out and flushed, the writer closed: skip the interpreter's teardown (with
    # torch loaded it can take a second), so that a stopped run ends at once.
    sys.stderr.flush()
    os._exit(code)
