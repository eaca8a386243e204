# Privilege of the generic netlink family "lunq" (kmod/dm-lunq.rst
# "Permissions"), capability by capability, with
# setpriv in the guest (root's bounding set cut, or user 65534):
#  - CAP_NET_ADMIN without CAP_SYS_ADMIN: SET and RESET answer EPERM with
#    the extack "lunq: SET and RESET need CAP_SYS_ADMIN", and the device
#    is unchanged (policy, table, counters read back); lunqctl set exits
#    3 saying CAP_SYS_ADMIN;
#  - CAP_SYS_ADMIN without CAP_NET_ADMIN: SET answers EPERM too
#    (GENL_ADMIN_PERM, checked first, stays);
#  - the events group: user 65534 and CAP_NET_ADMIN alone cannot join
#    (EPERM; lunqctl events exits 3 saying CAP_SYS_ADMIN); CAP_SYS_ADMIN
#    alone joins and receives a throttle event;
#  - GET and the histograms stay open to user 65534 (no IO's address);
#  - root sets, resets and listens.
# group: basic
# time: 3
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v nlprobe >/dev/null || skip "nlprobe not built (make tools)"
[ -x /usr/bin/setpriv ] || skip "no /usr/bin/setpriv (util-linux) in the guest"

lpid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	dm_exists lqp && dm_remove lqp
	if [ -d "$CFG/lqp_nb" ]; then
		echo 0 > "$CFG/lqp_nb/power"
		rmdir "$CFG/lqp_nb"
	fi
}
trap cleanup EXIT

# as root with the bounding set cut to CAPS (util-linux setpriv, not
# busybox's, which has no --bounding-set: -sys_admin,
# -all,+sys_admin): no inheritable capabilities, so the program's
# permitted and effective sets are the bounding set
with_caps() { _c=$1; shift; /usr/bin/setpriv --inh-caps=-all --bounding-set="$_c" "$@"; }
NET_ONLY=-sys_admin
SYS_ONLY=-all,+sys_admin
# capeff CAPS: the effective set a process gets under with_caps CAPS
capeff() { with_caps "$1" sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status; }
# has HEXSET BIT
has() { [ $(( (0x$1 >> $2) & 1 )) = 1 ]; }
kv() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
policy_of() { printf '%s\n' "$1" | sed -n 's/.* policy="\([^"]*\)".*/\1/p'; }
state() { printf '%s|%s|%s|%s' "$(dmsetup table lqp)" \
	"$(policy_of "$(nlprobe get lqp)")" "$(lq_stat lqp reads)" "$(lq_stat lqp throttle)"; }
# eperm WHO CMD...: CMD answers EPERM with MSG (when not empty) and changes
# nothing
eperm() {
	_w=$1 _m=$2
	shift 2
	_b=$(state)
	_o=$("$@" 2>&1)
	case $_o in
	"error=EPERM errno="*) ;;
	*) fail "$_w: expected error=EPERM, got: $_o" ;;
	esac
	[ -z "$_m" ] || case ${_o#* msg=} in *"$_m"*) ;; *) fail "$_w: message lacks '$_m': $_o" ;; esac
	[ "$(state)" = "$_b" ] || fail "$_w changed the device: before '$_b', after '$(state)'"
}
# no_join WHO CMD...: nlprobe listen under CMD is refused the group
no_join() {
	_w=$1
	shift
	_o=$("$@" nlprobe listen -t 1 2>&1)
	_rc=$?
	[ $_rc = 2 ] && case $_o in *"NETLINK_ADD_MEMBERSHIP: Operation not permitted"*) true ;; *) false ;; esac ||
		fail "$_w joined the events group (exit $_rc: $_o)"
}
# wait_listening FILE
wait_listening() {
	_i=0
	until grep -qs '^listening' "$1"; do
		_i=$((_i + 1))
		[ $_i -le 100 ] || fail "listener did not start: $(cat "$1")"
		sleep 0.1
	done
}

e=$(capeff $NET_ONLY) && has "$e" 12 && ! has "$e" 21 ||
	fail "setpriv --bounding-set=$NET_ONLY: CapEff $e, want CAP_NET_ADMIN without CAP_SYS_ADMIN"
s=$(capeff $SYS_ONLY) && has "$s" 21 && ! has "$s" 12 ||
	fail "setpriv --bounding-set=$SYS_ONLY: CapEff $s, want CAP_SYS_ADMIN without CAP_NET_ADMIN"
ok "setpriv: CapEff $e (CAP_NET_ADMIN only of the two), $s (CAP_SYS_ADMIN alone)"

nb=$(nullb_create lqp_nb 16) || fail "null_blk setup"
lunq_create lqp $nb qdepth:8 || fail "create lqp"
dd if=/dev/mapper/lqp of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null || fail "dd"
[ "$(lq_stat lqp reads)" = 64 ] || fail "reads $(lq_stat lqp reads), want 64"

