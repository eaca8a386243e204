# tests/unit/tap.sh: the TAP lines of the shell unit tests, for sh and bash;
# a test sources it:  . "$(dirname "$0")/tap.sh"
# tests/run counts the lines that begin with "ok " and "not ok" (an "ok"
# with "# SKIP" as skipped), and a test's non-zero exit as a failure.
#
# Numbered checks, "ok N - WHAT" / "not ok N - WHAT":
#   ok WHAT, nok WHAT; tap_skip WHAT WHY is "ok N - WHAT # SKIP WHY".
#   tap_n counts the checks, tap_fails the failed ones.
# Named checks, "ok NAME" / "not ok NAME # WHY":
#   tap_cmd CMD NAME RC PATTERN [ARG...]   a command's exit and output
#   tap_built NAME TOP PROG                a program to test, else exit

tap_n=0
tap_fails=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
nok() { tap_n=$((tap_n + 1)); tap_fails=$((tap_fails + 1)); echo "not ok $tap_n - $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }

# tap_cmd CMD NAME RC PATTERN [ARG...]: "ok NAME" when CMD ARG... exits RC
# and its output (stdout and stderr) matches the extended regex PATTERN;
# else that output as "# " lines (its last $tap_tail lines when tap_tail
# is set) and "not ok NAME # CMD ARG...: exit N (want RC), pattern
# 'PATTERN'", CMD without its directory
tap_cmd() {
	tap_prog=$1 tap_name=$2 tap_want=$3 tap_pat=$4
	shift 4
	tap_out=$("$tap_prog" "$@" 2>&1)
	tap_rc=$?
	if [ "$tap_rc" = "$tap_want" ] && printf '%s\n' "$tap_out" | grep -qE -- "$tap_pat"; then
		echo "ok $tap_name"
	else
		printf '%s\n' "$tap_out" | tail -n "${tap_tail:-+1}" | sed 's/^/# /'
		echo "not ok $tap_name # ${tap_prog##*/} $*: exit $tap_rc (want $tap_want), pattern '$tap_pat'"
	fi
}

# tap_built NAME TOP PROG: TOP/PROG is there, made (make -C its directory)
# when it is not; if it still is not, "not ok NAME # PROG does not build"
# and the test ends (exit 0: that line is its failure)
tap_built() {
	[ -x "$2/$3" ] || make -s -C "$2/${3%/*}" > /dev/null 2>&1
	[ -x "$2/$3" ] && return 0
	echo "not ok $1 # $3 does not build"
	exit 0
}
