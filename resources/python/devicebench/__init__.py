# SPDX-License-Identifier: MIT
"""DeviceBench's module for your own training script (docs/YOUR-SCRIPT.md).

    import devicebench
    run = devicebench.run(model=net, batch_size=128, lr=optimizer)  # all optional
    for epoch in run.epochs(10):                        # one timed epoch each
        for x, y in loader:
            ...; run.step(loss, images=x)                # the step's loss; its batch
        run.test(loss=test_loss, accuracy=acc)           # optional

Run by DeviceBench (`devicebench-cli run --workload script --script FILE`), it reads the run's
settings from $DEVICEBENCH_RUN (JSON: device, threads, epochs, warmupEpochs, seed,
lossFetchInterval) and speaks DeviceBench's child-run protocol (docs/child-runs.md) on the
socket whose descriptor $DEVICEBENCH_CHANNEL_FD names, never on stdout, so that the script's
own prints and progress bars change nothing. It takes turns (a "take" line before the set-up
and before each epoch, a "pass" line after), synchronises the device before each clock read,
keeps step losses on the device and fetches them every lossFetchInterval steps, and ends the
run with one "ended" line whatever happens: finished, cancelled (SIGTERM, SIGINT, SIGHUP or
SIGQUIT, seen at the next step), diverged (a loss that is not finite) or failed (an exception:
its last traceback lines are the reason). Outside DeviceBench (no $DEVICEBENCH_CHANNEL_FD) it
does nothing: the epochs are counted, nothing is timed, fetched or written.

Python 3.8+, the standard library and torch (1.13 or later).
"""
import atexit
import json
import math
import os
import platform
import select
import signal
import sys
import time
import traceback

from ._described import (_count, _file_sha256, _images_of, _learning_rate, _local_files,
                         _script_path, _unwrap)

__all__ = ["run", "Run", "Stopped", "Diverged", "CHANNEL_VARIABLE", "SETTINGS_VARIABLE"]

CHANNEL_VARIABLE = "DEVICEBENCH_CHANNEL_FD"
SETTINGS_VARIABLE = "DEVICEBENCH_RUN"
TRACEBACK_LINES = 6  # the last lines of a traceback kept in the run's reason
POLL_SECONDS = 0.05


class Stopped(BaseException):
    """DeviceBench asked the run to stop (SIGTERM or SIGINT). A BaseException, like
    KeyboardInterrupt, so that a script's `except Exception` does not swallow it."""


class Diverged(BaseException):
    """A step's loss or the test loss is not a finite number: the run ends "diverged"."""


def _finite(value):
    """JSON has no NaN: numbers that are not finite become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


class _Channel:
    """The socket to DeviceBench: event lines out, "take" lines in. Only the process that
    opened it writes (forked DataLoader workers inherit the descriptor, and stay silent)."""

    def __init__(self, fd):
        self.fd = fd
        self.owner = os.getpid()
        self.pending = b""
        self.ended = False
        os.set_inheritable(fd, False)  # programs the script starts do not get it

    def emit(self, event):
        if os.getpid() != self.owner or self.ended:
            return
        if event.get("event") == "ended":
            self.ended = True
        data = (json.dumps(_finite(event), allow_nan=False) + "\n").encode()
        while data:
            try:
                data = data[os.write(self.fd, data):]
            except InterruptedError:
                continue
            except OSError:  # DeviceBench is gone: nobody reads the rest
                self.ended = True
                return

    def take(self, before):
        """Returns once DeviceBench gives the turn; Stopped on a signal or the socket's end."""
        while True:
            while b"\n" not in self.pending:
                if _State.signal:
                    raise Stopped("stopped by %s before %s" % (_State.signal, before))
                try:
                    ready, _, _ = select.select([self.fd], [], [], POLL_SECONDS)
                    data = os.read(self.fd, 4096) if ready else None
                except InterruptedError:
                    continue
                except OSError as error:
                    raise Stopped("cannot read DeviceBench's channel before %s (%s)"
                                  % (before, error))
                if data == b"":
                    raise Stopped("DeviceBench closed the channel before %s" % before)
                self.pending += data or b""
            line, self.pending = self.pending.split(b"\n", 1)
            if line.strip() == b"take":
                return


class _State:
    """The module's one run per process, and the signal that asked it to stop."""
    run = None
    channel = None
    signal = ""
    previous_hook = None


def _on_signal(signum, _frame):
    _State.signal = signal.Signals(signum).name


def _last_traceback_lines(kind, error, tb):
    lines = "".join(traceback.format_exception(kind, error, tb)).rstrip().splitlines()
    return "\n".join(lines[-TRACEBACK_LINES:])


