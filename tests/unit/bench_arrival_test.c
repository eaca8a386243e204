// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of bench/arrival.c: lunqbench's open-loop arrival
 * schedules (Poisson, uniform, fixed, bursts) and their lack of drift.
 * LINK: bench/arrival.c bench/rng.c
 */
#include <stdio.h>
#include <stdlib.h>
#include "../../bench/lb.h"

#define TAP_PREFIX "bench-arrival-"
#include "tap.h"

static int close_rel(double got, double want, double tol)
{
	double d = got - want;

	return (d < 0 ? -d : d) <= tol * (want < 0 ? -want : want);
}

#define ARRIVALS 1000000
#define T0 123456789012345ULL

/* gap statistics of @count arrivals; *@mono: never decreasing */
static void gaps(struct lb_sched *s, u64 count, double *mean, double *var,
		 int *mono)
{
	u64 prev = lb_sched_next(s), t, i;
	double sum = 0, sum2 = 0, g;

	*mono = prev == T0;
	for (i = 0; i < count; i++) {
		t = lb_sched_next(s);
		if (t < prev)
			*mono = 0;
		g = (double)(t - prev);
		sum += g;
		sum2 += g * g;
		prev = t;
	}
	*mean = sum / (double)count;
	*var = sum2 / (double)count - *mean * *mean;
}

int main(void)
{
	struct lb_sched s;
	double mean, var, m, v, rate = 100.0, gap = 1e9 / rate;
	u64 i, t, want, win, *cnt, nwin, worst = 0;
	int mono, ok;

	/* Poisson: exponential gaps, mean 1/rate and variance mean^2 */
	lb_sched_init(&s, LB_ARR_POISSON, rate, T0, 7);
	gaps(&s, ARRIVALS, &mean, &var, &mono);
	ok(mono, "poisson-starts-at-t0-monotonic");
	ok(close_rel(mean, gap, 0.01), "poisson-mean-gap");
	ok(close_rel(var, gap * gap, 0.03), "poisson-gap-variance");

	/* counts per 1 s window: Poisson, so variance ~ mean (100 per window) */
	lb_sched_init(&s, LB_ARR_POISSON, rate, T0, 8);
	nwin = (u64)(ARRIVALS / rate) + 2;
	cnt = calloc(nwin, sizeof(*cnt));
	for (i = 0; i < ARRIVALS; i++) {
		win = (lb_sched_next(&s) - T0) / 1000000000ULL;
		if (win < nwin)
			cnt[win]++;
	}
	nwin = (u64)(ARRIVALS / rate) - 1;	/* full windows only */
	for (i = 0, m = v = 0; i < nwin; i++)
		m += (double)cnt[i];
	m /= (double)nwin;
	for (i = 0; i < nwin; i++)
		v += ((double)cnt[i] - m) * ((double)cnt[i] - m);
	v /= (double)(nwin - 1);
	free(cnt);
	diag("poisson: mean gap %.6g ns (want %.6g), variance/mean^2 %.4f, windows: mean %.3f, var/mean %.4f",
	       mean, gap, var / (mean * mean), m, v / m);
	ok(close_rel(m, rate, 0.01), "poisson-window-mean");
	ok(v / m > 0.9 && v / m < 1.1, "poisson-index-of-dispersion");

	/* uniform: gaps in [0, 2/rate): mean 1/rate, variance mean^2/3 */
	lb_sched_init(&s, LB_ARR_UNIFORM, 5000.0, T0, 9);
	gaps(&s, ARRIVALS, &mean, &var, &mono);
	ok(mono && close_rel(mean, 200000.0, 0.01), "uniform-mean-gap");
	ok(close_rel(var, 200000.0 * 200000.0 / 3, 0.03), "uniform-gap-variance");

	/* fixed: arrival k at t0 + k * 1e9/rate to 1 ns, 1e7 arrivals on;
	 * 300000/s is a gap of 3333.33.. ns, which integer ns would drift */
	lb_sched_init(&s, LB_ARR_FIXED, 300000.0, T0, 0);
	ok = 1;
	for (i = 0; i < 10000000; i++) {
		t = lb_sched_next(&s);
		want = T0 + (i * 10000 + 1) / 3;	/* round(i * 10000/3) */
		if ((t > want ? t - want : want - t) > worst)
			worst = t > want ? t - want : want - t;
	}
	diag("fixed: worst deviation from t0 + k * gap over 1e7 arrivals: %llu ns",
	       (unsigned long long)worst);
	ok(worst <= 1, "fixed-no-drift-1e7");
	lb_sched_init(&s, LB_ARR_FIXED, 1000.0, T0, 0);
	for (i = 0; i < 1000; i++)
		if (lb_sched_next(&s) != T0 + i * 1000000)
			ok = 0;
	ok(ok, "fixed-exact-gaps");

	/* bursts: 8 at once every 100 ms (rate 80/s), exactly */
	lb_sched_init(&s, LB_ARR_BURST, 80.0, T0, 0);
	lb_sched_burst(&s, 8);
	ok = 1;
	for (i = 0; i < 800; i++)
		if (lb_sched_next(&s) != T0 + (i / 8) * 100000000ULL)
			ok = 0;
	ok(ok, "burst-8-every-100ms");
	lb_sched_init(&s, LB_ARR_BURST, 1000.0, T0, 0);	/* burst 1: fixed */
	ok = 1;
	for (i = 0; i < 1000; i++)
		if (lb_sched_next(&s) != T0 + i * 1000000)
			ok = 0;
	ok(ok, "burst-1-is-fixed");

	/* closed loop: not scheduled here */
	lb_sched_init(&s, LB_ARR_CLOSED, 1000.0, T0, 0);
	ok(lb_sched_next(&s) == T0 && lb_sched_next(&s) == T0, "closed-is-t0");

	/* the same seed, the same schedule */
	{
		struct lb_sched a, b;

		lb_sched_init(&a, LB_ARR_POISSON, 1e6, 0, 42);
		lb_sched_init(&b, LB_ARR_POISSON, 1e6, 0, 42);
		ok = 1;
		for (i = 0; i < 1000; i++)
			if (lb_sched_next(&a) != lb_sched_next(&b))
				ok = 0;
		ok(ok, "reproducible-per-seed");
	}

	diag("%d checks, %d failed", tap_n, tap_failed);
	return tap_exit();
}
