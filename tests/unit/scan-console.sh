#!/bin/sh
# qemu/scan-console on captured console logs: splats fail, clean logs pass.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
scan=$top/qemu/scan-console
fx=$top/tests/unit/fixtures
t() { # NAME FILE WANT_STATUS WANT_LINE_PATTERN
	out=$("$scan" "$2" 2>&1)
	rc=$?
	if [ $rc -ne "$3" ]; then
		fail $1 "status $rc, expected $3: $out"
	elif [ -n "$4" ] && ! printf '%s\n' "$out" | grep -q "$4"; then
		fail $1 "report lacks '$4': $out"
	else
		ok $1
	fi
}
t scan-console-warn "$fx/console-warn.log" 1 'WARNING: CPU: .*lunq_splat.c'
t scan-console-oops "$fx/console-oops.log" 1 'BUG: kernel NULL pointer dereference'
t scan-console-lockdep "$fx/console-lockdep.log" 1 'possible circular locking dependency'
t scan-console-clean "$fx/console-clean.log" 0 ''
t scan-console-benign "$fx/console-benign.log" 0 ''
printf '[    1.0] ok\r\n[    2.0] WARNING: CPU: 1 PID: 1 at x.c:1 f+0x0/0x1\r\n' > /tmp/scan-crlf.$$
t scan-console-crlf /tmp/scan-crlf.$$ 1 'x.c:1'
rm -f /tmp/scan-crlf.$$
"$scan" /nonexistent/log >/dev/null 2>&1
[ $? -eq 2 ] && ok scan-console-usage || fail scan-console-usage
