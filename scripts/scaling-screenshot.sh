#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Scaling view's picture in docs/: the dashboard, under a virtual display with a
# scratch settings/data folder, imports every run record (*.json) of a folder and shows the
# Scaling tab:
#   scripts/scaling-screenshot.sh RECORDS_FOLDER [OUT_DIR (default docs)]
# Needs Xvfb and a built tree (build/default). The folder holds the records of data-parallel
# jobs of one workload at several world sizes (each job's record and its ranks'), e.g. of
#   devicebench-cli launch --nproc-per-node 2 -- run --device cpu --threads 1 ... --out-dir DIR
# and the same with --nproc-per-node 1 (or a single-process run) for the 1-rank point.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 RECORDS_FOLDER [OUT_DIR]" >&2; exit 2; }
folder=$1 out=${2:-docs}
app=build/default/app/devicebench
display=:${DISPLAY_NUMBER:-95}
shopt -s nullglob
records=("$folder"/*.json "$folder"/reference/*.json) # launch puts its 1-rank job in reference/
[ ${#records[@]} -gt 0 ] || { echo "$0: no *.json record in $folder" >&2; exit 2; }
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