def _excepthook(kind, error, tb):
    """An exception nobody caught ends the run with its reason, then Python prints it."""
    channel = _State.channel
    current = _State.run
    if current is not None and current.epoch_count and current.done == current.epoch_count:
        _at_exit()  # the timed run was over: it finished, whatever the script did after it
    elif channel is not None and not channel.ended:
        if issubclass(kind, Stopped):
            status, reason = "cancelled", str(error)
        elif _State.signal:  # e.g. a DataLoader whose workers the same signal ended
            status = "cancelled"
            reason = "stopped by %s%s (the script then raised %s: %s)" % (
                _State.signal, " during epoch %d" % current.epoch if current else "",
                kind.__name__, error)
        elif issubclass(kind, Diverged):
            status, reason = "diverged", str(error)
        else:
            status = "failed"
            reason = "the script raised %s: %s; the last lines of its traceback:\n%s" % (
                kind.__name__, error, _last_traceback_lines(kind, error, tb))
        channel.emit({"event": "ended", "status": status, "reason": reason})
    (_State.previous_hook or sys.__excepthook__)(kind, error, tb)


def _at_exit():
    """A script that ends without finishing its epochs: the run fails, saying where."""
    channel = _State.channel
    if channel is None or channel.ended:
        return
    current = _State.run
    if current is None:
        reason = "the script ended without calling devicebench.run()"
    elif current.done == 0 and not current.started:
        reason = "the script ended before its first epoch (it never iterated run.epochs())"
    elif current.done < current.epoch_count and not current.reached:
        reason = "the script ended after %d of its %d epochs" % (current.done,
                                                                current.epoch_count)
    else:
        channel.emit({"event": "ended", "status": "finished", "reason": ""})
        return
    channel.emit({"event": "ended", "status": "failed", "reason": reason})


def _die_with_parent():
    """Linux: SIGTERM when DeviceBench dies (even killed), so the run stops at its next step
    rather than training on as an orphan; elsewhere the closed channel stops it at its next turn."""
    parent = os.getppid()
    try:
        import ctypes
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before prctl took effect
        _State.signal = "SIGTERM"


def _connect():
    """Under DeviceBench: the channel, the signal handlers and the exit hooks, once."""
    if _State.channel is not None or CHANNEL_VARIABLE not in os.environ:
        return _State.channel
    try:
        fd = int(os.environ[CHANNEL_VARIABLE])
        os.fstat(fd)
    except (ValueError, OSError) as error:
        raise RuntimeError("$%s is %r, not an open descriptor (%s)"
                           % (CHANNEL_VARIABLE, os.environ[CHANNEL_VARIABLE], error))
    _State.channel = _Channel(fd)
    try:  # each way a run is asked to end: kill, Ctrl-C, a closed terminal, Ctrl-\\
        for stop in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(stop, _on_signal)
    except ValueError:  # not the main thread: DeviceBench kills the group after a second
        pass
    _die_with_parent()
    _State.previous_hook = sys.excepthook
    sys.excepthook = _excepthook
    atexit.register(_at_exit)
    return _State.channel


def _settings():
    text = os.environ.get(SETTINGS_VARIABLE, "{}")
    try:
        settings = json.loads(text)
    except ValueError as error:
        raise RuntimeError("$%s is not JSON (%s): %r" % (SETTINGS_VARIABLE, error, text[:200]))
    if not isinstance(settings, dict):
        raise RuntimeError("$%s is not a JSON object: %r" % (SETTINGS_VARIABLE, text[:200]))
    return settings


def _number(value, what):
    """A loss or an accuracy as a host float (reads a tensor: after the epoch's clock)."""
    if hasattr(value, "detach"):
        if value.numel() != 1:
            raise ValueError("%s must be one number, got a tensor of shape %s"
                             % (what, tuple(value.shape)))
        return float(value.detach().reshape(()).item())
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s must be a number or a one-element tensor, got %s"
                        % (what, type(value).__name__))
    return float(value)


def run(model=None, batch_size=None, lr=None):
    """The run of this script: one per process (a second call returns the first). `model`:
    the model's name (str) or the torch.nn.Module itself (the class it wraps, if any, named:
    DataParallel, DistributedDataParallel, torch.compile; its trainable parameters counted);
    `batch_size`: images per step as the script sets it; `lr`: the learning rate, a number or
    the optimizer (its first group's rate at the start). What is not given is "not stated"."""
    if _State.run is None:
        _State.run = Run(model, batch_size, lr)
    return _State.run


