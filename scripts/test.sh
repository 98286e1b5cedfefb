#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: installs what is missing, builds, runs every test with ctest.
# Tests that need the real CIFAR-10 look in $DEVICEBENCH_TEST_DATA, else in
# ../shared/datasets/cifar-10-batches-bin, and skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
preset="${DEVICEBENCH_PRESET:-default}"
scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
