# shellcheck shell=bash
# scripts/lock.sh: one build at a time in a checkout.  Sourced by
# scripts/build-kmod and scripts/lock (what the top-level make runs its
# build under).
#
# build_lock NAME: take build/.lock/NAME for the rest of this shell (fd 9,
# inherited by what it runs, released when they and it end).  When
# another process of this checkout holds it -- `make arena` started while
# `make test` builds -- say so on stderr, with who holds it, and wait:
# two kbuilds writing one object directory left half-written objects
# (objtool: "gelf_getehdr: invalid 'Elf' handle").  A process that runs
# under the lock already (LUNQ_LOCKS names it) does not take it again.
build_lock() {
	local top dir name=$1 who s p _
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	case " ${LUNQ_LOCKS:-} " in *" $top:$name "*) return 0 ;; esac
	dir=$top/build/.lock
	mkdir -p "$dir"
	exec 9>> "$dir/$name"
	if ! flock -n 9; then
		who=$(cat "$dir/$name.who" 2>/dev/null)
		echo "${LUNQ_LOCK_PROG:-$(basename "$0")}: another build in this checkout holds build/.lock/$name (${who:-?}); waiting for it to end" >&2
		s=$(date +%s)
		flock 9
		echo "${LUNQ_LOCK_PROG:-$(basename "$0")}: build/.lock/$name is free after $(($(date +%s) - s)) s; building" >&2
	fi
	# who: this script's callers, up to the make or shell a person started
	# (from /proc: a fresh machine may have no ps; nothing here may fail
	# the build, which runs under set -e)
	who= p=$PPID
	for _ in 1 2 3; do
		[ -n "$p" ] && [ "$p" != 1 ] && [ -r "/proc/$p/cmdline" ] || break
		who="$who${who:+ < }$(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | cut -c1-60 || true)"
		p=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null || true)
	done
	printf 'pid %s since %s: %s\n' "$$" "$(date +%T)" "$who" > "$dir/$name.who"
	export LUNQ_LOCKS="${LUNQ_LOCKS:-} $top:$name"
}
