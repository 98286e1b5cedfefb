#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU check: on a box with PyTorch + CUDA, from the runner bundle (or
# any devicebench-cli) and a CIFAR-10 subset, in one go:
#   1. devices: every device with the probe's verdict (devicebench-cli devices, + --json);
#   2. control: the same run (seed 1, faithful, the real subset) on DEVICE and on cpu, then
#      `devicebench-cli compare` of the two records; prints the largest test-loss difference
#      (compare's control line) and the TF32 / cuDNN states the records and PyTorch report;
#   3. timing: the article's experiment on DEVICE, EPOCHS epochs of full size (50,000 training
#      + 10,000 test images), devicebench-cli --workload faithful and --workload tuned (tuned
#      with --data-on-device on CUDA), and the article's own script (run through
#      bench/run-article-script.py, the box's PyTorch) on the same device, alternating
#      (S F T, F T S, ...) for ROUNDS rounds;
#   4. writes every run record, every output, summary.md and summary.csv (per program: runs,
#      median stable epoch, ratio to the script, target) and epochs.csv to OUT;
#   5. the model sweep (three models, batch sizes 16..512, 32 px) on DEVICE: sweep.csv
#      and the cell records in OUT/sweep;
#   6. a data-parallel job (`launch`, one rank per GPU, NCCL) in OUT/distributed;
#   7. precision: tuned epochs in fp32, bf16 and fp16 (fp32 and bf16 on cpu), alternating,
#      their median stable epoch, ratio to fp32, test accuracy and skipped steps side by side
#      in OUT/precision.md;
#   8. the canary, from the timing records of step 3: per program its median seconds and noise,
#      the largest change against each run's first canary, the epochs flagged "machine speed
#      changed", and the time between two epochs (the canary, the record's write) against the
#      epoch's, in OUT/canary.md;
#   9. what the machine did in the tuned runs of step 3 (their records' system readings): per
#      stable epoch the GPU's utilisation, power and memory (NVML), its energy as recorded
#      (energy counter, or power integrated) beside mean power x seconds, and the CPU packages'
#      energy (RAPL), in OUT/energy.md.
# With --device cpu it runs the same steps on the CPU, shortened (512 + 128 images, 2 epochs,
# 1 round), so a CPU-only machine (CI) checks the logic; the control is then cpu against cpu.
#
# usage: scripts/gpu-check.sh --out DIR [--device cuda|cuda:N|cpu] [--cli PATH | --bundle TAR]
#          [--data DIR] [--python PATH] [--script PATH] [--epochs N] [--rounds N]
#          [--train-images N] [--test-images N] [--threads N]
#   --threads N    CPU threads of both the engine and the script (default: all cores)
#   --cli PATH     any devicebench-cli (a build tree's, or the bundle's launcher)
#   --bundle TAR   devicebench-runner-*.tar.gz: unpacked into OUT/bundle; its launcher
#                  bin/devicebench-runner is used
#   --data DIR     CIFAR-10 binary files; needs only data_batch_1.bin + test_batch.bin (61 MB):
#                  the engine's reader wants all five training files present, so a subset is
#                  padded in a scratch folder with links to data_batch_1.bin for the missing
#                  ones (the control reads at most the first 10,000 images, all from
#                  data_batch_1; the timing epochs then see data_batch_1 five times, which
#                  does not change their time). Default: $DEVICEBENCH_DATA, else
#                  ../shared/datasets/cifar-10-batches-bin beside the checkout.
#   --python PATH  python with torch + torchvision (default: python3 on PATH); tensorboard is
#                  optional: without it the script's SummaryWriter is run-article-script.py's
#                  stand-in (same host waits, writes a text file), said so in the summary
#   --script PATH  the article's script (default ../shared/reference/article_script.py)
#   defaults on cuda: 10 epochs, 2 rounds, 50,000 + 10,000 images, control 10,000 + 10,000
#   images 2 epochs; on cpu: 2 epochs, 1 round, 512 + 128 images (control too).
# Exit: 0 all steps ran (targets met or not: see the summary); 1 a step failed; 2 bad usage (an
# unknown option, a device, number or path that is not one: checked before anything is
# written; or a missing program); 3 no data_batch_1.bin / test_batch.bin in --data.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
device=cuda cli="" bundle="" out="" python=python3 threads=$(nproc)
data="${DEVICEBENCH_DATA:-$here/../shared/datasets/cifar-10-batches-bin}"
script="$here/../shared/reference/article_script.py"
epochs="" rounds="" train="" test=""
die() { echo "gpu-check: $*" >&2; exit 2; }
source "$here/scripts/checks.sh"
options=(--out --device --cli --bundle --data --python --script --epochs --rounds --train-images
  --test-images --threads --help)
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    --device | --cli | --bundle | --out | --data | --python | --script | --epochs | --rounds | \
      --train-images | --test-images | --threads) devicebench_need_value "$1" $# ;;
    *) devicebench_unknown_option "$1" "${options[@]}" ;;
  esac
  case "$1" in
    --device) device=$2 ;; --cli) cli=$2 ;; --bundle) bundle=$2 ;; --out) out=$2 ;;
    --data) data=$2 ;; --python) python=$2 ;; --script) script=$2 ;; --epochs) epochs=$2 ;;
    --rounds) rounds=$2 ;; --train-images) train=$2 ;; --test-images) test=$2 ;;
    --threads) threads=$2 ;;
  esac
  shift 2
