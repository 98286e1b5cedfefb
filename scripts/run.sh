#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's main command: installs what is missing, builds the two programs (devicebench,
# devicebench-cli and what they link; the tests and benchmarks are scripts/test.sh's, into the
# same build folder), and runs the main job.
#  - With a display: opens the dashboard.
#  - Without one: runs the article's experiment headless with devicebench-cli on every
#    "device" this machine has (each usable GPU, and the CPU at 1 thread and at all cores),
#    writing out/comparison.png and out/comparison.csv. The runs are --interleave'd (each in a
#    process of its own, their epochs in alternation), so that a machine whose speed drifts
#    during the experiment slows every run alike (docs/MEASURING.md, "Interleaved runs").
# Data: $DEVICEBENCH_DATA, else ~/.cache/devicebench/cifar-10-batches-bin; with neither, the
# run uses synthetic data and says so. Extra arguments go to `devicebench-cli run`
# (e.g. --epochs 2).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh default devicebench devicebench-cli
bin=build/default/app

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${DEVICEBENCH_HEADLESS:-0}" != 1 ]; then
  exec "$bin/devicebench"
fi

echo "run.sh: no display; running the experiment headless with devicebench-cli"
data_args=()
data="${DEVICEBENCH_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/cifar-10-batches-bin}"
if [ -f "$data/test_batch.bin" ]; then
  data_args=(--data-dir "$data")
else
  echo "run.sh: CIFAR-10 not found at $data: using SYNTHETIC data (times are real, accuracy is meaningless)."
  echo "run.sh: get the real data set: see docs/DATA.md."
  data_args=(--synthetic)
fi
cores=$(nproc)
mkdir -p out
if "$bin/devicebench-cli" devices | grep -qE '^ +cuda:[0-9]+ +USABLE'; then
  "$bin/devicebench-cli" run --device cuda,cpu --threads "$cores" --interleave "${data_args[@]}" \
    --csv out/comparison.csv --png out/comparison.png "$@"
else
  threads=(--threads 1)
  [ "$cores" -gt 1 ] && threads=(--threads "1,$cores" --interleave)
  "$bin/devicebench-cli" run --device cpu "${threads[@]}" "${data_args[@]}" \
    --csv out/comparison.csv --png out/comparison.png "$@"
fi
