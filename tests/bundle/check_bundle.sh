#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the runner bundle must show: the tarball unpacked into an empty folder, with
# only a Python that has the matching PyTorch (no build tree, no Qt from the system), runs
# `devices`, a 1-epoch synthetic CPU run, and `compare --published` from the bundle's own
# share/devicebench.
#
#   tests/bundle/check_bundle.sh dist/devicebench-runner-*.tar.gz [PYTHON]
# PYTHON: default $PYTHON, else the venv of scripts/install-torch.sh. The programs run under
# `env -i` (PATH=/usr/bin:/bin, HOME in the scratch folder), so nothing of the calling shell's
# environment helps them. Prints every check; exit 0 when all pass.
set -euo pipefail
tarball=$(readlink -f "$1")
python="${2:-${PYTHON:-${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch2.11.0/bin/python}}"
[ -f "$tarball" ] || { echo "no tarball $tarball"; exit 1; }
[ -x "$python" ] || { echo "no Python $python (scripts/install-torch.sh makes it)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/unpacked" "$work/home"
tar -xzf "$tarball" -C "$work/unpacked"
top=$(ls "$work/unpacked")
[ "$(echo "$top" | wc -l)" = 1 ] || { echo "FAIL: the tarball holds more than one top folder: $top"; exit 1; }
bundle="$work/unpacked/$top"
echo "unpacked $(basename "$tarball") into $bundle ($(du -sh "$bundle" | cut -f1))"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
runner() {
  env -i HOME="$work/home" PATH=/usr/bin:/bin PYTHON="$python" LANG=C.UTF-8 \
    "$@"
}
torch_dir=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
site_packages=$(dirname "$torch_dir")

# 1. Where every library comes from (the loader's own answer, through the launcher).
libs=$(runner DEVICEBENCH_RUNNER_LDD=1 "$bundle/bin/devicebench-runner")
bad=""
while read -r soname arrow path _; do
  [ "$arrow" = "=>" ] || continue
  case "$path" in
    not) bad+="  $soname not found"$'\n' ;;
    "$bundle"/*|"$site_packages"/*) ;;
    */libc.so.*|*/libm.so.*|*/libdl.so.*|*/libpthread.so.*|*/librt.so.*|*/libresolv.so.*|\
    */libutil.so.*|*/libmvec.so.*|*/libstdc++.so.*|*/libgcc_s.so.*|*/ld-linux*) ;;  # the host's
    *) bad+="  $soname => $path (neither the bundle, PyTorch nor glibc)"$'\n' ;;
  esac
done <<<"$libs"
if grep -qi "libQt" <<<"$libs"; then bad+="  Qt is loaded: $(grep -i libQt <<<"$libs" | sed -n 1,3p)"$'\n'; fi
if [ -n "$bad" ]; then fail "libraries:"$'\n'"$bad"; else
  ok "$(grep -c '=>' <<<"$libs") libraries, each from the bundle, PyTorch ($site_packages) or glibc/libstdc++; no Qt"
fi

# 2. devices: exit 0, the CPU probed; on a machine without a GPU, the reason CUDA is unusable.
set +e
out=$(runner "$bundle/bin/devicebench-runner" devices 2>&1)
rc=$?
set -e
echo "$out" | sed 's/^/  | /'
if [ "$rc" != 0 ]; then fail "devices: exit $rc"; else ok "devices: exit 0"; fi
grep -qE '^ +cpu ' <<<"$out" || fail "devices: no cpu line"
grep -q "cudaBuilt: yes" <<<"$out" || fail "devices: this LibTorch should have CUDA compiled in"
if ! grep -qE '^ +cuda:[0-9]+ +USABLE' <<<"$out"; then
  grep -q "has CUDA, but no CUDA device is visible" <<<"$out" \
    && ok "devices: says why CUDA is unusable" || fail "devices: no reason why CUDA is unusable"
fi

# 3. A 1-epoch synthetic CPU run with a record.
set +e
out=$(runner "$bundle/bin/devicebench-runner" run --device cpu --synthetic --epochs 1 \
  --train-images 512 --test-images 256 --record "$work/run.json" 2>&1)
rc=$?
set -e
echo "$out" | sed 's/^/  | /'
if [ "$rc" != 0 ]; then fail "run: exit $rc"; else ok "run: exit 0"; fi
grep -qE '^epoch +1/1 ' <<<"$out" || fail "run: no epoch line"
if "$python" -c 'import json, sys; r = json.load(open(sys.argv[1])); assert len(r["epochs"]) == 1, r["epochs"]; print(r["fingerprint"]["libtorchVersion"])' \
     "$work/run.json" > "$work/ver" 2>&1; then
  ok "run: record with 1 epoch, LibTorch $(cat "$work/ver")"
else
  fail "run: record $work/run.json: $(cat "$work/ver")"
fi

# 4. The published results: the built-in file is in the bundle, and compare --published reads it
#    from there (no DEVICEBENCH_RESOURCES, no build tree).
if [ -f "$bundle/share/devicebench/published/article.json" ]; then
  ok "share/devicebench/published/article.json is in the bundle"
else
  fail "no share/devicebench/published/article.json in the bundle"
fi
set +e
out=$(runner "$bundle/bin/devicebench-runner" compare --published "$work/run.json" 2>&1)
rc=$?
set -e
echo "$out" | sed 's/^/  | /'
if [ "$rc" != 0 ]; then fail "compare --published: exit $rc"; else ok "compare --published: exit 0"; fi
grep -q "article: Tesla T4 (Kaggle notebook)" <<<"$out" &&
  grep -q "$bundle/share/devicebench/published/article.json" <<<"$out" &&
  ok "compare --published: the article's rows, read from the bundle" ||
  fail "compare --published: no article rows from $bundle/share/devicebench"

# 5. The article's script runs with the box's own PyTorch (the launcher's Python, no --python):
#    a 1-epoch article-script run on the first 64 + 16 images of files in CIFAR-10's binary
#    layout (whole batch files: DeviceBench checks the data folder as for every run).
"$python" - "$work/bin" <<'PY'
import os, sys
folder = sys.argv[1]
os.makedirs(folder)
for name in ["data_batch_%d.bin" % i for i in range(1, 6)] + ["test_batch.bin"]:
    with open(os.path.join(folder, name), "wb") as f:
        f.write(b"".join(bytes([i % 10]) + bytes([i % 256]) * 3072 for i in range(10000)))
PY
set +e
out=$(runner "$bundle/bin/devicebench-runner" run --workload article-script --device cpu \
  --data-dir "$work/bin" --epochs 1 --batch-size 8 --threads 1 --train-images 64 --test-images 16 \
  --record "$work/script.json" 2>&1)
rc=$?
set -e
echo "$out" | sed 's/^/  | /'
if [ "$rc" != 0 ]; then fail "run --workload article-script: exit $rc"; else
  want=$("$python" -c 'import torch; print(torch.__version__)')
  got=$("$python" -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["workload"], r["fingerprint"]["python"]["torch"], len(r["epochs"]))' "$work/script.json" 2>&1)
  [ "$got" = "article-script $want 1" ] &&
    ok "run --workload article-script: 1 epoch with the box's torch $want" ||
    fail "run --workload article-script: record says '$got', expected 'article-script $want 1'"
fi

if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "bundle check: all pass"
