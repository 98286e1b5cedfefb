#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ResNet-18 training steps, the engine against Python PyTorch on the same LibTorch, side by
# side in one session (target: the engine's step time within 1.3 x Python's).
# For each torch version asked for, in alternating order (E P, P E, ...) for ROUNDS rounds:
#   E  devicebench-cli sweep --model resnet18 --batch-size B --device cpu --threads N
#      --warmup-steps W --steps S --phase-steps 0 --synthetic (one cell: median step time
#      of S timed steps, from its CSV's images_per_s)
#   P  bench/model_step.py: the same step in Python (torchvision's resnet18, CIFAR stem), same
#      batch size, threads, warm-up and timed steps, on synthetic images
# Versions: 1.13 = build/default's CLI (Debian libtorch 1.13.1) against /usr/bin/python3
# (python3-torch 1.13.1); 2.11 = build/cuda's CLI (PyPI torch's LibTorch) against the pinned
# venv's python. A version whose CLI or python is missing is SKIPPED, said so.
# Prints each round, then per version the median over rounds of each program's images/s and
# the ratio engine step time / Python step time (target: <= 1.3).
#
# usage: bench/model_step.sh [--torch 1.13|2.11|both] [BATCH [THREADS [ROUNDS [STEPS]]]]
# Defaults: both, batch 64, THREADS = all cores, ROUNDS 3, STEPS 10 (3 warm-up steps).
set -euo pipefail
source "$(dirname "$0")/common.sh"
versions="1.13 2.11"
if [ "${1:-}" = --torch ]; then
  case "$2" in both) ;; 1.13|2.11) versions=$2 ;; *) echo "model_step: --torch 1.13|2.11|both" >&2; exit 2 ;; esac
  shift 2
fi
batch=${1:-64} threads=${2:-$(nproc)} rounds=${3:-3} steps=${4:-10} warmup=3
python211="${DEVICEBENCH_PYTHON_211:-/root/.cache/devicebench/venv-torch2.11.0/bin/python}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cli_for() { [ "$1" = 1.13 ] && echo "$here/build/default/app/devicebench-cli" || echo "$here/build/cuda/app/devicebench-cli"; }
python_for() { [ "$1" = 1.13 ] && echo /usr/bin/python3 || echo "$python211"; }

engine_ips() { # VERSION ROUND -> images/s
  local out="$tmp/e-$1-$2"
  OMP_NUM_THREADS=$threads "$(cli_for "$1")" sweep --model resnet18 --batch-size "$batch" \
    --device cpu --threads "$threads" --warmup-steps $warmup --steps "$steps" --phase-steps 0 \
    --synthetic --out-dir "$out" --csv "$out.csv" >/dev/null 2>"$out.err" ||
    { cat "$out.err" >&2; exit 1; }
  python3 - "$out.csv" <<'PY'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
print(row["images_per_s"])
PY
}
python_ips() { # VERSION -> images/s
  OMP_NUM_THREADS=$threads "$(python_for "$1")" "$here/bench/model_step.py" --batch-size "$batch" \
    --threads "$threads" --warmup-steps $warmup --steps "$steps" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["images_per_s"])'
}

bench_machine_header
echo "# resnet18 (CIFAR form), batch $batch, $threads threads, $warmup warm-up + $steps timed steps, synthetic images, $rounds rounds"
printf '%-5s %-6s %-8s %12s\n' torch round program images/s
for v in $versions; do
  if [ ! -x "$(cli_for "$v")" ] || ! "$(python_for "$v")" -c 'import torch, torchvision' 2>/dev/null; then
    echo "$v: SKIPPED ($(cli_for "$v") or $(python_for "$v") with torch + torchvision missing)"
    continue
  fi
  : >"$tmp/$v.e"; : >"$tmp/$v.p"
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then order="E P"; else order="P E"; fi
    for p in $order; do
      if [ "$p" = E ]; then ips=$(engine_ips "$v" "$r"); echo "$ips" >>"$tmp/$v.e"; name=engine
      else ips=$(python_ips "$v"); echo "$ips" >>"$tmp/$v.p"; name=python; fi
      printf '%-5s %-6s %-8s %12.2f\n' "$v" "$r" "$name" "$ips"
    done
  done
done
echo
echo "# medians over rounds; ratio = engine step time / Python step time (target <= 1.3)"
printf '%-5s %16s %16s %8s\n' torch engine_images/s python_images/s ratio
for v in $versions; do
  [ -s "$tmp/$v.e" ] || continue
  python3 - "$v" "$tmp/$v.e" "$tmp/$v.p" <<'PY'
import statistics, sys
v, e, p = sys.argv[1], [float(x) for x in open(sys.argv[2])], [float(x) for x in open(sys.argv[3])]
me, mp = statistics.median(e), statistics.median(p)
print(f"{v:<5} {me:16.2f} {mp:16.2f} {mp / me:8.3f}")
PY
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
