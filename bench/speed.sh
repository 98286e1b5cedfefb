#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Speed against the article's own script, side by side in one session, on the same torch.
# Measures the machine's convolution throughput (bench/conv_throughput, Debian's LibTorch),
# then, for each torch version asked for, runs in rotating order (R F T, F T R, T R F, ...)
# for ROUNDS rounds:
#   R  the article's script (../shared/reference/article_script.py, torchvision's CIFAR10 +
#      DataLoader + SummaryWriter) through bench/run-article-script.py, on that torch
#   F  devicebench-cli run --workload faithful, built against the same LibTorch version
#   T  devicebench-cli run --workload tuned
# each for EPOCHS epochs on the same images (the first TRAIN/TEST images, 0 = all; the
# script reads them from cifar-10-batches-py made by bench/make-cifar10-py.py), on the CPU,
# with the same threads (engine --threads N; script torch.set_num_threads(N); both with
# OMP_NUM_THREADS=N). Versions:
#   1.13  Debian: devicebench-cli of build/default (libtorch-dev 1.13.1) against
#         /usr/bin/python3 with python3-torch 1.13.1 + python3-torchvision (installed by
#         install-deps.sh with DEVICEBENCH_WITH_REFERENCE=1; Debian has no tensorboard
#         package, so the script's SummaryWriter is run-article-script.py's stand-in there)
#   2.11  PyPI: a devicebench-cli built against the PyPI torch's LibTorch (--cli-2.11, or
#         build/cuda/app/devicebench-cli, or build/cuda211/app/devicebench-cli) against that
#         torch's python (--python-2.11, default the venv /root/.cache/devicebench/
#         venv-torch2.11.0) running the script with the real tensorboard writer if installed
# Prints every epoch, then per version and program: median seconds per epoch (over every
# epoch of every round), ratio to the script, images/s, GFLOP/s, share of the measured
# convolution throughput, how far from the floor (arithmetic / throughput), the target.
# Targets: faithful <= 0.85 x script, tuned <= 0.55 x script.
# Precision (--programs with a "-bf16" program, e.g. "script tuned tuned-bf16"): an engine
# program named WORKLOAD-PRECISION runs `--workload WORKLOAD --precision PRECISION`; the table
# adds its time over the same workload's fp32 ("x fp32"). Targets of tuned-bf16, on a CPU with
# amx_bf16 and LibTorch 2.11 only: <= 0.55 x tuned and <= 0.35 x script; elsewhere the table
# says why they do not apply (no amx_bf16 in /proc/cpuinfo; LibTorch 1.13: reported only).
#
# usage: bench/speed.sh [--torch 1.13|2.11|both] [--cli-2.11 PATH] [--python-2.11 PATH]
#          [--programs "script faithful tuned"] [--train-images N] [--test-images N]
#          [--keep DIR] [DATA_DIR [THREADS [ROUNDS [EPOCHS]]]]
# Defaults: both versions (one whose CLI or python is missing is SKIPPED, said so), all
# images, THREADS = all cores, ROUNDS 3, EPOCHS 1. --keep DIR keeps every run's output and
# run record. Run it on an otherwise idle machine: with every core training, any other load
# slows an epoch many times over; the load average is printed before and after each version.
set -euo pipefail
source "$(dirname "$0")/common.sh"
versions="1.13 2.11"
cli211="${DEVICEBENCH_CLI_211:-}"
python211="${DEVICEBENCH_PYTHON_211:-/root/.cache/devicebench/venv-torch2.11.0/bin/python}"
train_images=0 test_images=0 keep="" programs_list="script faithful tuned"
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --torch) versions=${2/both/1.13 2.11}; shift 2 ;;
    --cli-2.11) cli211=$2; shift 2 ;;
    --python-2.11) python211=$2; shift 2 ;;
    --train-images) train_images=$2; shift 2 ;;
    --test-images) test_images=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --programs) programs_list=$2; shift 2 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "speed.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
