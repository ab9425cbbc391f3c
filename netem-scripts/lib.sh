# Shared helpers of the netem-scripts (sourced, not run). Requires bash, iproute2, root.

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

require_root() {
  [ "$(id -u)" = 0 ] || die "must run as root (network namespaces need CAP_SYS_ADMIN)"
  command -v ip >/dev/null || die "iproute2's ip command is not installed"
}

# A prefix names every namespace of one test network: lower-case letters and digits, 1-12 characters.
check_prefix() {
  [[ "$1" =~ ^[a-z][a-z0-9]{0,11}$ ]] || die "PREFIX '$1' must be a lower-case letter and up to 11 letters or digits"
}

ns_exists() {
  ip netns list | awk '{print $1}' | grep -qx "$1"
}

# Every namespace whose name starts with PREFIX- (the scripts name nothing else that way).
namespaces_of() {
  ip netns list | awk '{print $1}' | grep -E "^$1-" || true
}

refuse_if_up() {
  local existing
  existing=$(namespaces_of "$1")
  [ -z "$existing" ] || die "a network with prefix '$1' is already up ($(echo "$existing" | tr '\n' ' ')); run '$(basename "$0") down $1' first"
}

# Deletes every namespace of PREFIX; fine when there is none (down is idempotent).
teardown() {
  local ns n=0
  for ns in $(namespaces_of "$1"); do
    ip netns del "$ns" && n=$((n + 1))
  done
  echo "$(basename "$0"): removed $n namespace(s) with prefix $1-"
}

add_host() { # NS
  ip netns add "$1"
  ip -n "$1" link set lo up
}

add_switch() { # NS: a namespace holding bridge br0, multicast snooping off (floods multicast like a hub)
  add_host "$1"
  ip -n "$1" link add br0 type bridge mcast_snooping 0
  ip -n "$1" link set br0 up
}

# connect HOST_NS IFACE SWITCH_NS PORT ADDRESS/LEN: a veth pair from the host to the switch's bridge.
connect() {
  ip link add "$2" netns "$1" type veth peer name "$4" netns "$3"
  ip -n "$3" link set "$4" master br0 up
  ip -n "$1" addr add "$5" dev "$2"
  ip -n "$1" link set "$2" up
}
