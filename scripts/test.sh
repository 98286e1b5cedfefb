#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: installs what is missing, builds the whole preset (the tests,
# benchmarks and fuzz replays beside the two programs; objects scripts/run.sh built are
# reused), runs every test with ctest. The preset: DEVICEBENCH_PRESET, else `cuda` where an
# NVIDIA driver runs PyPI torch's CUDA, else `default` (scripts/preset.sh; one line says which
# and why). `scripts/test.sh --plan` checks the settings, prints that choice and does nothing
# else. A bad setting (a preset without tests, a torch not in the table, ...) exits 2 first.
# Tests that need the real CIFAR-10 look in $DEVICEBENCH_TEST_DATA, else in
# ../shared/datasets/cifar-10-batches-bin, and skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preset.sh
devicebench_parse_plan_args none "$@"
# Every setting checked before anything is installed (scripts/checks.sh): exit 2 on a bad one.
devicebench_check_preset DEVICEBENCH_PRESET "${DEVICEBENCH_PRESET:-}" test
devicebench_check_build_settings
devicebench_check_data DEVICEBENCH_TEST_DATA "${DEVICEBENCH_TEST_DATA:-}"
if [ "$plan" = 1 ]; then
  devicebench_choose_preset cuda default
  devicebench_say_preset test.sh
  echo "test.sh --plan: would build every target of preset $preset into $(devicebench_build_dir "$preset") and run ctest --preset $preset"
  exit 0
fi
scripts/install-deps.sh
devicebench_choose_preset cuda default
devicebench_say_preset test.sh
# The pin of a CUDA build, for scripts/build.sh and install-torch.sh (the CPU build keeps theirs).
devicebench_preset_uses_pypi_torch "$preset" && export DEVICEBENCH_TORCH_VERSION="$torch_version"
# The pinned PyPI torch (a venv): LibTorch for the cuda presets, and TensorBoard's own reader
# and torchvision for tests/tensorboard and tests/scripts. Skipped when present.
scripts/install-torch.sh >/dev/null
# The CIFAR-10 speed record's package in that venv: the speedrun's reference (reference/airbench).
scripts/install-airbench.sh >/dev/null
scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
