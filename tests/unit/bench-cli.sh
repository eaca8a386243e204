#!/bin/sh
# lunqbench on the host, on a file: --help, --version, usage errors (exit 1,
# naming the option), a missing target (exit 2), --ios N doing exactly N
# IOs, --fsync N (an fdatasync after every N writes, sync engine only,
# counted), --sync, --burst N --burst-every MS (with its usage errors),
# and verify: a write pass, a clean read pass, a corrupted sector
# found at its number with exit 3.  Open loop: waits only sleep by default
# (the timers line says "never spun"), --spin 100 spins and says how long;
# the summary splits the CPU by job ("by thread:") and the JSON carries
# each job's cpu_s and the run's spin_s.  The man page renders without
# warnings.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bench/lunqbench
[ -x "$bin" ] || make -s -C "$top/bench" > /dev/null 2>&1
if [ ! -x "$bin" ]; then
	echo "not ok bench-cli # bench/lunqbench does not build"
	exit 0
fi
tmp=$(mktemp -d /tmp/lunqbench-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
img=$tmp/lb.img
t() {	# t NAME RC PATTERN ARGS...
	name=$1 want=$2 pat=$3
	shift 3
	out=$("$bin" "$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && printf '%s\n' "$out" | grep -qE -- "$pat"; then
		echo "ok bench-cli-$name"
	else
		printf '%s\n' "$out" | tail -5 | sed 's/^/# /'
		echo "not ok bench-cli-$name # lunqbench $*: exit $rc (want $want), pattern '$pat'"
	fi
}
t help 0 '^usage: lunqbench' --help
t version 0 '^lunqbench [0-9.]+' -V
t no-target 1 'usage|TARGET' --ios 1
t missing 2 'nosuch' --ios 1 "$tmp/nosuch/x"
t bad-bs 1 -- '--bs' --bs 1000x --size 1m "$img"
t bad-rdpct 1 -- '--rdpct' --rdpct 101 --size 1m "$img"
t bad-iorate 1 -- '--iorate' --iorate fast --size 1m "$img"
t bad-range 1 -- '--range' --range 2m-1m --size 1m "$img"
t ios-exact 0 '^ios=200 ' --buffered --size 1m --ios 200 --rdpct 50 --interval 0 --kv "$img"
t fsync-uring 1 -- '--fsync: needs --engine sync' --fsync 4 --size 1m "$img"
t fsync-count 0 '"writes":20,.*"fsyncs":5,' --engine sync --fsync 4 --buffered --size 1m --ios 20 --rdpct 0 --interval 0 --json "$img"
t fsync-summary 0 'fsync: 10 fdatasyncs, one after every 2 writes' --engine sync --fsync 2 --buffered --size 1m --ios 20 --rdpct 0 --interval 0 "$img"
t burst-alone 1 -- '--burst and --burst-every go together' --burst 8 --size 1m "$img"
t burst-iorate 1 -- '--burst: sets the arrivals itself' --burst 8 --burst-every 50 --iorate 100 --size 1m "$img"
t burst-count 0 '"loop":"open".*"arrival":"burst"|"arrival":"burst".*"loop":"open"' --burst 8 --burst-every 50 --ios 24 --buffered --size 1m --interval 0 --json "$img"
t sync-flag 0 '^ios=10 ' --engine sync --sync --buffered --size 1m --ios 10 --rdpct 0 --interval 0 --kv "$img"
t verify-write 0 ' verify_errors=0 ' --buffered --size 1m --verify --seed 7 --rdpct 0 --seekpct 0 --ios 256 --interval 0 --kv "$img"
t verify-read 0 ' verify_errors=0 ' --buffered --size 1m --verify --seed 7 --rdpct 100 --seekpct 0 --ios 256 --interval 0 --kv "$img"
printf 'garbage!' | dd of="$img" bs=1 seek=$((100 * 512 + 40)) conv=notrunc 2> /dev/null
t verify-corrupt 3 'verify error at sector 100 ' --buffered --size 1m --verify --seed 7 --rdpct 100 --seekpct 0 --ios 256 --interval 0 "$img"
t verify-other-seed 3 'verify error' --buffered --size 1m --verify --seed 8 --rdpct 100 --seekpct 0 --ios 8 --interval 0 "$img"
t open-sleeps 0 '\(--spin 0: never spun\)' --buffered --size 1m --iorate 100 --elapsed 1 --interval 0 "$img"
t open-spins 0 '\(--spin 100: spun [0-9.]+ [mun]?s in all\)' --buffered --size 1m --iorate 200 --elapsed 1 --spin 100 --interval 0 "$img"
t by-thread 0 'by thread: stream [0-9.]+ us per IO \([0-9.]+ s\), far [0-9.]+ us per IO \([0-9.]+ s\), main [0-9.]+ s' --buffered --size 1m --preset bubble --elapsed 1 --interval 0 "$img"
t json-cpu 0 '"cpu_s":[0-9.e-]+,"cpu_ns_per_io":.*"spin_s":0,.*"cpu_kernel_workers_s":' --buffered --size 1m --iorate 100 --elapsed 1 --interval 0 --json "$img"
w=$(groff -t -man -Tutf8 -ww -z "$top/bench/lunqbench.1" 2>&1)
if [ -z "$w" ]; then echo "ok bench-man"; else printf '%s\n' "$w" | sed 's/^/# /'; echo "not ok bench-man # groff warnings"; fi
