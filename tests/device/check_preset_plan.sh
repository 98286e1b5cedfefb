#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# devicebench-driver-check's exit statuses, and which preset scripts/run.sh and scripts/test.sh
# choose (--plan: nothing installed, built or run) with stand-in NVIDIA drivers: none, one of
# CUDA 12.4 (too old for torch 2.11.0), one of CUDA 13.0, one without cuDriverGetVersion, and
# the overrides DEVICEBENCH_PRESET and DEVICEBENCH_TORCH_VERSION.
# Usage: check_preset_plan.sh SOURCE_DIR DRIVER_CHECK FAKE_CUDA_12_4 FAKE_CUDA_13_0 FAKE_NO_VERSION
set -uo pipefail
source_dir="$1" tool="$2" cuda124="$3" cuda130="$4" noversion="$5"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# The CPU build's words name the installed libtorch-dev's version (1.13.1 on Debian 12, 2.6.0 on
# Debian 13), or say that it is not installed yet.
debian_torch="\(libtorch-dev, not installed yet\)"
if [[ "$(dpkg-query -W -f='${Status}' libtorch-dev 2>/dev/null)" == "install ok installed" ]]; then
  debian_torch="$(dpkg-query -W -f='${Version}' libtorch-dev | sed -E 's/^([0-9]+:)?([0-9.]+).*/\2/')"
fi

# Runs "$@" with the stand-in driver library $1 (and no kernel module file); sets out and rc.
with_driver() {
  local library="$1"
  shift
  out="$(env -u DISPLAY -u WAYLAND_DISPLAY -u DEVICEBENCH_PRESET -u DEVICEBENCH_TORCH_VERSION \
    DEVICEBENCH_CUDA_DRIVER_LIBRARY="$library" DEVICEBENCH_NVIDIA_VERSION_FILE="$tmp/no-module" \
    DEVICEBENCH_DRIVER_CHECK="$tool" DEVICEBENCH_TORCH_VENV="$tmp/no-venv" "$@" 2>&1)"
  rc=$?
}
expect_rc() { [ "$rc" = "$1" ] || fail "$2: exit $rc, expected $1; output: $out"; }
expect_line() { grep -qE -- "$1" <<<"$out" || fail "$2: no line matching '$1' in: $out"; }
expect_no_line() { ! grep -qE -- "$1" <<<"$out" || fail "$2: a line matching '$1' in: $out"; }

# The tool: its exit status says the verdict.
with_driver "$tmp/no-libcuda.so.1" "$tool";  expect_rc 10 "no driver"
expect_line "^no NVIDIA driver: " "no driver"
with_driver "$cuda124" "$tool";  expect_rc 12 "CUDA 12.4"
expect_line "supports CUDA 12.4; torch 2.11.0 needs CUDA 13.0$" "CUDA 12.4"
expect_line "^Ways forward: .*DEVICEBENCH_TORCH_VERSION=2.6.0 scripts/run.sh" "CUDA 12.4"
with_driver "$cuda124" "$tool" --torch 2.6.0;  expect_rc 0 "CUDA 12.4, torch 2.6.0"
with_driver "$cuda130" "$tool";  expect_rc 0 "CUDA 13.0"
with_driver "$noversion" "$tool";  expect_rc 11 "no cuDriverGetVersion"
expect_line "has no cuDriverGetVersion" "no cuDriverGetVersion"
with_driver "$cuda130" "$tool" --torch 9.9.9;  expect_rc 2 "unknown torch"
expect_line "torch '9.9.9' is not in DeviceBench's table" "unknown torch"

# run.sh --plan: the build line, then what it would do.
with_driver "$tmp/no-libcuda.so.1" "$source_dir/scripts/run.sh" --plan
expect_rc 0 "run.sh, no driver"
expect_line "^run.sh: build: default \(Debian's LibTorch $debian_torch, CPU only\): no NVIDIA driver: " "run.sh, no driver"
expect_line "^run.sh --plan: would run the experiment headless on the CPU at 1 and [0-9]+ threads, records in out/runs/" "run.sh, no driver"
expect_no_line "downloaded once" "run.sh, no driver"

