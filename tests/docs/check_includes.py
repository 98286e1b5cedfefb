#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Includes point down (docs/CONVENTIONS.md, "Layers"): checks the project's #include lines.

  check_includes.py ROOT

1. ui/: window/ may include panels/, sweep/, dialogs/; those and window/ may include store/,
   charts/, export/, theme/; a folder never includes one above it (a rank lower in UI_RANKS).
2. No header of app/ or ui/ reaches itself through the project's headers (no include cycle),
   and no unit (a .h and its .cpp) reaches itself through another's: a unit's source that
   includes the header of a unit whose files include its own header is a loop too.
3. No LibTorch header (<torch/...>, <ATen/...>, <c10/...>) outside engine/, bench/ and tests/.
Prints what it found and exits 1 on any finding; "includes: N files, every arrow points down"."""
import os
import re
import sys

UI_RANKS = {"window": 0, "panels": 1, "sweep": 1, "dialogs": 1,
            "store": 2, "charts": 2, "export": 2, "theme": 3}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
TORCH = ("torch/", "ATen/", "c10/")


def sources(root, top):
    for folder, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if name.endswith((".h", ".cpp")):
                yield os.path.normpath(os.path.join(folder, name))  # as resolve() gives them


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return INCLUDE.findall(f.read())


def ui_findings(root):
    for path in sources(root, "ui"):
        own = os.path.relpath(path, os.path.join(root, "ui")).split(os.sep)[0]
        if own not in UI_RANKS:
            continue
        for kind, name in includes(path):
            target = name.split("/")[0]
            if kind == '"' and target in UI_RANKS and UI_RANKS[target] < UI_RANKS[own]:
                yield f"{os.path.relpath(path, root)} includes {name}: {own}/ is below {target}/"


def resolve(root, path, name):
    """The project file `name` names from `path`, or None (a system or library header)."""
    for base in (os.path.dirname(path), os.path.join(root, "ui"), os.path.join(root, "app")):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(candidate):
            return candidate
    return None


def loops(graph):
    """Each loop a depth-first walk of `graph` (node -> the nodes it points to) closes, as the
    list of its nodes with the first repeated at the end."""
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                yield trail[trail.index(nxt):] + [nxt]
            elif nxt not in state:
                yield from visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            yield from visit(node, [node])


def cycle_findings(root):
    graph = {}
    for top in ("app", "ui"):
        for path in sources(root, top):
            if path.endswith(".h"):
                graph[path] = [t for k, n in includes(path) if k == '"'
                               for t in [resolve(root, path, n)] if t and t.endswith(".h")]
    for loop in loops(graph):
        yield "include cycle: " + " -> ".join(os.path.relpath(p, root) for p in loop)


def unit_findings(root):
    """Loops between units of app/ and ui/: a unit is a header and its source (folder/stem); unit
    A depends on B when a file of A includes B's header."""
    graph, why = {}, {}
    for top in ("app", "ui"):
        for path in sources(root, top):
            unit = os.path.splitext(path)[0]
            graph.setdefault(unit, set())
            for kind, name in includes(path):
                target = resolve(root, path, name) if kind == '"' else None
                if not target or not target.endswith(".h"):
                    continue
                other = os.path.splitext(target)[0]
                if other != unit:
                    graph[unit].add(other)
                    why.setdefault((unit, other), (path, target))
    for loop in loops(graph):
        steps = ["%s includes %s" % tuple(os.path.relpath(p, root) for p in why[(a, b)])
                 for a, b in zip(loop, loop[1:])]
        yield "include loop between units: " + "; ".join(steps)


def torch_findings(root):
    for top in ("app", "ui"):
        for path in sources(root, top):
            for kind, name in includes(path):
                if kind == "<" and name.startswith(TORCH):
                    yield (f"{os.path.relpath(path, root)} includes <{name}>: reach LibTorch "
                           "through the engine's headers")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    findings = (list(ui_findings(root)) + list(cycle_findings(root)) + list(unit_findings(root)) +
                list(torch_findings(root)))
    for finding in findings:
        print("includes: " + finding)
    if findings:
        return 1
    count = sum(1 for top in ("app", "ui") for _ in sources(root, top))
    print(f"includes: {count} files, every arrow points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
