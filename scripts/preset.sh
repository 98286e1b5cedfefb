# SPDX-License-Identifier: MIT
# Sourced by scripts/run.sh and scripts/test.sh: which CMake preset the README's two commands
# build (docs/GPU.md, "Which build the two commands make").
#   - DEVICEBENCH_PRESET set: that preset.
#   - Else an NVIDIA driver whose CUDA runs the pinned PyPI torch (DEVICEBENCH_TORCH_VERSION, else
#     the newest of engine/device/src/torch_cuda_pins.inc): `cuda`, PyPI torch's CUDA LibTorch.
#   - Else `default`, Debian's LibTorch (libtorch-dev, CPU only: 1.13.1 on Debian 12, 2.6.0 on
#     Debian 13); a driver too old, or one that cannot answer, is said with the ways forward.
# The driver is read as CUDA reads it (libcuda.so.1 and its cuDriverGetVersion, or
# /proc/driver/nvidia/version) by devicebench-driver-check, compiled here from two source files
# before any CMake configure (DEVICEBENCH_DRIVER_CHECK: an already built one, for the tests).

# The settings' checks, and the torch table (devicebench_torch_pins).
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# Prints the path of devicebench-driver-check, compiling it into build/tools when needed.
devicebench_driver_check_tool() {
  if [ -n "${DEVICEBENCH_DRIVER_CHECK:-}" ]; then
    echo "$DEVICEBENCH_DRIVER_CHECK"
    return
  fi
  local root tool sources
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  tool="$root/build/tools/devicebench-driver-check"
  sources=("$root/app/driver_check/main.cpp" "$root/engine/device/src/cuda_driver.cpp")
  local stale=0 f
  for f in "${sources[@]}" "$root/engine/device/src/torch_cuda_pins.inc" \
           "$root/engine/device/include/devicebench/cuda_driver.h" \
           "$root/engine/core/include/devicebench/text_file.h" \
           "$root/engine/core/include/devicebench/display_text.h"; do
    [ -x "$tool" ] && [ "$tool" -nt "$f" ] || stale=1
  done
  if [ "$stale" = 1 ]; then
    command -v c++ >/dev/null || { echo "preset: no C++ compiler (run scripts/install-deps.sh)" >&2; return 1; }
    mkdir -p "$(dirname "$tool")"
    c++ -std=c++17 -O1 -I"$root/engine/core/include" -I"$root/engine/device/include" \
      "${sources[@]}" -ldl -o "$tool.tmp" && mv "$tool.tmp" "$tool"
  fi
  echo "$tool"
}

# Sets `preset` (the CUDA build: $1, the CPU build: $2), `torch_version`, `preset_reason` (one
# line) and `preset_advice` (the ways forward, or ""). Returns 1 (with a message) when
# DEVICEBENCH_TORCH_VERSION is not in the table (the scripts refuse that before, with exit 2:
# devicebench_check_build_settings).
devicebench_choose_preset() {
  local gpu_preset="$1" cpu_preset="$2" tool verdict status
  torch_version="${DEVICEBENCH_TORCH_VERSION:-$(devicebench_torch_pins | sed -n 1p | cut -f 1)}"
  preset_advice=""
  tool="$(devicebench_driver_check_tool)" || return 1
  status=0
  verdict="$("$tool" --torch "$torch_version" 2>&1)" || status=$?
  if [ "$status" = 2 ]; then
    echo "$verdict (DEVICEBENCH_TORCH_VERSION)" >&2
    return 1
  fi
  if [ -n "${DEVICEBENCH_PRESET:-}" ]; then
    preset="$DEVICEBENCH_PRESET"
    preset_reason="DEVICEBENCH_PRESET=$preset; $(head -n 1 <<<"$verdict")"
    return 0
  fi
  case "$status" in
    0) preset="$gpu_preset"
       preset_reason="$(head -n 1 <<<"$verdict"); DEVICEBENCH_PRESET=$cpu_preset for the CPU build" ;;
    10) preset="$cpu_preset"
       preset_reason="$(head -n 1 <<<"$verdict")" ;;
    *) preset="$cpu_preset"
       preset_reason="$(head -n 1 <<<"$verdict"): the GPU build cannot run here, so the CPU build"
       preset_advice="$(tail -n +2 <<<"$verdict")" ;;
  esac
}

# The version of the installed libtorch-dev without Debian's parts (1.13.1+dfsg-4 -> 1.13.1),
# or nothing when it is not installed.
devicebench_debian_torch_version() {
  local line
  line="$(dpkg-query -W -f='${Status} ${Version}' libtorch-dev 2>/dev/null)" || return 0
  [[ "$line" == "install ok installed "* ]] || return 0
  sed -E 's/^install ok installed ([0-9]+:)?([0-9][0-9.]*).*/\2/' <<<"$line"
}

# What the chosen preset is, in a few words.
devicebench_preset_words() {
  case "$1" in
    cuda|ci-cuda|bundle) echo "PyPI torch ${torch_version}'s CUDA LibTorch" ;;
    *) local version
       version="$(devicebench_debian_torch_version)"
       echo "Debian's LibTorch ${version:-(libtorch-dev, not installed yet)}, CPU only" ;;
  esac
}

# True when the preset builds against PyPI torch (a venv of about 4 GB).
devicebench_preset_uses_pypi_torch() {
  case "$1" in cuda|ci-cuda|bundle) return 0 ;; *) return 1 ;; esac
}

# The venv scripts/install-torch.sh makes for $torch_version.
devicebench_torch_venv_path() {
  echo "${DEVICEBENCH_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch${torch_version}}"
}

# The build folder of a preset (CMakePresets.json: ci shares default's, ci-cuda cuda's).
devicebench_build_dir() {
  case "$1" in
    ci) echo build/default ;;
    ci-cuda) echo build/cuda ;;
    *) echo "build/$1" ;;
  esac
}

# Prints the choice: "<script>: build: <preset> (<words>): <reason>", the ways forward when
# there are, and before a first CUDA build the download it makes.
devicebench_say_preset() {
  local script="$1"
  echo "$script: build: $preset ($(devicebench_preset_words "$preset")): $preset_reason"
  if [ -n "$preset_advice" ]; then
    echo "$script: $preset_advice"
  fi
  if devicebench_preset_uses_pypi_torch "$preset" && [ ! -x "$(devicebench_torch_venv_path)/bin/python" ]; then
    echo "$script: first, PyPI's torch $torch_version with its CUDA libraries is downloaded once" \
      "into $(devicebench_torch_venv_path) (about 4 GB; scripts/install-torch.sh)"
  fi
}
