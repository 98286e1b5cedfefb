#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures and builds a preset (default: "default" = release with tests) into build/<preset>:
# every target of it, or only the TARGETs given and what they link.
#   scripts/build.sh [PRESET [TARGET...]]
# The presets against PyTorch's CUDA LibTorch (cuda, ci-cuda, bundle) first make sure its venv
# exists (scripts/install-torch.sh; skipped when present), for DEVICEBENCH_TORCH_VERSION when set
# (a torch of engine/device/src/torch_cuda_pins.inc; the presets' pin otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
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