# --- SET and RESET need CAP_SYS_ADMIN ---
msg="lunq: SET and RESET need CAP_SYS_ADMIN"
eperm "CAP_NET_ADMIN alone: set" "$msg" with_caps $NET_ONLY nlprobe set lqp "model:fixed svc_us:60000000"
eperm "CAP_NET_ADMIN alone: set qdepth" "$msg" with_caps $NET_ONLY nlprobe set lqp qdepth:1
eperm "CAP_NET_ADMIN alone: reset" "$msg" with_caps $NET_ONLY nlprobe reset lqp
before=$(state)
with_caps $NET_ONLY lunqctl set lqp qdepth=1 > /tmp/lc.out 2> /tmp/lc.err
rc=$?
[ $rc = 3 ] || { cat /tmp/lc.out /tmp/lc.err; fail "lunqctl set with CAP_NET_ADMIN alone: exit $rc, want 3"; }
lc_err "CAP_SYS_ADMIN"
[ "$(state)" = "$before" ] || fail "lunqctl set with CAP_NET_ADMIN alone changed the device"
diag "lunqctl: $(cat /tmp/lc.err)"
ok "CAP_NET_ADMIN alone: SET and RESET refused (EPERM, '$msg'), lunqctl set exit 3; policy, table and counters unchanged ($before)"
eperm "CAP_SYS_ADMIN alone: set" "" with_caps $SYS_ONLY nlprobe set lqp qdepth:1
eperm "user 65534: set" "" nlprobe -u 65534 set lqp qdepth:1
eperm "user 65534: reset" "" nlprobe -u 65534 reset lqp
ok "CAP_SYS_ADMIN without CAP_NET_ADMIN and user 65534: SET and RESET refused (EPERM)"

# GET and GET_HIST: open (counters, policy words, histograms: no IO address)
g=$(nlprobe -u 65534 get lqp) && [ "$(kv "$g" reads)" = 64 ] || fail "user 65534: get: $g"
h=$(with_caps -all nlprobe hist lqp total_read) && [ "$(kv "$h" count)" = 64 ] ||
	fail "no capabilities: hist: $h"
ok "user 65534 and no capabilities: GET and GET_HIST answered"

# --- the events group needs CAP_SYS_ADMIN ---
no_join "user 65534" as_nobody
no_join "CAP_NET_ADMIN alone" with_caps $NET_ONLY
with_caps $NET_ONLY lunqctl events -t 1 > /tmp/lc.out 2> /tmp/lc.err
rc=$?
[ $rc = 3 ] || { cat /tmp/lc.out /tmp/lc.err; fail "lunqctl events with CAP_NET_ADMIN alone: exit $rc, want 3"; }
lc_err "CAP_SYS_ADMIN"
diag "lunqctl: $(cat /tmp/lc.err)"
ok "user 65534 and CAP_NET_ADMIN alone cannot join events (EPERM); lunqctl events exit 3"
# listen_while QD [WRAP...]: a listener for one event (nlprobe, run
# through WRAP...) while root sets lqp's qdepth to QD; rc its exit status
listen_while() {
	_q=$1
	shift
	: > /tmp/pv.ev
	"$@" nlprobe listen -c 1 -t 60 > /tmp/pv.ev 2>&1 &
	lpid=$!
	wait_listening /tmp/pv.ev
	out=$(nlprobe set lqp "qdepth:$_q") && [ "$out" = ok ] || fail "root: set qdepth:$_q: $out"
	wait "$lpid"
	rc=$?
	lpid=
}
# shellcheck disable=SC2086
listen_while 6 with_caps $SYS_ONLY
[ $rc = 0 ] && grep -q '^event=throttle .*name=lqp' /tmp/pv.ev ||
	fail "CAP_SYS_ADMIN alone: listener exit $rc: $(cat /tmp/pv.ev)"
ok "CAP_SYS_ADMIN alone joins events and gets the throttle move: $(grep '^event=' /tmp/pv.ev)"

# --- root does all ---
listen_while 5
[ $rc = 0 ] || fail "root listener: exit $rc: $(cat /tmp/pv.ev)"
[ "$(policy_of "$(nlprobe get lqp)")" = qdepth:5 ] && [ "$(lq_stat lqp throttle)" = 5 ] ||
	fail "root: set did not take: $(nlprobe get lqp)"
out=$(nlprobe reset lqp) && [ "$out" = ok ] && [ "$(lq_stat lqp reads)" = 0 ] ||
	fail "root: reset: $out, reads $(lq_stat lqp reads)"
lc 0 set lqp qdepth=4
[ "$(lq_stat lqp throttle)" = 4 ] || fail "root: lunqctl set: throttle $(lq_stat lqp throttle)"
ok "root: SET, RESET, lunqctl set and the events group"
