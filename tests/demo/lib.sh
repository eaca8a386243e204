# tests/demo/lib.sh: what the demonstration scripts split out of demo.sh
# share (dd.sh, realism.sh source it after tests/vm/lib.sh).
#   check RC TEXT   "check ok: TEXT" / "check FAIL: TEXT" (FAILS counts)
#   ge A B          true when A >= B (decimals)
#   kv FILE KEY     KEY's value in FILE's last key=value line
FAILS=0
check() {
	if [ "$1" = 0 ]; then
		echo "check ok: $2"
	else
		echo "check FAIL: $2"
		FAILS=$((FAILS + 1))
	fi
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
kv() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p" | tail -1; }
