#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest scripts.settings_checked_first: every script in scripts/ checks its settings (the
# variables, options and arguments it reads; scripts/checks.sh) before it installs, builds or
# runs anything. A bad value exits 2 with one line that names the setting, the value and the
# valid ones, with --plan and without it alike; good values pass (--plan, or for gpu-check.sh
# the exit 3 of a data folder without CIFAR-10, which comes after every setting's check).
# apt-get, sudo, cmake, ctest, ninja, c++, pip and Xvfb are stand-ins on PATH that write down
# any call: after a refusal none may have been called. Nothing is installed, built or run.
# The scripts run from a copy of scripts/ with the two files they read (CMakePresets.json, the
# torch table) and a stand-in dashboard, so that a script that failed to refuse would find no
# build of the checkout to run, and a developer's CMakeUserPresets.json changes no list.
# usage: check_script_settings.sh SOURCE_DIR
set -uo pipefail
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
src="$tmp/src"
mkdir -p "$src/engine/device/src" "$src/build/default/app"
cp -R "$1/scripts" "$src/scripts"
cp "$1/CMakePresets.json" "$src/"
cp "$1/engine/device/src/torch_cuda_pins.inc" "$src/engine/device/src/"
printf '#!/bin/sh\necho "devicebench $*" >>"%s/called"\n' "$tmp" >"$src/build/default/app/devicebench"
chmod 755 "$src/build/default/app/devicebench"
failures=0 checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The stand-ins, and a few paths: a file (no folder can be made under it), an empty folder, a
# folder with CIFAR-10's test_batch.bin, a build folder, a record.
mkdir -p "$tmp/bin" "$tmp/empty" "$tmp/data" "$tmp/build" "$tmp/records" "$tmp/cc"
for tool in apt-get sudo cmake ctest ninja c++ pip pip3 Xvfb; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/called"\n' "$tool" "$tmp" >"$tmp/bin/$tool"
  chmod 755 "$tmp/bin/$tool"
done
# The driver check: no NVIDIA driver (its exit status 10), so the CPU build is chosen.
printf '#!/bin/sh\necho "no NVIDIA driver: a stand-in"\nexit 10\n' >"$tmp/bin/driver-check"
# A Python that imports anything (gpu-check.sh asks it for torch and torchvision).
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/python-ok"
chmod 755 "$tmp/bin/driver-check" "$tmp/bin/python-ok"
: >"$tmp/a-file"
: >"$tmp/data/test_batch.bin"
: >"$tmp/build/CMakeCache.txt"
: >"$tmp/cc/compile_commands.json"
echo '{}' >"$tmp/records/a.json"
: >"$tmp/script.py"

