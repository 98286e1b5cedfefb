#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `devicebench-cli devices` of a CUDA build that cannot use the driver here: a stand-in driver
# library of CUDA 12.4 (older than the CUDA 13.0 of torch 2.11.0), and one without
# cuDriverGetVersion. Skipped (77) on a machine where a GPU is usable.
# Usage: check_old_driver.sh DEVICEBENCH_CLI FAKE_CUDA_12_4 FAKE_CUDA_NO_VERSION
set -uo pipefail
cli="$1" old="$2" noversion="$3"
failures=0
devices() { DEVICEBENCH_CUDA_DRIVER_LIBRARY="$1" "$cli" devices 2>&1; }
out=$(devices "$old")
echo "$out"
if grep -qE '^ +cuda:[0-9]+ +USABLE' <<<"$out"; then
  echo "skip: a usable CUDA device here (LibTorch found the real driver)"
  exit 77
fi
grep -q "cannot use the NVIDIA driver here: the NVIDIA driver ($old) supports CUDA 12.4; torch 2.11.0 needs CUDA 13.0" <<<"$out" \
  || { echo "FAIL: the driver's CUDA and the one needed are not named"; failures=$((failures + 1)); }
grep -q "Ways forward: (1) update the NVIDIA driver .*DEVICEBENCH_TORCH_VERSION=2.6.0.*DEVICEBENCH_PRESET=default" <<<"$out" \
  || { echo "FAIL: no ways forward"; failures=$((failures + 1)); }
out=$(devices "$noversion")
echo "$out"
grep -q "cannot use the NVIDIA driver here: .* has no cuDriverGetVersion" <<<"$out" \
  || { echo "FAIL: a library without cuDriverGetVersion is not named"; failures=$((failures + 1)); }
[ "$failures" = 0 ] || exit 1
echo "ok: a driver too old and one without cuDriverGetVersion are named, with the ways forward"
