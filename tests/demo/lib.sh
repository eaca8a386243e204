# tests/demo/lib.sh: what the demonstration scripts share (demo.sh and
# the ones split out of it, auto.sh, realism.sh and dd.sh, source it after
# tests/vm/lib.sh; busybox sh in the VM).
#   demo_args SCRIPT ARG...   the options of auto.sh, realism.sh and dd.sh:
#                   --quick (QUICK=1), --check (CHECK=1), -o DIR (OUT,
#                   else $LUNQ_OUT or /tmp/demo); a script's own flags
#                   through $DEMO_MORE ARG (a function: 0 when it took
#                   ARG); anything else: "SCRIPT: unknown argument 'ARG'"
#                   and exit 2; then OUT is made (exit 2 if it cannot be)
#   check RC TEXT   "ok N TEXT" / "not ok N TEXT", the KTAP words of every
#                   test (tests/unit/tap.sh, tests/vm/lib.sh); FAILS counts
#                   the failures, CHECKS all; the line is appended to the
#                   file $CHECK_LOG too when the script sets it
#   ge A B          true when A >= B (decimals)
#   kv FILE KEY     KEY's value in FILE's last key=value line
demo_args() {
	_script=$1
	shift
	QUICK=0 CHECK=0 OUT=${LUNQ_OUT:-/tmp/demo}
	while [ $# -gt 0 ]; do
		case $1 in
		--quick) QUICK=1 ;;
		--check) CHECK=1 ;;
		-o) OUT=$2; shift ;;
		*) [ -n "${DEMO_MORE:-}" ] && $DEMO_MORE "$1" ||
			{ echo "$_script: unknown argument '$1'" >&2; exit 2; } ;;
		esac
		shift
	done
	mkdir -p "$OUT" || exit 2
}
FAILS=0 CHECKS=0 CHECK_LOG=
check() {
	CHECKS=$((CHECKS + 1))
	if [ "$1" = 0 ]; then
		_check="ok $CHECKS $2"
	else
		_check="not ok $CHECKS $2"
		FAILS=$((FAILS + 1))
	fi
	echo "$_check"
	[ -z "$CHECK_LOG" ] || echo "$_check" >> "$CHECK_LOG"
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
kv() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p" | tail -1; }
