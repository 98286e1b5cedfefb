#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every relative link and anchor in README.md and docs/*.md leads somewhere.

A link [text](target) or image ![alt](target) whose target is not a URL must name a file or
folder that exists (relative to the page), and a #fragment (on its own or after a .md file)
must be the anchor of one of that page's headings, made as GitHub makes them: lower case,
punctuation dropped except '-' and '_', spaces as '-', a repeated heading's anchor with -1, -2.
Links inside code (fenced blocks, `spans`) are not links. Prints each broken one and exits 1.

Usage: check_links.py SOURCE_DIR
"""
import pathlib
import re
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def without_code(text):
    """The page with fenced blocks and inline code spans blanked (line numbers kept)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if re.match(r"^ {0,3}(```|~~~)", line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`]*`", "", line))
    return out


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        fenced = False
        for line in path.read_text(encoding="utf-8").split("\n"):
            if re.match(r"^ {0,3}(```|~~~)", line):
                fenced = not fenced
                continue
            match = None if fenced else HEADING.match(line)
            if match:
                base = slug(match.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        for explicit in re.findall(r'<a\s+(?:name|id)="([^"]+)"', path.read_text(encoding="utf-8")):
            found.add(explicit)
        cache[path] = found
    return cache[path]


def broken_links(page, root):
    problems = []
    for number, line in enumerate(without_code(page.read_text(encoding="utf-8")), 1):
        for target in LINK.findall(line):
            if URL.match(target):
                continue
            file_part, _, fragment = target.partition("#")
            linked = (page.parent / file_part).resolve() if file_part else page
            where = f"{page.relative_to(root)}:{number}: '{target}'"
            if not linked.exists():
                problems.append(f"{where}: {file_part} does not exist")
            elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
                problems.append(f"{where}: no heading with the anchor #{fragment} in "
                                f"{linked.relative_to(root)}")
    return problems


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    problems = [p for page in pages for p in broken_links(page, root)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} broken link(s) in {len(pages)} pages")
        return 1
    print(f"ok: every relative link and anchor of {len(pages)} pages leads somewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
