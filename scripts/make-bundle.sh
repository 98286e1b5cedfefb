#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the runner bundle for GPU boxes that already have PyTorch (docs/GPU.md):
#   dist/devicebench-runner-<version>-torch<torch>-linux-x86_64.tar.gz
# holding the Qt-free devicebench-cli built against PyTorch <torch>'s CUDA LibTorch, every
# shared library it needs except PyTorch's and glibc's (RUNPATH $ORIGIN/../lib), its data files
# (share/devicebench: the published results, the article's Python workload), the launcher
# bin/devicebench-runner (finds `import torch`, checks its version, execs the binary) and a
# README. On the box: unpack, then `bin/devicebench-runner devices`.
#
#   scripts/make-bundle.sh                      # installs the pinned PyTorch venv if missing
#                                               # (scripts/install-torch.sh), builds the
#                                               # `bundle` preset into build/bundle, packs
#   scripts/make-bundle.sh --build-dir DIR      # pack DIR's devicebench-cli (already built
#                                               # against the venv's torch) instead
#   scripts/make-bundle.sh --out-dir DIR        # where the tarball goes (default dist/)
#   scripts/make-bundle.sh --plan               # check the options and variables, say what
#                                               # it would pack; a bad one exits 2 first
# The last line printed is the tarball's path. Needs readelf, objdump (binutils) and patchelf
# (installed with apt when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$(pwd)

build_dir=""
out_dir="$source_dir/dist"
plan=0
source scripts/checks.sh
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) devicebench_need_value "$1" $#; build_dir="$2"; shift 2 ;;
    --out-dir) devicebench_need_value "$1" $#; out_dir="$2"; shift 2 ;;
    --plan) plan=1; shift ;;
    -h|--help) devicebench_help ;;
    *) devicebench_unknown_option "$1" --build-dir --out-dir --plan --help ;;
  esac
done
# Every setting checked before anything is installed or built (scripts/checks.sh): exit 2.
if [ -n "$build_dir" ]; then
  devicebench_check_dir --build-dir "$build_dir"
  [ -f "$build_dir/CMakeCache.txt" ] ||
    devicebench_refuse "--build-dir '$build_dir' is not a CMake build folder (no CMakeCache.txt)"
fi
devicebench_check_writable_dir --out-dir "$out_dir"
devicebench_check_build_settings
devicebench_check_program PYTHON "${PYTHON:-}"
if [ "$plan" = 1 ]; then
  echo "make-bundle --plan: would pack the devicebench-cli of ${build_dir:-build/bundle (the bundle preset, built first)} into $out_dir"
  exit 0
fi

say() { echo "make-bundle: $*" >&2; }
die() { say "$*"; exit 1; }

if ! command -v patchelf >/dev/null; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  say "installing patchelf"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends patchelf >&2
fi

venv=$(scripts/install-torch.sh | tail -n 1)
python="$venv/bin/python"

if [ -z "$build_dir" ]; then
  build_dir="$source_dir/build/bundle"
  DEVICEBENCH_TORCH_VENV="$venv" cmake --preset bundle >&2
  # The target list read whole, then searched: `| grep -q` would close the pipe at the first
  # match and ninja, still writing, would die of SIGPIPE (a failure under pipefail).
  targets=$(cmake --build "$build_dir" --target help)
  if ! grep -q '^devicebench-cli:' <<<"$targets"; then
    die "with -DDEVICEBENCH_BUILD_UI=OFF this checkout defines no devicebench-cli target: the" \
        "bundle needs the Qt-free CLI"
  fi
  cmake --build --preset bundle -j "$(nproc)" >&2
fi
build_dir=$(cd "$build_dir" && pwd)
cache="$build_dir/CMakeCache.txt"
[ -f "$cache" ] || die "$build_dir is not a CMake build folder (no CMakeCache.txt)"
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | sed -n 1p; }

# The binary: app/ today; wherever the Qt-free CLI's target puts it otherwise.
cli=$(find "$build_dir" -name devicebench-cli -type f -perm -u+x -not -path '*/CMakeFiles/*' -print -quit)
[ -n "$cli" ] || die "no devicebench-cli built in $build_dir"
version=$(cache_value CMAKE_PROJECT_VERSION)
[ -n "$version" ] || die "no CMAKE_PROJECT_VERSION in $cache"