# Runs scripts/$1 with the variables and arguments after it (NAME=VALUE words first), in a
# clean environment: no display, the stand-in driver check, a venv that is not there. Sets
# out and rc.
run_script() {
  local script="$1"
  shift
  local vars=()
  while [ $# -gt 0 ] && [[ "$1" == [A-Z]*=* ]]; do vars+=("$1"); shift; done
  rm -f "$tmp/called"
  out="$(cd "$tmp" && env -u DISPLAY -u WAYLAND_DISPLAY -u DEVICEBENCH_PRESET \
    -u DEVICEBENCH_TORCH_VERSION -u DEVICEBENCH_TEST_DATA -u DEVICEBENCH_DATA -u PYTHON \
    -u DEVICEBENCH_HEADLESS -u DEVICEBENCH_WITH_REFERENCE -u DEVICEBENCH_WITH_FUZZERS \
    -u DEVICEBENCH_JOBS -u DISPLAY_NUMBER -u VIEW -u CLANG_FORMAT \
    PATH="$tmp/bin:$PATH" DEVICEBENCH_DRIVER_CHECK="$tmp/bin/driver-check" \
    DEVICEBENCH_TORCH_VENV="$tmp/no-venv" "${vars[@]}" "$src/scripts/$script" "$@" 2>&1)"
  rc=$?
  checks=$((checks + 1))
}

# run_expecting SCRIPT [NAME=VALUE...] [ARG...] -- PATTERN: run_script with the words before
# --; sets script, what (those words) and pattern, for refused and passes.
run_expecting() {
  local args=()
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  script="${args[0]}" what="${args[*]}" pattern="$2"
  run_script "${args[@]}"
}

# refused SCRIPT [NAME=VALUE...] [ARG...] -- PATTERN: exit 2, a line matching
# "^scripts/SCRIPT: PATTERN", nothing installed or built.
refused() {
  run_expecting "$@"
  [ "$rc" = 2 ] || fail "$what: exit $rc, expected 2; output: $out"
  grep -qE -- "^scripts/$script: $pattern" <<<"$out" ||
    fail "$what: no line matching 'scripts/$script: $pattern' in: $out"
  [ ! -e "$tmp/called" ] || fail "$what: refused, but called: $(cat "$tmp/called")"
}

# passes SCRIPT [NAME=VALUE...] [ARG...] -- PATTERN: exit 0 and a line matching PATTERN.
passes() {
  run_expecting "$@"
  [ "$rc" = 0 ] || fail "$what: exit $rc, expected 0; output: $out"
  grep -qE -- "$pattern" <<<"$out" || fail "$what: no line matching '$pattern' in: $out"
  [ ! -e "$tmp/called" ] || fail "$what: --plan called: $(cat "$tmp/called")"
}

presets="\(use: default, debug, ci, cuda, ci-cuda, asan, tsan"
torches="\(use: 2\.11\.0, .*2\.6\.0"

# test.sh and run.sh: each bad value refused by --plan and by the real command alike.
for plan in --plan ""; do
  for script in test.sh run.sh; do
    refused "$script" DEVICEBENCH_PRESET=cdua $plan -- "DEVICEBENCH_PRESET 'cdua' is not a preset $presets\)$"
    refused "$script" DEVICEBENCH_TORCH_VERSION=9.9.9 $plan -- "DEVICEBENCH_TORCH_VERSION '9.9.9' is not a torch of DeviceBench's table.* $torches"
    refused "$script" DEVICEBENCH_TORCH_VENV="$tmp/a-file/venv" $plan -- "DEVICEBENCH_TORCH_VENV '$tmp/a-file/venv' cannot be made: $tmp/a-file is not a writable folder$"
    refused "$script" DEVICEBENCH_DRIVER_CHECK="$tmp/none" $plan -- "DEVICEBENCH_DRIVER_CHECK '$tmp/none' is not a program"
    refused "$script" DEVICEBENCH_WITH_REFERENCE=yes $plan -- "DEVICEBENCH_WITH_REFERENCE 'yes' is not 0 or 1 \(use: 0, 1\)$"
    refused "$script" DEVICEBENCH_WITH_FUZZERS=2 $plan -- "DEVICEBENCH_WITH_FUZZERS '2' is not 0 or 1"
  done
  refused test.sh DEVICEBENCH_PRESET=bundle $plan -- "DEVICEBENCH_PRESET 'bundle' has no test preset $presets\)$"
  refused test.sh DEVICEBENCH_TEST_DATA="$tmp/none" $plan -- "DEVICEBENCH_TEST_DATA '$tmp/none' is not a folder$"
  refused test.sh DEVICEBENCH_TEST_DATA="$tmp/empty" $plan -- "DEVICEBENCH_TEST_DATA '$tmp/empty' holds no CIFAR-10 test_batch.bin"
  refused run.sh DEVICEBENCH_PRESET=bundle $plan -- "DEVICEBENCH_PRESET 'bundle' builds no dashboard \(DEVICEBENCH_BUILD_UI OFF\) $presets\)$"
  refused run.sh DEVICEBENCH_PRESET=fuzz $plan -- "DEVICEBENCH_PRESET 'fuzz' builds no dashboard"
  refused run.sh DEVICEBENCH_HEADLESS=true $plan -- "DEVICEBENCH_HEADLESS 'true' is not 0 or 1"
  refused run.sh DEVICEBENCH_DATA="$tmp/none" $plan -- "DEVICEBENCH_DATA '$tmp/none' is not a folder$"
  refused run.sh DEVICEBENCH_DATA="$tmp/empty" $plan -- "DEVICEBENCH_DATA '$tmp/empty' holds no CIFAR-10 test_batch.bin"
done
refused test.sh --paln -- "unknown option '--paln' \(use: --plan, --help\)$"
passes test.sh --plan -- "^test.sh --plan: would build every target of preset default into build/default and run ctest --preset default$"
passes test.sh DEVICEBENCH_PRESET=ci DEVICEBENCH_TEST_DATA="$tmp/data" DEVICEBENCH_WITH_REFERENCE=0 --plan -- "^test.sh --plan: would build every target of preset ci into build/default"
passes test.sh DEVICEBENCH_PRESET=ci-cuda DEVICEBENCH_TORCH_VERSION=2.6.0 --plan -- "^test.sh: build: ci-cuda \(PyPI torch 2.6.0's CUDA LibTorch\)"
passes test.sh --help -- "^# The README's test command"
passes run.sh --plan -- "^run.sh --plan: would build devicebench devicebench-cli \(preset default\) into build/default$"
passes run.sh DEVICEBENCH_HEADLESS=1 DEVICEBENCH_DATA="$tmp/data" --epochs 2 --plan -- "^run.sh --plan: would run the experiment headless on the CPU"
passes run.sh DEVICEBENCH_PRESET=cuda --plan -- "^run.sh --plan: would build devicebench devicebench-cli \(preset cuda\) into build/cuda$"

# build.sh: PRESET and the variables, before install-torch.sh or cmake.
refused build.sh cdua -- "PRESET 'cdua' is not a preset \(use: default, debug, ci, cuda, ci-cuda, bundle, asan, tsan, fuzz\)$"
refused build.sh --plan cdua -- "PRESET 'cdua' is not a preset"
refused build.sh DEVICEBENCH_TORCH_VERSION=1.0 cuda -- "DEVICEBENCH_TORCH_VERSION '1.0' is not a torch of DeviceBench's table.* $torches"
refused build.sh --plna -- "unknown option '--plna' \(use: --plan, --help\)$"
passes build.sh --plan -- "^build.sh --plan: would configure preset default and build every target$"
passes build.sh --plan bundle devicebench-cli -- "^build.sh --plan: would configure preset bundle and build the targets devicebench-cli$"

# install-deps.sh, install-torch.sh and install-airbench.sh.
refused install-deps.sh DEVICEBENCH_WITH_FUZZERS=yes -- "DEVICEBENCH_WITH_FUZZERS 'yes' is not 0 or 1"
refused install-deps.sh DEVICEBENCH_WITH_REFERENCE=on --plan -- "DEVICEBENCH_WITH_REFERENCE 'on' is not 0 or 1"
refused install-deps.sh --yes -- "unknown option '--yes' \(use: --plan, --help\)$"
passes install-deps.sh DEVICEBENCH_WITH_FUZZERS=1 --plan -- "^install-deps"
refused install-torch.sh DEVICEBENCH_TORCH_VERSION=9.9.9 -- "DEVICEBENCH_TORCH_VERSION '9.9.9' is not a torch of DeviceBench's table.* $torches"
refused install-torch.sh DEVICEBENCH_TORCH_VENV="$tmp/a-file/v" -- "DEVICEBENCH_TORCH_VENV '$tmp/a-file/v' cannot be made"
refused install-torch.sh PYTHON=python3.0-none -- "PYTHON 'python3.0-none' is not a program"
refused install-torch.sh --plna -- "unknown option '--plna'"
passes install-torch.sh --plan -- "^install-torch --plan: would pip install torch==2.11.0 torchvision==0.26.0 tensorboard==2.21.0 into $tmp/no-venv"
refused install-airbench.sh DEVICEBENCH_TORCH_VERSION=9.9.9 -- "DEVICEBENCH_TORCH_VERSION '9.9.9' is not a torch of DeviceBench's table.* $torches"
refused install-airbench.sh DEVICEBENCH_TORCH_VENV="$tmp/a-file/v" -- "DEVICEBENCH_TORCH_VENV '$tmp/a-file/v' cannot be made"

# make-bundle.sh: its folders, before patchelf, install-torch.sh or cmake.
refused make-bundle.sh --build-dir "$tmp/none" -- "--build-dir '$tmp/none' is not a folder$"
refused make-bundle.sh --build-dir "$tmp/empty" -- "--build-dir '$tmp/empty' is not a CMake build folder"
refused make-bundle.sh --out-dir "$tmp/a-file/dist" -- "--out-dir '$tmp/a-file/dist' cannot be made"
refused make-bundle.sh --out-dir -- "--out-dir needs a value$"
refused make-bundle.sh --bogus -- "unknown option '--bogus' \(use: --build-dir, --out-dir, --plan, --help\)$"
refused make-bundle.sh DEVICEBENCH_TORCH_VERSION=9.9.9 -- "DEVICEBENCH_TORCH_VERSION '9.9.9'"
passes make-bundle.sh --plan --build-dir "$tmp/build" --out-dir "$tmp/dist" -- "^make-bundle --plan: would pack the devicebench-cli of $tmp/build into $tmp/dist$"
[ ! -e "$tmp/dist" ] || fail "make-bundle.sh --plan made $tmp/dist"

# fuzz.sh: TARGET, SECONDS, DEVICEBENCH_JOBS.
refused fuzz.sh bogus -- "TARGET 'bogus' is not one of: cifar10_reader, run_record, all$"
refused fuzz.sh all 0 -- "SECONDS '0' is not a whole number of at least 1$"
refused fuzz.sh DEVICEBENCH_JOBS=many all -- "DEVICEBENCH_JOBS 'many' is not a whole number"
refused fuzz.sh -- "usage: scripts/fuzz.sh"
refused fuzz.sh --fast all -- "unknown option '--fast' \(use: --plan, --help\)$"
passes fuzz.sh --plan all 5 -- "^fuzz.sh --plan: would build the fuzz preset and run fuzz_cifar10_reader fuzz_run_record for 5 s each$"

# gpu-check.sh: every option before OUT is made; good values reach the data check (exit 3).
gc=(--out "$tmp/gc" --cli "$tmp/bin/python-ok" --python "$tmp/bin/python-ok" --script "$tmp/script.py")
refused gpu-check.sh "${gc[@]}" --device cdua -- "--device 'cdua' is not a device \(use: cpu, cuda, cuda:N\)$"
refused gpu-check.sh "${gc[@]}" --device cuda:x -- "--device 'cuda:x' is not a device"
for option in --epochs --rounds --threads; do
  refused gpu-check.sh "${gc[@]}" "$option" 0 -- "$option '0' is not a whole number of at least 1$"
done
refused gpu-check.sh "${gc[@]}" --train-images -5 -- "--train-images '-5' is not a whole number of at least 0$"
refused gpu-check.sh "${gc[@]}" --cli "$tmp/none" -- "--cli '$tmp/none' is not an executable file$"
refused gpu-check.sh "${gc[@]}" --bundle "$tmp/none.tar.gz" -- "--bundle '$tmp/none.tar.gz' is not a file$"
refused gpu-check.sh "${gc[@]}" --script "$tmp/none.py" -- "--script '$tmp/none.py' is not a file$"
refused gpu-check.sh "${gc[@]}" --python "$tmp/none" -- "--python '$tmp/none' is not a program"
refused gpu-check.sh "${gc[@]}" --out "$tmp/a-file/gc" -- "--out '$tmp/a-file/gc' cannot be made"
refused gpu-check.sh "${gc[@]}" --bogus 1 -- "unknown option '--bogus' \(use: --out, --device, .*--threads, --help\)$"
refused gpu-check.sh "${gc[@]}" --epochs -- "--epochs needs a value$"
[ ! -e "$tmp/gc" ] || fail "gpu-check.sh refused a setting but made $tmp/gc"
run_script gpu-check.sh "${gc[@]}" --device cuda:1 --epochs 1 --data "$tmp/empty"
[ "$rc" = 3 ] || fail "gpu-check.sh with good settings: exit $rc, expected 3 (no data); output: $out"

# lint.sh: options and paths before any file is read.
refused lint.sh --fxi -- "unknown option '--fxi' \(use: --fix, --tidy, --help\)$"
refused lint.sh --tidy "$tmp/none" -- "BUILD_DIR '$tmp/none' has no compile_commands.json"
refused lint.sh --tidy "$tmp/cc" "$tmp/none.cpp" -- "FILE '$tmp/none.cpp' is not a file$"
refused lint.sh CLANG_FORMAT="$tmp/none" -- "CLANG_FORMAT '$tmp/none' is not a program"
passes lint.sh --help -- "^# Lint: "

# debian13-check.sh: ROOT, the mirror and the options before debootstrap.
refused debian13-check.sh --bogus -- "unknown option '--bogus' \(use: --plan, --help\)$"
refused debian13-check.sh "$tmp/a" "$tmp/b" -- "one ROOT at most \(got 2 arguments\)$"
refused debian13-check.sh "$tmp/none/root" -- "ROOT '$tmp/none/root': its folder $tmp/none does not exist$"
refused debian13-check.sh DEVICEBENCH_MIRROR=deb.debian.org -- "DEVICEBENCH_MIRROR 'deb.debian.org' is not an http:// or https:// URL$"
passes debian13-check.sh --plan "$tmp/root" -- "^debian13-check --plan: would debootstrap trixie into $tmp/root.pristine"

# The screenshot scripts: arguments and variables before Xvfb starts.
refused chart-screenshots.sh "$tmp/none.json" "$tmp/records/a.json" -- "RECORD1 '$tmp/none.json' is not a file$"
refused chart-screenshots.sh "$tmp/records/a.json" -- "usage: scripts/chart-screenshots.sh"
refused chart-screenshots.sh DISPLAY_NUMBER=x "$tmp/records/a.json" "$tmp/records/a.json" -- "DISPLAY_NUMBER 'x' is not a whole number"
refused chart-screenshots.sh "$tmp/records/a.json" "$tmp/records/a.json" "$tmp/a-file/out" -- "OUT_DIR '$tmp/a-file/out' cannot be made"
refused scaling-screenshot.sh "$tmp/none" -- "RECORDS_FOLDER '$tmp/none' is not a folder$"
refused scaling-screenshot.sh "$tmp/empty" -- "RECORDS_FOLDER '$tmp/empty' holds no \*.json record$"
refused scaling-screenshot.sh VIEW=scalng "$tmp/records" -- "VIEW 'scalng' is not one of: runs, system, accuracy, sweep, scaling$"
refused sweep-screenshots.sh "$tmp/none" -- "SWEEP_FOLDER '$tmp/none' is not a folder$"
refused sweep-screenshots.sh --x "$tmp/records" -- "unknown option '--x' \(use: --plan, --help\)$"
# Good values: --plan (the stand-in dashboard is not started, and OUT_DIR is not made).
passes chart-screenshots.sh --plan "$tmp/records/a.json" "$tmp/records/a.json" "$tmp/shots" -- "^chart-screenshots.sh --plan: would write the charts-\*.png of $tmp/records/a.json and $tmp/records/a.json into $tmp/shots$"
passes scaling-screenshot.sh VIEW=system --plan "$tmp/records" "$tmp/shots" -- "^scaling-screenshot.sh --plan: would write $tmp/shots/dashboard-system.png of 1 records$"
passes sweep-screenshots.sh --plan "$tmp/records" cpu "$tmp/shots" -- "^sweep-screenshots.sh --plan: would write $tmp/shots/dashboard-sweep.png and $tmp/shots/sweep-example.png of $tmp/records$"
[ ! -e "$tmp/shots" ] || fail "a screenshot script's --plan made $tmp/shots"
rm "$src/build/default/app/devicebench"
refused sweep-screenshots.sh --plan "$tmp/records" -- "no build/default/app/devicebench: build it first"

if [ "$failures" -gt 0 ]; then
  echo "$failures of $checks check(s) failed"
  exit 1
fi
echo "ok: $checks runs of the scripts: bad settings exit 2 before anything is installed, good ones pass"