with_driver "$cuda130" "$source_dir/scripts/run.sh" --plan
expect_rc 0 "run.sh, CUDA 13.0"
expect_line "^run.sh: build: cuda \(PyPI torch 2.11.0's CUDA LibTorch\): the NVIDIA driver \(.*\) supports CUDA 13.0, enough for torch 2.11.0 \(CUDA 13.0\); DEVICEBENCH_PRESET=default for the CPU build$" "run.sh, CUDA 13.0"
expect_line "^run.sh: first, PyPI's torch 2.11.0 with its CUDA libraries is downloaded once into $tmp/no-venv \(about 4 GB" "run.sh, CUDA 13.0"
expect_line "^run.sh --plan: would build devicebench devicebench-cli \(preset cuda\) into build/cuda$" "run.sh, CUDA 13.0"
expect_line "^run.sh --plan: would run the experiment headless on each GPU that passes its probe and the CPU" "run.sh, CUDA 13.0"

with_driver "$cuda124" "$source_dir/scripts/run.sh" --plan
expect_rc 0 "run.sh, CUDA 12.4"
expect_line "^run.sh: build: default .*supports CUDA 12.4; torch 2.11.0 needs CUDA 13.0: the GPU build cannot run here, so the CPU build$" "run.sh, CUDA 12.4"
expect_line "^run.sh: Ways forward: \(1\) update the NVIDIA driver to one that supports CUDA 13.0 \(driver 580.65.06 or newer\); \(2\) .*DEVICEBENCH_TORCH_VERSION=2.6.0 .*\(3\) the CPU build: DEVICEBENCH_PRESET=default" "run.sh, CUDA 12.4"

with_driver "$noversion" "$source_dir/scripts/run.sh" --plan
expect_line "^run.sh: build: default .*has no cuDriverGetVersion.*so the CPU build$" "run.sh, no cuDriverGetVersion"

# The overrides: a pin whose CUDA fits the old driver; a preset asked for.
with_driver "$cuda124" env DEVICEBENCH_TORCH_VERSION=2.6.0 "$source_dir/scripts/run.sh" --plan
expect_line "^run.sh: build: cuda \(PyPI torch 2.6.0's CUDA LibTorch\): .*supports CUDA 12.4, enough for torch 2.6.0 \(CUDA 12.4\)" "run.sh, torch 2.6.0"
with_driver "$cuda124" env DEVICEBENCH_TORCH_VERSION=9.9.9 "$source_dir/scripts/run.sh" --plan
expect_rc 2 "run.sh, torch 9.9.9"
expect_line "^scripts/run.sh: DEVICEBENCH_TORCH_VERSION '9.9.9' is not a torch of DeviceBench's table.*\(use: 2\.11\.0" "run.sh, torch 9.9.9"
with_driver "$cuda130" env DEVICEBENCH_PRESET=default "$source_dir/scripts/run.sh" --plan
expect_line "^run.sh: build: default \(Debian's LibTorch $debian_torch, CPU only\): DEVICEBENCH_PRESET=default; the NVIDIA driver" "run.sh, DEVICEBENCH_PRESET=default"
with_driver "$tmp/no-libcuda.so.1" env DEVICEBENCH_PRESET=cuda "$source_dir/scripts/run.sh" --plan
expect_line "^run.sh: build: cuda .*: DEVICEBENCH_PRESET=cuda; no NVIDIA driver" "run.sh, DEVICEBENCH_PRESET=cuda"
with_driver "$cuda130" env DISPLAY=:99 "$source_dir/scripts/run.sh" --plan
expect_line "^run.sh --plan: would open the dashboard \(build/cuda/app/devicebench\)$" "run.sh, a display"

# test.sh --plan: the same choice.
with_driver "$cuda130" "$source_dir/scripts/test.sh" --plan
expect_rc 0 "test.sh, CUDA 13.0"
expect_line "^test.sh: build: cuda \(PyPI torch 2.11.0's CUDA LibTorch\): " "test.sh, CUDA 13.0"
expect_line "^test.sh --plan: would build every target of preset cuda into build/cuda and run ctest --preset cuda$" "test.sh, CUDA 13.0"
with_driver "$tmp/no-libcuda.so.1" "$source_dir/scripts/test.sh" --plan
expect_line "^test.sh: build: default \(Debian's LibTorch $debian_torch, CPU only\): no NVIDIA driver" "test.sh, no driver"
with_driver "$cuda124" env DEVICEBENCH_PRESET=asan "$source_dir/scripts/test.sh" --plan
expect_line "^test.sh --plan: would build every target of preset asan into build/asan" "test.sh, DEVICEBENCH_PRESET=asan"

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "ok: the driver check's statuses and the preset choice of run.sh and test.sh"
