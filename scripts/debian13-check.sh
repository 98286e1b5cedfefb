#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's two commands on a clean Debian 13 (trixie), as a new user there would run them:
# a clean clone of this repository's HEAD in a fresh minbase trixie root, then
# `scripts/run.sh` (headless: the experiment, its PNG and CSV) and `scripts/test.sh` (every
# test built and run). Prints each command's time and exit status; exits 1 when either fails.
# Needs root, debootstrap and a Debian mirror (../shared/docs/CHROOT.md); takes about 1.5 h on
# 2 cores (docs/BUILDING.md, "Debian 13").
#
#   scripts/debian13-check.sh [--plan] [ROOT]
#
# ROOT (default /work/chroot-trixie, outside the repository) is made fresh for every call from a
# pristine trixie debootstrapped once into ROOT.pristine. DEVICEBENCH_MIRROR overrides the
# mirror (default http://deb.debian.org/debian). The run's arguments: DEVICEBENCH_CHECK_RUN_ARGS
# (default "--epochs 1", the experiment made short).
set -euo pipefail
source "$(dirname "$0")/checks.sh"
devicebench_parse_plan_args positional "$@"
[ "${#args[@]}" -le 1 ] || devicebench_refuse "one ROOT at most (got ${#args[@]} arguments)"
root="${args[0]:-/work/chroot-trixie}"
mirror="${DEVICEBENCH_MIRROR:-http://deb.debian.org/debian}"
run_args="${DEVICEBENCH_CHECK_RUN_ARGS:---epochs 1}"
[ -d "$(dirname "$root")" ] || devicebench_refuse "ROOT '$root': its folder $(dirname "$root") does not exist"
[[ "$mirror" =~ ^https?:// ]] || devicebench_refuse "DEVICEBENCH_MIRROR '$mirror' is not an http:// or https:// URL"
here="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "debian13-check: $*" >&2; exit 1; }
if [ "$plan" = 1 ]; then
  echo "debian13-check --plan: would debootstrap trixie into $root.pristine (once), copy it to $root,"
  echo "debian13-check --plan: clone $here at $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo "its HEAD") into it and run"
  echo "debian13-check --plan: scripts/run.sh $run_args (headless), then scripts/test.sh"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || fail "must run as root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"

if [ ! -x "$root.pristine/usr/bin/apt-get" ]; then
  rm -rf "$root.pristine"
  echo "\$ debootstrap --variant=minbase --include=ca-certificates,git,sudo trixie $root.pristine"
  debootstrap --variant=minbase --include=ca-certificates,git,sudo trixie "$root.pristine" \
    "$mirror" >"$root.pristine.log" 2>&1 || fail "debootstrap failed, see $root.pristine.log"
fi
rm -rf "$root"
cp -a "$root.pristine" "$root"
cp /etc/resolv.conf "$root/etc/"
# pip inside reaches PyPI only with the host's trust store and pip settings
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/"
for m in proc dev dev/pts sys; do
  case $m in proc) mount -t proc proc "$root/proc" ;; *) mount --bind "/$m" "$root/$m" ;; esac
done
trap 'for m in dev/pts dev proc sys; do umount "$root/$m" 2>/dev/null || true; done' EXIT
git clone -q "$here" "$root/src/devicebench"

in_root() { # the clean clone's folder, root's home, nothing of the host's environment
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive bash -c "cd /src/devicebench && $*"
}
status=0
for command in "DEVICEBENCH_HEADLESS=1 scripts/run.sh $run_args" "scripts/test.sh"; do
  log="$root.$(cut -d' ' -f1 <<<"${command#*=1 }" | tr / -).log" # ROOT.scripts-run.sh.log
  echo "\$ $command    (Debian $(cat "$root/etc/debian_version"); log: $log)"
  began=$(date +%s)
  code=0
  in_root "$command" >"$log" 2>&1 || code=$?
  echo "exit $code after $(( ($(date +%s) - began) / 60 )) min; last lines:"
  tail -n 5 "$log"
  [ "$code" = 0 ] || status=1
done
[ "$status" = 0 ] && echo "debian13-check: ok" || fail "a command failed (logs above)"