done
# Every option checked before anything is written or unpacked (scripts/checks.sh): exit 2.
[ -n "$out" ] || die "--out DIR is required"
devicebench_check_device --device "$device"
devicebench_check_writable_dir --out "$out"
devicebench_check_file --bundle "$bundle"
[ -z "$cli" ] || { [ -f "$cli" ] && [ -x "$cli" ]; } ||
  devicebench_refuse "--cli '$cli' is not an executable file"
devicebench_check_program --python "$python"
devicebench_check_file --script "$script"
devicebench_check_count --epochs "$epochs"
devicebench_check_count --rounds "$rounds"
devicebench_check_count --threads "$threads"
devicebench_check_count --train-images "$train" 0
devicebench_check_count --test-images "$test" 0
[ -n "$cli" ] || [ -n "$bundle" ] || die "give --cli PATH or --bundle TAR"
case "$device" in cpu) short=1 ;; *) short=0 ;; esac
if [ "$short" = 1 ]; then
  : "${epochs:=2}" "${rounds:=1}" "${train:=512}" "${test:=128}"; ctrain=$train ctest=$test
else
  : "${epochs:=10}" "${rounds:=2}" "${train:=0}" "${test:=0}"; ctrain=10000 ctest=10000
fi
"$python" -c 'import torch, torchvision' 2>/dev/null ||
  die "$python cannot import torch and torchvision (--python PATH)"
# No data set is exit 3, as devicebench-cli's (a folder that is not there included).
for f in data_batch_1.bin test_batch.bin; do
  [ -f "$data/$f" ] || { echo "gpu-check: no $f in '$data' (--data DIR, else DEVICEBENCH_DATA)" >&2; exit 3; }
done
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)
if [ -n "$bundle" ]; then
  mkdir -p "$out/bundle" && tar -xf "$bundle" -C "$out/bundle" || die "cannot unpack $bundle"
  # The launcher (bin/devicebench-runner: it finds PyTorch's LibTorch and checks its version),
  # not the binary it starts (libexec/devicebench-cli, which alone finds no LibTorch).
  cli=$(find "$out/bundle" -maxdepth 3 -path '*/bin/devicebench-runner' -type f -perm -u+x -print |
    sed -n 1p)
  [ -n "$cli" ] || die "no bin/devicebench-runner in $bundle"
fi
[ -x "$cli" ] || die "devicebench-cli not executable: $cli"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
log() { echo "$*" | tee -a "$out/gpu-check.log"; }
run() { # run LABEL COMMAND...: output to OUT/runs/LABEL.txt; fails the check when it fails
  if ! "${@:2}" >"$out/runs/$1.txt" 2>&1; then
    echo "gpu-check: step $1 failed ($*), its output:" >&2; tail -30 "$out/runs/$1.txt" >&2; exit 1
  fi
}
: >"$out/gpu-check.log"
log "# gpu-check: device $device, cli $cli ($("$cli" --version)), $(date -u +%FT%TZ)"
log "# python $("$python" -c 'import sys, torch, torchvision; print(sys.version.split()[0], "torch", torch.__version__, "torchvision", torchvision.__version__)'), host $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
export OMP_NUM_THREADS=$threads # the engine gets --threads, the script torch.set_num_threads

