#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each file includes the standard headers of what it names (docs/CONVENTIONS.md, "Layers").

  check_std_headers.py ROOT

A source of engine/, app/, ui/, tests/ or bench/ that names std::X includes X's header itself
(std::count -> <algorithm>, std::size_t -> <cstddef>, ...), not through another header: which
standard headers include which others differs between compilers and releases (GCC 14's
libstdc++ dropped some that GCC 12's brought in). A .cpp may rely on its own header's includes.
Only the names of NAMES are checked; comments and string literals are skipped. Prints each
finding and exits 1 on any; "std headers: N files, ..." otherwise."""
import os
import re
import sys

TOPS = ("engine", "app", "ui", "tests", "bench")
NAMES = {
    "algorithm": "all_of any_of none_of for_each count count_if find find_if find_if_not "
                 "find_first_of adjacent_find mismatch copy_if copy_n fill fill_n transform "
                 "generate remove_if replace replace_if reverse rotate shuffle unique partition "
                 "stable_partition sort stable_sort partial_sort nth_element is_sorted "
                 "lower_bound upper_bound binary_search equal_range merge set_union "
                 "set_intersection set_difference min max minmax min_element max_element "
                 "minmax_element clamp lexicographical_compare equal copy remove",
    "numeric": "accumulate iota reduce inner_product partial_sum adjacent_difference gcd lcm "
               "transform_reduce exclusive_scan inclusive_scan",
    "functional": "function bind ref cref mem_fn not_fn placeholders less greater plus invoke",
    "memory": "unique_ptr shared_ptr weak_ptr make_unique make_shared enable_shared_from_this",
    "optional": "optional nullopt make_optional",
    "variant": "variant visit holds_alternative get_if monostate",
    "any": "any any_cast",
    "sstream": "ostringstream istringstream stringstream",
    "fstream": "ofstream ifstream fstream",
    "iomanip": "setprecision setw setfill put_time get_time quoted",
    "limits": "numeric_limits",
    "cstdint": "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t "
               "uintptr_t intmax_t uintmax_t",
    "cstddef": "size_t ptrdiff_t nullptr_t byte",
    "string": "string to_string stoi stol stoll stoul stoull stod stof",
    "string_view": "string_view",
    "vector": "vector",
    "array": "array",
    "deque": "deque",
    "list": "list",
    "map": "map multimap",
    "set": "set multiset",
    "unordered_map": "unordered_map",
    "unordered_set": "unordered_set",
    "queue": "queue priority_queue",
    "tuple": "tuple tie make_tuple apply",
    "utility": "pair make_pair exchange as_const forward declval",
    "chrono": "chrono",
    "thread": "thread this_thread",
    "mutex": "mutex lock_guard unique_lock scoped_lock once_flag call_once",
    "condition_variable": "condition_variable",
    "atomic": "atomic atomic_flag memory_order_relaxed",
    "future": "future promise async",
    "filesystem": "filesystem",
    "regex": "regex regex_match regex_search regex_replace smatch",
    "random": "mt19937 mt19937_64 uniform_int_distribution uniform_real_distribution "
              "normal_distribution random_device",
    "cmath": "sqrt isfinite isnan isinf pow exp log log2 log10 floor ceil round lround llround "
             "fabs nan hypot fmod trunc",
    "cstdlib": "getenv exit strtol strtoll strtoul strtoull strtod abort _Exit",
    "cstring": "strlen memcpy memcmp strcmp strerror memset strncmp strchr",
    "cstdio": "printf fprintf snprintf fopen fclose FILE fputs fflush puts fwrite fread",
    "iostream": "cout cerr clog cin",
    "exception": "exception exception_ptr current_exception rethrow_exception terminate",
    "stdexcept": "runtime_error invalid_argument out_of_range logic_error range_error "
                 "overflow_error domain_error length_error",
    "system_error": "error_code system_error generic_category system_category errc",
    "iterator": "back_inserter inserter distance next prev advance",
    "charconv": "from_chars to_chars",
    "cctype": "isdigit isspace isalpha isalnum isxdigit isprint tolower toupper",
    "csignal": "signal raise sig_atomic_t",
    "ctime": "time_t strftime gmtime localtime mktime",
    "type_traits": "is_same_v enable_if_t decay_t underlying_type_t conditional_t",
}
HEADER_OF = {name: header for header, names in NAMES.items() for name in names.split()}
# Other headers that define a name too (std::size_t: the C headers' synopses), and headers that
# include others by the standard's word (<iostream>: <istream>, <ostream>).
ALSO = {"size_t": {"cstdio", "cstdlib", "cstring", "ctime", "cwchar"}}
IMPLIED = {"iostream": {"istream", "ostream", "ios"}}

USE = re.compile(r"\bstd::(?:ranges::)?([A-Za-z_]\w*)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# Comments, raw strings, strings and character literals: blanked before names are looked for.
NOT_CODE = re.compile(r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                      r"'(?:\\.|[^'\\\n])*'", re.S)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def std_includes(text):
    found = set()
    for kind, name in INCLUDE.findall(text):
        if kind == "<":
            found |= {name} | IMPLIED.get(name, set())
    return found


def own_header(root, rel, text, known):
    """The text of the header a .cpp implements: its first quoted include of the same stem."""
    stem = os.path.splitext(os.path.basename(rel))[0]
    for kind, name in INCLUDE.findall(text):
        if kind == '"' and os.path.splitext(os.path.basename(name))[0] == stem:
            beside = os.path.normpath(os.path.join(os.path.dirname(rel), name)).replace(os.sep, "/")
            hits = [beside] if beside in known else [t for t in known if t.endswith("/" + name)]
            return read(os.path.join(root, hits[0])) if len(hits) == 1 else ""
    return ""


def sources(root):
    """Every .h and .cpp under TOPS, relative to root with / between folders."""
    for top in TOPS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".h", ".cpp")):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def findings(root):
    files = sorted(sources(root))
    known = set(files)
    for rel in files:
        text = read(os.path.join(root, rel))
        have = std_includes(text)
        if rel.endswith(".cpp"):
            have |= std_includes(own_header(root, rel, text, known))
        missing = {}
        for name in USE.findall(NOT_CODE.sub(" ", text)):
            header = HEADER_OF.get(name)
            if header and header not in have and not ALSO.get(name, set()) & have:
                missing.setdefault(header, set()).add("std::" + name)
        for header, names in sorted(missing.items()):
            yield f"{rel} names {', '.join(sorted(names))} without #include <{header}>"
    yield len(files)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    *found, count = findings(root)
    for finding in found:
        print("std headers: " + finding)
    if found:
        return 1
    print(f"std headers: {count} files include the standard headers of what they name")
    return 0


if __name__ == "__main__":
    sys.exit(main())
