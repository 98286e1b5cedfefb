#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest scripts.gpu_check_takes_the_bundles_launcher: scripts/gpu-check.sh --bundle TAR runs the
# bundle's launcher (bin/devicebench-runner, which finds PyTorch's LibTorch), not the binary it
# starts (libexec/devicebench-cli, which alone finds no LibTorch: it used to be picked, and
# the check failed at its first step), from a .tar.gz and from an uncompressed .tar alike.
# Stand-ins for the bundle, the Python and the data: nothing is trained.
# usage: gpu_check_bundle_test.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

name=devicebench-runner-0.0.0-torch0.0.0-linux-x86_64
mkdir -p "$work/stage/$name/bin" "$work/stage/$name/libexec" "$work/data"
# The launcher answers; the bare binary says what it says without the launcher's library path.
printf '#!/bin/sh\necho "devicebench-cli 0.0.0 (launcher)"\n' >"$work/stage/$name/bin/devicebench-runner"
printf '#!/bin/sh\necho "libtorch_cpu.so: cannot open shared object file" >&2\nexit 127\n' \
  >"$work/stage/$name/libexec/devicebench-cli"
chmod 755 "$work/stage/$name/bin/devicebench-runner" "$work/stage/$name/libexec/devicebench-cli"
printf '#!/bin/sh\necho "3.0 torch 0.0.0 torchvision 0.0.0"\n' >"$work/python"
chmod 755 "$work/python"
: >"$work/script.py"
: >"$work/data/data_batch_1.bin"
: >"$work/data/test_batch.bin"
tar -C "$work/stage" -czf "$work/bundle.tar.gz" "$name"
tar -C "$work/stage" -cf "$work/bundle.tar" "$name"

for tarball in "$work/bundle.tar.gz" "$work/bundle.tar"; do
  out="$work/out-$(basename "$tarball")"
  # It fails later (the stand-ins train nothing); only which program it took matters here.
  "$src/scripts/gpu-check.sh" --device cpu --bundle "$tarball" --python "$work/python" \
    --script "$work/script.py" --data "$work/data" --out "$out" >"$work/log" 2>&1 || true
  first=$(sed -n 1p "$out/gpu-check.log" 2>/dev/null || true)
  case "$first" in
    *"cli $out/bundle/$name/bin/devicebench-runner (devicebench-cli 0.0.0 (launcher))"*)
      echo "ok: $(basename "$tarball"): $first" ;;
    *) cat "$work/log" >&2; fail "$(basename "$tarball"): gpu-check did not take the launcher: '$first'" ;;
  esac
done
