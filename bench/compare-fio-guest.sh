# bench/compare-fio-guest.sh: the guest half of bench/compare-fio.sh
# (busybox sh, root, in the VM qemu/run boots).  Measures, asserts nothing.
#   sh compare-fio-guest.sh [--rounds N] [--runtime S] [--part abc]
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/bench/stats.sh"

rounds=10 runtime=5 part=abc
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--runtime) runtime=$2; shift 2 ;;
	--part) part=$2; shift 2 ;;
	*) echo "compare-fio-guest: unknown argument '$1'"; exit 2 ;;
	esac
done
tmp=/tmp/cmp
mkdir -p $tmp

# fio_run DEV QD RUNTIME: "IOPS CPU_US_PER_IO P50_US P99_US"
# (terse v3: 6 read KiB, 8 read IOPS, 18/19 clat percentiles of
# --percentile_list=50:99 as "50.000000%=N" in us)
fio_run() {
	_c0=$(cpu_busy)
	fio --name=cmp --filename="$1" --direct=1 --ioengine=io_uring \
		--rw=randread --bs=4k --iodepth="$2" --numjobs=1 --time_based \
		--runtime="$3" --norandommap --percentile_list=50:99 \
		--output-format=terse --terse-version=3 > $tmp/fio.out 2>&1 ||
		{ cat $tmp/fio.out >&2; return 1; }
	_c1=$(cpu_busy)
	[ "$(fio_terse $tmp/fio.out 5)" = 0 ] || { cat $tmp/fio.out >&2; return 1; }
	awk -F';' -v c="$((_c1 - _c0))" -v hz=$HZ 'NR == 1 {
		ios = $6 / 4; split($18, p50, "="); split($19, p99, "=")
		printf "%s %.2f %s %s\n", $8, (ios > 0) ? c * 1e6 / hz / ios : 0, p50[2], p99[2] }' $tmp/fio.out
}

# lb_run DEV QD RUNTIME: the same four figures from lunqbench --kv
# (service latency, ns -> us)
lb_run() {
	_c0=$(cpu_busy)
	lunqbench --engine uring --rdpct 100 --seekpct 100 --bs 4k --iodepth "$2" \
		--threads 1 --iorate max --elapsed "$3" --interval 0 --kv "$1" > $tmp/lb.out 2>&1 ||
		{ cat $tmp/lb.out >&2; return 1; }
	_c1=$(cpu_busy)
	tail -1 $tmp/lb.out | tr ' ' '\n' | awk -F= -v c="$((_c1 - _c0))" -v hz=$HZ '
		{ v[$1] = $2 }
		END { printf "%.0f %.2f %.1f %.1f\n", v["iops"], (v["ios"] > 0) ? c * 1e6 / hz / v["ios"] : 0,
			v["svc_p50_ns"] / 1000, v["svc_p99_ns"] / 1000 }'
}

