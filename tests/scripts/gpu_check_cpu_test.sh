#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest scripts.gpu_check_cpu: scripts/gpu-check.sh --device cpu runs end to end with the
# given devicebench-cli and writes its summary (markdown + CSV), the per-epoch CSV and every
# run record.
# usage: gpu_check_cpu_test.sh CLI DATA_DIR [PYTHON...]
# The article's script needs a python with torch + torchvision: the first of the PYTHONs that
# imports both is used (CMake passes Debian's /usr/bin/python3, python3-torch +
# python3-torchvision, then the PyPI venv). Skips (exit 77, a message saying what is
# missing) when none does, when DATA_DIR holds no CIFAR-10 binary files, or when the article's
# script is neither beside the checkout (../shared/reference/article_script.py) nor in the
# shared folder of DATA_DIR (<shared>/datasets/cifar-10-batches-bin -> <shared>/reference/).
set -euo pipefail
cli=$1 data=$2
shift 2
python=""
for p in "$@"; do
  if [ -x "$p" ] && "$p" -c 'import torch, torchvision' 2>/dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
  echo "SKIP: no python with torch + torchvision among: $* (apt-get install python3-torch python3-torchvision, or pip install torch torchvision)"
  exit 77
fi
if [ ! -f "$data/data_batch_1.bin" ] || [ ! -f "$data/test_batch.bin" ]; then
  echo "SKIP: no CIFAR-10 binary files (data_batch_1.bin, test_batch.bin) in $data (DEVICEBENCH_TEST_DATA)"
  exit 77
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script=""
for s in "$here/../shared/reference/article_script.py" "$data/../../reference/article_script.py"; do
  if [ -f "$s" ]; then script=$(realpath "$s"); break; fi
done
if [ -z "$script" ]; then
  echo "SKIP: the article's script is not at $here/../shared/reference/article_script.py nor at $data/../../reference/article_script.py"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$here/scripts/gpu-check.sh" --device cpu --cli "$cli" --data "$data" --python "$python" --script "$script" \
  --out "$out" --train-images 128 --test-images 64 --threads 2
fail() { echo "FAIL: $*"; exit 1; }
for f in summary.md summary.csv epochs.csv devices.json gpu-check.log runs/control-compare.txt; do
  [ -s "$out/$f" ] || fail "$f not written"
done
for p in script faithful tuned; do
  grep -q "^| $p | 1 | 1 | [0-9.]* | [0-9.]* |" "$out/summary.md" || fail "summary.md has no row for $p"
  grep -q "^$p,cpu,1,1,[0-9.]*,[0-9.]*," "$out/summary.csv" || fail "summary.csv has no row for $p"
  # 2 epochs, 1 round: two rows per program in epochs.csv
  [ "$(grep -c "^$p,1," "$out/epochs.csv")" = 2 ] || fail "epochs.csv lacks the 2 epochs of $p"
done
for r in control-cpu control-cpu-again faithful-1 tuned-1; do
  "$python" -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["epochs"], "no epochs"' \
    "$out/runs/$r.json" || fail "run record runs/$r.json unreadable or empty"
done
diff=$(sed -n 's/^- control, cpu against cpu (seed 1, real subset): largest test-loss difference //p' "$out/summary.md")
awk -v d="$diff" 'BEGIN { exit !(d ~ /^[0-9.e+-]+$/ && d + 0 < 1e-3) }' ||
  fail "the control line (same seed, same device: difference under 1e-3) is missing or off: '$diff'"
# 7. precision on the CPU: fp32 and bf16 side by side, bf16 against fp32, both finished.
[ -s "$out/precision.md" ] || fail "precision.md not written"
grep -q "^| fp32 | [0-9.]* | 1.000 | [0-9.]* % | 0 | finished |" "$out/precision.md" ||
  fail "precision.md has no fp32 row: $(cat "$out/precision.md")"
grep -q "^| bf16 | [0-9.]* | [0-9.]* | [0-9.]* % | 0 | finished | bf16 " "$out/precision.md" ||
  fail "precision.md has no bf16 row with its note: $(cat "$out/precision.md")"
# 9. the tuned run's system readings: one row per stable epoch (1 round, 2 epochs, 1 warm-up),
# and on the CPU no GPU energy, with the reason.
[ -s "$out/energy.md" ] || fail "energy.md not written"
grep -q "^| tuned-1 | 2 | - | - | - | none: " "$out/energy.md" ||
  fail "energy.md has no row for the tuned run's stable epoch: $(cat "$out/energy.md")"
echo "OK: gpu-check.sh --device cpu wrote summary.md, summary.csv, epochs.csv, precision.md, energy.md and every run record"
