#!/usr/bin/env bash
# wan.sh up|down PREFIX [2|3]: two or three LANs joined by a router namespace (unicast routing only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
. "$here/lib.sh"

usage() {
  cat <<USAGE
Usage: $(basename "$0") up PREFIX [2|3] | down PREFIX | -h

  up PREFIX [LANS]  LANs a, b (and c) on ${NET_BASE:-10.77}.1.0/24, .2.0/24 (.3.0/24), each a bridge in namespace
                    PREFIX-swa... with hosts PREFIX-a1, PREFIX-a2, ... (.1, .2, ...); router PREFIX-r at .254 on
                    every LAN with IPv4 forwarding on and no multicast routing; hosts route by default via .254
  down PREFIX       delete every namespace named PREFIX-* (running it twice is fine)

Environment: NET_BASE (default 10.77), HOSTS_PER_LAN (default 2).
Example: $(basename "$0") up wan1 2 && ip netns exec wan1-a1 ping -c1 ${NET_BASE:-10.77}.2.1 && $(basename "$0") down wan1
USAGE
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
  -h|--help) usage; exit 0 ;;
  up)
    [ $# -eq 2 ] || [ $# -eq 3 ] || { usage >&2; exit 2; }
    prefix=$2 lans=${3:-2} hosts=${HOSTS_PER_LAN:-2}
    check_prefix "$prefix"
    [ "$lans" = 2 ] || [ "$lans" = 3 ] || die "the number of LANs must be 2 or 3, got '$lans'"
    [[ "$hosts" =~ ^[0-9]+$ ]] && [ "$hosts" -ge 1 ] && [ "$hosts" -le 253 ] || die "HOSTS_PER_LAN must be 1-253, got '$hosts'"
    require_root
    refuse_if_up "$prefix"
    trap 'echo "$(basename "$0"): failed, tearing down" >&2; teardown "$prefix" >&2' ERR
    base=${NET_BASE:-10.77}
    add_host "$prefix-r"
    port=0
    for l in $(seq 1 "$lans"); do
      lan=$(printf "\\x$(printf %x $((96 + l)))")   # 1 -> a, 2 -> b, 3 -> c
      add_switch "$prefix-sw$lan"
      port=$((port + 1))
      connect "$prefix-r" "eth$((l - 1))" "$prefix-sw$lan" "p$port" "$base.$l.254/24"
      for i in $(seq 1 "$hosts"); do
        add_host "$prefix-$lan$i"
        port=$((port + 1))
        connect "$prefix-$lan$i" eth0 "$prefix-sw$lan" "p$port" "$base.$l.$i/24"
        ip -n "$prefix-$lan$i" route add default via "$base.$l.254"
      done
    done
    ip netns exec "$prefix-r" sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'
    echo "$(basename "$0"): WAN $prefix up: $lans LANs of $hosts hosts ($base.1-$lans.0/24), router $prefix-r at .254"
    ;;
  down)
    [ $# -eq 2 ] || { usage >&2; exit 2; }
    check_prefix "$2"
    require_root
    teardown "$2"
    ;;
  *) usage >&2; exit 2 ;;
esac