data="${positional[0]:-$default_data}"
threads="${positional[1]:-$(nproc)}"
rounds="${positional[2]:-3}"
epochs="${positional[3]:-1}"
if [ -z "$cli211" ]; then
  for c in "$here/build/cuda/app/devicebench-cli" "$here/build/cuda211/app/devicebench-cli"; do
    [ -x "$c" ] && { cli211=$c; break; }
  done
fi
conv="$build/bench/conv_throughput"
ref="$here/../shared/reference/article_script.py" # bench_prepare checks it exists
bench_prepare speed.sh "$data" "$cli" "$conv"
out=$tmp
if [ -n "$keep" ]; then mkdir -p "$keep" && out=$(cd "$keep" && pwd); fi
export OMP_NUM_THREADS=$threads

n_train=$((train_images > 0 ? train_images : 50000))
n_test=$((test_images > 0 ? test_images : 10000))
echo "# speed: data $data, threads $threads (engine --threads, script torch.set_num_threads, OMP_NUM_THREADS), epochs $epochs, rounds $rounds, $n_train training + $n_test test images, $(date -u +%FT%TZ)"
bench_machine_header
echo "# CPU flags for bf16: $(grep -m1 -ow -E 'amx_bf16|avx512_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ' || true)$(grep -qw -E 'amx_bf16|avx512_bf16' /proc/cpuinfo || echo none)"

"$conv" --threads "$threads" | tee "$tmp/conv.txt"
throughput=$(awk '/^conv throughput:/ {print $3}' "$tmp/conv.txt")
tflop=$(awk '/^epoch arithmetic:/ {print $3}' "$tmp/conv.txt")
# The arithmetic scales with the images (conv_throughput counts 50,000 + 10,000; a test
# image costs a third of a training image: forward only).
tflop=$(awk -v t="$tflop" -v a="$n_train" -v b="$n_test" 'BEGIN {printf "%.6f", t * (3 * a + b) / (3 * 50000 + 10000)}')

/usr/bin/python3 "$here/bench/make-cifar10-py.py" "$data" "$tmp/py" \
  --train-images "$train_images" --test-images "$test_images" >/dev/null

