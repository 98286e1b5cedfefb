#!/usr/bin/env bash
# The one prepared command for the lent H200 (run by the device tool in the repo's root):
#   1. the host: nvidia-smi, CPU, the box's torch;
#   2. the CUDA build's engine tests that need a GPU (the CUDA graph against the eager step,
#      the device list and probe), from .gpu/engine-tests (binary + its non-PyTorch libraries);
#   3. scripts/gpu-check.sh on the runner bundle, sized to fit (EPOCHS epochs, 2 rounds), on
#      what fits the 64 MiB that travels: data_batch_1.bin made of its first 5,000 real images
#      twice, test_batch.bin of the first 2,500 real test images four times (an epoch still
#      sees 50,000 + 10,000 images; the test loss is the mean over those 2,500);
#   4. everything packed into $OUT/gpu-check.tgz (the bundle's unpacked copy left out).
# DEVICE=cpu runs the same here, shortened (a dry run of this script's logic).
set -uo pipefail
export PYTHONUNBUFFERED=1
device="${DEVICE:-cuda}"
epochs="${EPOCHS:-5}"
budget="${BUDGET:-420}" # seconds for gpu-check
t0=$SECONDS
out="${OUT:?}"
exec > >(tee -a "$out/device.log") 2>&1
stamp() { echo "== $* (t=$((SECONDS - t0)) s)"; }

stamp host
nvidia-smi || true
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv || true
nproc
grep -m1 "model name" /proc/cpuinfo
python3 -c 'import sys, torch, torchvision; print(sys.version.split()[0], torch.__version__, torchvision.__version__, torch.version.cuda, torch.cuda.is_available() and torch.cuda.get_device_name(0))'
torch_lib=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')

data=/tmp/cifar
mkdir -p "$data"
cp .gpu/data/batches.meta.txt "$data/"
for k in 1 2; do cat .gpu/data/train_first5000.bin; done >"$data/data_batch_1.bin"
for k in 1 2 3 4; do cat .gpu/data/test_batch_first2500.bin; done >"$data/test_batch.bin"
ls -la "$data"

stamp "engine tests (CUDA build)"
# The bundle's libraries serve the test binary too (built here with the same ones).
# Python's lzma, not xz(1), which the box may lack; gpu-check then gets a plain .tar.
python3 - <<'PY'
import glob, lzma, shutil, tarfile
with lzma.open(glob.glob(".gpu/devicebench-runner-*.tar.xz")[0]) as src, open("/tmp/runner.tar", "wb") as dst:
    shutil.copyfileobj(src, dst)
tarfile.open("/tmp/runner.tar").extractall("/tmp/bundle")
with lzma.open(".gpu/engine-tests/engine_tests.xz") as src, open("/tmp/engine_tests", "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
bundle_lib=$(ls -d /tmp/bundle/*/lib)
if [ -s /tmp/engine_tests ]; then
  chmod +x /tmp/engine_tests
  LD_LIBRARY_PATH="$torch_lib:$bundle_lib" DEVICEBENCH_TEST_DATA="$data" \
    timeout 150 /tmp/engine_tests \
    --gtest_filter='GraphedStep.*:Devices.*:Probe.*:DeviceStart.*:Fingerprint.*:AutocastShim.*:LossScaler.*:Precision*.*' \
    --gtest_output="xml:$out/engine-tests.xml"
  echo "engine tests rc=$?"
else
  echo "no engine tests binary: skipped"
fi

stamp gpu-check
bundle=/tmp/runner.tar
extra=()
[ "$device" = cpu ] && extra=(--threads 2)
timeout "$budget" scripts/gpu-check.sh --device "$device" --bundle "$bundle" --data "$data" \
  --python python3 --script .gpu/article_script.py --epochs "$epochs" --rounds 2 \
  --out /tmp/gc "${extra[@]}"
echo "gpu-check rc=$?"

stamp pack
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv || true
tar -C /tmp --exclude=gc/bundle -czf "$out/gpu-check.tgz" gc
ls -la "$out"
stamp done