# The bubble load (lunqbench --preset bubble; the same jobs in fio): a
# sequential stream at QD16 over the second half and 10 random reads/s at
# fixed gaps in the first 10%, open loop.
# fio_bubble DEV RUNTIME / lb_bubble DEV RUNTIME: "IOS CPU_US_PER_IO
# FAR_IOS FAR_CPU_US_PER_IO": all IOs and the guest's busy CPU per IO, the
# far (slow, open-loop) job's IOs and its own threads' CPU per IO as the
# tool reports it (fio: usr_cpu + sys_cpu of its runtime; lunqbench: its
# "by thread" line).
fio_bubble() {
	_c0=$(cpu_busy)
	fio --filename="$1" --direct=1 --ioengine=io_uring --bs=4k --time_based \
		--runtime="$2" --output-format=json \
		--name=stream --rw=read --iodepth=16 --offset=50% --size=50% \
		--name=far --rw=randread --iodepth=16 --offset=0 --size=10% \
		--rate_iops=10 --norandommap > $tmp/fiob.out 2>&1 ||
		{ cat $tmp/fiob.out >&2; return 1; }
	_c1=$(cpu_busy)
	awk -v c="$((_c1 - _c0))" -v hz=$HZ '
		{ gsub(/[",]/, "") }
		$1 == "jobname" { j = $3; r = 0 }
		$1 == "read" && $3 == "{" { r = 1 }
		$1 == "total_ios" && r == 1 { ios[j] = $3; r = 2 }
		$1 == "job_runtime" { rt[j] = $3 }
		$1 == "usr_cpu" { cpu[j] += $3 }
		$1 == "sys_cpu" { cpu[j] += $3 }
		END { n = ios["stream"] + ios["far"]
			printf "%d %.2f %d %.2f\n", n, n ? c * 1e6 / hz / n : 0, ios["far"],
				ios["far"] ? cpu["far"] / 100 * rt["far"] * 1000 / ios["far"] : 0 }' $tmp/fiob.out
}
lb_bubble() {
	_c0=$(cpu_busy)
	lunqbench --preset bubble --elapsed "$2" --interval 0 "$1" > $tmp/lbb.out 2>&1 ||
		{ cat $tmp/lbb.out >&2; return 1; }
	_c1=$(cpu_busy)
	awk -v c="$((_c1 - _c0))" -v hz=$HZ '
		($1 == "stream" || $1 == "far") && ($2 == "open" || $2 == "closed") { ios[$1] = $3 }
		$1 == "by" && $2 == "thread:" { for (i = 3; i < NF; i++) if ($i == "far") fc = $(i + 1) }
		END { n = ios["stream"] + ios["far"]
			printf "%d %.2f %d %.2f\n", n, n ? c * 1e6 / hz / n : 0, ios["far"], fc }' $tmp/lbb.out
}

# run_bubble: $rounds rounds, ABBA; per-round ratios of CPU per IO
run_bubble() {
	_lc= _lf= _fb= _lb=
	_r=1
	while [ "$_r" -le "$rounds" ]; do
		if [ $((_r % 2)) = 1 ]; then
			_f=$(fio_bubble "$1" "$runtime") || return 1
			_b=$(lb_bubble "$1" "$runtime") || return 1
		else
			_b=$(lb_bubble "$1" "$runtime") || return 1
			_f=$(fio_bubble "$1" "$runtime") || return 1
		fi
		set -- "$1" $_f $_b
		_rc=$(ratio "$7" "$3") _rf=$(ratio "$9" "$5")
		printf '  round %2d/%d: fio %6s IOs %7s us/IO, far %3s IOs %7s us/IO | lunqbench %6s IOs %7s us/IO, far %3s IOs %7s us/IO | ratios CPU/IO %.3f far %.3f\n' \
			"$_r" "$rounds" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$_rc" "$_rf"
		_lc="$_lc $_rc" _lf="$_lf $_rf"
		_fb="$_fb $5" _lb="$_lb $9"
		_r=$((_r + 1))
	done
	c_sc=$(stats $_lc) c_sf=$(stats $_lf) c_fio_far=$(stats $_fb) c_lb_far=$(stats $_lb)
}

# run_part TAG DEV QD: $rounds rounds, ABBA; per-round ratios lunqbench/fio
run_part() {
	_tag=$1 _dev=$2 _qd=$3
	_li= _lc= _l5= _l9=
	_r=1
	while [ "$_r" -le "$rounds" ]; do
		if [ $((_r % 2)) = 1 ]; then
			_f=$(fio_run "$_dev" "$_qd" "$runtime") || return 1
			_b=$(lb_run "$_dev" "$_qd" "$runtime") || return 1
		else
			_b=$(lb_run "$_dev" "$_qd" "$runtime") || return 1
			_f=$(fio_run "$_dev" "$_qd" "$runtime") || return 1
		fi
		set -- $_f $_b
		_ri=$(ratio "$5" "$1") _rc=$(ratio "$6" "$2") _r5=$(ratio "$7" "$3") _r9=$(ratio "$8" "$4")
		printf '  round %2d/%d: fio %6s IOPS %6s us/IO p50 %s p99 %s us | lunqbench %6s IOPS %6s us/IO p50 %s p99 %s us | ratios IOPS %.3f CPU %.3f p50 %.3f p99 %.3f\n' \
			"$_r" "$rounds" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$_ri" "$_rc" "$_r5" "$_r9"
		_li="$_li $_ri" _lc="$_lc $_rc" _l5="$_l5 $_r5" _l9="$_l9 $_r9"
		_r=$((_r + 1))
	done
	for _k in i c 5 9; do
		eval "_v=\$(stats \$_l$_k)"
		eval "${_tag}_s$_k=\"\$_v\""
	done
}

# line LABEL "median min max q1 q3"
line() {
	set -- "$1" $2
	printf '  lunqbench/fio %-11s median %.3f (min %.3f, max %.3f, IQR %.3f..%.3f, %d rounds)\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$rounds"
}

jstats() { echo "$1" | awk '{ printf "{\"median\": %s, \"min\": %s, \"max\": %s, \"q1\": %s, \"q3\": %s}", $1, $2, $3, $4, $5 }'; }

echo "lunqbench vs fio: kernel $(uname -r), $(nproc) CPUs, $rounds rounds, ${runtime} s per run, $(fio --version)"
start=$(date +%s)
for p in a b c; do
	case $part in *$p*) ;; *) continue ;; esac
	if [ $p = c ]; then
		nb=$(nullb_create cmp_c 1024 memory_backed=0 irqmode=2 completion_nsec=2000000 hw_queue_depth=64) || exit 1
		echo
		echo "== Part C: open loop, the bubble load (stream QD16 + far reads 10/s), null_blk 2 ms completions, ${runtime} s per run"
		w=$(fio_bubble "$nb" 2) && diag "warm-up fio: $w" || exit 1
		w=$(lb_bubble "$nb" 2) && diag "warm-up lunqbench: $w" || exit 1
		run_bubble "$nb" || exit 1
		continue
	fi
	if [ $p = a ]; then
		nb=$(nullb_create cmp_a 1024 memory_backed=0) || exit 1
		qd=32 what="4 KiB randread io_uring QD32, null_blk (CPU-bound)"
	else
		nb=$(nullb_create cmp_b 1024 memory_backed=0 irqmode=2 completion_nsec=2000000 hw_queue_depth=64) || exit 1
		qd=8 what="4 KiB randread io_uring QD8, null_blk 2 ms completions (device-bound)"
	fi
	echo
	echo "== Part $(echo $p | tr ab AB): $what, ${runtime} s per run"
	w=$(fio_run "$nb" $qd 2) && diag "warm-up fio: $w" || exit 1
	w=$(lb_run "$nb" $qd 2) && diag "warm-up lunqbench: $w" || exit 1
	run_part $p "$nb" $qd || exit 1
done
secs=$(($(date +%s) - start))

echo
echo "== Summary: lunqbench/fio, median of per-round ratios, ${secs} s"
j=$LUNQ_OUT/compare-fio.json
printf '{\n  "benchmark": "compare-fio",\n  "kernel": "%s",\n  "rounds": %s,\n  "runtime_s": %s' "$(uname -r)" "$rounds" "$runtime" > "$j"
for p in a b c; do
	case $part in *$p*) ;; *) continue ;; esac
	if [ $p = c ]; then
		echo "Part C (open loop):"
		line "CPU/IO" "$c_sc"
		line "far CPU/IO" "$c_sf"
		printf '  far job CPU per IO, us: fio median %.1f (min %.1f, max %.1f), lunqbench median %.1f (min %.1f, max %.1f)\n' \
			$(echo $c_fio_far | cut -d' ' -f1-3) $(echo $c_lb_far | cut -d' ' -f1-3)
		printf ',\n  "part_c": {"cpu_per_io": %s, "far_cpu_per_io": %s, "fio_far_us_per_io": %s, "lunqbench_far_us_per_io": %s}' \
			"$(jstats "$c_sc")" "$(jstats "$c_sf")" "$(jstats "$c_fio_far")" "$(jstats "$c_lb_far")" >> "$j"
		continue
	fi
	eval "si=\$${p}_si sc=\$${p}_sc s5=\$${p}_s5 s9=\$${p}_s9"
	echo "Part $(echo $p | tr ab AB):"
	line "IOPS" "$si"
	line "CPU/IO" "$sc"
	line "p50" "$s5"
	line "p99" "$s9"
	printf ',\n  "part_%s": {"iops": %s, "cpu_per_io": %s, "p50": %s, "p99": %s}' \
		$p "$(jstats "$si")" "$(jstats "$sc")" "$(jstats "$s5")" "$(jstats "$s9")" >> "$j"
done
printf '\n}\n' >> "$j"
cleanup_all
exit 0
