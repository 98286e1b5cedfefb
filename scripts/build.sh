#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures and builds a preset (default: "default" = release with tests) into build/<preset>.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
