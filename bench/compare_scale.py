#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How `devicebench-cli compare` grows with the records compared: N records of one
configuration (bench/many_records.py, fixed seed) for each N, compared ROUNDS times; prints
the median wall time, the largest peak RSS of the child (os.wait4's ru_maxrss) and the lines
printed, per N, as a Markdown table, with the CPU it ran on.

  bench/compare_scale.py [--cli build/default/app/devicebench-cli] [--counts 10 100 1000]
                         [--rounds 3] [--json] [--runs]

--json / --runs time `compare --json` / `compare --runs` instead of the plain text. The records
go to a temporary folder that is removed afterwards. Target (docs/PERFORMANCE.md): 1,000 records
within 5 s."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from many_records import make_records  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def timed(command):
    """(seconds, peak RSS in MiB, lines on stdout) of one run of `command`."""
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 1):
            raise SystemExit("compare_scale: %s exited %d" % (command[0], child.returncode))
        out.seek(0)
        lines = out.read().count(b"\n")
    return seconds, usage.ru_maxrss / 1024.0, lines  # ru_maxrss: KiB on Linux


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "default", "app",
                                                      "devicebench-cli"))
    parser.add_argument("--counts", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="time compare --json")
    parser.add_argument("--runs", action="store_true", help="time compare --runs")
    args = parser.parse_args()
    if not os.access(args.cli, os.X_OK):
        raise SystemExit("compare_scale: no devicebench-cli at %s (build it: scripts/build.sh "
                         "default devicebench-cli, or give --cli)" % args.cli)
    extra = (["--json"] if args.json else []) + (["--runs"] if args.runs else [])
    print("devicebench-cli compare%s, records of 10 epochs (bench/many_records.py), %s, "
          "median of %d rounds" % ("".join(" " + e for e in extra), cpu_model(), args.rounds))
    print()
    print("| records | wall time (s) | peak RSS (MiB) | lines printed |")
    print("| ---: | ---: | ---: | ---: |")
    for count in args.counts:
        folder = tempfile.mkdtemp(prefix="devicebench-compare-scale-")
        try:
            paths = make_records(count, folder)
            results = [timed([args.cli, "compare"] + extra + paths) for _ in range(args.rounds)]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        seconds = statistics.median(r[0] for r in results)
        rss = max(r[1] for r in results)
        print("| %d | %.2f | %.0f | %d |" % (count, seconds, rss, results[0][2]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
