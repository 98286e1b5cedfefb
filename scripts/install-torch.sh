#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the PyTorch that the `cuda`, `ci-cuda` and `bundle` presets build against (docs/GPU.md):
# a venv with the pinned PyPI wheels below, whose torch carries a complete CUDA 13.0 LibTorch
# (torch/include, torch/lib, torch/share/cmake). Skips pip entirely when the venv already holds
# exactly these versions. Prints the venv's path on its last line.
#
#   scripts/install-torch.sh            # venv: $DEVICEBENCH_TORCH_VENV, else
#                                       # ${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch2.11.0
#   PYTHON=python3.12 scripts/install-torch.sh   # the Python that makes the venv (3.10-3.14)
#
#   DEVICEBENCH_TORCH_VERSION=2.6.0 scripts/install-torch.sh   # another torch of the table
#
# The pins: torch 2.11.0 is the GPU machine's version (2.11.0+cu130) and PyPI's default Linux
# x86-64 wheel of it is built for CUDA 13.0, the toolkit at /usr/local/cuda-13.0 here;
# torchvision 0.26.0 is the release made for torch 2.11; tensorboard 2.21.0 is what pip resolved
# for tests/tensorboard and bench/. Keep them in step with DEVICEBENCH_TORCH_VERSION in
# CMakePresets.json. Another torch (for a driver whose CUDA is older than 13.0) comes with its
# torchvision from the table in engine/device/src/torch_cuda_pins.inc (scripts/preset.sh).
# The settings (DEVICEBENCH_TORCH_VERSION, DEVICEBENCH_TORCH_VENV, PYTHON) are checked before
# anything is made: a bad one exits 2. `scripts/install-torch.sh --plan` checks and says what
# it would install where.
set -euo pipefail
source "$(dirname "$0")/preset.sh"
devicebench_parse_plan_args none "$@"

torch_pin=2.11.0 # the pin CI builds (cmake/Python.cmake reads this line)
devicebench_check_torch_version DEVICEBENCH_TORCH_VERSION "${DEVICEBENCH_TORCH_VERSION:-}"
devicebench_check_venv DEVICEBENCH_TORCH_VENV "${DEVICEBENCH_TORCH_VENV:-}"
devicebench_check_program PYTHON "${PYTHON:-}"
torch_version="${DEVICEBENCH_TORCH_VERSION:-$torch_pin}"
torchvision_version="$(devicebench_torch_pins | awk -v t="$torch_version" '$1 == t { print $2 }')"
pins=("torch==${torch_version}" "torchvision==${torchvision_version}" "tensorboard==2.21.0")
venv="${DEVICEBENCH_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch${torch_version}}"

# True when the venv's installed distributions are exactly the pins (importlib.metadata: reads
# the dist-info only, much faster than importing torch).
pins_present() {
  [ -x "$venv/bin/python" ] || return 1
  "$venv/bin/python" - "${pins[@]}" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    try:
        have = version(name)
    except PackageNotFoundError:
        sys.exit(1)
    if have.split("+")[0] != want:
        sys.exit(1)
EOF
}

if pins_present; then
  echo "install-torch: ${pins[*]} present in $venv" >&2
  echo "$venv"
  exit 0
fi
if [ "$plan" = 1 ]; then
  echo "install-torch --plan: would pip install ${pins[*]} into $venv (about 4 GB)"
  exit 0
fi

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null; then
  echo "install-torch: no Python '$python' (set PYTHON)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  # Debian's python3 makes venvs only with python3-venv (ensurepip).
  if ! "$python" -c 'import ensurepip' 2>/dev/null; then
    if [ "$(command -v "$python")" = /usr/bin/python3 ] && command -v apt-get >/dev/null; then
      sudo=""
      if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
      echo "install-torch: installing python3-venv" >&2
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends python3-venv >&2
    else
      echo "install-torch: $python cannot make a venv (no ensurepip); install its venv module" >&2
      exit 1
    fi
  fi
  echo "install-torch: creating $venv with $python ($("$python" --version 2>&1))" >&2
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv" >&2
fi
echo "install-torch: pip install ${pins[*]} into $venv (about 4 GB with the CUDA libraries)" >&2
"$venv/bin/python" -m pip install --disable-pip-version-check --no-input "${pins[@]}" >&2
if ! pins_present; then
  echo "install-torch: after pip, $venv still lacks ${pins[*]}" >&2
  exit 1
fi
echo "$venv"
