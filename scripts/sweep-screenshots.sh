#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Sweep view's pictures in docs/: a screenshot of the dashboard on a sweep folder
# and the sweep picture it exports, taken by the dashboard's scripted options under a virtual
# display with a scratch settings/data folder:
#   scripts/sweep-screenshots.sh SWEEP_FOLDER [BASELINE (default: the first device)] [OUT_DIR (default docs)]
# Needs Xvfb and a built tree (build/default). Make the folder with devicebench-cli sweep, e.g.
#   devicebench-cli sweep --model small-cnn --batch-size 16,64,256 --device cpu --threads 1,2 \
#       --steps 10 --warmup-steps 2 --synthetic --out-dir /tmp/sweep
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 SWEEP_FOLDER [BASELINE] [OUT_DIR]" >&2; exit 2; }
folder=$1 baseline=${2:-} out=${3:-docs}
app=build/default/app/devicebench
display=:${DISPLAY_NUMBER:-96}
scratch=$(mktemp -d)
Xvfb "$display" -screen 0 3300x2100x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb; rm -rf "$scratch"' EXIT
sleep 1
args=(--sweep-folder "$folder")
[ -z "$baseline" ] || args+=(--sweep-baseline "$baseline")
DISPLAY=$display XDG_CONFIG_HOME=$scratch/c XDG_DATA_HOME=$scratch/d XDG_CACHE_HOME=$scratch/k \
  "$app" --theme light "${args[@]}" --sweep-export-png "$out/sweep-example.png" \
  --screenshot "$out/dashboard-sweep.png" --quit
echo "wrote $out/dashboard-sweep.png and $out/sweep-example.png"
