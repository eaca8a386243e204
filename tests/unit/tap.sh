# tests/unit/tap.sh: KTAP from the host's shell tests (tests/unit/,
# tests/lint/, tests/host/, tests/kunit/run), for sh and bash; a test
# sources it:  . "$(dirname "$0")/tap.sh"
# It prints "KTAP version 1" at once and the plan "1..N" when the test
# exits (an EXIT trap: a test's own clean-up goes through tap_tmpdir or
# tap_atexit, not a trap of its own).  tests/run counts the results (an
# "ok" with "# SKIP" as skipped) and fails a test whose plan is missing or
# does not match them, or that exits non-zero.
#
# The verbs are the VM tests' (tests/vm/lib.sh) and tap.h's, with the same
# lines; here a failed or skipped check does not end the test:
#   ok NAME [WHY]        "ok N NAME[ # WHY]"
#   fail NAME [WHY]      "not ok N NAME[ # WHY]" (tap_fails counts them)
#   skip NAME WHY        "ok N NAME # SKIP WHY"
#   diag TEXT...         "# TEXT" (tap_quote FILE: a file's lines)
#   tap_check RC NAME [WHY]   ok when RC is 0, else fail
#   tap_cmd CMD NAME RC PATTERN [ARG...]   a command's exit and output
#   tap_built NAME TOP PROG                a program to test, else exit
#   tap_relay            the "ok [N] NAME..." / "not ok [N] NAME..." lines
#                        of stdin as this test's checks, numbered here
#                        (another program's results; redirect, do not
#                        pipe: a pipe's loop counts in a subshell); other
#                        lines as diagnostics
#   tap_tmpdir           tmp: a new directory, removed at exit
#   tap_atexit CMD       run CMD (eval) at exit, before the plan
# tap_n counts the checks.

tap_n=0
tap_fails=0
tap_exit_cmds=
echo "KTAP version 1"
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1${2:+ # $2}"; }
fail() { tap_n=$((tap_n + 1)); tap_fails=$((tap_fails + 1)); echo "not ok $tap_n $1${2:+ # $2}"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1 # SKIP $2"; }
diag() { echo "# $*"; }
tap_check() { if [ "$1" = 0 ]; then ok "$2" "${3:-}"; else fail "$2" "${3:-}"; fi; }
tap_quote() { sed 's/^/# /' "$@"; }
tap_atexit() { tap_exit_cmds="$tap_exit_cmds${tap_exit_cmds:+; }$1"; }
tap_relay() {
	while IFS= read -r tap_l; do
		case $tap_l in
		"ok "*|"not ok "*)
			tap_r=${tap_l#not }
			tap_r=${tap_r#ok }
			tap_d=${tap_r%% *}
			case $tap_d in "" | *[!0-9]*) ;; *) tap_r=${tap_r#"$tap_d"}; tap_r=${tap_r# } ;; esac
			tap_n=$((tap_n + 1))
			case $tap_l in
			"not ok "*) tap_fails=$((tap_fails + 1)); echo "not ok $tap_n $tap_r" ;;
			*) echo "ok $tap_n $tap_r" ;;
			esac ;;
		"KTAP version"* | [0-9]*..[0-9]* | "") ;;
		"#"*) echo "$tap_l" ;;
		*) echo "# $tap_l" ;;
		esac
	done
}
tap_tmpdir() { tmp=$(mktemp -d); tap_atexit 'rm -rf "$tmp"'; }
tap_end() {
	tap_rc=$?
	[ -z "$tap_exit_cmds" ] || eval "$tap_exit_cmds"
	echo "1..$tap_n"
	exit $tap_rc
}
trap tap_end EXIT

# tap_cmd CMD NAME RC PATTERN [ARG...]: "ok N NAME" when CMD ARG... exits
# RC and its output (stdout and stderr) matches the extended regex
# PATTERN; else that output as "# " lines (its last $tap_tail lines when
# tap_tail is set) and "not ok N NAME # CMD ARG...: exit N (want RC),
# pattern 'PATTERN'", CMD without its directory
tap_cmd() {
	tap_prog=$1 tap_name=$2 tap_want=$3 tap_pat=$4
	shift 4
	tap_out=$("$tap_prog" "$@" 2>&1)
	tap_rc=$?
	if [ "$tap_rc" = "$tap_want" ] && printf '%s\n' "$tap_out" | grep -qE -- "$tap_pat"; then
		ok "$tap_name"
	else
		printf '%s\n' "$tap_out" | tail -n "${tap_tail:-+1}" | sed 's/^/# /'
		fail "$tap_name" "${tap_prog##*/} $*: exit $tap_rc (want $tap_want), pattern '$tap_pat'"
	fi
}

# tap_built NAME TOP PROG: TOP/PROG is there, made (make -C its directory)
# when it is not; if it still is not, "not ok N NAME # PROG does not build"
# and the test ends (exit 0: that line is its failure)
tap_built() {
	[ -x "$2/$3" ] || make -s -C "$2/${3%/*}" > /dev/null 2>&1
	[ -x "$2/$3" ] && return 0
	fail "$1" "$3 does not build"
	exit 0
}
