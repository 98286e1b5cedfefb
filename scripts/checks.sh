# SPDX-License-Identifier: MIT
# Sourced by the scripts in scripts/: the checks of their settings (environment variables,
# options, arguments), made before anything is installed, built or run, so that a typo costs
# nothing. A bad value ends the script with exit 2 and one line that names the setting, the
# value and the valid ones, e.g.
#   scripts/test.sh: DEVICEBENCH_PRESET 'cdua' is not a preset (use: default, debug, ci, ...)
# `--plan` runs the same checks, so it refuses what the real run would.
# Every check takes the setting's name and its value; an empty value is an unset one (the
# script's default applies) and passes.

devicebench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
devicebench_script="scripts/$(basename "$0")"

# Ends the script: "<script>: <message>" on stderr, exit 2.
devicebench_refuse() {
  echo "$devicebench_script: $*" >&2
  exit 2
}

# --help: the script's opening comment (from its third line to `set -euo pipefail`), exit 0.
devicebench_help() {
  sed -n '3,/^set -euo/p' "$0" | sed '$d'
  exit 0
}

# Refuses an option the script does not know, listing those it does ($2...).
devicebench_unknown_option() {
  local option="$1"
  shift
  devicebench_refuse "unknown option '$option' (use: $(devicebench_list "$@"))"
}

# The option loop of the scripts whose only options are --plan and --help (anywhere among the
# arguments): sets `plan` (1 with --plan, else 0) and the array `args` (the other arguments, in
# their order); -h or --help prints the help and exits 0 (devicebench_help). $1 says what else
# the script takes: none (any other argument is an unknown option), positional (arguments that
# do not start with "-"; any other "-..." is an unknown option) or any (everything else, options
# too: run.sh's for devicebench-cli). The arguments follow $1.
devicebench_parse_plan_args() {
  local takes="$1" arg
  shift
  plan=0 args=()
  for arg in "$@"; do
    case "$arg" in
      --plan) plan=1 ;;
      -h | --help) devicebench_help ;;
      *)
        case "$takes:$arg" in
          none:* | positional:-*) devicebench_unknown_option "$arg" --plan --help ;;
        esac
        args+=("$arg") ;;
    esac
  done
}

# Refuses when an option that takes a value ($1) comes last, without one ($2: how many
# arguments are left, the option included).
devicebench_need_value() {
  [ "$2" -ge 2 ] || devicebench_refuse "$1 needs a value"
}

# The torch table's lines: torch, torchvision, CUDA, first driver of that CUDA.
devicebench_torch_pins() {
  grep -E '^[0-9]+\.[0-9]+\.[0-9]+[[:space:]]' "$devicebench_root/engine/device/src/torch_cuda_pins.inc"
}

# The preset names of one kind (configure, build or test), read from CMakePresets.json and
# CMakeUserPresets.json (when there is one), one a line. A preset's "name" opens its line
# (`"name": ...` or `{ "name": ...`); a test filter's "name" does not, so it is not taken.
devicebench_presets() {
  local file
  for file in "$devicebench_root/CMakePresets.json" "$devicebench_root/CMakeUserPresets.json"; do
    [ -f "$file" ] || continue
    awk -v want="$1Presets" '
      match($0, /"[a-zA-Z]+Presets"[[:space:]]*:/) { section = substr($0, RSTART + 1); sub(/".*/, "", section) }
      section == want && match($0, /^[[:space:]]*(\{[[:space:]]*)?"name"[[:space:]]*:[[:space:]]*"[^"]*"/) {
        name = substr($0, RSTART, RLENGTH); sub(/"$/, "", name); sub(/.*"/, "", name); print name
      }' "$file"
  done
}

# Joins its arguments with ", ".
devicebench_list() {
  local IFS=, joined
  joined="$*"
  echo "${joined//,/, }"
}

# The configure presets that build the dashboard: DEVICEBENCH_BUILD_UI not OFF in the preset
# or the first of its "inherits" chain that sets it (CMakeLists.txt's default is ON).
devicebench_presets_with_ui() {
  local files=("$devicebench_root/CMakePresets.json")
  [ -f "$devicebench_root/CMakeUserPresets.json" ] && files+=("$devicebench_root/CMakeUserPresets.json")
  awk '
    match($0, /"[a-zA-Z]+Presets"[[:space:]]*:/) { section = substr($0, RSTART + 1); sub(/".*/, "", section) }
    section != "configurePresets" { next }
    match($0, /^[[:space:]]*(\{[[:space:]]*)?"name"[[:space:]]*:[[:space:]]*"[^"]*"/) {
      name = substr($0, RSTART, RLENGTH); sub(/"$/, "", name); sub(/.*"/, "", name); order[++n] = name
    }
    name != "" && match($0, /"inherits"[[:space:]]*:[[:space:]]*"[^"]*"/) {
      v = substr($0, RSTART, RLENGTH); sub(/"$/, "", v); sub(/.*"/, "", v); parent[name] = v
    }
    name != "" && match($0, /"DEVICEBENCH_BUILD_UI"[[:space:]]*:[[:space:]]*"[A-Za-z]+"/) {
      v = substr($0, RSTART, RLENGTH); sub(/"$/, "", v); sub(/.*"/, "", v); ui[name] = toupper(v)
    }
    END {
      for (i = 1; i <= n; i++) {
        p = order[i]
        for (hops = 0; !(p in ui) && (p in parent) && hops < 32; hops++) p = parent[p]
        if (!(p in ui) || ui[p] != "OFF") print order[i]
      }
    }' "${files[@]}"
}

# A preset for $3: build (scripts/build.sh configures and builds it), test (scripts/test.sh
# also runs its ctest preset) or dashboard (scripts/run.sh builds devicebench, the dashboard).
devicebench_check_preset() {
  local name="$1" value="$2" kind="$3" valid why
  [ -n "$value" ] || return 0
  case "$kind" in
    dashboard) mapfile -t valid < <(grep -xF -f <(devicebench_presets_with_ui) <(devicebench_presets build))
               why="builds no dashboard (DEVICEBENCH_BUILD_UI OFF)" ;;
    *) mapfile -t valid < <(devicebench_presets "$kind")
       why="has no $kind preset" ;;
  esac
  case " ${valid[*]} " in *" $value "*) return 0 ;; esac
  grep -qxF -- "$value" <<<"$(devicebench_presets configure)" || why="is not a preset"
  devicebench_refuse "$name '$value' $why (use: $(devicebench_list "${valid[@]}"))"
}

