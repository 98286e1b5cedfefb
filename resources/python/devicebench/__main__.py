# SPDX-License-Identifier: MIT
"""DeviceBench's check of a training script before it runs it (script_run.h, checkScriptRun):

    python -m devicebench --check SCRIPT [--device cpu|cuda|cuda:N]

prints one JSON line {"python", "torch", "cuda", "problem"} on stdout, "problem" "" when this
Python can run SCRIPT on the device: the file is Python (text that compiles; nothing of it
runs), torch imports, and a CUDA device asked for is there. Exit status 0, or 3 with a problem.
"""
import json
import platform
import sys

UNUSABLE = 3


def script_problem(path):
    """"" when `path` compiles as Python, else why not, naming the file."""
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as error:
        return "the training script %s cannot be read (%s)" % (path, error.strerror or error)
    try:
        compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        return "the training script %s is not Python: %s: %s (line %s)" % (
            path, type(error).__name__, error.msg, error.lineno)
    except ValueError as error:  # NUL bytes: a binary file
        return "the training script %s is not Python: %s" % (path, error)
    return ""


def device_problem(torch, device):
    if not device.startswith("cuda"):
        return ""
    if not torch.version.cuda:
        return ("this torch (%s) was built without CUDA: install a CUDA build of torch, or run "
                "on the cpu" % torch.__version__)
    if not torch.cuda.is_available():
        return "this torch (%s) sees no GPU: torch.cuda.is_available() is false" % (
            torch.__version__)
    index = int(device[5:]) if device.startswith("cuda:") and device[5:].isdigit() else 0
    if index >= torch.cuda.device_count():
        return "there is no %s: this machine has %d CUDA device(s)" % (
            device, torch.cuda.device_count())
    return ""


def check(path, device):
    answer = {"python": platform.python_version(), "torch": None, "cuda": "", "problem": ""}
    answer["problem"] = script_problem(path)
    if not answer["problem"]:
        try:
            import torch
        except Exception as error:  # ImportError, or a broken install
            answer["problem"] = ("torch cannot be imported (%s: %s): apt install python3-torch, "
                                 "or pip install torch" % (type(error).__name__, error))
        else:
            answer["torch"], answer["cuda"] = torch.__version__, torch.version.cuda or ""
            answer["problem"] = device_problem(torch, device)
    print(json.dumps(answer), flush=True)
    return UNUSABLE if answer["problem"] else 0


def main(argv):
    if len(argv) < 2 or argv[0] != "--check":
        print("usage: python -m devicebench --check SCRIPT [--device DEVICE]", file=sys.stderr)
        return 2
    device = argv[argv.index("--device") + 1] if "--device" in argv[:-1] else "cpu"
    return check(argv[1], device)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
