#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time to accuracy on this machine's CPU: does a faster epoch give you the model sooner?
# Runs each program RUNS times in rotating order (F T B, T B F, B F T, ...), each
# `devicebench-cli run --target-accuracy TARGET --epochs BUDGET` on the same images, threads and
# seed, then scores each program's times to target as MLPerf Training does (from 5 runs the
# mean without the fastest and the slowest, else the median; a run that missed counts as the
# slowest) and prints a table: runs that reached it, the score, the spread, the median epoch
# that reached it and the median seconds per epoch, and the score over the first program's.
# Programs: WORKLOAD or WORKLOAD-PRECISION ("tuned-bf16": --workload tuned --precision bf16).
# Then `devicebench-cli compare` of every record (the product's own verdicts and scores).
#
# usage: bench/time_to_accuracy.sh [--target P] [--epochs BUDGET] [--runs N]
#          [--programs "faithful tuned tuned-bf16"] [--train-images N] [--test-images N]
#          [--keep DIR] [DATA_DIR [THREADS]]
# Defaults: --target 50, --epochs 12, --runs 5, all images, THREADS = all cores. Run it on an
# otherwise idle machine (the load average is printed before and after).
set -euo pipefail
source "$(dirname "$0")/common.sh"
target=50 budget=12 runs=5 programs="faithful tuned tuned-bf16" train_images=0 test_images=0
keep=""
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --epochs) budget=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --programs) programs=$2; shift 2 ;;
    --train-images) train_images=$2; shift 2 ;;
    --test-images) test_images=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "time_to_accuracy.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
data="${positional[0]:-$default_data}"
threads="${positional[1]:-$(nproc)}"
bench_prepare time_to_accuracy.sh "$data" "$cli"
out=$tmp
if [ -n "$keep" ]; then mkdir -p "$keep" && out=$(cd "$keep" && pwd); fi
export OMP_NUM_THREADS=$threads
read -r -a order <<<"$programs"

echo "# time to accuracy: target $target %, budget $budget epochs, $runs runs each in rotating order, threads $threads, images ${train_images/#0/all} + ${test_images/#0/all}, $(date -u +%FT%TZ)"
bench_machine_header
echo "# CPU flags for bf16: $(grep -m1 -ow -E 'amx_bf16|avx512_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ' || true)"

run_one() { # $1 program, $2 run number
  local workload=${1%%-*} precision=fp32
  [ "$workload" = "$1" ] || precision=${1#*-}
  "$cli" run --device cpu --threads "$threads" --epochs "$budget" --warmup-epochs 0 \
    --workload "$workload" --precision "$precision" --target-accuracy "$target" \
    --data-dir "$data" --train-images "$train_images" --test-images "$test_images" \
    --record "$out/$1-$2.json" >"$out/$1-$2.txt" 2>&1 ||
    { echo "time_to_accuracy.sh: devicebench-cli failed, see:" >&2; tail -20 "$out/$1-$2.txt" >&2; exit 1; }
  echo "$1 run $2: $(grep -m1 'time to accuracy' "$out/$1-$2.txt" || echo 'no time-to-accuracy line')"
}

n=${#order[@]}
for ((r = 0; r < runs; r++)); do
  for ((i = 0; i < n; i++)); do
    run_one "${order[$(((i + r) % n))]}" "$((r + 1))"
  done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The table, from the records' own time-to-target objects (docs/run-record.md).
/usr/bin/python3 - "$out" "$programs" "$runs" <<'EOF'
import json, math, statistics, sys
out, programs, runs = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
def score(times):  # MLPerf Training: from 5 runs the mean without the extremes, else the median
    times = sorted(times)
    if len(times) >= 5:
        kept = times[1:-1]
        return math.inf if math.isinf(kept[-1]) else sum(kept) / len(kept)
    return statistics.median(times)
print(f"{'program':<12} {'reached':>8} {'score s':>9} {'min-max s':>17} {'epoch':>6} {'s/epoch':>8} {'x first':>8}")
first = None
for p in programs:
    records = [json.load(open(f"{out}/{p}-{r}.json")) for r in range(1, runs + 1)]
    t = [rec["target"] for rec in records]
    times = [x["seconds"] if x["reached"] else math.inf for x in t]
    reached = [x for x in times if math.isfinite(x)]
    s = score(times)
    first = s if first is None else first
    epochs = [x["epoch"] for x in t if x["reached"]]
    per_epoch = statistics.median(e["seconds"] for rec in records for e in rec["epochs"])
    spread = f"{min(reached):.1f}-{max(reached):.1f}" if reached else "n/a"
    ratio = f"{s / first:.3f}" if math.isfinite(s) and math.isfinite(first) else "n/a"
    print(f"{p:<12} {len(reached):>4} of {len(t):<1} {s:>9.1f} {spread:>17} "
          f"{statistics.median(epochs) if epochs else 'n/a':>6} {per_epoch:>8.2f} {ratio:>8}")
EOF
echo
"$cli" compare "$out"/*.json
