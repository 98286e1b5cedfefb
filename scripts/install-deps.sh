#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what DeviceBench needs to build, test and run on Debian 12 or 13 (as root or with
# sudo): the same package names on both (LibTorch 1.13.1 on 12, 2.6.0 on 13).
# Skips apt-get entirely when everything is already installed.
#   scripts/install-deps.sh [--plan]    --plan: say what is missing, install nothing
#   DEVICEBENCH_WITH_REFERENCE=1 (bench/'s reference loop), DEVICEBENCH_WITH_FUZZERS=1 (clang's
#   libFuzzer): 0 or 1, checked first (anything else exits 2).
set -euo pipefail
source "$(dirname "$0")/checks.sh"
devicebench_parse_plan_args none "$@"
devicebench_check_bool DEVICEBENCH_WITH_REFERENCE "${DEVICEBENCH_WITH_REFERENCE:-}"
devicebench_check_bool DEVICEBENCH_WITH_FUZZERS "${DEVICEBENCH_WITH_FUZZERS:-}"

packages=(
  cmake ninja-build g++ pkg-config ccache   # ccache: CI's second build against torch 2.11 (bundle)
  libtorch-dev libopenblas0-openmp    # LibTorch (CPU); OpenBLAS: ~7x faster matmuls
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev   # Charts needs Qt6OpenGL's CMake files
  qt6-svg-dev   # the window icon, rendered from resources/icons/*.svg
  libspdlog-dev libcli11-dev nlohmann-json3-dev
  libxxhash-dev                                    # XXH3-128 of the data files (data identity)
  libgloo-dev   # headers that c10d's ProcessGroupGloo.hpp includes (data-parallel jobs, both builds)
  iproute2      # tests/distributed: the network-namespace test (ip netns, veth), as root
  libgtest-dev libgmock-dev
  libcurl4-openssl-dev libarchive-dev libssl-dev   # fetch-data: download, unpack, MD5
  xvfb xauth fonts-dejavu-core
  help2man desktop-file-utils appstream dpkg-dev   # packaging/: man pages, validators, .deb deps
  patchelf                                         # scripts/make-bundle.sh: the bundle's RUNPATHs
  clang-format clang-tidy                          # scripts/lint.sh (CI checks the format)
  python3 python3-crc32c protobuf-compiler   # tests/tensorboard: the independent event decoder
  libjs-chart.js   # the HTML report inlines its Chart.js at build time (engine/report)
  chromium         # tests/cli: the HTML report opened in headless Chromium
)
if [ "${DEVICEBENCH_WITH_REFERENCE:-0}" = 1 ]; then
  packages+=(python3-torch python3-torchvision python3-pil)   # bench/: the reference loop
fi
if [ "${DEVICEBENCH_WITH_FUZZERS:-0}" = 1 ]; then
  packages+=(clang libclang-rt-dev)   # scripts/fuzz.sh: the libFuzzer of Debian's clang
fi

# A name that an installed package provides counts as installed: on Debian 13 qt6-base-dev
# provides libqt6opengl6-dev (a package of its own on Debian 12), which dpkg never lists as
# installed, so without this every run would call apt-get again.
provided=" $(dpkg-query -W -f='${db:Status-Abbrev}|${Provides}\n' 2>/dev/null \
  | sed -n 's/^ii *|//p' | sed 's/([^)]*)//g; s/,/ /g' | tr -s ' \n' ' ') "
missing=()
for p in "${packages[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] ||
    [[ "$provided" == *" $p "* ]] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
if [ "$plan" = 1 ]; then
  echo "install-deps --plan: would install ${missing[*]}"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "${missing[@]}"