run_script() { # $1 label, $2 round, $3 python
  "$3" "$here/bench/run-article-script.py" --script "$ref" --threads "$threads" \
    "$tmp/py" "$epochs" cpu "$out/tb-$1-$2" >"$out/script-$1-$2.txt" 2>&1 ||
    { echo "speed.sh: the article's script failed, see:" >&2; tail -20 "$out/script-$1-$2.txt" >&2; exit 1; }
  awk -v p="$2" '/^epoch [0-9]+ seconds/ {printf "%-10s %5d %5d %10.3f\n", "script", p, $2, $4}' "$out/script-$1-$2.txt"
}
run_engine() { # $1 label, $2 round, $3 program (WORKLOAD or WORKLOAD-PRECISION), $4 cli
  local workload=${3%%-*} precision=fp32
  [ "$workload" = "$3" ] || precision=${3#*-}
  "$4" run --device cpu --threads "$threads" --epochs "$epochs" --warmup-epochs 0 \
    --workload "$workload" --precision "$precision" \
    --data-dir "$data" --train-images "$train_images" --test-images "$test_images" \
    --csv "$out/$3-$1-$2.csv" --record "$out/$3-$1-$2.json" >"$out/$3-$1-$2.txt" 2>&1 ||
    { echo "speed.sh: devicebench-cli failed, see:" >&2; tail -20 "$out/$3-$1-$2.txt" >&2; exit 1; }
  # CSV columns: ..., 4 epoch, 5 seconds, ... (docs: the per-epoch CSV).
  awk -F, -v p="$2" -v w="$3" 'NR > 1 {printf "%-10s %5d %5d %10.3f\n", w, p, $4, $5}' "$out/$3-$1-$2.csv"
}

summary() { # $1 table file, $2 torch version
  local amx=no
  grep -qw amx_bf16 /proc/cpuinfo && amx=yes
  awk -v tput="$throughput" -v tflop="$tflop" -v images="$((n_train + n_test))" \
    -v programs="$programs_list" -v amx="$amx" -v torch="$2" '
    { s[$1, ++n[$1]] = $4 }
    function median(prog,   i, j, t, k, a) {
      k = n[prog]
      for (i = 1; i <= k; i++) a[i] = s[prog, i]
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
    }
    function verdict(ratio, limit) { return sprintf("<= %.2f %s", limit, ratio <= limit ? "met" : "MISSED") }
    END {
      mr = n["script"] > 0 ? median("script") : 0
      floor = tflop * 1000 / tput
      printf "%-11s %7s %10s %8s %8s %9s %9s %8s %8s  %s\n", "program", "epochs", "median s", "ratio", "x fp32", "images/s", "GFLOP/s", "of conv", "x floor", "target"
      k = split(programs, order, " ")
      target["faithful"] = 0.85; target["tuned"] = 0.55
      for (i = 1; i <= k; i++) {
        prog = order[i]; m = median(prog)
        ratio = mr > 0 ? m / mr : 0
        base = prog; sub(/-.*/, "", base)
        xfp32 = (prog != base && n[base] > 0) ? sprintf("%.3f", m / median(base)) : "-"
        t = "-"
        if (prog in target) t = verdict(ratio, target[prog])
        if (prog == "tuned-bf16") {
          if (amx != "yes") t = "n/a: no amx_bf16 in /proc/cpuinfo (bf16 targets are for AMX CPUs)"
          else if (torch != "2.11") t = "n/a on LibTorch " torch " (reported only)"
          else t = verdict(m / median("tuned"), 0.55) " x tuned, " verdict(ratio, 0.35) " x script"
        }
        printf "%-11s %7d %10.3f %8.3f %8s %9.0f %9.1f %7.0f%% %8.2f  %s\n", prog, n[prog], m, ratio, xfp32, images / m, tflop * 1000 / m, 100 * tflop * 1000 / m / tput, m / floor, t
      }
      printf "conv throughput %.1f GFLOP/s (bench/conv_throughput, LibTorch of libtorch-dev as in the header, above); epoch arithmetic %.3f TFLOP (fp32 count for every program); floor %.2f s per epoch\n", tput, tflop, floor
    }' "$1"
}

read -r -a programs <<<"$programs_list"
count=${#programs[@]}
for v in $versions; do
  case "$v" in
    1.13) c=$cli py=/usr/bin/python3 ;;
    2.11) c=$cli211 py=$python211 ;;
    *) echo "speed.sh: --torch takes 1.13, 2.11 or both, not '$v'" >&2; exit 2 ;;
  esac
  echo
  if [ ! -x "$c" ] || ! "$py" -c 'import torch, torchvision' 2>/dev/null; then
    echo "## torch $v: SKIPPED (devicebench-cli '${c:-none}' built against it, or its python '$py' with torch + torchvision, missing; see --cli-2.11, --python-2.11)"
    continue
  fi
  echo "## torch $v: engine $c ($("$c" --version)); script: $("$py" -c 'import torch, torchvision; print("python", __import__("sys").version.split()[0], "torch", torch.__version__, "torchvision", torchvision.__version__)')"
  echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%-10s %5s %5s %10s\n' program round epoch seconds
  for ((p = 1; p <= rounds; p++)); do
    for ((k = 0; k < count; k++)); do
      prog=${programs[$(((p - 1 + k) % count))]}
      if [ "$prog" = script ]; then run_script "$v" "$p" "$py"; else run_engine "$v" "$p" "$prog" "$c"; fi
    done
  done | tee "$tmp/table-$v.txt"
  grep -h '^article-script' "$out/script-$v-1.txt"
  echo
  summary "$tmp/table-$v.txt" "$v"
  echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
if [ -n "$keep" ]; then echo "# run outputs and records kept in $keep"; fi
