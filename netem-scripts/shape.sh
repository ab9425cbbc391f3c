#!/usr/bin/env bash
# shape.sh NS DEV [--rate R] [--delay D] [--jitter J] [--loss L] [--reorder P] [--duplicate P] [--clear] [--strict]
# Shapes the egress of DEV in namespace NS: the classic htb + netem recipe where the kernel has netem; where it
# has not, whatever tbf can do (the rate), and a line for each impairment it could not apply.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
. "$here/lib.sh"

usage() {
  cat <<USAGE
Usage: $(basename "$0") NS DEV [--rate R] [--delay D] [--jitter J] [--loss L] [--reorder P] [--duplicate P] [--strict]
       $(basename "$0") NS DEV --clear
       $(basename "$0") -h

Shapes what leaves interface DEV of network namespace NS (egress only; shape both ends for both directions).
  --rate R       bottleneck rate in tc units, e.g. 10mbit, 512kbit
  --delay D      one-way delay, e.g. 50ms          (netem)
  --jitter J     delay variation, e.g. 5ms          (netem, needs --delay)
  --loss L       random loss, e.g. 1%               (netem)
  --reorder P    share of packets sent early, e.g. 25% (netem, needs --delay)
  --duplicate P  share of packets duplicated, e.g. 0.1% (netem)
  --clear        remove all shaping from DEV
  --strict       exit 3 if any impairment could not be applied
With netem: root htb with one class at the rate, netem below it (or netem alone without --rate).
Without netem (e.g. this project's build machine): the rate is applied with tbf, and each netem impairment is
reported as NOT applied, with the equivalent 'bin/fjm2 linkem' options, the userspace link emulator.
Example: $(basename "$0") wan1-a1 eth0 --rate 10mbit --delay 40ms --loss 1%
USAGE
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
[ $# -ge 2 ] || { usage >&2; exit 2; }
ns=$1 dev=$2
shift 2
rate="" delay="" jitter="" loss="" reorder="" duplicate="" clear=0 strict=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rate|--delay|--jitter|--loss|--reorder|--duplicate)
      [ $# -ge 2 ] || die "$1 needs a value"
      declare "${1#--}=$2"
      shift 2 ;;
    --clear) clear=1; shift ;;
    --strict) strict=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see -h)" ;;
  esac
done
require_root
command -v tc >/dev/null || die "tc (iproute2) is not installed"
ns_exists "$ns" || die "no network namespace '$ns'"
ip -n "$ns" link show "$dev" >/dev/null 2>&1 || die "namespace $ns has no interface '$dev'"
[ -z "$jitter" ] || [ -n "$delay" ] || die "--jitter needs --delay"
[ -z "$reorder" ] || [ -n "$delay" ] || die "--reorder needs --delay (netem sends reordered packets early)"

tcn() { ip netns exec "$ns" tc "$@"; }

# Bits per second of a tc rate such as 10mbit, for sizing the tbf burst.
to_bits() {
  local v=${1,,}
  [[ "$v" =~ ^([0-9]+(\.[0-9]+)?)(bit|kbit|mbit|gbit)?$ ]] || die "rate '$1' is not a number with bit, kbit, mbit or gbit"
  local n=${BASH_REMATCH[1]} mult=1
  case "${BASH_REMATCH[3]}" in kbit) mult=1000 ;; mbit) mult=1000000 ;; gbit) mult=1000000000 ;; esac
  awk -v n="$n" -v m="$mult" 'BEGIN { printf "%.0f", n * m }'
}

[ -z "$rate" ] || to_bits "$rate" >/dev/null   # refuse a bad rate before touching the device

# Remove what was there; a device without a root qdisc makes tc complain, which is fine.
tcn qdisc del dev "$dev" root 2>/dev/null || true
if [ "$clear" = 1 ]; then
  echo "$(basename "$0"): cleared shaping of $dev in $ns"
  exit 0
fi

netem_args=()
[ -z "$delay" ] || netem_args+=(delay "$delay" ${jitter:+"$jitter"})
[ -z "$loss" ] || netem_args+=(loss "$loss")
[ -z "$reorder" ] || netem_args+=(reorder "$reorder")
[ -z "$duplicate" ] || netem_args+=(duplicate "$duplicate")

apply_tbf() {
  local bits burst
  bits=$(to_bits "$rate")
  burst=$(( bits / 8 / 100 ))        # 10 ms worth of bytes
  [ "$burst" -ge 1600 ] || burst=1600 # at least one full-size frame
  tcn qdisc add dev "$dev" root tbf rate "$rate" burst "$burst" latency 50ms
  echo "$(basename "$0"): applied rate $rate to $dev in $ns with tbf (burst $burst bytes, latency 50ms)"
}

if [ ${#netem_args[@]} -eq 0 ]; then
  if [ -n "$rate" ]; then
    apply_tbf
  else
    echo "$(basename "$0"): nothing to apply (see -h)"
  fi
  exit 0
fi

netem_error=""
if [ -n "$rate" ]; then
  tcn qdisc add dev "$dev" root handle 1: htb default 10
  tcn class add dev "$dev" parent 1: classid 1:10 htb rate "$rate"
  if netem_error=$(tcn qdisc add dev "$dev" parent 1:10 handle 10: netem "${netem_args[@]}" 2>&1); then
    echo "$(basename "$0"): applied htb rate $rate + netem ${netem_args[*]} to $dev in $ns"
    exit 0
  fi
  tcn qdisc del dev "$dev" root 2>/dev/null || true
elif netem_error=$(tcn qdisc add dev "$dev" root handle 1: netem "${netem_args[@]}" 2>&1); then
  echo "$(basename "$0"): applied netem ${netem_args[*]} to $dev in $ns"
  exit 0
fi

# No netem here: apply the rate with tbf and say, per impairment, what is missing and how to get it.
echo "$(basename "$0"): netem is not available in this kernel (tc said: ${netem_error:-no output}); applying what tbf can" >&2
[ -z "$rate" ] || apply_tbf
linkem="bin/fjm2 linkem --mode udp --listen HOST:PORT --target HOST:PORT"
for impairment in delay jitter loss reorder duplicate; do
  value=${!impairment}
  [ -n "$value" ] || continue
  option="--$impairment $value"
  [ "$impairment" != reorder ] || option="--reorder $value,${delay}"
  echo "$(basename "$0"): NOT applied: --$impairment $value (no netem); emulate it in userspace: $linkem $option" >&2
done
[ "$strict" = 0 ] || exit 3
exit 0
