#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Speed against the article's loop, side by side in one session.
# Measures the machine's convolution throughput (bench/conv_throughput), then runs, in
# rotating order (R F T, F T R, T R F, ...), for PAIRS rounds:
#   R  ../shared/reference/seed_reference.py (the article's PyTorch loop, python3-torch 1.13.1)
#   F  devicebench-cli run --workload faithful
#   T  devicebench-cli run --workload tuned
# each for EPOCHS epochs on the same data with the same threads and seed, and prints every
# epoch, then per program: median seconds per epoch, ratio to the reference, images/s,
# achieved GFLOP/s (the epoch's arithmetic over its time), that as a share of the measured
# convolution throughput, and how far the epoch is from the floor (arithmetic / throughput).
# Targets (speed issue): faithful <= 0.85 x reference, tuned <= 0.55 x reference.
# usage: bench/speed.sh [DATA_DIR] [THREADS] [PAIRS] [EPOCHS]
# Run it on an otherwise idle machine: with every core training, any other load slows an
# epoch many times over.
set -euo pipefail
source "$(dirname "$0")/common.sh"
data="${1:-$default_data}"
threads="${2:-$(nproc)}"
pairs="${3:-3}"
epochs="${4:-1}"
conv="$build/bench/conv_throughput"
bench_prepare speed.sh "$data" "$cli" "$conv"

echo "# speed: data $data, threads $threads, epochs $epochs, rounds $pairs, $(date -u +%FT%TZ)"
bench_machine_header

"$conv" --threads "$threads" | tee "$tmp/conv.txt"
throughput=$(awk '/^conv throughput:/ {print $3}' "$tmp/conv.txt")
tflop=$(awk '/^epoch arithmetic:/ {print $3}' "$tmp/conv.txt")

run_reference() { # $1 round
  /usr/bin/python3 "$ref" "$data" "$epochs" "$threads" >"$tmp/ref$1.txt"
  awk -v p="$1" '/^epoch/ {printf "%-10s %5d %5d %10.3f %10.4f\n", "reference", p, $2, $4, $8}' "$tmp/ref$1.txt"
}
run_engine() { # $1 round, $2 workload
  "$cli" run --device cpu --threads "$threads" --epochs "$epochs" --warmup-epochs 0 \
    --workload "$2" --data-dir "$data" --csv "$tmp/$2$1.csv" >"$tmp/$2$1.txt"
  # CSV columns: ..., 4 epoch, 5 seconds, ..., 9 test accuracy (docs: the per-epoch CSV).
  awk -F, -v p="$1" -v w="$2" 'NR > 1 {printf "%-10s %5d %5d %10.3f %10.4f\n", w, p, $4, $5, $9}' "$tmp/$2$1.csv"
}

echo
printf '%-10s %5s %5s %10s %10s\n' program round epoch seconds accuracy
programs=(reference faithful tuned)
for ((p = 1; p <= pairs; p++)); do
  for ((k = 0; k < 3; k++)); do
    prog=${programs[$(((p - 1 + k) % 3))]}
    if [ "$prog" = reference ]; then run_reference "$p"; else run_engine "$p" "$prog"; fi
  done
done | tee "$tmp/table.txt"

echo
awk -v tput="$throughput" -v tflop="$tflop" '
  { s[$1, ++n[$1]] = $4; acc[$1] = $5 }
  function median(prog,   i, j, t, k, a) {
    k = n[prog]
    for (i = 1; i <= k; i++) a[i] = s[prog, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    mr = median("reference")
    floor = tflop * 1000 / tput
    printf "%-10s %8s %10s %8s %9s %9s %8s %8s %9s\n", "program", "epochs", "median s", "ratio", "images/s", "GFLOP/s", "of conv", "x floor", "target"
    split("reference faithful tuned", order, " ")
    target["faithful"] = 0.85; target["tuned"] = 0.55
    for (i = 1; i <= 3; i++) {
      prog = order[i]; m = median(prog)
      t = prog in target ? sprintf("<= %.2f %s", target[prog], m / mr <= target[prog] ? "met" : "MISSED") : "-"
      printf "%-10s %8d %10.3f %8.3f %9.0f %9.1f %7.0f%% %8.2f %s\n", prog, n[prog], m, m / mr, 60000 / m, tflop * 1000 / m, 100 * tflop * 1000 / m / tput, m / floor, t
    }
    printf "conv throughput %.1f GFLOP/s; epoch arithmetic %.3f TFLOP; floor %.2f s per epoch\n", tput, tflop, floor
    printf "final test accuracy after the last epoch: reference %.4f, faithful %.4f, tuned %.4f\n", acc["reference"], acc["faithful"], acc["tuned"]
  }' "$tmp/table.txt"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
