#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The loss chart screenshots in docs/, taken by the dashboard's scripted options under
# a virtual display with a scratch settings/data folder:
#   scripts/chart-screenshots.sh RECORD1.json RECORD2.json [OUT_DIR (default docs)]
# Needs Xvfb and a built tree (build/default). Two records of the same workload on two devices
# or thread counts show what the charts are for.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 RECORD1.json RECORD2.json [OUT_DIR]" >&2; exit 2; }
a=$1 b=$2 out=${3:-docs}
app=build/default/app/devicebench
display=:${DISPLAY_NUMBER:-97}
scratch=$(mktemp -d)
Xvfb "$display" -screen 0 3300x2100x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb; rm -rf "$scratch"' EXIT
sleep 1
shot() { # NAME [options...]
  local name=$1; shift
  rm -rf "$scratch/c" "$scratch/d" "$scratch/k"
  DISPLAY=$display XDG_CONFIG_HOME=$scratch/c XDG_DATA_HOME=$scratch/d XDG_CACHE_HOME=$scratch/k \
    "$app" --import "$a" --import "$b" --theme light --smoothing 0.6 "$@" \
    --screenshot "$out/$name" --quit
  echo "wrote $out/$name"
}
shot charts-smoothing.png --export-png "$out/charts-export.png"
shot charts-zoom-epoch.png --zoom 4:5
shot charts-hover.png --hover 2:500 --hover-bar 2
shot charts-hidden-run.png --hide-run 1
shot charts-time-axis.png --x-axis time
shot charts-light.png --log-scale
shot charts-dark.png --theme dark
QT_SCALE_FACTOR=2 shot charts-200pct.png