# The data: the given folder, or a scratch folder padded with links (see --data above).
subset="$scratch/bin"
mkdir -p "$subset"
for f in data_batch_1.bin data_batch_2.bin data_batch_3.bin data_batch_4.bin data_batch_5.bin test_batch.bin batches.meta.txt; do
  if [ -f "$data/$f" ]; then ln -s "$(cd "$data" && pwd)/$f" "$subset/$f"; fi
done
padded=""
for k in 2 3 4 5; do
  [ -e "$subset/data_batch_$k.bin" ] || { ln -s "$(readlink "$subset/data_batch_1.bin")" "$subset/data_batch_$k.bin"; padded+=" $k"; }
done
[ -e "$subset/batches.meta.txt" ] || printf '%s\n' airplane automobile bird cat deer dog frog horse ship truck >"$subset/batches.meta.txt"
log "# data: $data${padded:+ (data_batch_${padded# } missing: linked to data_batch_1.bin)}"

# 1. devices
log "## 1. devices"
run devices "$cli" devices
"$cli" devices --json >"$out/devices.json" 2>/dev/null || true
tee -a "$out/gpu-check.log" <"$out/runs/devices.txt"

# 2. control: DEVICE against cpu, same seed, real subset.
log "## 2. control: $device against cpu, seed 1, faithful, $ctrain + $ctest real images, 2 epochs"
# Records runs/control-DEVICE.json and runs/control-cpu.json (control-cpu-again.json for the
# second when DEVICE is cpu).
second=cpu
[ "$device" = cpu ] && second=cpu-again
controls=()
for tag in "${device//:/}" "$second"; do
  d=$device
  [ "$tag" = "$second" ] && d=cpu
  run "control-$tag" "$cli" run --device "$d" --seed 1 --epochs 2 --warmup-epochs 1 \
    --threads "$threads" --data-dir "$subset" --train-images "$ctrain" --test-images "$ctest" \
    --record "$out/runs/control-$tag.json"
  controls+=("$out/runs/control-$tag.json")
done
run control-compare "$cli" compare "${controls[@]}"
max_diff=$(sed -n 's/.*max test-loss difference \([^ ]*\).*/\1/p' "$out/runs/control-compare.txt" | sed -n 1p)
[ -n "$max_diff" ] || { echo "gpu-check: compare printed no control line, see $out/runs/control-compare.txt" >&2; exit 1; }
tf32=$("$python" - "${controls[0]}" <<'EOF'
import json, sys
fp = json.load(open(sys.argv[1])).get("fingerprint", {})
found = []
def walk(node, path):
    if isinstance(node, dict):
        for k, v in node.items():
            walk(v, path + [k])
    elif any(w in path[-1].lower() for w in ("tf32", "cudnn", "matmulprecision")):
        found.append(f"{'.'.join(path)}={node}")
walk(fp, [])
if not any("tf32" in f.lower() for f in found):
    found.append("(no TF32 field in this build's fingerprint)")
print("; ".join(found))
EOF
)
torch_tf32=$("$python" -c 'import torch; b = torch.backends; print(f"PyTorch defaults: cudnn.allow_tf32={b.cudnn.allow_tf32} cuda.matmul.allow_tf32={b.cuda.matmul.allow_tf32} cudnn.benchmark={b.cudnn.benchmark}")')
sed -n '/^control/,$p' "$out/runs/control-compare.txt" | tee -a "$out/gpu-check.log"
log "largest test-loss difference, $device against cpu: $max_diff"
log "TF32 (record of the $device run): $tf32"
log "TF32 ($torch_tf32)"