_connect()  # at import: a script that never calls run() still ends its run saying so


class Run:
    """One timed run. Use devicebench.run(), not this class, so that a script has one."""

    def __init__(self, model=None, batch_size=None, lr=None):
        import torch
        self._torch = torch
        self.channel = _connect()
        settings = _settings() if self.channel is not None else {}
        self.active = self.channel is not None
        default = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = settings.get("device", default)
        self.seed = int(settings.get("seed", 0))
        self.threads = int(settings.get("threads", 0))
        self.warmup_epochs = int(settings.get("warmupEpochs", 0))
        self.fetch_interval = max(1, int(settings.get("lossFetchInterval", 50)))
        self.asked_epochs = settings.get("epochs")
        self.target = settings.get("targetAccuracy")  # percent; the loop ends when reached
        self.batch_size = _count(batch_size, "devicebench.run(batch_size=)")
        self.lr = _learning_rate(lr)
        self.model_name, self.wrapper, self.parameters = "", "", 0
        self.set_model(model)
        self.epoch_count, self.done, self.started, self.epoch = 0, 0, False, 0
        self.reached = False  # the target accuracy was reached: the run ends finished
        self._step, self._pending, self._epoch_losses = 0, [], []
        self._epoch_steps, self._epoch_images = 0, 0  # images None: a step without a count
        self._test = (None, None)
        if self.active:
            if self.threads > 0:
                torch.set_num_threads(self.threads)
            torch.manual_seed(self.seed)
            self.channel.take("the set-up")

    def set_model(self, model):
        """The model's name (str) or module (what it wraps named, trainable parameters)."""
        if model is None:
            return
        if isinstance(model, str):
            self.model_name = model
            return
        inner, wrappers = _unwrap(model)
        self.model_name = self.model_name or type(inner).__name__  # a name given stays
        self.wrapper = ", ".join(wrappers)
        self.parameters = sum(p.numel() for p in inner.parameters() if p.requires_grad)

    def epochs(self, count):
        """Yields 1..count, each a timed epoch. Under DeviceBench the run's own epoch count
        (its --epochs) is used instead of `count`."""
        if not self.active:
            yield from range(1, count + 1)
            return
        if self.started:
            raise RuntimeError("run.epochs() was called a second time: a run has one loop")
        self.epoch_count = int(self.asked_epochs or count)
        if self.epoch_count != count:
            print("devicebench: training %d epochs, as DeviceBench asks (the script says %d)"
                  % (self.epoch_count, count), file=sys.stderr)
        self._start()
        for epoch in range(1, self.epoch_count + 1):
            self.channel.take("epoch %d" % epoch)
            self.epoch, self._epoch_losses, self._test = epoch, [], (None, None)
            self._epoch_steps, self._epoch_images = 0, 0
            started_unix = time.time()
            self._synchronize()
            began = time.perf_counter()
            yield epoch
            self._synchronize()
            seconds = time.perf_counter() - began
            if self._finish_epoch(epoch, seconds, started_unix):
                return  # the run's target accuracy reached: no further epoch

    def step(self, loss, images=None):
        """One training step's loss: a one-element tensor (kept on the device) or a number.
        `images`: the images the step trained on, a count or the batch itself (its first
        dimension); without it, the batch_size given to run(), else not counted."""
        if not self.active:
            return
        if _State.signal:
            raise Stopped("stopped by the user during epoch %d (%s)" % (self.epoch,
                                                                         _State.signal))
        if self.epoch == 0:
            raise RuntimeError("run.step() was called outside run.epochs()")
        if hasattr(loss, "detach"):
            if loss.numel() != 1:
                raise ValueError("run.step(loss): the loss must be one number, got a tensor "
                                 "of shape %s" % (tuple(loss.shape),))
            loss = loss.detach().reshape(())
        elif isinstance(loss, bool) or not isinstance(loss, (int, float)):
            raise TypeError("run.step(loss): the loss must be a number or a one-element "
                            "tensor, got %s" % type(loss).__name__)
        seen = _images_of(images) if images is not None else self.batch_size
        self._epoch_images = None if seen is None or self._epoch_images is None else \
            self._epoch_images + seen
        self._step += 1
        self._epoch_steps += 1
        self._pending.append((self._step, loss))
        if len(self._pending) >= self.fetch_interval:
            self._fetch()

    def test(self, loss=None, accuracy=None):
        """The epoch's test loss (mean cross-entropy) and accuracy (a fraction, 0 to 1);
        tensors are read after the epoch's clock stops."""
        if self.active:
            self._test = (loss, accuracy)

    # -- inside -------------------------------------------------------------------------------

    def _synchronize(self):
        if self.device.startswith("cuda"):
            self._torch.cuda.synchronize(self.device)
        elif self.device.startswith("mps") and hasattr(self._torch, "mps"):
            self._torch.mps.synchronize()

    def _fetch(self):
        """The pending losses to the host in one read, as one "steps" line."""
        if not self._pending:
            return
        values = [v for _, v in self._pending]
        tensors = [v for v in values if not isinstance(v, float)]
        if tensors:
            try:  # one read for all (one device synchronisation)
                fetched = self._torch.stack([t.float() for t in tensors]).tolist()
            except RuntimeError:  # tensors on several devices
                fetched = [float(t) for t in tensors]
            fetched = iter(fetched)
            values = [v if isinstance(v, float) else next(fetched) for v in values]
        steps = [{"epoch": self.epoch, "step": s, "loss": v}
                 for (s, _), v in zip(self._pending, values)]
        self._pending = []
        self._epoch_losses.extend(values)
        self.channel.emit({"event": "steps", "steps": steps})
        for s in steps:
            if not math.isfinite(s["loss"]):
                raise Diverged("training loss became %s at step %d (epoch %d)"
                               % (s["loss"], s["step"], s["epoch"]))

    def _start(self):
        torch = self._torch
        cuda = self.device.startswith("cuda")
        name = torch.cuda.get_device_name(self.device) if cuda else self.device.upper()
        device = self.device
        if cuda:  # canonical, as DeviceBench records devices: "cuda:0"
            index = torch.device(device).index
            device = "cuda:%d" % (torch.cuda.current_device() if index is None else index)
        script = _script_path()
        vision = sys.modules.get("torchvision")
        self.channel.emit({"event": "started", "started": {
            "device": device, "deviceName": name, "threads": torch.get_num_threads(),
            "trainImages": 0, "testImages": 0, "stepsPerEpoch": 0,
            "dataDescription": "the script's own data (%s)" % os.path.basename(script),
            "synthetic": False, "modelParameters": self.parameters,
            "multiplyAddsPerImage": 0, "modelName": self.model_name,
            "modelWrapper": self.wrapper, "batchSize": int(self.batch_size or 0),
            "learningRate": self.lr, "scriptFiles": _local_files(script)},
            "program": {
                "python": platform.python_version(), "pythonExecutable": sys.executable,
                "torch": torch.__version__,
                "torchvision": getattr(vision, "__version__", "") if vision else "",
                "cuda": torch.version.cuda or "",
                "cudnn": str(torch.backends.cudnn.version() or "") if torch.version.cuda else "",
                "tensorboard": False, "programNote": "",
                "script": os.path.basename(script), "scriptSha256": _file_sha256(script)}})
        self.started = True
        self.channel.emit({"event": "pass"})  # the set-up's turn ends

    def _finish_epoch(self, epoch, seconds, started_unix):
        self._fetch()
        if not self._epoch_losses:
            raise RuntimeError("epoch %d ended without a run.step(loss) call: DeviceBench "
                               "needs each training step's loss" % epoch)
        train_loss = sum(self._epoch_losses) / len(self._epoch_losses)
        test_loss, accuracy = (None if v is None else _number(v, what) for v, what in
                               zip(self._test, ("run.test(loss=)", "run.test(accuracy=)")))
        if accuracy is not None and not 0.0 <= accuracy <= 1.0:
            raise ValueError("run.test(accuracy=) must be a fraction from 0 to 1 (got %r)"
                             % accuracy)
        images = self._epoch_images
        self.done = epoch
        self.channel.emit({"event": "epoch", "epoch": {
            "epoch": epoch, "seconds": seconds, "warmup": epoch <= self.warmup_epochs,
            "trainLoss": train_loss, "testLoss": test_loss, "testAccuracy": accuracy,
            "imagesPerSecond": images / seconds if images and seconds > 0 else None,
            "steps": self._epoch_steps, "trainImages": images,
            "startedUnixSeconds": started_unix}})
        if test_loss is not None and not math.isfinite(test_loss):
            raise Diverged("test loss became %s in epoch %d" % (test_loss, epoch))
        if self.target is not None and accuracy is None:
            raise ValueError("epoch %d reported no test accuracy, which the run's target "
                             "accuracy needs: call run.test(accuracy=...) in each epoch" % epoch)
        reached = self.target is not None and accuracy * 100.0 >= self.target - 1e-9
        self.reached = reached
        if epoch < self.epoch_count and not reached:  # after the last, "ended" comes at exit
            self.channel.emit({"event": "pass"})
        return reached
