#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs a DeviceBench .deb into a clean Debian 12 root with apt, as a user would
# (`apt-get install ./devicebench_*.deb`), and checks that both programs start there.
# Needs root, debootstrap and a Debian mirror.
#
#   packaging/test-deb-in-chroot.sh build/x/devicebench_0.1.0-1_amd64.deb [ROOT]
#
# ROOT (default /work/chroot-deb, outside the repository) is made fresh for every call: a
# pristine minbase bookworm is debootstrapped once into ROOT.pristine and copied to ROOT.
# DEVICEBENCH_MIRROR overrides the mirror (default: the host's, http://deb.debian.org/debian).
set -euo pipefail
fail() { echo "test-deb-in-chroot: $*" >&2; exit 1; }
[ $# -ge 1 ] || fail "usage: $0 DEB [ROOT]"
deb="$(realpath "$1")"
root="${2:-/work/chroot-deb}"
mirror="${DEVICEBENCH_MIRROR:-http://deb.debian.org/debian}"
[ -f "$deb" ] || fail "$deb: no such file"
[ "$(id -u)" -eq 0 ] || fail "must run as root (debootstrap, chroot)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"

if [ ! -x "$root.pristine/usr/bin/apt-get" ]; then
  rm -rf "$root.pristine"
  echo "\$ debootstrap --variant=minbase bookworm $root.pristine $mirror"
  debootstrap --variant=minbase bookworm "$root.pristine" "$mirror" >"$root.pristine.log" 2>&1 ||
    fail "debootstrap failed, see $root.pristine.log"
fi
rm -rf "$root"
cp -a "$root.pristine" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" || true' EXIT

in_root() {
  echo "# $*"
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"
}
echo "clean root: $(cat "$root/etc/debian_version"), $(chroot "$root" dpkg-query -W | wc -l) packages"
in_root sh -c 'apt-get update -q >/dev/null && cd /tmp && apt-get install -y -q ./devicebench_*.deb' \
  > "$root.install.log" 2>&1 || { tail -30 "$root.install.log"; fail "apt-get install failed"; }
grep -E '^(Setting up devicebench|The following NEW packages)' "$root.install.log" || true
echo "installed: $(chroot "$root" dpkg-query -W devicebench)"
echo "Depends: $(chroot "$root" dpkg-query -W -f='${Depends}' devicebench)"
echo "Recommends: $(chroot "$root" dpkg-query -W -f='${Recommends}' devicebench)"
in_root devicebench-cli --version
in_root devicebench-cli devices
in_root devicebench --version
in_root env QT_QPA_PLATFORM=offscreen devicebench --help | sed -n 1,5p
in_root sh -c 'ls /usr/share/applications /usr/share/metainfo /usr/share/icons/hicolor/scalable/apps /usr/share/man/man1/devicebench*'
# A short real run on synthetic data: the installed CLI trains and writes its PNG.
in_root devicebench-cli run --synthetic --epochs 1 --train-images 256 --test-images 64 \
  --png /tmp/synthetic.png
[ -s "$root/tmp/synthetic.png" ] || fail "the installed devicebench-cli wrote no PNG"
echo "test-deb-in-chroot: ok"
