#!/bin/sh
# lunqbench on the host, on a file: --help, --version, usage errors (exit 1,
# naming the option), a missing target (exit 2), --ios N doing exactly N
# IOs, --fsync N (an fdatasync after every N writes, sync engine only,
# counted), --sync, --burst N --burst-every MS (with its usage errors),
# and verify: a write pass, a clean read pass, a corrupted sector
# found at its number with exit 3.  Open loop: waits only sleep by default
# (the timers line says "never spun"), --spin 100 spins and says how long;
# the summary splits the CPU by job ("by thread:") and the JSON carries
# each job's cpu_s and the run's spin_s.  --force accepted, a regular
# file never refused; --seekpct decimals and eof (exact IO counts) and
# its usage errors; --preset bs (12 sizes) and its usage errors.  The man
# page renders without warnings.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bench/lunqbench
. "$(dirname "$0")/tap.sh"
tap_built bench-cli "$top" bench/lunqbench
tmp=$(mktemp -d /tmp/lunqbench-cli.XXXXXX)
tap_atexit 'rm -rf "$tmp"'
img=$tmp/lb.img
tap_tail=5	# of lunqbench's output, on a failure
t() {	# t NAME RC PATTERN ARGS...: lunqbench ARGS exits RC, prints PATTERN
	name=$1
	shift
	tap_cmd "$bin" "bench-cli-$name" "$@"
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
# --force: accepted; a regular file is never refused (only busy block
# devices are: tests/vm/t-bench-safety.sh, and lib_busy_test.c for the
# reasons named)
t force-file 0 '^ios=16 reads=0 writes=16 ' --force --buffered --size 1m --rdpct 0 --ios 16 --interval 0 --kv "$img"
t file-not-refused 0 '^ios=16 reads=0 writes=16 ' --buffered --size 1m --rdpct 0 --ios 16 --interval 0 --kv "$img"
t force-no-value 1 -- '--force' --force=yes --size 1m "$img"
# --seekpct: decimals and eof; bad values name the option
t seekpct-neg 1 -- "--seekpct: '-1' is not a percentage" --seekpct -1 --size 1m "$img"
t seekpct-101 1 -- "--seekpct: '101' is not a percentage from 0 to 100" --seekpct 101 --size 1m "$img"
t seekpct-fine 1 -- "--seekpct: '0.0000001' is finer than 0.0001" --seekpct 0.0000001 --size 1m "$img"
t seekpct-abc 1 -- "--seekpct: 'abc' is not a percentage" --seekpct abc --size 1m "$img"
t seekpct-eofx 1 -- "--seekpct: 'eofx' is not a percentage" --seekpct eofx --size 1m "$img"
t seekpct-decimal 0 'seekpct 0\.01, ' --seekpct 0.01 --buffered --size 1m --ios 10 --interval 0 "$img"
t seekpct-json 0 '"seekpct":0\.01,"seek_eof":false' --seekpct 0.01 --buffered --size 1m --ios 10 --interval 0 --json "$img"
# eof: a 1 MiB range of 4k blocks is 256 IOs exactly, whatever the
# threads (uring: each its slice; sync: one shared stream), open loop
# too, and no time limit; --ios ends it sooner (open loop: whether the
# schedule was kept depends on the host's load, so saturated= is not checked)
t eof-256 0 '^ios=256 ' --seekpct eof --buffered --size 1m --interval 0 --kv "$img"
t eof-uring-threads 0 '^ios=256 ' --seekpct eof --threads 3 --iodepth 4 --buffered --size 1m --interval 0 --kv "$img"
t eof-sync-threads 0 '^ios=256 ' --seekpct eof --engine sync --threads 3 --buffered --size 1m --interval 0 --kv "$img"
t eof-open-loop 0 '^ios=256 .* loop=open ' --seekpct eof --iorate 2000 --threads 2 --buffered --size 1m --interval 0 --kv "$img"
t eof-range 0 '^ios=64 ' --seekpct eof --bs 16k --range 1m-2m --buffered --size 4m --interval 0 --kv "$img"
t eof-ios 0 '^ios=100 ' --seekpct eof --ios 100 --threads 2 --buffered --size 1m --interval 0 --kv "$img"
t eof-json 0 '"seekpct":0,"seek_eof":true' --seekpct eof --buffered --size 1m --interval 0 --json "$img"
t eof-bubble 0 '"name":"stream"[^{]*"seek_eof":true[^{]*"totals":\{"ios":256,' --preset bubble --seekpct eof --elapsed 1 --buffered --size 2m --interval 0 --json "$img"
# --hist-bounds: the 1185 buckets of kmod/lunq_hist.h in order, adjoining
# (each starts one past the last's end), 0..63 exact, then 32 a power of
# two 2^k (k >= 6) each 2^(k-5) wide, the last open to 2^64 - 1
"$bin" --hist-bounds > "$tmp/bounds" 2>&1
why=$(awk 'NR - 1 != $1 { print "line " NR ": index " $1; exit }
	NR == 1 && $2 != 0 { print "starts at " $2; exit }
	NR > 1 && $2 != hi + 1 { print "bucket " $1 " starts at " $2 ", the last ended at " hi; exit }
	$1 < 64 && ($2 != $1 || $3 != $1) { print "bucket " $1 ": " $2 ".." $3; exit }
	$1 >= 64 && $1 < 1184 { k = 6 + int(($1 - 64) / 32); w = 1
		for (j = 0; j < k - 5; j++) w *= 2
		if ($3 - $2 + 1 != w) { print "bucket " $1 " is " $3 - $2 + 1 " wide, want " w; exit } }
	{ hi = $3; last = $0 }
	END { if (NR != 1185) print NR " buckets"
		else if (last != "1184 2199023255552 18446744073709551615") print "last: " last }' "$tmp/bounds")
if [ -z "$why" ]; then ok bench-cli-hist-bounds; else fail bench-cli-hist-bounds "$why"; fi
# --preset bs: listed, its usage errors, 12 rows of sizes 512..1m
t list-presets 0 '^bs$' --list-presets
t bs-with-bs 1 -- '--bs: --preset bs scans the sizes itself' --preset bs --bs 4k --size 1m "$img"
t bs-with-ios 1 -- '--ios: --preset bs runs --elapsed per size' --preset bs --ios 10 --size 1m "$img"
t bs-with-verify 1 -- '--verify: not with --preset bs' --preset bs --verify --size 1m "$img"
out=$("$bin" --preset bs --elapsed 0.05 --buffered --size 4m "$img" 2>&1)
rows=$(printf '%s\n' "$out" | awk '$1 ~ /^[0-9]+$/ && NF >= 8 { printf "%s%s", s, $1; s = "," }')
if [ "$rows" = 512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 ] &&
	printf '%s\n' "$out" | grep -q '^ *size  *ios  *iops  *MB/s  *mean  *p50  *p99  *max$'; then
	ok bench-cli-bs-rows
else
	printf '%s\n' "$out" | sed 's/^/# /'
	fail bench-cli-bs-rows "sizes '$rows'"
fi
t bs-seekpct-eof 0 '^ *1048576 +4 ' --preset bs --seekpct eof --elapsed 5 --buffered --size 4m "$img"
n=$("$bin" --preset bs --elapsed 0.05 --buffered --size 4m --kv "$img" 2>&1 | grep -c '^ios=')
if [ "$n" = 12 ]; then ok bench-cli-bs-kv; else fail bench-cli-bs-kv "$n key=value lines, want 12"; fi
w=$(groff -t -man -Tutf8 -ww -z "$top/bench/lunqbench.1" 2>&1)
if [ -z "$w" ]; then ok bench-man; else printf '%s\n' "$w" | sed 's/^/# /'; fail bench-man "groff warnings"; fi
