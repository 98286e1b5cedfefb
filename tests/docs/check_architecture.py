#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/ARCHITECTURE.md's table of targets says what the CMake link lines say.

The CMake side: every add_library / add_executable defined in a CMakeLists.txt under engine/,
app/, ui/ or resources/ is a row, with the project's own targets its target_link_libraries name
(PUBLIC, PRIVATE and INTERFACE alike, in every if() branch) and its folder (the deepest folder
holding its sources, a trailing src/ or include/ left off; with no sources, its CMakeLists.txt's
folder). The project's own targets are those add_library'd or add_executable'd anywhere in the
tree; Torch, Qt, spdlog and the like are not, and the two flag targets (FLAG_TARGETS) every
target links are left out. Function bodies (devicebench_engine_library) are expanded with their
arguments; a link line's other ${VARIABLE} (CMake's own CMAKE_* aside) or $<...> is refused,
since it could name a target this script cannot see.

The doc side: every markdown table whose header has the cells `target`, `folder` and `links`.
A links cell lists targets separated by commas; "(...)" is a note, "-" means none, an engine
library may be named without its `engine_` prefix, and `engine_*` means every engine_ target.

It fails (exit 1), naming the target and the difference, when a target is missing from the doc,
the doc names one that does not exist, or the folder or links differ; and when the page has more
than MAX_LINES lines or a line longer than MAX_WIDTH bytes (UTF-8).

Usage: check_architecture.py SOURCE_DIR
"""
import os
import pathlib
import re
import sys

LAYER_DIRS = ("engine", "app", "ui", "resources")
FLAG_TARGETS = {"devicebench_options", "devicebench_warnings"}  # compile flags, not a layer
DOC = "docs/ARCHITECTURE.md"
MAX_LINES, MAX_WIDTH = 320, 120
DEFINERS = {"add_library", "add_executable"}
LINK_KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE",
                 "LINK_INTERFACE_LIBRARIES"}
LIBRARY_KINDS = {"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE", "EXCLUDE_FROM_ALL", "WIN32",
                 "MACOSX_BUNDLE"}


# --- CMake ----------------------------------------------------------------------------------

def commands(text):
    """The file's commands as (lower-case name, [arguments]); comments and quotes handled."""
    text = re.sub(r"#\[(=*)\[.*?\]\1\]", " ", text, flags=re.S)  # bracket comments
    out, i, n = [], 0, len(text)
    call = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
    while i < n:
        if text[i] == "#":  # a line comment
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        match = call.match(text, i)
        if not match:
            i += 1
            continue
        args, i = arguments(text, match.end())
        out.append((match.group(1).lower(), args))
    return out


def arguments(text, i):
    """The arguments from just after a command's "(" to its ")"; returns them and the end."""
    args, depth, word = [], 0, ""
    while i < len(text):
        c = text[i]
        if c == '"':
            end = i + 1
            while end < len(text) and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            args.append(text[i + 1:end])
            i = end + 1
            continue
        if c == "#":  # a comment runs to the end of the line
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if c in "() \t\r\n":
            if word:
                args.append(word)
                word = ""
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return args, i + 1
                depth -= 1
        else:
            word += c
        i += 1
    return args, i


