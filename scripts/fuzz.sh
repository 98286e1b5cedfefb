#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (preset `fuzz`: clang, ASan + UBSan, build/fuzz) and runs one or
# all of them for a given time, one at a time on one core (docs/FUZZING.md).
#   scripts/fuzz.sh TARGET|all [SECONDS]     TARGET: cifar10_reader or run_record; default 60 s
# Each run starts from the seed corpus tests/fuzz/corpus/<target>/ (read only) and keeps what
# it finds in build/fuzz/corpus/<target>/; a crashing input goes to build/fuzz/artifacts/.
# Exit status: 0 when every run ended without a finding.
# Needs clang and libFuzzer (Debian: clang, libclang-rt-dev; DEVICEBENCH_WITH_FUZZERS=1
# scripts/install-deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

targets_all=(cifar10_reader run_record)
usage() { echo "usage: scripts/fuzz.sh cifar10_reader|run_record|all [SECONDS]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
seconds="${2:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a whole number > 0, got '$seconds'" >&2; exit 2; }
if [ "$1" = all ]; then
  targets=("${targets_all[@]}")
else
  case " ${targets_all[*]} " in *" $1 "*) targets=("$1") ;; *) usage ;; esac
fi

DEVICEBENCH_WITH_FUZZERS=1 scripts/install-deps.sh
cmake --preset fuzz >/dev/null
build=build/fuzz
cmake --build --preset fuzz -j "${DEVICEBENCH_JOBS:-$(nproc)}" \
  --target "${targets[@]/#/fuzz_}"

# Leaks inside LibTorch's own start-up are not ours (tests/sanitizers/lsan.supp says which).
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/tests/sanitizers/ubsan.supp"
export OMP_NUM_THREADS=1
status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/artifacts"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=("-dict=tests/fuzz/$t.dict")
  echo "== fuzz_$t for ${seconds} s"
  # -jobs/-workers unset: one process. -max_len: a few CIFAR records; any run record seed fits.
  if ! "$build/tests/fuzz/fuzz_$t" "$build/corpus/$t" "tests/fuzz/corpus/$t" \
      "${dict[@]}" -max_total_time="$seconds" -max_len=16384 -timeout=30 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-"; then
    echo "fuzz.sh: fuzz_$t found a problem; the input is in $build/artifacts/" >&2
    status=1
  fi
done
exit $status
