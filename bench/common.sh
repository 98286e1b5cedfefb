# SPDX-License-Identifier: MIT
# Sourced by bench/speed.sh and bench/parity.sh: the paths, checks, set-up and session header
# they share. Sets `here` (the checkout), `ref` (the article's loop), `build`, `cli`,
# `default_data`; bench_prepare checks and installs, and sets `tmp` (removed on exit).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ref="${DEVICEBENCH_REFERENCE:-$here/../shared/reference/seed_reference.py}"
build="${DEVICEBENCH_BUILD_DIR:-$here/build/default}"
cli="$build/app/devicebench-cli"
default_data="$here/../shared/datasets/cifar-10-batches-bin"

# bench_prepare NAME DATA_DIR PROGRAM...: exits 2 when a PROGRAM is not built or the reference
# loop is missing, 3 when DATA_DIR holds no CIFAR-10 binary data; then installs the
# reference's packages (python3-torch, ...) if missing and makes the scratch folder $tmp.
bench_prepare() {
  local name=$1 data_dir=$2 f
  shift 2
  for f in "$@"; do
    [ -x "$f" ] || { echo "$name: $f not built (scripts/build.sh, or cmake --build $build)" >&2; exit 2; }
  done
  [ -f "$ref" ] || { echo "$name: reference loop not found: $ref" >&2; exit 2; }
  [ -f "$data_dir/data_batch_1.bin" ] || { echo "$name: no CIFAR-10 binary data in $data_dir" >&2; exit 3; }
  DEVICEBENCH_WITH_REFERENCE=1 "$here/scripts/install-deps.sh" >/dev/null
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# The machine, BLAS, both LibTorch versions and the load average, as "# " comment lines.
bench_machine_header() {
  echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) logical cores, $(hostname)"
  echo "# BLAS: $(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3)"
  echo "# LibTorch (engine): $(dpkg-query -W -f='${Version}' libtorch-dev 2>/dev/null || echo '?'), python3-torch (reference): $(/usr/bin/python3 -c 'import torch; print(torch.__version__)')"
  echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
}