def cmake_files(root):
    """Every CMakeLists.txt and *.cmake of the tree, build folders and hidden ones left out."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "build")))
        for name in sorted(files):
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                yield pathlib.Path(folder) / name


def functions_of(parsed):
    """function()/macro() definitions across the tree: name -> (parameters, body commands)."""
    found = {}
    for cmds in parsed.values():
        i = 0
        while i < len(cmds):
            name, args = cmds[i]
            if name in ("function", "macro") and args:
                end = "end" + name
                j = i + 1
                while j < len(cmds) and cmds[j][0] != end:
                    j += 1
                found[args[0].lower()] = (args[1:], cmds[i + 1:j])
                i = j
            i += 1
    return found


def expanded(cmds, functions, depth=0):
    """The commands with each call of a project function replaced by its body, arguments in."""
    skip = None
    for name, args in cmds:
        if skip:  # inside a definition: its body runs only where the function is called
            skip = None if name == skip else skip
            continue
        if name in ("function", "macro"):
            skip = "end" + name
            continue
        if name in functions and depth < 8:
            params, body = functions[name]
            values = dict(zip(params, args))
            extra = args[len(params):]
            for body_name, body_args in expanded(body, functions, depth + 1):
                yield body_name, substituted(body_args, values, extra)
        else:
            yield name, args


def substituted(args, values, extra):
    out = []
    for arg in args:
        if arg == "${ARGN}":  # the arguments after the named parameters
            out.extend(extra)
            continue
        for param, value in values.items():
            arg = arg.replace("${" + param + "}", value)
        out.append(arg)
    return out


def targets_of(root):
    """(targets of the layer folders: name -> {folder, links}, every project target's name)."""
    parsed = {path: commands(path.read_text(encoding="utf-8")) for path in cmake_files(root)}
    functions = functions_of(parsed)
    defined, links, sources = {}, {}, {}
    for path, cmds in parsed.items():
        for name, args in expanded(cmds, functions):
            if not args:
                continue
            target, rest = args[0], args[1:]
            if name in DEFINERS and not {"ALIAS", "IMPORTED"} & set(rest):
                defined[target] = path.parent
                sources.setdefault(target, []).extend(a for a in rest if a not in LIBRARY_KINDS)
            elif name == "target_sources":
                sources.setdefault(target, []).extend(a for a in rest if a not in LINK_KEYWORDS)
            elif name == "target_link_libraries":
                where = path.relative_to(root).as_posix()
                links.setdefault(target, []).extend((where, a) for a in rest)
    layer = {}
    for target, folder in defined.items():
        relative = folder.relative_to(root)
        if relative.parts and relative.parts[0] in LAYER_DIRS:
            layer[target] = {"folder": folder_of(root, folder, sources.get(target, [])),
                             "links": own_links(target, links.get(target, []), defined)}
    return layer, set(defined)


def own_links(target, items, defined):
    """The project's own targets among a target's link items; refuses what it cannot read."""
    own = set()
    for path, item in items:
        if item in LINK_KEYWORDS or item in FLAG_TARGETS:
            continue
        if "$<" in item:
            sys.exit(f"{path}: {target} links the generator expression {item}, which this "
                     "checker does not read: teach it, or name the target plainly")
        variable = re.search(r"\$\{([^}]*)\}", item)
        if variable and not variable.group(1).startswith("CMAKE_"):
            sys.exit(f"{path}: {target} links {item}, a variable that may name a target this "
                     "checker cannot see: teach it, or name the target plainly")
        if item in defined:
            own.add(item)
    return own


def folder_of(root, cmake_folder, sources):
    """The deepest folder holding all the listed sources (src/, include/... left off)."""
    files = [(cmake_folder / s).resolve() for s in sources if "${" not in s and "$<" not in s]
    if not files:
        return cmake_folder.relative_to(root).as_posix() + "/"
    common = pathlib.Path(os.path.commonpath([f.parent for f in files])).relative_to(root)
    parts = list(common.parts)
    for marker in ("src", "include"):
        if marker in parts:
            parts = parts[:parts.index(marker)]
    return "/".join(parts) + "/"


# --- the doc --------------------------------------------------------------------------------

def cells(line):
    return [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]


def doc_rows(lines):
    """Each row of a table headed target | folder | ... | links: (line number, cells by name)."""
    rows, header = [], None
    for number, line in enumerate(lines, 1):
        if not line.lstrip().startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:
            lowered = [c.lower() for c in row]
            header = lowered if {"target", "folder", "links"} <= set(lowered) else []
        elif header and not set(line) <= set("|-: \t"):
            rows.append((number, dict(zip(header, row))))
    return rows


def doc_links(cell, known, layer):
    """The targets a links cell names, and the names in it that are no target."""
    named, unknown = set(), []
    for token in re.split(r"[,;]", re.sub(r"\([^)]*\)", "", cell)):
        token = token.strip()
        if token in ("", "-", "–", "—", "none"):
            continue
        if token.endswith("*"):
            named |= {t for t in layer if t.startswith(token[:-1])}
        elif token in known:
            named.add(token)
        elif "engine_" + token in known:
            named.add("engine_" + token)
        else:
            unknown.append(token)
    return named, unknown


def shape_problems(lines):
    problems = []
    if len(lines) > MAX_LINES:
        problems.append(f"{DOC}: {len(lines)} lines, more than {MAX_LINES}")
    # Bytes, as wc and most tools count them: a box-drawing picture is three to a character.
    problems += [f"{DOC}:{n}: {len(line.encode())} bytes, more than {MAX_WIDTH}"
                 for n, line in enumerate(lines, 1) if len(line.encode()) > MAX_WIDTH]
    return problems


def table_problems(lines, layer, known):
    problems, seen = [], set()
    for number, row in doc_rows(lines):
        target, where = row.get("target", ""), f"{DOC}:{number}"
        if target not in layer:
            problems.append(f"{where}: {target} is not a target defined under "
                            f"{', '.join(d + '/' for d in LAYER_DIRS)}")
            continue
        if target in seen:
            problems.append(f"{where}: {target} has a second row")
        seen.add(target)
        if row.get("folder", "") != layer[target]["folder"]:
            problems.append(f"{where}: {target}: the doc says folder {row.get('folder')}, its "
                            f"sources are in {layer[target]['folder']}")
        named, unknown = doc_links(row.get("links", ""), known, layer)
        problems += [f"{where}: {target} links {u}, which is no target" for u in unknown]
        actual = layer[target]["links"]
        if named != actual:
            problems.append(f"{where}: {target}: the doc's links differ from the link lines: "
                            f"in the doc only {sorted(named - actual) or '-'}, "
                            f"in the link lines only {sorted(actual - named) or '-'}")
    problems += [f"{DOC}: {t} ({layer[t]['folder']}) is missing from the table"
                 for t in sorted(set(layer) - seen)]
    return problems, len(seen)


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    lines = (root / DOC).read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it starts none
    layer, known = targets_of(root)
    problems, matched = table_problems(lines, layer, known)
    problems += shape_problems(lines)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"architecture: {matched} targets match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
