#!/bin/sh
# lunqctl's command line on the host (no dm-lunq here): --help of every
# subcommand, --version, usage errors (exit 1, a message and the usage
# line) found before anything talks to the kernel, the "module not
# loaded" error (exit 2, says what to do), and the man pages render
# without groff warnings.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/ctl/lunqctl
. "$(dirname "$0")/tap.sh"
tap_built ctl-cli "$top" ctl/lunqctl
t() {	# t NAME RC PATTERN ARGS...: exit status RC, output matching PATTERN
	name=$1
	shift
	tap_cmd "$bin" "ctl-cli-$name" "$@"
}
t help 0 '^Commands:' --help
t help-cmd 0 '^usage: lunqctl stat' help stat
t version 0 '^lunqctl [0-9.]+ \(netlink family "lunq" version 1\)' --version
t no-args 1 '^usage: lunqctl COMMAND' 
t unknown-cmd 1 "unknown command 'bogus'" bogus
for c in create remove list show set reset stat hist events apply sweep tune; do
	t "help-$c" 0 "^usage: lunqctl $c " "$c" --help
done
t create-usage 1 'usage: lunqctl create NAME DEV' create lq0
t create-bad-word 1 'qdepth=x: qdepth: value must be an integer 0..65535' create lq0 /dev/null qdepth=x
t set-usage 1 'needs NAME and at least one KEY=VALUE' set lq0
t set-bad-word 1 'sched=x: sched: value must be one of fifo, disksort' set lq0 sched=x
t set-table-only 1 'pool=a: pool: can only be set on the table line' set lq0 pool=a
t stat-interval 1 "INTERVAL '0' is not" stat lq0 0
t stat-json-prom 1 'exclude each other' stat -j -p
t hist-lquantize 1 'lquantize 0,1,0' hist lq0 -l 0,1,0
t hist-size-read 1 'take no' hist lq0 --size --read
t events-count 1 "count 'x'" events -c x
t bad-option 1 "bad option '--frob'" stat --frob
printf '[x=1]\nqdepth=1\n' > /tmp/lunqctl-cli.$$.conf
t apply-syntax 1 'lunqctl-cli.*conf:1: unknown field' apply /tmp/lunqctl-cli.$$.conf
rm -f /tmp/lunqctl-cli.$$.conf
t apply-missing 2 'No such file' apply /nonexistent/lunq.conf
t sweep-usage 1 'usage: lunqctl sweep NAME' sweep
t sweep-iorate 1 '--iorate is set by sweep itself' sweep lq0 -- --iorate 100
t sweep-qdepth 1 'qdepth: 70000 is out of range 0..65535' sweep lq0 --qdepth 1,70000
t sweep-sched 1 'sched=x: sched: value must be one of fifo, disksort' sweep lq0 --sched fifo,x
t tune-p99 1 'needs --p99 TIME' tune lq0
t tune-p99-unit 1 "p99 '10': a time with a unit" tune lq0 --p99 10
# tune --online: its options and the sweep's do not mix
t help-tune-online 0 'lunqctl tune NAME --online \[--settle S\]' tune --help
t tune-online-qdepth 1 '--qdepth does not go with --online' tune lq0 --online --qdepth 4
t tune-online-sched 1 '--sched does not go with --online' tune lq0 --online --sched fifo
t tune-online-bench 1 '--iodepth is a lunqbench option: --online runs no lunqbench' \
	tune lq0 --online --iodepth 8
t tune-online-dashdash 1 "'--' and lunqbench options do not go with --online" \
	tune lq0 --online -- --bs 4k
t tune-online-target-p99 1 '--mode target needs --p99 TIME' tune lq0 --online --mode target
t tune-online-knee-p99 1 '--p99 goes with --mode target' tune lq0 --online --mode knee --p99 5ms
t tune-online-mode 1 "--mode 'fast': knee or target" tune lq0 --online --mode fast
t tune-online-settle-0 1 "--settle '0': seconds > 0" tune lq0 --online --settle 0
t tune-online-settle-word 1 "--settle 'soon': seconds > 0" tune lq0 --online --settle soon
t tune-online-settle-neg 1 "--settle '-1': seconds > 0" tune lq0 --online --settle -1
t tune-online-settle-long 1 '--settle 60 s must be shorter than --elapsed 60 s' \
	tune lq0 --online --settle 1m
t tune-online-settle-elapsed 1 '--settle 5 s must be shorter than --elapsed 3 s' \
	tune lq0 --online --elapsed 3
t tune-online-elapsed 1 "--elapsed 'x': seconds > 0" tune lq0 --online --elapsed x
t tune-online-name 1 'needs NAME' tune --online
t sweep-online 1 "--online is tune's: 'lunqctl tune NAME --online'" sweep lq0 --online
t sweep-settle 1 '--settle goes with tune --online, not with sweep' sweep lq0 --settle 5
t sweep-keep 1 '--keep goes with tune --online, not with sweep' sweep lq0 --keep
t sweep-mode 1 '--mode goes with tune --online, not with sweep' sweep lq0 --mode knee
t tune-settle-no-online 1 '--settle goes with --online' tune lq0 --p99 5ms --settle 5
t tune-keep-no-online 1 '--keep goes with --online' tune lq0 --p99 5ms --keep
export LUNQBENCH=/nonexistent
t sweep-no-bench 2 'LUNQBENCH=/nonexistent is not an executable' sweep lq0
unset LUNQBENCH
if [ -e /sys/module/dm_lunq ]; then
	skip ctl-cli-not-loaded "dm-lunq is loaded here"
else
	t not-loaded 2 "dm-lunq is not loaded.*modprobe dm-lunq" list
fi
for m in "$top/ctl/lunqctl.8" "$top/ctl/lunq.conf.5"; do
	name=ctl-man-$(basename "$m")
	if ! command -v groff > /dev/null; then
		fail $name "groff missing (make deps)"
	elif [ ! -f "$m" ]; then
		fail $name "missing"
	else
		w=$(groff -t -man -Tutf8 -ww -z "$m" 2>&1)
		if [ -z "$w" ]; then
			ok $name
		else
			printf '%s\n' "$w" | sed 's/^/# /'
			fail $name "groff warnings"
		fi
	fi
done
