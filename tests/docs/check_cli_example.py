#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/CLI.md's example output is the program's: runs the command of its "### Example" block
with the CLI given and compares what it prints with the block, numbers masked (times and rates
change from run to run) and the flags a busy machine adds left out ([CONTENDED ...], [MACHINE
SPEED CHANGED ...], WARNING and "machine speed" lines: they say how the machine was, not what
the program prints).

  check_cli_example.py CLI ROOT DATA [--update]

DATA is the real CIFAR-10 folder (the example trains on it); absent: exit 77 (ctest: skipped).
--update rewrites the block with this run's output (run it on an idle machine)."""
import os
import re
import subprocess
import sys
import tempfile

DOC_DATA = "../shared/datasets/cifar-10-batches-bin"  # the data folder as the doc writes it
SKIP = 77


def example_block(text):
    """(start, end) line indices of the fenced block after '### Example', fences excluded."""
    lines = text.split("\n")
    heading = lines.index("### Example")
    start = next(i for i in range(heading, len(lines)) if lines[i].startswith("```")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return lines, start, end


def command_lines(block):
    """The '$ ...' line and its '\\' continuations."""
    taken = [block[0]]
    while taken[-1].endswith("\\"):
        taken.append(block[len(taken)])
    return taken


def elided(line):
    """The build or install folder of the shipped files, which differs between checkouts."""
    return re.sub(r"\(/\S*/share/devicebench/", "(.../share/devicebench/", line)


def masked(line):
    line = re.sub(r"\s*\[(CONTENDED|MACHINE SPEED CHANGED)[^\]]*\]", "", line)
    line = re.sub(r"\d+([.,]\d+)*", "#", line)
    return re.sub(r"[ \t]+", " ", line).rstrip()


def comparable(lines):
    """The lines that say what the program prints, not how the machine was."""
    verdicts = ("WARNING:", "machine speed ")
    return [masked(l) for l in lines if not l.lstrip().startswith(verdicts)]


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, root, data = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    update = "--update" in sys.argv[4:]
    if not os.path.isdir(data):
        print(f"cli example: skipped: no real CIFAR-10 at {data}")
        return SKIP
    doc = os.path.join(root, "docs", "CLI.md")
    with open(doc, encoding="utf-8") as f:
        lines, start, end = example_block(f.read())
    command = command_lines(lines[start:end])
    words = " ".join(l.rstrip("\\").strip() for l in command)[2:].split()
    assert words[0] == "devicebench-cli", words
    args = [cli] + [data if w == DOC_DATA else w for w in words[1:]]
    with tempfile.TemporaryDirectory() as cwd:
        run = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    printed = [elided(l) for l in
               (run.stdout + run.stderr).replace(data, DOC_DATA).rstrip("\n").split("\n")]
    if run.returncode != 0:
        print(f"cli example: the command exited {run.returncode}:\n" + "\n".join(printed))
        return 1
    if update:
        lines[start + len(command):end] = printed
        with open(doc, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print(f"cli example: {doc} updated ({len(printed)} lines)")
        return 0
    want, got = comparable(lines[start + len(command):end]), comparable(printed)
    if want != got:
        print("cli example: docs/CLI.md's example is not what the program prints now "
              "(numbers masked); regenerate it on an idle machine with:\n"
              f"  {sys.argv[0]} {cli} {root} {data} --update\n")
        for i in range(max(len(want), len(got))):
            a = want[i] if i < len(want) else "<none>"
            b = got[i] if i < len(got) else "<none>"
            if a != b:
                print(f"line {i + 1}:\n  doc:     {a}\n  program: {b}")
        return 1
    print(f"cli example: the doc's {len(want)} lines are the program's (numbers masked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
