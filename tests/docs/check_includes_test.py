#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_includes.py against small trees it must refuse or pass: a loop between two units
through a source, a loop between headers, a tree without loops, and the same from '.'.

  check_includes_test.py   (exits 1 on a failure, naming it)"""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_includes.py")


def tree(files):
    root = tempfile.mkdtemp(prefix="check-includes-")
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    return root


def check(root, cwd=None):
    done = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stdout


def main():
    failures = []
    # a.cpp includes b.h, b.cpp includes a.h: no header cycle, yet the units include each other.
    through_sources = tree({"app/a.h": "", "app/a.cpp": '#include "a.h"\n#include "b.h"\n',
                            "app/b.h": "", "app/b.cpp": '#include "b.h"\n#include "a.h"\n'})
    for root, cwd in ((through_sources, None), (".", through_sources)):
        code, out = check(root, cwd)
        if code != 1 or "include loop between units: app/a.cpp includes app/b.h" not in out:
            failures.append("a loop through sources from %r was not found: %s" % (root, out))
    code, out = check(tree({"ui/x.h": '#include "y.h"\n', "ui/y.h": '#include "x.h"\n'}))
    if code != 1 or "include cycle: ui/x.h -> ui/y.h -> ui/x.h" not in out:
        failures.append("a header cycle was not found: " + out)
    code, out = check(tree({"app/a.h": "", "app/a.cpp": '#include "a.h"\n#include "b.h"\n',
                            "app/b.h": "", "app/b.cpp": '#include "b.h"\n'}))
    if code != 0:
        failures.append("a tree without loops was refused: " + out)
    for failure in failures:
        print("check_includes_test: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
