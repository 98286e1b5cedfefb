#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: installs what is missing, builds the whole preset (the tests,
# benchmarks and fuzz replays beside the two programs; objects scripts/run.sh built are
# reused), runs every test with ctest. DEVICEBENCH_PRESET chooses the preset (default: default).
# Tests that need the real CIFAR-10 look in $DEVICEBENCH_TEST_DATA, else in
# ../shared/datasets/cifar-10-batches-bin, and skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The pinned PyPI torch (a venv): LibTorch 2.11 for the cuda presets, and TensorBoard's own
# reader and torchvision for tests/tensorboard and tests/scripts. Skipped when present.
scripts/install-torch.sh >/dev/null
preset="${DEVICEBENCH_PRESET:-default}"
scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
