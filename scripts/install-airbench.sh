#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs Keller Jordan's airbench (PyPI `airbench==0.1.8`, the CIFAR-10 speed record's
# airbench94: 94 % in 3.83 s on an A100) into the pinned torch venv that scripts/install-torch.sh
# makes, for the reference run reference/airbench/airbench_reference.py (reference/airbench/
# README.md). Idempotent: does nothing when the venv already holds airbench 0.1.8. Prints the
# venv's Python on its last line.
#
#   scripts/install-airbench.sh [--plan] # --plan: say what it would do; venv: $DEVICEBENCH_TORCH_VENV, else
#                                        # ${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch2.11.0
#
# What 0.1.8 needs: its setup.py declares no dependencies (no install_requires); its code imports
# torch and torchvision only, both already in the venv. So pip runs with --no-deps, and the one
# file it fetches is the source archive, checked against the hash below (pip's --require-hashes).
# Building that archive needs setuptools, which pip's isolated build brings for the build only.
#
# Debian's /usr/bin/python3 (python3-torch 1.13.1, python3-torchvision 0.14.1) runs it on the
# CPU too, but in float32 only: torch 1.13 has no bfloat16 reflect padding (the loader's
# F.pad), so airbench_reference.py's auto dtype falls back to float32 there, saying so. Debian's
# Python is "externally managed": install there only with
#   /usr/bin/python3 -m pip install --user --break-system-packages --no-deps airbench==0.1.8
# (or put the unpacked archive's folder on PYTHONPATH). This script installs into the venv only.
set -euo pipefail
# The two settings, checked as install-torch.sh checks them (scripts/checks.sh): a torch not in
# the table, or a venv that could never be made, exits 2.
source "$(dirname "$0")/checks.sh"
devicebench_parse_plan_args none "$@"
devicebench_check_torch_version DEVICEBENCH_TORCH_VERSION "${DEVICEBENCH_TORCH_VERSION:-}"
devicebench_check_venv DEVICEBENCH_TORCH_VENV "${DEVICEBENCH_TORCH_VENV:-}"

version=0.1.8
sha256=f85885d8afe9018b8da132a4224ad7b47d75c9f99fd985d0a687567a25cf4a33 # airbench-0.1.8.tar.gz
torch_version="${DEVICEBENCH_TORCH_VERSION:-2.11.0}"
venv="${DEVICEBENCH_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch${torch_version}}"
python="$venv/bin/python"

if [ ! -x "$python" ]; then
  echo "install-airbench: no torch venv at $venv; make it first with scripts/install-torch.sh" \
    "(same DEVICEBENCH_TORCH_VENV / DEVICEBENCH_TORCH_VERSION)" >&2
  exit 2
fi
if ! "$python" -c 'import importlib.metadata as m; m.version("torch"); m.version("torchvision")' \
  2>/dev/null; then
  echo "install-airbench: $venv has no torch or torchvision; run scripts/install-torch.sh" >&2
  exit 2
fi

have_airbench() {
  "$python" - "$version" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
try:
    sys.exit(0 if version("airbench") == sys.argv[1] else 1)
except PackageNotFoundError:
    sys.exit(1)
EOF
}

if [ "$plan" = 1 ]; then # say what would be done, do nothing
  if have_airbench; then
    echo "install-airbench --plan: airbench $version present in $venv"
  else
    echo "install-airbench --plan: would pip install --no-deps airbench==$version into $venv"
  fi
  exit 0
fi
if have_airbench; then
  echo "install-airbench: airbench $version present in $venv" >&2
  echo "$python"
  exit 0
fi

echo "install-airbench: pip install --no-deps airbench==$version into $venv" >&2
requirements="$(mktemp)"
trap 'rm -f "$requirements"' EXIT
echo "airbench==$version --hash=sha256:$sha256" >"$requirements"
"$python" -m pip install --disable-pip-version-check --no-input --no-deps --require-hashes \
  -r "$requirements" >&2

if ! have_airbench || ! "$python" -c 'import airbench.lib_airbench94, airbench.utils' >&2; then
  echo "install-airbench: after pip, $venv still cannot import airbench $version" >&2
  exit 1
fi
echo "$python"
