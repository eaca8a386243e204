# bench/stats.sh: shell helpers shared by the guest halves of the
# benchmarks (overhead-guest.sh, compare-fio-guest.sh); busybox sh.

HZ=100				# USER_HZ: /proc/stat's unit

# cpu_busy: busy CPU time of all CPUs so far, in USER_HZ ticks (user,
# nice, system, irq, softirq, steal)
cpu_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# stats NUM...: "median min max q1 q3" (quartiles by linear interpolation)
stats() {
	echo "$@" | tr ' ' '\n' | grep . | sort -n | awk '
		{ a[NR] = $1 }
		function q(p,   h, l) {
			h = (NR - 1) * p + 1; l = int(h)
			return (l >= NR) ? a[NR] : a[l] + (h - l) * (a[l + 1] - a[l])
		}
		END { printf "%.4f %.4f %.4f %.4f %.4f\n", q(0.5), a[1], a[NR], q(0.25), q(0.75) }'
}

# ratio A B: A/B with 4 decimals (0 when B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", (b > 0) ? a / b : 0 }'; }