# 3. timing: script, faithful, tuned alternating on DEVICE.
n_train=$((train > 0 ? train : 50000)) n_test=$((test > 0 ? test : 10000))
warm=$((epochs > 2 ? 2 : epochs - 1))
log "## 3. timing on $device: $epochs epochs, $n_train + $n_test images, $rounds rounds, stable = epochs after the first $warm"
run make-py "$python" "$here/bench/make-cifar10-py.py" "$subset" "$scratch" --train-images "$train" --test-images "$test"
engine_run() { # round workload
  local extra=()
  [ "$2" = tuned ] && [ "$short" = 0 ] && extra=(--data-on-device)
  run "$2-$1" "$cli" run --device "$device" --threads "$threads" --epochs "$epochs" \
    --warmup-epochs "$warm" --workload "$2" "${extra[@]}" --data-dir "$subset" \
    --train-images "$train" --test-images "$test" --record "$out/runs/$2-$1.json" \
    --csv "$out/runs/$2-$1.csv"
  awk -F, -v r="$1" -v w="$2" 'NR > 1 {print w "," r "," $4 "," $5}' "$out/runs/$2-$1.csv"
}
script_run() { # round
  run "script-$1" "$python" "$here/bench/run-article-script.py" --script "$script" \
    --threads "$threads" "$scratch" "$epochs" "$device" "$out/runs/script-$1-logs"
  awk -v r="$1" '/^epoch [0-9]+ seconds/ {print "script," r "," $2 "," $4}' "$out/runs/script-$1.txt"
}
programs=(script faithful tuned)
echo "program,round,epoch,seconds" >"$out/epochs.csv"
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < 3; k++)); do
    p=${programs[$(((r - 1 + k) % 3))]}
    if [ "$p" = script ]; then script_run "$r"; else engine_run "$r" "$p"; fi | tee -a "$out/epochs.csv"
  done
done
script_line=$(grep -h '^article-script' "$out/runs/script-1.txt")
log "$script_line"

# 4. summary
awk -F, -v warm="$warm" -v short="$short" -v device="$device" -v md="$out/summary.md" \
    -v csv="$out/summary.csv" -v diff="$max_diff" -v tf32="$tf32" -v ttf32="$torch_tf32" \
    -v script="$script_line" -v epochs="$epochs" -v images="$n_train + $n_test" '
  NR > 1 && $3 > warm { s[$1, ++n[$1]] = $4 }
  NR > 1 { runs[$1, $2] = 1 }
  function median(p,   i, j, t, k, a) {
    k = n[p]
    for (i = 1; i <= k; i++) a[i] = s[p, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    if (short) { target["faithful"] = "<= 0.85 x script"; target["tuned"] = "<= 0.55 x script" }
    else { target["faithful"] = "<= 0.25 x script"; target["tuned"] = "< 1 s per epoch" }
    ms = median("script")
    print "# GPU check: " device ", " epochs " epochs of " images " images" > md
    print "" > md
    print "| program | runs | stable epochs | median s/epoch | ratio to script | target | met |" > md
    print "| --- | --- | --- | --- | --- | --- | --- |" > md
    print "program,device,runs,stable_epochs,median_seconds,ratio_to_script,target,met" > csv
    split("script faithful tuned", order, " ")
    for (i = 1; i <= 3; i++) {
      p = order[i]; m = median(p); r = 0
      for (key in runs) { split(key, part, SUBSEP); if (part[1] == p) r++ }
      met = "-"
      if (p == "tuned" && !short) met = m < 1 ? "yes" : "no"
      else if (p in target) { split(target[p], t, " "); met = m / ms <= t[2] ? "yes" : "no" }
      tg = p in target ? target[p] : "-"
      printf "| %s | %d | %d | %.3f | %.3f | %s | %s |\n", p, r, n[p], m, m / ms, tg, met > md
      printf "%s,%s,%d,%d,%.6f,%.6f,%s,%s\n", p, device, r, n[p], m, m / ms, tg, met > csv
    }
    print "" > md
    print "- control, " device " against cpu (seed 1, real subset): largest test-loss difference " diff > md
    print "- TF32 / cuDNN, the " device " run record: " tf32 > md
    print "- " ttf32 " (the script runs with these)" > md
    print "- script: " script > md
    print "- medians over the stable epochs (after the first " warm ") of every round; every run record and output is in runs/" > md
  }' "$out/epochs.csv"
log "## 4. summary ($out/summary.md, $out/summary.csv, $out/epochs.csv)"
tee -a "$out/gpu-check.log" <"$out/summary.md"

# 5. the sweep: the three models at 32 px over batch sizes 16..512 on DEVICE,
# short cells, records in OUT/sweep, its CSV and picture beside them (the picture only with a
# devicebench-cli built with the UI; the runner bundle has none, the CSV says everything). An
# out-of-memory cell ends with its reason and the sweep goes on. On cpu (CI): one model, two
# batch sizes, 2 steps.
if [ "$short" = 1 ]; then
  sweep_grid=(--model small-cnn --batch-size 16,32 --steps 2 --warmup-steps 1 --phase-steps 1 --threads "$threads")
else
  sweep_grid=(--model small-cnn,resnet18,vit-tiny --batch-size 16,32,64,128,256,512 --steps 20 --warmup-steps 5 --phase-steps 5)
fi
run sweep "$cli" sweep "${sweep_grid[@]}" --device "$device" --image-size 32 --synthetic \
  --out-dir "$out/sweep" --csv "$out/sweep.csv"
log "## 5. sweep ($out/sweep.csv, one row per cell; records in $out/sweep)"
tail -n +2 "$out/sweep.csv" | cut -d, -f1,4,5,7,11-16 | tee -a "$out/gpu-check.log"

# 6. a data-parallel job: `launch` with one rank per GPU (NCCL; on a one-GPU box
# it starts one rank and says so), after its 1-rank reference job, records in OUT/distributed;
# on cpu (CI): 2 Gloo ranks of 1 thread. The job's lines and its efficiency go to the log.
if [ "$short" = 1 ]; then
  dp=(--nproc-per-node 2 -- run --device cpu --threads 1 --epochs 2 --train-images 512 --test-images 128)
else
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  dp=(--nproc-per-node "$(( gpus > 0 ? gpus : 1 ))" -- run --device cuda --epochs 3 --train-images 20000 --test-images 2000)
fi
run distributed "$cli" launch "${dp[@]}" --synthetic --out-dir "$out/distributed"
log "## 6. data-parallel job ($out/distributed: job and rank records)"
grep -E '^(launch|job|epoch|efficiency)' "$out/runs/distributed.txt" | tee -a "$out/gpu-check.log"

# 7. precision: tuned epochs in fp32, bf16 and fp16 on DEVICE (TF32 left at LibTorch's default,
# said in the records), alternating (fp32 bf16 fp16, bf16 fp16 fp32, ...), each run's stable
# mean, its ratio to fp32, the test accuracy after its last epoch and the loss scaler's skipped
# steps, side by side. fp16 is CUDA only: on cpu (CI) fp32 and bf16, shortened.
precisions=(fp32 bf16 fp16)
pextra=(--data-on-device)
if [ "$device" = cpu ]; then precisions=(fp32 bf16); pextra=(); fi
log "## 7. precision on $device: tuned, ${precisions[*]}, $epochs epochs, $n_train + $n_test images, $rounds rounds"
np=${#precisions[@]}
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < np; k++)); do
    p=${precisions[$(((r - 1 + k) % np))]}
    run "precision-$p-$r" "$cli" run --device "$device" --threads "$threads" --epochs "$epochs" \
      --warmup-epochs "$warm" --workload tuned --precision "$p" "${pextra[@]}" --data-dir "$subset" \
      --train-images "$train" --test-images "$test" --record "$out/runs/precision-$p-$r.json"
  done
