# SPDX-License-Identifier: MIT
"""What a run says about the script it times (docs/YOUR-SCRIPT.md): the model a wrapper
trains, the script's stated settings checked, the images a step saw, and the files it ran."""
import hashlib
import math
import operator
import os
import sys


def _script_path():
    """The running script's absolute path ("" when there is none: python -c)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None) or (sys.argv[0] if sys.argv else "")
    return os.path.abspath(path) if path else ""


def _file_sha256(path):
    """The file's sha256 in hex; "" when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def _local_files(script):
    """The files of the script's folder (and below) its process has imported, other than the
    script: {path relative to that folder: sha256}. Installed packages kept in that folder (a
    virtual environment's site-packages) are not the script's own and are left out."""
    folder = os.path.dirname(script)
    files = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path or not folder:
            continue
        path = os.path.abspath(path)
        relative = os.path.relpath(path, folder)
        parts = relative.split(os.sep)
        if path == script or parts[0] == os.pardir or \
                any(p in ("site-packages", "dist-packages") for p in parts):
            continue
        files[relative] = _file_sha256(path)
    return dict(sorted(files.items()))


_WRAPPERS = ("DataParallel", "DistributedDataParallel", "FullyShardedDataParallel")


def _unwrap(model):
    """The module a wrapper trains, and the wrappers around it, outermost first: torch.compile's
    module (`_orig_mod`) and the data-parallel wrappers (`module`)."""
    wrappers = []
    while True:
        if hasattr(model, "_orig_mod"):
            wrappers.append("torch.compile")
            model = model._orig_mod
        elif type(model).__name__ in _WRAPPERS and hasattr(model, "module"):
            wrappers.append(type(model).__name__)
            model = model.module
        else:
            return model, wrappers


def _count(value, what):
    """A positive whole number (an int, a numpy integer, ...), or None (not stated)."""
    if value is None:
        return None
    try:
        number = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        number = None
    if number is None or number < 1:
        raise ValueError("%s must be a whole number, 1 or more (got %r)" % (what, value))
    return number


def _learning_rate(value):
    """run(lr=): a number, or an optimizer whose first parameter group's rate is taken."""
    groups = getattr(value, "param_groups", None)
    if groups:
        value = groups[0].get("lr")
    if hasattr(value, "item"):  # a tensor rate
        value = value.item()
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or value <= 0:
        raise ValueError("devicebench.run(lr=) must be a number above 0 or an optimizer "
                         "(got %r)" % (value,))
    return float(value)


def _images_of(images):
    """run.step(images=): a count, or a batch (a tensor, array or list: its first dimension)."""
    shape = getattr(images, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            return _count(int(images), "run.step(images=)")
        return int(shape[0])
    if isinstance(images, (list, tuple)):
        return len(images)
    return _count(images, "run.step(images=)")