# A torch version of engine/device/src/torch_cuda_pins.inc (its pins of torchvision and CUDA).
devicebench_check_torch_version() {
  local name="$1" value="$2" valid
  [ -n "$value" ] || return 0
  mapfile -t valid < <(devicebench_torch_pins | cut -f 1)
  case " ${valid[*]} " in *" $value "*) return 0 ;; esac
  devicebench_refuse "$name '$value' is not a torch of DeviceBench's table," \
    "engine/device/src/torch_cuda_pins.inc (use: $(devicebench_list "${valid[@]}"))"
}

# One of the words $3...
devicebench_check_one_of() {
  local name="$1" value="$2"
  shift 2
  [ -n "$value" ] || return 0
  case " $* " in *" $value "*) return 0 ;; esac
  devicebench_refuse "$name '$value' is not one of: $(devicebench_list "$@")"
}

# 0 or 1.
devicebench_check_bool() {
  [ -z "$2" ] || [ "$2" = 0 ] || [ "$2" = 1 ] || devicebench_refuse "$1 '$2' is not 0 or 1 (use: 0, 1)"
}

# A whole number, at least $3 (default 1).
devicebench_check_count() {
  local name="$1" value="$2" min="${3:-1}"
  [ -n "$value" ] || return 0
  if ! [[ "$value" =~ ^[0-9]+$ ]] || [ "$((10#$value))" -lt "$min" ]; then
    devicebench_refuse "$name '$value' is not a whole number of at least $min"
  fi
}

# A device: cpu, cuda or cuda:N.
devicebench_check_device() {
  [ -z "$2" ] || [[ "$2" =~ ^(cpu|cuda|cuda:[0-9]+)$ ]] ||
    devicebench_refuse "$1 '$2' is not a device (use: cpu, cuda, cuda:N)"
}

# A folder that exists.
devicebench_check_dir() {
  [ -z "$2" ] || [ -d "$2" ] || devicebench_refuse "$1 '$2' is not a folder"
}

# A file that exists.
devicebench_check_file() {
  [ -z "$2" ] || [ -f "$2" ] || devicebench_refuse "$1 '$2' is not a file"
}

# A program: a command on PATH or an executable file.
devicebench_check_program() {
  [ -z "$2" ] || command -v "$2" >/dev/null || devicebench_refuse "$1 '$2' is not a program (a command on PATH or an executable file)"
}

# A folder the script may create or write into: it is a writable folder, or the nearest of
# its parents that exists is one.
devicebench_check_writable_dir() {
  local name="$1" value="$2" parent
  [ -n "$value" ] || return 0
  if [ -e "$value" ]; then
    [ -d "$value" ] || devicebench_refuse "$name '$value' is not a folder"
    [ -w "$value" ] || devicebench_refuse "$name '$value' is not writable"
    return 0
  fi
  parent="$value"
  while [ ! -e "$parent" ]; do parent="$(dirname "$parent")"; done
  [ -d "$parent" ] && [ -w "$parent" ] ||
    devicebench_refuse "$name '$value' cannot be made: $parent is not a writable folder"
}

# What the screenshot scripts run: the dashboard $1 (a built tree's) and Xvfb.
devicebench_check_screenshot_tools() {
  [ -x "$1" ] || devicebench_refuse "no $1: build it first (scripts/build.sh default devicebench)"
  command -v Xvfb >/dev/null || devicebench_refuse "no Xvfb (scripts/install-deps.sh)"
}

# The torch venv (DEVICEBENCH_TORCH_VENV): one that is there, or one that can be made.
devicebench_check_venv() {
  [ -n "$2" ] || return 0
  [ -x "$2/bin/python" ] || devicebench_check_writable_dir "$1" "$2"
}

# A folder of CIFAR-10's binary files (test_batch.bin and the training batches beside it).
devicebench_check_data() {
  [ -n "$2" ] || return 0
  devicebench_check_dir "$1" "$2"
  [ -f "$2/test_batch.bin" ] || devicebench_refuse "$1 '$2' holds no CIFAR-10 test_batch.bin (docs/DATA.md)"
}

# The variables of the build that scripts/run.sh, test.sh and build.sh share (and pass on to
# install-deps.sh and install-torch.sh).
devicebench_check_build_settings() {
  devicebench_check_torch_version DEVICEBENCH_TORCH_VERSION "${DEVICEBENCH_TORCH_VERSION:-}"
  devicebench_check_venv DEVICEBENCH_TORCH_VENV "${DEVICEBENCH_TORCH_VENV:-}"
  devicebench_check_program DEVICEBENCH_DRIVER_CHECK "${DEVICEBENCH_DRIVER_CHECK:-}"
  devicebench_check_bool DEVICEBENCH_WITH_REFERENCE "${DEVICEBENCH_WITH_REFERENCE:-}"
  devicebench_check_bool DEVICEBENCH_WITH_FUZZERS "${DEVICEBENCH_WITH_FUZZERS:-}"
}
