#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (preset `fuzz`: clang, ASan + UBSan, build/fuzz) and runs one or
# all of them for a given time, one at a time on one core (docs/FUZZING.md).
#   scripts/fuzz.sh [--plan] TARGET|all [SECONDS]   TARGET: cifar10_reader or run_record;
#                                                   default 60 s; --plan: check, say, do nothing
# TARGET, SECONDS and DEVICEBENCH_JOBS (a whole number > 0: the build's jobs) are checked
# first: a bad one exits 2 before anything is installed or built.
# Each run starts from the seed corpus tests/fuzz/corpus/<target>/ (read only) and keeps what
# it finds in build/fuzz/corpus/<target>/; a crashing input goes to build/fuzz/artifacts/.
# Exit status: 0 when every run ended without a finding.
# Needs clang and libFuzzer (Debian: clang, libclang-rt-dev; DEVICEBENCH_WITH_FUZZERS=1
# scripts/install-deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/checks.sh
targets_all=(cifar10_reader run_record)
devicebench_parse_plan_args positional "$@"
[ ${#args[@]} -ge 1 ] && [ ${#args[@]} -le 2 ] && [ -n "${args[0]}" ] ||
  devicebench_refuse "usage: scripts/fuzz.sh [--plan] $(IFS='|'; echo "${targets_all[*]}")|all [SECONDS]"
devicebench_check_one_of TARGET "${args[0]}" "${targets_all[@]}" all
seconds="${args[1]:-60}"
devicebench_check_count SECONDS "$seconds"
devicebench_check_count DEVICEBENCH_JOBS "${DEVICEBENCH_JOBS:-}"
if [ "${args[0]}" = all ]; then
  targets=("${targets_all[@]}")
else
  targets=("${args[0]}")
fi
if [ "$plan" = 1 ]; then
  echo "fuzz.sh --plan: would build the fuzz preset and run ${targets[*]/#/fuzz_} for $seconds s each"
  exit 0
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
