#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Sweep view's pictures in docs/: a screenshot of the dashboard on a sweep folder
# and the sweep picture it exports, taken by the dashboard's scripted options under a virtual
# display with a scratch settings/data folder:
#   scripts/sweep-screenshots.sh [--plan] SWEEP_FOLDER [BASELINE (default: the first device)] [OUT_DIR (default docs)]
# The folders and DISPLAY_NUMBER (the display Xvfb opens, default 96) are checked first: a bad
# one exits 2; --plan checks and says what it would write.
# Needs Xvfb and a built tree (build/default). Make the folder with devicebench-cli sweep, e.g.
#   devicebench-cli sweep --model small-cnn --batch-size 16,64,256 --device cpu --threads 1,2 \
#       --steps 10 --warmup-steps 2 --synthetic --out-dir /tmp/sweep
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/checks.sh
devicebench_parse_plan_args positional "$@"
[ ${#args[@]} -ge 1 ] && [ ${#args[@]} -le 3 ] ||
  devicebench_refuse "usage: scripts/sweep-screenshots.sh [--plan] SWEEP_FOLDER [BASELINE] [OUT_DIR]"
folder=${args[0]} baseline=${args[1]:-} out=${args[2]:-docs}
app=build/default/app/devicebench
# Every argument checked before Xvfb starts: exit 2 (BASELINE is the dashboard's to check).
devicebench_check_dir SWEEP_FOLDER "$folder"
devicebench_check_writable_dir OUT_DIR "$out"
devicebench_check_count DISPLAY_NUMBER "${DISPLAY_NUMBER:-}" 0
devicebench_check_screenshot_tools "$app"
display=:${DISPLAY_NUMBER:-96}
if [ "$plan" = 1 ]; then
  echo "sweep-screenshots.sh --plan: would write $out/dashboard-sweep.png and $out/sweep-example.png of $folder"
  exit 0
fi
mkdir -p "$out"
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
