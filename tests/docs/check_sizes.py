#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sizes a reader can hold (docs/CONVENTIONS.md): checks engine/, app/ and ui/.

  check_sizes.py ROOT

1. No .cpp or .h file over MAX_FILE_LINES lines.
2. No function over MAX_FUNCTION_LINES lines, counted from its signature's first line to its
   closing brace. Functions are the definitions that start at column 0 (free functions and
   members defined outside their class) and end at the next "}" at column 0; members defined
   inside a class body are short by convention and not counted.
Prints each finding and exits 1 on any; "sizes: N files, ..." otherwise."""
import os
import re
import sys

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 80
TOPS = ("engine", "app", "ui")
# A line at column 0 that is not a definition's start: preprocessor, comments, scopes, types.
NOT_A_FUNCTION = re.compile(
    r"^(#|//|/\*|\*|namespace\b|class\b|struct\b|enum\b|union\b|using\b|typedef\b|"
    r"extern\b|template\s*<[^>]*>\s*(class|struct)\b|\}|$)")
MACRO = re.compile(r"^[A-Z][A-Z0-9_]*\(")  # Q_DECLARE_METATYPE(...) and the like


def sources(root):
    for top in TOPS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith((".h", ".cpp")):
                    yield os.path.join(folder, name)


def long_functions(lines):
    """(first line number, length, signature) of each column-0 definition over the limit."""
    found = []
    start = None
    opened = False  # whether the definition's "{" has been seen
    for number, line in enumerate(lines, 1):
        text = line.rstrip()
        if start is None:
            if text and not text[0].isspace() and not NOT_A_FUNCTION.match(text) and \
                    "(" in text and not text.endswith(";") and not MACRO.match(text) and \
                    not (text.endswith("}") and "{" in text):  # a one-line definition
                start, opened = number, "{" in text
        elif not opened and text.endswith(";"):
            start = None  # a declaration split over lines, not a definition
        elif text.startswith("}"):
            if number - start + 1 > MAX_FUNCTION_LINES:
                found.append((start, number - start + 1, lines[start - 1].strip()))
            start = None
        elif "{" in text:
            opened = True
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    findings = []
    files = 0
    for path in sources(root):
        files += 1
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > MAX_FILE_LINES:
            findings.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE_LINES})")
        for start, length, signature in long_functions(lines):
            findings.append(f"{rel}:{start}: a function of {length} lines (at most "
                            f"{MAX_FUNCTION_LINES}): {signature}")
    for finding in findings:
        print(finding)
    if findings:
        print(f"sizes: {len(findings)} finding(s) in {files} files; split them "
              "(docs/CONVENTIONS.md)")
        return 1
    print(f"sizes: {files} files, none over {MAX_FILE_LINES} lines, no function over "
          f"{MAX_FUNCTION_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