done
"$python" - "$out" "$rounds" "${precisions[@]}" <<'EOF' | tee "$out/precision.md" | tee -a "$out/gpu-check.log"
import json, statistics, sys
out, rounds, precisions = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rows = {}
for p in precisions:
    records = [json.load(open(f"{out}/runs/precision-{p}-{r}.json")) for r in range(1, rounds + 1)]
    stable = [e["seconds"] for rec in records for e in rec["epochs"] if not e["warmup"]]
    rows[p] = dict(
        seconds=statistics.median(stable) if stable else float("nan"),
        accuracy=statistics.median(rec["epochs"][-1]["testAccuracy"] for rec in records),
        skipped=sum(e.get("skippedSteps", 0) for rec in records for e in rec["epochs"]),
        note=records[0]["started"].get("precisionNote", ""),
        status=",".join(sorted({rec["status"] for rec in records})))
base = rows["fp32"]["seconds"]
print("| precision | median stable s/epoch | x fp32 | test accuracy (last epoch) | skipped steps | status | note |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for p, row in rows.items():
    print(f"| {p} | {row['seconds']:.3f} | {row['seconds'] / base:.3f} | {100 * row['accuracy']:.2f} % "
          f"| {row['skipped']} | {row['status']} | {row['note'] or '-'} |")
EOF

# 8. the canary on DEVICE: what it measured in the timing runs of step 3, and the gap between an
# epoch's end and the next one's start (the canary, the record's write), from the records.
log "## 8. the canary on $device (the timing runs' records)"
"$python" - "$out" "$rounds" <<'EOF' | tee "$out/canary.md" | tee -a "$out/gpu-check.log"
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
print("| program | canary ms (median) | noise % (median) | max abs change % | flagged epochs "
      "| gap between epochs ms (median) | gap / epoch % |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for program in ("faithful", "tuned"):
    seconds, noise, change, gaps, share, flagged = [], [], [], [], [], 0
    for r in range(1, rounds + 1):
        rec = json.load(open(f"{out}/runs/{program}-{r}.json"))
        epochs = [e for e in rec["epochs"] if "canary" in e]
        seconds += [e["canary"]["seconds"] for e in epochs]
        noise += [e["canary"]["noise"] for e in epochs]
        change += [abs(e["canaryChange"]) for e in epochs if e.get("canaryChange") is not None]
        flagged += sum(1 for e in epochs if e.get("speedChanged"))
        for a, b in zip(rec["epochs"], rec["epochs"][1:]):
            if "startedUnixSeconds" in a and "startedUnixSeconds" in b:
                gap = b["startedUnixSeconds"] - a["startedUnixSeconds"] - a["seconds"]
                gaps.append(gap)
                share.append(gap / a["seconds"])
    if not seconds:
        print(f"| {program} | no canary in the records | | | | | |")
        continue
    gap = 1e3 * statistics.median(gaps) if gaps else float("nan")
    ratio = 100 * statistics.median(share) if share else float("nan")
    print(f"| {program} | {1e3 * statistics.median(seconds):.3f} "
          f"| {100 * statistics.median(noise):.1f} | {100 * max(change, default=0):.1f} "
          f"| {flagged} of {len(seconds)} | {gap:.1f} | {ratio:.2f} |")
EOF

# 9. what the machine did in the tuned timing runs of step 3 (the system sampler's readings in
# their records): per stable epoch, the GPU's mean utilisation and power, its energy as the
# record measured it (NVML's energy counter, or its power integrated where the GPU has none),
# and the same energy from the power readings alone (mean power x the epoch's seconds), side by
# side, with the CPU packages' energy (RAPL) where readable. On cpu (CI), or a box without the
# NVIDIA driver, the rows say why nothing was measured.
log "## 9. NVML readings on $device (the tuned runs' records)"
"$python" - "$out" "$rounds" <<'EOF' | tee "$out/energy.md" | tee -a "$out/gpu-check.log"
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
print("| run | epoch | GPU busy % | GPU power W | GPU memory GiB | energy J (method) "
      "| mean power x seconds J | CPU packages J | process cores |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
def stat(system, key):
    value = system.get(key)
    return value["mean"] if value else None
def fmt(value, scale=1.0, digits=1):
    return "-" if value is None else f"{value * scale:.{digits}f}"
counter, integral = [], []
for r in range(1, rounds + 1):
    rec = json.load(open(f"{out}/runs/tuned-{r}.json"))
    notes = "; ".join(rec.get("sampling", {}).get("notes", [])) or "-"
    for e in rec["epochs"]:
        if e["warmup"]:
            continue
        system = e.get("system")
        if system is None:
            print(f"| tuned-{r} | {e['epoch']} | not sampled | | | | | | |")
            continue
        gpu, cpu = system["energy"]["gpu"], system["energy"]["cpu"]
        power = stat(system, "gpuPowerWatts")
        from_power = None if power is None else power * e["seconds"]
        energy = (f"{gpu['joules']:.0f} ({gpu['method']})" if gpu["joules"] is not None
                  else f"none: {gpu['note']}")
        cpu_energy = f"{cpu['joules']:.0f}" if cpu["joules"] is not None else f"none: {cpu['note']}"
        if gpu["joules"] is not None and from_power is not None:
            counter.append(gpu["joules"])
            integral.append(from_power)
        print(f"| tuned-{r} | {e['epoch']} | {fmt(stat(system, 'gpuUtilization'), 100, 0)} "
              f"| {fmt(power)} | {fmt(stat(system, 'gpuMemoryBytes'), 1 / 2**30, 2)} | {energy} "
              f"| {fmt(from_power, 1, 0)} | {cpu_energy} | {fmt(stat(system, 'processCores'), 1, 2)} |")
    print(f"\nsampling notes (tuned-{r}): {notes}")
if counter:
    print(f"\nstable epochs: median energy {statistics.median(counter):.0f} J as recorded, "
          f"{statistics.median(integral):.0f} J from mean power x seconds "
          f"(ratio {statistics.median(integral) / statistics.median(counter):.3f})")
EOF
