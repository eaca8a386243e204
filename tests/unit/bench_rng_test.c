// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of bench/rng.c: lunqbench's xoshiro256** PRNG, its
 * uniform, exponential and zipf draws, and the libm stand-ins.
 * LINK: bench/rng.c
 */
#include <stdio.h>
#include <string.h>
#include "../../bench/lb.h"

#define TAP_PREFIX "bench-rng-"
#include "tap.h"

static double fabs_(double x)
{
	return x < 0 ? -x : x;
}

static int close_rel(double got, double want, double tol)
{
	return fabs_(got - want) <= tol * fabs_(want);
}

/* chi-square of @k bins against equal expectations */
static double chi2(const u64 *bins, int k, u64 total)
{
	double e = (double)total / k, c = 0;
	int i;

	for (i = 0; i < k; i++)
		c += ((double)bins[i] - e) * ((double)bins[i] - e) / e;
	return c;
}

#define DRAWS 1000000

static u64 zcount[1000];

int main(void)
{
	struct lb_rng a, b;
	struct lb_zipf z;
	u64 bins[10], i, v, big = 0xc000000000000000ULL;
	double s, s2, mean, var, x, worst;
	int same = 1, diff = 0, ok, k;

	/* seeding and the generator itself, against the reference outputs */
	lb_rng_seed(&a, 0);
	ok(a.s[0] == 0xe220a8397b1dcdafULL && a.s[1] == 0x6e789e6aa1b965f4ULL,
	   "splitmix64-seeding");
	a.s[0] = 1, a.s[1] = 2, a.s[2] = 3, a.s[3] = 4;
	ok(lb_rng_next(&a) == 11520 && lb_rng_next(&a) == 0 &&
	   lb_rng_next(&a) == 1509978240, "xoshiro256ss-reference");

	lb_rng_seed(&a, 12345);
	lb_rng_seed(&b, 12345);
	for (i = 0; i < 1000; i++)
		if (lb_rng_next(&a) != lb_rng_next(&b))
			same = 0;
	lb_rng_seed(&b, 12346);
	for (i = 0; i < 1000; i++)
		if (lb_rng_next(&a) != lb_rng_next(&b))
			diff++;
	ok(same && diff > 990, "reproducible-per-seed");

	/* below: range, uniformity (chi-square, 9 dof, p = 0.001 at 27.88) */
	ok = lb_rng_below(&a, 1) == 0 && lb_rng_below(&a, 0) == 0;
	for (i = 0; i < 100000; i++)
		if (lb_rng_below(&a, 7) >= 7)
			ok = 0;
	ok(ok, "below-in-range");
	memset(bins, 0, sizeof(bins));
	for (i = 0; i < DRAWS; i++)
		bins[lb_rng_below(&a, 10)]++;
	ok(chi2(bins, 10, DRAWS) < 27.88, "below-10-chi2");
	/* n = 3 * 2^62: x % n would put half again as much in the low third */
	memset(bins, 0, sizeof(bins));
	for (i = 0; i < DRAWS; i++) {
		v = lb_rng_below(&a, big);
		if (v >= big)
			break;
		bins[v / (big / 10 + 1)]++;
	}
	ok(i == DRAWS && chi2(bins, 10, DRAWS) < 27.88, "below-large-n-no-bias");

	/* unit: [0, 1), 53 bits, mean 1/2 */
	ok = 1;
	s = 0;
	for (i = 0; i < DRAWS; i++) {
		x = lb_rng_unit(&a);
		if (x < 0 || x >= 1 || x * 0x1p53 != (double)(u64)(x * 0x1p53))
			ok = 0;
		s += x;
	}
	ok(ok && close_rel(s / DRAWS, 0.5, 0.005), "unit-range-and-mean");

	/* exponential: mean and variance (mean^2) within 2 % */
	s = s2 = 0;
	ok = 1;
	for (i = 0; i < DRAWS; i++) {
		x = lb_rng_exp(&a, 250.0);
		if (x < 0)
			ok = 0;
		s += x;
		s2 += x * x;
	}
	mean = s / DRAWS;
	var = s2 / DRAWS - mean * mean;
	ok(ok && close_rel(mean, 250.0, 0.02), "exp-mean");
	ok(close_rel(var, 250.0 * 250.0, 0.02), "exp-variance");

	/* the libm stand-ins against known values and each other */
	ok(close_rel(lb_log(2), 0.69314718055994530942, 1e-15) &&
	   close_rel(lb_log(10), 2.30258509299404568402, 1e-15) &&
	   close_rel(lb_log(1e-300), -690.77552789821370520, 1e-15) &&
	   close_rel(lb_log(4.9406564584124654e-324), -744.44007192138126231, 1e-15) &&
	   lb_log(1) == 0, "log-values");
	ok(close_rel(lb_exp(1), 2.71828182845904523536, 1e-15) &&
	   close_rel(lb_exp(-20), 2.06115362243855782796e-9, 1e-15) &&
	   close_rel(lb_exp(700), 1.0142320547350045e304, 1e-13) &&
	   lb_exp(0) == 1 && lb_exp(-800) == 0, "exp-values");
	ok(close_rel(lb_pow(2, 0.5), 1.41421356237309504880, 1e-15) &&
	   close_rel(lb_pow(10, -3), 1e-3, 1e-14) &&
	   close_rel(lb_pow(1000, 0.99), 933.254300796991, 1e-14) &&
	   lb_pow(0, 2) == 0 && lb_pow(5, 0) == 1, "pow-values");
	worst = 0;
	for (i = 0; i < 100000; i++) {
		x = lb_exp((lb_rng_unit(&a) - 0.5) * 1000);
		s = fabs_(lb_exp(lb_log(x)) - x) / x;
		if (s > worst)
			worst = s;
		x = 1 + (lb_rng_unit(&a) - 0.5) * 1e-6;	/* log near 1 */
		s = fabs_(lb_exp(lb_log(x)) - x) / x;
		if (s > worst)
			worst = s;
	}
	ok(worst < 1e-12, "exp-log-round-trip");

	/* zeta: the Euler-Maclaurin tail against the plain sum */
	ok = 1;
	for (k = 0; k < 3; k++) {
		double th = k == 0 ? 0.5 : k == 1 ? 0.99 : 1.2;

		s = 0;
		for (i = 300000; i >= 1; i--)
			s += lb_pow((double)i, -th);
		if (!close_rel(lb_zeta(300000, th), s, 1e-12))
			ok = 0;
	}
	ok(ok && close_rel(lb_zeta(2, 1.5), 1 + lb_pow(2, -1.5), 1e-15),
	   "zeta-tail");

	/* zipf n = 1000, theta 0.99: rank 0's share 1/zeta, ranks decreasing */
	lb_zipf_init(&z, 1000, 0.99);
	ok = 1;
	for (i = 0; i < DRAWS; i++) {
		v = lb_zipf_next(&z, &a);
		if (v >= 1000) {
			ok = 0;
			break;
		}
		zcount[v]++;
	}
	ok(ok, "zipf-in-range");
	ok(close_rel((double)zcount[0] / DRAWS, 1 / lb_zeta(1000, 0.99), 0.05),
	   "zipf-rank0-share");
	ok = 1;
	for (k = 1; k < 10; k++)
		if (zcount[k] >= zcount[k - 1])
			ok = 0;
	/* per-rank mean over octaves [2^j, 2^(j+1)) decreases too */
	for (k = 1, s = (double)zcount[1]; k < 9; k++) {
		u64 lo = 1ULL << k, hi = lo * 2, j;

		s2 = 0;
		for (j = lo; j < hi; j++)
			s2 += (double)zcount[j];
		s2 /= (double)(hi - lo);
		if (s2 >= s)
			ok = 0;
		s = s2;
	}
	ok(ok, "zipf-decreasing");
	/* rank r's share about r^-theta / zeta (Gray's approximation): 10 % */
	ok(close_rel((double)zcount[9] / DRAWS,
			lb_pow(10, -0.99) / lb_zeta(1000, 0.99), 0.10) &&
	   close_rel((double)zcount[1] / DRAWS,
			lb_pow(2, -0.99) / lb_zeta(1000, 0.99), 0.05), "zipf-shares");

	/* theta > 1 and a huge n */
	lb_zipf_init(&z, 1000000000000ULL, 1.2);
	memset(bins, 0, sizeof(bins));
	ok = 1;
	for (i = 0; i < DRAWS; i++) {
		v = lb_zipf_next(&z, &a);
		if (v >= z.n)
			ok = 0;
		if (v == 0)
			bins[0]++;
	}
	ok(ok && close_rel((double)bins[0] / DRAWS,
			   1 / lb_zeta(1000000000000ULL, 1.2), 0.05),
	   "zipf-theta-1.2-huge-n");

	diag("%d checks, %d failed", tap_n, tap_failed);
	return tap_exit();
}
