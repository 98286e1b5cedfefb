#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lint: clang-format (always) and clang-tidy (with --tidy) over the project's C++ sources.
#   scripts/lint.sh              check formatting; exit 1 and list the files that differ
#   scripts/lint.sh --fix        reformat those files in place
#   scripts/lint.sh --tidy [BUILD_DIR] [FILE...]
#                                also run clang-tidy (.clang-tidy) with BUILD_DIR's
#                                compile_commands.json (default build/default) on FILE... or on
#                                every .cpp under engine/, app/, ui/ (slow: LibTorch headers)
# CI runs the format check (.ci/run): a format difference fails it. An unknown option, a
# BUILD_DIR or FILE that is not there, or a CLANG_FORMAT that is not a program exits 2 first.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/checks.sh

# The options, then (after --tidy only) BUILD_DIR and FILEs, all checked before any file is
# read: an unknown option or a path that is not there exits 2.
fix=0 tidy=0
while [ $# -gt 0 ]; do
  case "$1" in
    --fix) fix=1; shift ;;
    --tidy) tidy=1; shift; break ;;
    -h | --help) devicebench_help ;;
    *) devicebench_unknown_option "$1" --fix --tidy --help ;;
  esac
done
if [ "$tidy" = 1 ]; then
  build="${1:-build/default}"
  [ $# -gt 0 ] && shift
  [ -f "$build/compile_commands.json" ] ||
    devicebench_refuse "BUILD_DIR '$build' has no compile_commands.json: configure first (cmake --preset default)"
  for f in "$@"; do devicebench_check_file FILE "$f"; done
fi

clang_format="${CLANG_FORMAT:-clang-format}"
command -v "$clang_format" >/dev/null ||
  devicebench_refuse "CLANG_FORMAT '$clang_format' is not a program (Debian: apt-get install clang-format)"

# Our C++ sources; third-party and generated files are not tracked.
mapfile -t sources < <(git ls-files -- '*.cpp' '*.h' '*.hpp' '*.h.in')
if [ "$fix" = 1 ]; then
  "$clang_format" -i "${sources[@]}"
  echo "lint: formatted ${#sources[@]} files"
else
  bad=()
  for f in "${sources[@]}"; do
    if ! "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "lint: ${#bad[@]} file(s) differ from .clang-format (fix: scripts/lint.sh --fix):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "lint: clang-format: ${#sources[@]} files clean"
fi

# Shell scripts: no pipe into a reader that stops early (`| head`, `| grep -q`). Under
# `set -o pipefail` the writer, still writing, dies of SIGPIPE and fails the pipeline at
# random (make-bundle's `cmake --target help | grep -q` did in CI). Read the whole output
# first (`x=$(cmd); grep -q ... <<<"$x"`, `sed -n 1p`, `find ... -print -quit`).
mapfile -t shells < <(git ls-files -- '*.sh' .ci/run)
if early=$(grep -nE '^[^#]*\|[[:space:]]*(head|grep[[:space:]]+(-[a-zA-Z]*[qm][a-zA-Z]*))([[:space:]]|$)' "${shells[@]}"); then
  echo "lint: a pipe into a reader that stops early (SIGPIPE under pipefail):" >&2
  printf '  %s\n' "$early" >&2
  exit 1
fi
echo "lint: shell: ${#shells[@]} scripts without early-stopping pipes"

# No issue numbers in code, scripts or tests (docs/CONVENTIONS.md, "Comments"): say the why.
if numbered=$(git grep -nIE '[Ii]ssue ?#?[0-9]+|Issue[0-9]+' -- engine app ui bench tests scripts \
    cmake resources packaging .ci CMakeLists.txt); then
  echo "lint: issue numbers in code (say what and why instead):" >&2
  printf '  %s\n' "$numbered" >&2
  exit 1
fi

if [ "$tidy" = 1 ]; then
  files=("$@")
  if [ ${#files[@]} -eq 0 ]; then
    mapfile -t files < <(git ls-files -- 'engine/*.cpp' 'app/*.cpp' 'ui/*.cpp')
  fi
  clang-tidy -p "$build" --quiet "${files[@]}"
fi
