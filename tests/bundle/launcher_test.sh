#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The runner bundle's launcher (packaging/bundle/devicebench-runner.in) against a fake Python
# and a fake devicebench-cli: it refuses another PyTorch version naming both (exit 2), refuses a
# torch without CUDA libraries, a Python without torch and a missing Python (exit 2, the
# program never started), and otherwise starts the program with the bundle's lib/ and torch's
# lib/ on LD_LIBRARY_PATH, passing the arguments and the exit status through; lib/compat's
# libstdc++ only where the host's lacks the needed symbol version.
# Usage: launcher_test.sh SOURCE_DIR
set -euo pipefail
src="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

bundle="$work/bundle"
mkdir -p "$bundle/bin" "$bundle/libexec" "$bundle/lib/compat" "$work/torch/lib"
sed -e 's/@DEVICEBENCH_TORCH_VERSION@/2.11.0/' -e 's/@DEVICEBENCH_NEEDS_GLIBCXX@/GLIBCXX_3.4.30/' \
  "$src/packaging/bundle/devicebench-runner.in" > "$bundle/bin/devicebench-runner"
chmod +x "$bundle/bin/devicebench-runner"
# The fake program: records its arguments and library path, exits 7.
cat > "$bundle/libexec/devicebench-cli" <<'EOS'
#!/bin/sh
echo "ARGS: $*"
echo "LD_LIBRARY_PATH: $LD_LIBRARY_PATH"
exit 7
EOS
chmod +x "$bundle/libexec/devicebench-cli"
# The fake Python: answers the launcher's question from FAKE_TORCH_* (FAKE_TORCH_VERSION=none:
# `import torch` fails).
cat > "$work/python" <<'EOS'
#!/bin/sh
[ "$FAKE_TORCH_VERSION" = none ] && { echo "ModuleNotFoundError: No module named 'torch'" >&2; exit 1; }
printf '%s\n%s\n%s\n' "$FAKE_TORCH_VERSION" "$FAKE_TORCH_LIB" "$FAKE_STDCXX"
EOS
chmod +x "$work/python"
touch "$work/torch/lib/libtorch_cuda.so"
printf 'xx GLIBCXX_3.4.29 xx GLIBCXX_3.4.30 xx' > "$work/new-libstdc++.so.6"
printf 'xx GLIBCXX_3.4.28 xx' > "$work/old-libstdc++.so.6"

# run VERSION TORCH_LIB STDCXX ARGS...: sets out, err, rc.
run() {
  local v="$1" lib="$2" cxx="$3"; shift 3
  set +e
  out=$(PYTHON="$work/python" FAKE_TORCH_VERSION="$v" FAKE_TORCH_LIB="$lib" FAKE_STDCXX="$cxx" \
        "$bundle/bin/devicebench-runner" "$@" 2>"$work/err")
  rc=$?
  set -e
  err=$(cat "$work/err")
}

# 1. Another version: exit 2, both versions named, the program not started.
run 2.10.0+cu128 "$work/torch/lib" "$work/new-libstdc++.so.6" devices
[ "$rc" = 2 ] || fail "other torch: exit $rc, expected 2"
grep -q "built against PyTorch 2.11.0" <<<"$err" || fail "other torch: message lacks 2.11.0: $err"
grep -q "has PyTorch 2.10.0+cu128" <<<"$err" || fail "other torch: message lacks 2.10.0+cu128: $err"
[ -z "$out" ] || fail "other torch: the program ran: $out"

# 2. The same version (any local part): the program runs with the arguments, its exit status
#    comes back, bundle lib/ then torch lib/ on the path, no compat on a new libstdc++.
LD_LIBRARY_PATH=/previous run 2.11.0+cu130 "$work/torch/lib" "$work/new-libstdc++.so.6" run --epochs 1
[ "$rc" = 7 ] || fail "same torch: exit $rc, expected the program's 7 ($err)"
grep -qx "ARGS: run --epochs 1" <<<"$out" || fail "same torch: arguments not passed: $out"
grep -qx "LD_LIBRARY_PATH: $bundle/lib:$work/torch/lib:/previous" <<<"$out" \
  || fail "same torch: library path: $out"

# 3. A host libstdc++ without the needed version, or none found: lib/compat first.
run 2.11.0 "$work/torch/lib" "$work/old-libstdc++.so.6" devices
grep -qx "LD_LIBRARY_PATH: $bundle/lib/compat:$bundle/lib:$work/torch/lib" <<<"$out" \
  || fail "old libstdc++: library path: $out"
run 2.11.0 "$work/torch/lib" "" devices
grep -q "LD_LIBRARY_PATH: $bundle/lib/compat:" <<<"$out" || fail "no libstdc++ found: $out"

# 4. A CPU-only torch of the right version: exit 2, says so.
mkdir -p "$work/cpu-torch/lib"
run 2.11.0+cpu "$work/cpu-torch/lib" "$work/new-libstdc++.so.6" devices
[ "$rc" = 2 ] || fail "cpu torch: exit $rc, expected 2"
grep -q "no CUDA libraries" <<<"$err" || fail "cpu torch: message: $err"

# 5. No torch in that Python; no such Python.
run none "" "" devices
[ "$rc" = 2 ] || fail "no torch: exit $rc, expected 2"
grep -q "cannot import torch" <<<"$err" || fail "no torch: message: $err"
set +e
PYTHON="$work/no-such-python" "$bundle/bin/devicebench-runner" devices 2>"$work/err" >/dev/null
rc=$?
set -e
[ "$rc" = 2 ] || fail "no python: exit $rc, expected 2"
grep -q "no Python '$work/no-such-python'" "$work/err" || fail "no python: message: $(cat "$work/err")"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "launcher: all cases pass"
