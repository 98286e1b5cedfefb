#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A 2-node data-parallel job that really crosses a network interface: two
# network namespaces joined by a veth pair, one `devicebench-cli launch` per namespace (node 0
# holds the rendezvous store at 10.77.<n>.1, Gloo uses the veth: GLOO_SOCKET_IFNAME), one rank
# each, 1 thread, synthetic data. Passes when both launchers exit 0, node 0 wrote the job record
# of 2 ranks, and the veth carried at least the gradients' bytes. Needs root (CI runs as root);
# skipped (exit 77) otherwise, or where network namespaces cannot be made.
# Usage: netns_test.sh DEVICEBENCH_CLI
set -euo pipefail
cli=$1
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces and a veth pair)"
command -v ip >/dev/null || skip "no ip(8) (iproute2)"

id=$$
net=$(( id % 200 + 20 ))
ns0=devicebench-n0-$id
ns1=devicebench-n1-$id
veth0=dbv0-$id
veth1=dbv1-$id
work=$(mktemp -d)
cleanup() {
  ip netns del "$ns0" 2>/dev/null || true
  ip netns del "$ns1" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# a chroot or a container may make the first and fail the second ("mount --make-rslave /")
for ns in "$ns0" "$ns1"; do
  ip netns add "$ns" 2>/dev/null && ip netns exec "$ns" true 2>/dev/null ||
    skip "cannot make a network namespace here (a chroot or a container?)"
done
ip link add "$veth0" type veth peer name "$veth1" || skip "cannot make a veth pair here"
ip link set "$veth0" netns "$ns0"
ip link set "$veth1" netns "$ns1"
ip -n "$ns0" addr add "10.77.$net.1/24" dev "$veth0"
ip -n "$ns1" addr add "10.77.$net.2/24" dev "$veth1"
for ns in "$ns0" "$ns1"; do ip -n "$ns" link set lo up; done
ip -n "$ns0" link set "$veth0" up
ip -n "$ns1" link set "$veth1" up

master=10.77.$net.1
port=29511
train=512
epochs=2
node() { # node rank, namespace, interface
  ip netns exec "$2" env GLOO_SOCKET_IFNAME="$3" "$cli" launch --nnodes 2 --node-rank "$1" \
    --nproc-per-node 1 --master-addr "$master" --master-port "$port" --timeout 30 -- \
    run --device cpu --threads 1 --epochs "$epochs" --train-images "$train" --test-images 64 \
    --batch-size 32 --synthetic --out-dir "$work/node$1" >"$work/node$1.log" 2>&1
}
node 0 "$ns0" "$veth0" & pid0=$!
node 1 "$ns1" "$veth1" & pid1=$!
status0=0; status1=0
wait "$pid0" || status0=$?
wait "$pid1" || status1=$?
echo "--- node 0 (namespace $ns0, $master)"; cat "$work/node0.log"
echo "--- node 1 (namespace $ns1)"; cat "$work/node1.log"
[ "$status0" = 0 ] || { echo "FAIL: node 0 exited with $status0"; exit 1; }
[ "$status1" = 0 ] || { echo "FAIL: node 1 exited with $status1"; exit 1; }

job=$(find "$work/node0" -maxdepth 1 -name '*-job.json' -print -quit)
[ -n "$job" ] || { echo "FAIL: node 0 wrote no job record"; exit 1; }
ls "$work"/node1/*-rank1.json >/dev/null 2>&1 || { echo "FAIL: node 1 wrote no rank record"; exit 1; }
grep -q '"worldSize": 2' "$job" || { echo "FAIL: the job record is not of 2 ranks"; exit 1; }
grep -q '"status": "finished"' "$job" || { echo "FAIL: the job did not finish"; exit 1; }

# Every step all-reduces the gradients (145,578 float32 = 582,312 bytes) over the veth; a ring
# all-reduce of 2 ranks makes each rank receive half of them twice (reduce-scatter, then
# all-gather): one gradient per step. Ask for 90 % of that (steps of 2 x 32 images).
steps=$(( (train + 63) / 64 ))
rx=$(ip netns exec "$ns1" cat "/sys/class/net/$veth1/statistics/rx_bytes")
need=$(( steps * epochs * 145578 * 4 * 9 / 10 ))
echo "veth $veth1 received $rx bytes; the gradients need at least $need"
[ "$rx" -ge "$need" ] || { echo "FAIL: too little traffic crossed the veth"; exit 1; }
echo "PASS: a 2-rank Gloo job across two network namespaces"
