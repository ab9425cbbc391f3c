#!/usr/bin/env bash
# lan.sh up|down PREFIX N: a LAN of N hosts on one bridge, each host a network namespace.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
. "$here/lib.sh"

usage() {
  cat <<USAGE
Usage: $(basename "$0") up PREFIX N | down PREFIX | -h

  up PREFIX N   create namespaces PREFIX-sw (bridge br0) and PREFIX-h1..PREFIX-hN,
                host i with eth0 = ${NET_BASE:-10.77}.1.i/24 and a multicast route (224.0.0.0/4 dev eth0)
  down PREFIX   delete every namespace named PREFIX-* (running it twice is fine)

Environment: NET_BASE (default 10.77), the first two octets of the subnet.
Example: $(basename "$0") up demo 3 && ip netns exec demo-h1 ping -c1 ${NET_BASE:-10.77}.1.2 && $(basename "$0") down demo
USAGE
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
  -h|--help) usage; exit 0 ;;
  up)
    [ $# -eq 3 ] || { usage >&2; exit 2; }
    prefix=$2 n=$3
    check_prefix "$prefix"
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 253 ] || die "N must be 1-253, got '$n'"
    require_root
    refuse_if_up "$prefix"
    trap 'echo "$(basename "$0"): failed, tearing down" >&2; teardown "$prefix" >&2' ERR
    base=${NET_BASE:-10.77}
    add_switch "$prefix-sw"
    for i in $(seq 1 "$n"); do
      add_host "$prefix-h$i"
      connect "$prefix-h$i" eth0 "$prefix-sw" "p$i" "$base.1.$i/24"
      ip -n "$prefix-h$i" route add 224.0.0.0/4 dev eth0
    done
    echo "$(basename "$0"): LAN $prefix up: hosts $prefix-h1..$prefix-h$n on $base.1.0/24"
    ;;
  down)
    [ $# -eq 2 ] || { usage >&2; exit 2; }
    check_prefix "$2"
    require_root
    teardown "$2"
    ;;
  *) usage >&2; exit 2 ;;
esac