# The torch it was built against, from the build's own cache (not from the venv), so that the
# launcher's check names what the binary really links.
torch_lib=$("$python" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
torch_version=$("$python" -c 'import torch; print(torch.__version__.split("+")[0])')
built_against=$(cache_value TORCH_LIBRARY)
case "$built_against" in
  "$torch_lib"/*) ;;
  *) die "$cli was built against $built_against, not the venv's torch $torch_version ($torch_lib)" ;;
esac
site_packages=$(dirname "$(dirname "$torch_lib")")

name="devicebench-runner-${version}-torch${torch_version}-linux-x86_64"
stage_root=$(mktemp -d)
trap 'rm -rf "$stage_root"' EXIT
stage="$stage_root/$name"
mkdir -p "$stage/bin" "$stage/libexec" "$stage/lib/compat"
install -m 755 "$cli" "$stage/libexec/devicebench-cli"
# The data files (published results, the article's Python workload), where the binary looks:
# libexec/../share/devicebench (engine/core resource_files.h). The build copies them there.
[ -f "$build_dir/share/devicebench/published/article.json" ] ||
  die "no $build_dir/share/devicebench/published/article.json: build the devicebench_data_files target"
mkdir -p "$stage/share"
cp -R "$build_dir/share/devicebench" "$stage/share/devicebench"
chmod -R u+rwX,go+rX,go-w "$stage/share"

# ---- the libraries: the closure of NEEDED entries, stopping at PyTorch's and glibc's --------
# Where each soname resolves here (ldd with torch/lib on the path, as the launcher sets it).
declare -A where=()
while read -r soname arrow path _; do
  [ "$arrow" = "=>" ] || continue
  [ "$path" = "not" ] && die "$soname is not found for $cli (ldd): cannot bundle it"
  where[$soname]="$path"
done < <(LD_LIBRARY_PATH="$torch_lib" ldd "$cli")

is_glibc() {
  case "$1" in
    ld-linux*|libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|\
    libutil.so.*|libanl.so.*|libmvec.so.*|libnsl.so.*|libnss_*|libBrokenLocale.so.*) return 0 ;;
  esac
  return 1
}
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

declare -A seen=()
queue=("$stage/libexec/devicebench-cli")
copied=()
while [ ${#queue[@]} -gt 0 ]; do
  file="${queue[0]}"
  queue=("${queue[@]:1}")
  for soname in $(needed "$file"); do
    [ -z "${seen[$soname]:-}" ] || continue
    seen[$soname]=1
    is_glibc "$soname" && continue
    [ -e "$torch_lib/$soname" ] && continue   # PyTorch's own (libtorch*, libc10*, libgomp)
    path="${where[$soname]:-}"
    [ -n "$path" ] || die "cannot tell where $soname (needed by $(basename "$file")) comes from"
    case "$path" in
      "$site_packages"/*) continue ;;         # the wheel's CUDA libraries (nvidia/*)
      /usr/local/cuda*) die "$cli needs $soname from the CUDA toolkit ($path); the bundle must" \
                            "use only PyTorch's CUDA libraries" ;;
    esac
    case "$soname" in
      libstdc++.so.*|libgcc_s.so.*) dest="$stage/lib/compat" ;;
      *) dest="$stage/lib" ;;
    esac
    cp -L "$path" "$dest/$soname"
    chmod 644 "$dest/$soname"
    copied+=("$soname")
    queue+=("$dest/$soname")
  done
done
case " ${copied[*]} " in
  *" libQt"*) say "warning: the bundle holds Qt libraries (${copied[*]}): this devicebench-cli" \
                  "is not the Qt-free one (-DDEVICEBENCH_BUILD_UI=OFF)" ;;
esac

strip --strip-unneeded "$stage/libexec/devicebench-cli" "$stage"/lib/*.so* 2>/dev/null || true
patchelf --set-rpath '$ORIGIN/../lib' "$stage/libexec/devicebench-cli"
for lib in "$stage"/lib/*.so*; do
  [ -e "$lib" ] && patchelf --set-rpath '$ORIGIN' "$lib"
done

# The newest GLIBCXX_ version used by the binary and the bundled libraries: the launcher uses
# lib/compat's libstdc++ only on a host whose libstdc++ lacks it.
needs_glibcxx=$(objdump -T "$stage/libexec/devicebench-cli" "$stage"/lib/*.so* 2>/dev/null \
  | grep -o 'GLIBCXX_[0-9][0-9.]*' | sort -uV | tail -n 1)

sed -e "s/@DEVICEBENCH_TORCH_VERSION@/$torch_version/" \
    -e "s/@DEVICEBENCH_NEEDS_GLIBCXX@/$needs_glibcxx/" \
    packaging/bundle/devicebench-runner.in > "$stage/bin/devicebench-runner"
chmod 755 "$stage/bin/devicebench-runner"
sed -e "s/@VERSION@/$version/g" -e "s/@TORCH_VERSION@/$torch_version/g" -e "s/@NAME@/$name/g" \
    packaging/bundle/README.md > "$stage/README.md"
cp packaging/copyright "$stage/COPYRIGHT"
{
  echo "devicebench $version"
  echo "built against: PyTorch $("$python" -c 'import torch; print(torch.__version__)') (CUDA $("$python" -c 'import torch; print(torch.version.cuda)'))"
  echo "built on: $(. /etc/os-release && echo "$PRETTY_NAME"), $(g++ --version | sed -n 1p)"
  echo "commit: $(git -C "$source_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "libstdc++ symbols needed: $needs_glibcxx"
  echo "bundled libraries: ${copied[*]}"
} > "$stage/BUILD-INFO"

mkdir -p "$out_dir"
tarball="$(cd "$out_dir" && pwd)/$name.tar.gz"
tar -C "$stage_root" --owner=0 --group=0 --numeric-owner --sort=name -czf "$tarball" "$name"
say "$(du -h "$tarball" | cut -f1) $tarball (${#copied[@]} bundled libraries)"
echo "$tarball"
