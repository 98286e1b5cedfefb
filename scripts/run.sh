#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's main command: installs what is missing, builds the two programs (devicebench,
# devicebench-cli and what they link; the tests and benchmarks are scripts/test.sh's, into the
# same build folder), and runs the main job.
#  - The build: with an NVIDIA driver that runs PyPI torch's CUDA, the `cuda` preset (that
#    torch, about 4 GB, installed once); else `default` (Debian's LibTorch, CPU only). One line
#    says which and why; DEVICEBENCH_PRESET overrides it (scripts/preset.sh, docs/GPU.md).
#  - With a display: opens the dashboard.
#  - Without one: runs the article's experiment headless with devicebench-cli on every
#    "device" this machine has (each usable GPU, and the CPU at 1 thread and at all cores),
#    writing out/comparison.png, out/comparison.csv and each run's record in out/runs/. The
#    runs are --interleave'd (each in a process of its own, their epochs in alternation), so
#    that a machine whose speed drifts slows every run alike (docs/MEASURING.md).
# Data: $DEVICEBENCH_DATA (refused when it holds no CIFAR-10), else
# ~/.cache/devicebench/cifar-10-batches-bin; without it, the run uses synthetic data and says so.
# Extra arguments go to `devicebench-cli run` (e.g. --epochs 2), which checks them.
# `scripts/run.sh --plan` checks the settings, prints what it would install, build and run, and
# does nothing else; a bad setting (DEVICEBENCH_PRESET, ...) exits 2 before anything is done.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/preset.sh
# --plan and --help are run.sh's own (anywhere); every other argument goes to the CLI.
devicebench_parse_plan_args any "$@"
# Every setting checked before anything is installed (scripts/checks.sh): exit 2 on a bad one.
devicebench_check_preset DEVICEBENCH_PRESET "${DEVICEBENCH_PRESET:-}" dashboard
devicebench_check_build_settings
devicebench_check_bool DEVICEBENCH_HEADLESS "${DEVICEBENCH_HEADLESS:-}"
devicebench_check_data DEVICEBENCH_DATA "${DEVICEBENCH_DATA:-}"

[ "$plan" = 1 ] || scripts/install-deps.sh
devicebench_choose_preset cuda default
devicebench_say_preset run.sh
bin="$(devicebench_build_dir "$preset")/app"
headless=1
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${DEVICEBENCH_HEADLESS:-0}" != 1 ]; then
  headless=0
fi
if [ "$plan" = 1 ]; then
  echo "run.sh --plan: would build devicebench devicebench-cli (preset $preset) into ${bin%/app}"
  if [ "$headless" = 0 ]; then
    echo "run.sh --plan: would open the dashboard ($bin/devicebench)"
  elif devicebench_preset_uses_pypi_torch "$preset"; then
    echo "run.sh --plan: would run the experiment headless on each GPU that passes its probe and the CPU, records in out/runs/"
  else
    echo "run.sh --plan: would run the experiment headless on the CPU at 1 and $(nproc) threads, records in out/runs/"
  fi
  exit 0
fi
# The pin of a CUDA build, for scripts/build.sh and install-torch.sh (the CPU build keeps theirs).
devicebench_preset_uses_pypi_torch "$preset" && export DEVICEBENCH_TORCH_VERSION="$torch_version"
scripts/build.sh "$preset" devicebench devicebench-cli

if [ "$headless" = 0 ]; then
  exec "$bin/devicebench"
fi

echo "run.sh: no display; running the experiment headless with devicebench-cli"
data_args=()
data="${DEVICEBENCH_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/cifar-10-batches-bin}"
if [ -f "$data/test_batch.bin" ]; then
  data_args=(--data-dir "$data")
else
  echo "run.sh: CIFAR-10 not found at $data: using SYNTHETIC data (times are real, accuracy is meaningless)."
  echo "run.sh: get the real data set: see docs/DATA.md."
  data_args=(--synthetic)
fi
cores=$(nproc)
mkdir -p out/runs
echo "run.sh: each run's record goes to out/runs/: open them in the dashboard (File > Import runs…, or devicebench --import FILE), or compare them with another machine's (devicebench-cli compare out/runs/*.json theirs.json)"
outputs=(--out-dir out/runs --csv out/comparison.csv --png out/comparison.png)
devices=$("$bin/devicebench-cli" devices)
if grep -qE '^ +cuda:[0-9]+ +USABLE' <<<"$devices"; then
  "$bin/devicebench-cli" run --device cuda,cpu --threads "$cores" --interleave "${data_args[@]}" \
    "${outputs[@]}" "${args[@]}"
else
  threads=(--threads 1)
  [ "$cores" -gt 1 ] && threads=(--threads "1,$cores" --interleave)
  "$bin/devicebench-cli" run --device cpu "${threads[@]}" "${data_args[@]}" "${outputs[@]}" "${args[@]}"
fi
