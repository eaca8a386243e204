#!/bin/sh
# The arena's scenario files (arena/scenarios/*.scn, the format in
# arena/scenarios/README.md) through tests/lib/scenario-file.sh, under
# this shell and under busybox sh (the VM's): every file of the set is
# read, with the values the arena used before they were files (knee1's
# LUN, capacity's phases, hostile's neighbour and period, ramp's rates...);
# a file of each kind of mistake (tests/unit/fixtures/scenarios/bad-*.scn,
# its first line the error it must give) refused with that error and its
# line; scripts/arena --scenario refuses a bad file before anything boots.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
tap_tmpdir
. "$top/tests/lib/scenario-file.sh"
fx=$top/tests/unit/fixtures/scenarios

# every file of the set reads, names unique, in the arena's order
names=
for f in "$top"/arena/scenarios/*.scn; do
	scn_read "$f" 2> "$tmp/err" || { tap_quote "$tmp/err"; names="$names BAD:$f"; continue; }
	names="$names $S_NAME"
done
[ "$names" = " knee1 knee64 capacity target hostile wcache bubble pool4 ramp mixed array" ]
tap_check $? "the set: eleven scenarios in the arena's order" "$names"

# the values the arena's case statements held
scn_read "$top/arena/scenarios/03-capacity.scn"
[ "$S_START $S_NPH $S_PH_1/$S_PH_2/$S_PH_3 $S_CHANGES $S_LOWER" = "32 3 channels=16/channels=4/channels=16 set nb" ] &&
	[ "$S_LUN" = "model=flash svc_us=8000" ] && [ "$S_LOAD" = "--iodepth 64" ]
tap_check $? "capacity: from 32, channels 16 -> 4 -> 16 by lunqctl set, the flash model at QD 64"
k_cap=$(scn_key)
scn_read "$top/arena/scenarios/01-knee1.scn"
[ "$S_START" = 1 ] && [ "$(scn_key)" = "$k_cap" ] && [ "$S_PH_1" = "$(scn_read "$top/arena/scenarios/03-capacity.scn"; echo "$S_PH_1")" ]
tap_check $? "knee1: from 1; its sweep key is capacity's (the sweep of channels=16 runs once for both)"
scn_read "$top/arena/scenarios/05-hostile.scn"
[ "$S_CHANGES $S_FPERIOD $S_PH_1 $S_PH_2 $S_START" = "foreign 8000 foreign=16 foreign=0 16" ] &&
	[ "$S_NB" = "nb2 pool=arena model=flash channels=16 svc_us=8000 qdepth=8" ] &&
	[ "$S_LUN" = "pool=arena pool_depth=32 reset_after=10 reset_ms=500 model=flash channels=16 svc_us=8000" ]
tap_check $? "hostile: seed 004's pool, the neighbour at static 8, the others there half of every 8 s"
scn_read "$top/arena/scenarios/09-ramp.scn"
r= k=1
while [ $k -le $S_NPH ]; do r="$r $(scn_phase $k)"; k=$((k + 1)); done
[ "$r" = " rate=400 rate=800 rate=1600 rate=2400 rate=1600 rate=800 rate=400" ] && [ "$S_PHASE_S $S_GOAL $S_LAT" = "8 latency total_read:p99" ]
tap_check $? "ramp: seven rates, 8 s each (half a phase), the worst step's total_read p99"
scn_read "$top/arena/scenarios/10-mixed.scn"
[ "$S_BOUND_MS $S_LAT $S_BLAT $S_LAT_NAME/$S_BLAT_NAME" = "1000 total:p99 total:max IO p99/IO max" ] &&
	[ "$S_LOAD2" = "--rdpct 0 --seekpct 100 --iorate 20 --range 0-50%" ]
tap_check $? "mixed: its p99 of all IOs, its bound on the slowest, the random writes beside"
scn_read "$top/arena/scenarios/08-pool4.scn"
[ "$S_LUNS $S_LOWER $S_START" = "4 own 4" ]
tap_check $? "pool4: four LUNs of their own, from 4"
scn_read "$top/arena/scenarios/04-target.scn"
[ "$S_TARGET_MS $S_BOUND_MS $S_LAT" = "200 200 service_read:p99" ]
tap_check $? "target: auto:target's 200 ms, the bound on lunq's service p99"

# a phase label: its words joined by + (one CSV field)
printf 'name=two\nlower=nb\nlun=model=flash\nstart=4\nload=--iodepth 8\nphase_s=4\nphase=channels=16 svc_us=4000\nphase=channels=4 svc_us=8000\ngoal=iops\nlatency=resp:p99\n' > "$tmp/two.scn"
scn_read "$tmp/two.scn" && [ "$(scn_label 1)" = "channels=16+svc_us=4000" ] && [ "$S_LAT_NAME $S_OBJECTIVE" = "resp:p99 most IOPS" ]
tap_check $? "a phase of two words (label channels=16+svc_us=4000), the defaults of latency_name and objective"

# each bad file: refused, with the error of its first line (# ERROR: ...)
for f in "$fx"/bad-*.scn; do
	want=$(sed -n '1s/^# ERROR: //p' "$f")
	scn_read "$f" 2> "$tmp/err"
	rc=$?
	[ $rc != 0 ] && grep -qF -- "$want" "$tmp/err"
	tap_check $? "$(basename "$f"): refused with '$want'" "exit $rc: $(head -1 "$tmp/err")"
done

# the same answers under busybox sh, the VM's shell
if command -v busybox > /dev/null; then
	bb() { busybox sh -c '. "$1"; scn_read "$2" 2>&1; echo "rc=$? $S_NAME $S_NPH $S_PH_1 $S_CHANGES $(scn_key)"' _ "$top/tests/lib/scenario-file.sh" "$1"; }
	here() { sh -c '. "$1"; scn_read "$2" 2>&1; echo "rc=$? $S_NAME $S_NPH $S_PH_1 $S_CHANGES $(scn_key)"' _ "$top/tests/lib/scenario-file.sh" "$1"; }
	d=0
	for f in "$top"/arena/scenarios/*.scn "$fx"/bad-*.scn; do
		[ "$(bb "$f")" = "$(here "$f")" ] || { d=$((d + 1)); diag "differs: $f"; }
	done
	tap_check $d "busybox sh reads every file (good and bad) as $(readlink -f "$(command -v sh)") does"
else
	skip "busybox sh reads the files as sh does" "no busybox"
fi

# scripts/arena --scenario: a bad file refused before anything boots
out=$("$top/scripts/arena" --scenario "$fx/bad-unknown-key.scn" -o "$tmp/arena" 2>&1)
rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "bad-unknown-key.scn:3: unknown key 'chanels'" && [ ! -d "$tmp/arena" ]
tap_check $? "scripts/arena --scenario: a bad file refused (exit 2, FILE:LINE), nothing made" "exit $rc"
