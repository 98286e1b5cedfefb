#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `devicebench-cli devices` of a CUDA build: exit 0, says CUDA is compiled in, and either lists
# a usable cuda:N (a GPU machine) or says why CUDA is unusable (here: no GPU, no driver).
# Usage: check_devices.sh DEVICEBENCH_CLI
set -uo pipefail
out=$("$1" devices 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || { echo "FAIL: devices exited $rc, expected 0"; exit 1; }
grep -q "cudaBuilt: yes" <<<"$out" || { echo "FAIL: no 'cudaBuilt: yes' in a CUDA build"; exit 1; }
if grep -qE '^ +cuda:[0-9]+ +USABLE' <<<"$out"; then
  echo "ok: a usable CUDA device"
  exit 0
fi
grep -qE '^ +cuda(:[0-9]+)? +UNUSABLE' <<<"$out" || { echo "FAIL: no cuda line"; exit 1; }
grep -q "^No CUDA device is usable here: .*has CUDA, but no CUDA device is visible" <<<"$out" \
  || { echo "FAIL: no reason why CUDA is unusable"; exit 1; }
echo "ok: exit 0, CUDA compiled in, the reason it is unusable given"
