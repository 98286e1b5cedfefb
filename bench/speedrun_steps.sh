#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The speedrun's training step on this machine's CPU, side by side: seconds per step of batch
# 1024 for the engine's speedrun with Debian's LibTorch (build/default), the same with the
# PyPI torch's LibTorch (build/cuda's CLI, on the CPU) and the record script itself
# (reference/airbench/time_steps.py: airbench94's own step, PyPI airbench 0.1.8, in the pinned
# venv), each ROUNDS times in rotating order (A B C, B C A, ...), at the same threads and in the
# precision each picks (bf16 where the CPU has it natively, else fp32). The engine's step is
# the second epoch's training time (its test pass taken out) over its steps; the first epoch
# holds the data's placement and the whitening's fit. Then each LibTorch's convolution peak on
# the recipe's own convolutions (bench/conv_throughput --network speedrun, in that precision).
# Prints a table: the median seconds per step, images/s, the ratio to the record script's and
# the fraction of the convolution peak (the step floor, the convolutions' arithmetic over the
# measured conv throughput, over the step's seconds; the record script's against the PyPI
# torch's peak, its own torch).
#
# usage: bench/speedrun_steps.sh [--rounds N] [--steps N] [DATA_DIR [THREADS]]
# Defaults: 3 rounds, 4 steps an epoch (4096 training images), THREADS 2. Run it on an idle
# machine (the load average is printed before and after).
set -euo pipefail
source "$(dirname "$0")/common.sh"
rounds=3 steps=4
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "speedrun_steps.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
data="${positional[0]:-$default_data}"
threads="${positional[1]:-2}"
cli_pypi="$here/build/cuda/app/devicebench-cli"
venv_python="$("$here/scripts/install-airbench.sh" 2>/dev/null | tail -n 1)"
bench_prepare speedrun_steps.sh "$data" "$cli" "$cli_pypi" "$venv_python" \
  "$build/bench/conv_throughput" "$here/build/cuda/bench/conv_throughput"
export OMP_NUM_THREADS=$threads

echo "# speedrun steps: batch 1024, $steps steps an epoch, $rounds rounds in rotating order, threads $threads, $(date -u +%FT%TZ)"
bench_machine_header
echo "# PyPI torch (build/cuda's LibTorch, the record script): $("$venv_python" -c 'import torch; print(torch.__version__)')"

# One engine run; prints its seconds per training step (epoch 2, test pass taken out).
engine_step() { # $1 CLI, $2 record
  "$1" run --workload speedrun --device cpu --threads "$threads" --epochs 2 --warmup-epochs 1 \
    --target-accuracy 100 --data-dir "$data" --train-images $((steps * 1024)) \
    --test-images 500 --no-published --record "$2" >/dev/null 2>&1
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["epochs"][1]; print((e["seconds"]-e["testSeconds"])/int(sys.argv[2]))' "$2" "$steps"
}
reference_step() {
  "$venv_python" "$here/reference/airbench/time_steps.py" --data-dir "$data" --threads "$threads" \
    --warmup 2 --steps "$steps" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["secondsPerStepMedian"])'
}

names=(engine-libtorch-debian engine-libtorch-pypi record-script)
declare -A times
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < 3; k++)); do
    i=$(((r + k) % 3))
    case $i in
      0) s=$(engine_step "$cli" "$tmp/debian-$r.json") ;;
      1) s=$(engine_step "$cli_pypi" "$tmp/pypi-$r.json") ;;
      2) s=$(reference_step) ;;
    esac
    times[$i]="${times[$i]:-} $s"
    echo "round $((r + 1)): ${names[$i]} $s s/step"
  done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# The step floor (seconds) of each LibTorch at the precision the programs picked.
precision=$(python3 -c 'import json,sys; print({"bfloat16": "bf16"}.get(json.load(open(sys.argv[1]))["precision"], "fp32"))' "$tmp/debian-0.json")
step_floor() { # $1 build dir
  "$1/bench/conv_throughput" --network speedrun --precision "$precision" --threads "$threads" \
    --reps 3 | tee "$tmp/conv-$(basename "$1").txt" | sed -n 's/^step floor: \([0-9.]*\) s.*/\1/p'
}
floor_debian=$(step_floor "$build")
floor_pypi=$(step_floor "$here/build/cuda")
for f in "$tmp"/conv-*.txt; do echo "# $(basename "$f" .txt): $(grep '^conv throughput' "$f")"; done
floors=("$floor_debian" "$floor_pypi" "$floor_pypi")
ref_median=$(echo "${times[2]}" | median)
printf '%-24s %14s %10s %16s %14s\n' program "s/step median" images/s "x record script" "of conv peak"
for i in 0 1 2; do
  m=$(echo "${times[$i]}" | median)
  printf '%-24s %14.3f %10.1f %16.2f %13.0f%%\n' "${names[$i]}" "$m" "$(echo "1024 / $m" | bc -l)" \
    "$(echo "$m / $ref_median" | bc -l)" "$(echo "100 * ${floors[$i]} / $m" | bc -l)"
done
