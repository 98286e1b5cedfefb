#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Scaling view's picture in docs/: the dashboard, under a virtual display with a
# scratch settings/data folder, imports every run record (*.json) of a folder and shows the
# Scaling tab:
#   scripts/scaling-screenshot.sh [--plan] RECORDS_FOLDER [OUT_DIR (default docs)]
# The arguments, DISPLAY_NUMBER (the display Xvfb opens, default 95) and VIEW (the tab: runs,
# system, accuracy, sweep or scaling, the default) are checked first: a bad one exits 2;
# --plan checks and says what it would write.
# Needs Xvfb and a built tree (build/default). The folder holds the records of data-parallel
# jobs of one workload at several world sizes (each job's record and its ranks'), e.g. of
#   devicebench-cli launch --nproc-per-node 2 -- run --device cpu --threads 1 ... --out-dir DIR
# and the same with --nproc-per-node 1 (or a single-process run) for the 1-rank point.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/checks.sh
devicebench_parse_plan_args positional "$@"
[ ${#args[@]} -ge 1 ] && [ ${#args[@]} -le 2 ] ||
  devicebench_refuse "usage: scripts/scaling-screenshot.sh [--plan] RECORDS_FOLDER [OUT_DIR]"
folder=${args[0]} out=${args[1]:-docs}
app=build/default/app/devicebench
# Every argument checked before Xvfb starts: exit 2. VIEW: the dashboard's --view values.
devicebench_check_dir RECORDS_FOLDER "$folder"
devicebench_check_writable_dir OUT_DIR "$out"
devicebench_check_count DISPLAY_NUMBER "${DISPLAY_NUMBER:-}" 0
devicebench_check_one_of VIEW "${VIEW:-}" runs system accuracy sweep scaling
shopt -s nullglob
records=("$folder"/*.json "$folder"/reference/*.json) # launch puts its 1-rank job in reference/
[ ${#records[@]} -gt 0 ] || devicebench_refuse "RECORDS_FOLDER '$folder' holds no *.json record"
devicebench_check_screenshot_tools "$app"
display=:${DISPLAY_NUMBER:-95}
if [ "$plan" = 1 ]; then
  echo "scaling-screenshot.sh --plan: would write $out/dashboard-${VIEW:-scaling}.png of ${#records[@]} records"
  exit 0
fi
mkdir -p "$out"
args=()
for record in "${records[@]}"; do args+=(--import "$record"); done
scratch=$(mktemp -d)
Xvfb "$display" -screen 0 3300x2100x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb; rm -rf "$scratch"' EXIT
sleep 1
DISPLAY=$display XDG_CONFIG_HOME=$scratch/c XDG_DATA_HOME=$scratch/d XDG_CACHE_HOME=$scratch/k \
  "$app" --theme light "${args[@]}" --view "${VIEW:-scaling}" --screenshot "$out/dashboard-${VIEW:-scaling}.png" --quit
echo "wrote $out/dashboard-${VIEW:-scaling}.png"
