#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures and builds a preset (default: "default" = release with tests) into build/<preset>:
# every target of it, or only the TARGETs given and what they link.
#   scripts/build.sh [--plan] [PRESET [TARGET...]]
# The presets against PyTorch's CUDA LibTorch (cuda, ci-cuda, bundle) first make sure its venv
# exists (scripts/install-torch.sh; skipped when present), for DEVICEBENCH_TORCH_VERSION when set
# (a torch of engine/device/src/torch_cuda_pins.inc; the presets' pin otherwise).
# PRESET (a build preset of CMakePresets.json) and the variables are checked first: a bad one
# exits 2 before anything is installed or configured. --plan checks and says what it would do.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/checks.sh
plan=0
case "${1:-}" in
  --plan) plan=1; shift ;;
  -h | --help) devicebench_help ;;
  -*) devicebench_unknown_option "$1" --plan --help ;;
esac
preset="${1:-default}"
devicebench_check_preset PRESET "$preset" build
devicebench_check_build_settings
if [ "$plan" = 1 ]; then
  what="every target"
  [ $# -le 1 ] || what="the targets ${*:2}"
  echo "build.sh --plan: would configure preset $preset and build $what"
  exit 0
fi
configure_args=()
case "$preset" in
  cuda|ci-cuda|bundle)
    scripts/install-torch.sh >/dev/null
    if [ -n "${DEVICEBENCH_TORCH_VERSION:-}" ]; then
      configure_args=(-DDEVICEBENCH_TORCH_VERSION="$DEVICEBENCH_TORCH_VERSION")
    fi ;;
esac
cmake --preset "$preset" "${configure_args[@]}" >/dev/null
build_args=(--preset "$preset" -j "$(nproc)")
if [ $# -gt 1 ]; then build_args+=(--target "${@:2}"); fi
cmake --build "${build_args[@]}"
