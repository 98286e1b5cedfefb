#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Parity with the article's loop: runs ../shared/reference/seed_reference.py and
# devicebench-cli alternately (A B A B ...) with the same seed, threads, data and epochs, and
# prints a table of epoch seconds, test loss and test accuracy, with medians and ratios.
# usage: bench/parity.sh [DATA_DIR] [THREADS] [EPOCHS] [PAIRS]
# The reference prints the sum of the 157 per-batch mean test losses; the engine reports the
# mean per test image. The table shows the reference's sum / 157 beside the engine's value
# (10,000 = 156 x 64 + 16, so the two definitions differ by well under 0.1%).
set -euo pipefail
source "$(dirname "$0")/common.sh"
data="${1:-$default_data}"
threads="${2:-2}"
epochs="${3:-1}"
pairs="${4:-1}"
bench_prepare parity.sh "$data" "$cli"

echo "# parity: data $data, threads $threads, epochs $epochs, pairs $pairs, $(date -u +%FT%TZ)"
bench_machine_header
for ((p = 1; p <= pairs; p++)); do
  /usr/bin/python3 "$ref" "$data" "$epochs" "$threads" >"$tmp/ref$p.txt"
  "$cli" run --device cpu --threads "$threads" --epochs "$epochs" --warmup-epochs 0 \
    --data-dir "$data" --csv "$tmp/eng$p.csv" >"$tmp/eng$p.txt"
done

printf '%-10s %5s %5s %10s %12s %10s\n' program pair epoch seconds test_loss accuracy
for ((p = 1; p <= pairs; p++)); do
  awk -v p="$p" '/^epoch/ {printf "%-10s %5d %5d %10.3f %12.4f %10.4f\n", "reference", p, $2, $4, $6/157, $8}' "$tmp/ref$p.txt"
  awk -F, -v p="$p" 'NR > 1 {printf "%-10s %5d %5d %10.3f %12.4f %10.4f\n", "engine", p, $4, $5, $8, $9}' "$tmp/eng$p.csv"
done | tee "$tmp/table.txt"

awk '
  $1 == "reference" && $3 == 1 { rs[++nr] = $4; rl = $5; ra = $6 }
  $1 == "engine" && $3 == 1 { es[++ne] = $4; el = $5; ea = $6 }
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    mr = median(rs, nr); me = median(es, ne)
    printf "epoch 1: median seconds reference %.3f, engine %.3f, ratio engine/reference %.3f\n", mr, me, me / mr
    printf "epoch 1: test accuracy reference %.4f, engine %.4f, difference %+.2f points\n", ra, ea, 100 * (ea - ra)
    printf "epoch 1: test loss reference %.4f, engine %.4f, relative difference %+.2f%%\n", rl, el, 100 * (el - rl) / rl
  }' "$tmp/table.txt"
