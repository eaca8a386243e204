// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench: xoshiro256** PRNG (Blackman and Vigna) seeded by splitmix64,
 * uniform, exponential and zipf draws, and the bits of math they need
 * (log, exp, pow) without libm: relative error about 1e-15 over the
 * ranges used here (log on (0, inf), exp to +-709, pow of positives).
 */
#include <string.h>
#include "lb.h"

/* ---- math --------------------------------------------------------------- */

union lb_dbits {
	double d;
	u64 u;
};

/* ln 2 split: LN2_HI has its low 32 bits zero, so k * LN2_HI is exact */
static const double LN2_HI = 6.93147180369123816490e-01;
static const double LN2_LO = 1.90821492927058770002e-10;
static const double INV_LN2 = 1.44269504088896338700e+00;
static const double SQRT2 = 1.41421356237309514547e+00;

static double d_inf(void)
{
	union lb_dbits v = { .u = 0x7ff0000000000000ULL };

	return v.d;
}

static double d_nan(void)
{
	union lb_dbits v = { .u = 0x7ff8000000000000ULL };

	return v.d;
}

/* 2^k for -1074 <= k <= 1023 */
static double d_pow2(int k)
{
	union lb_dbits v;

	if (k < -1022) {
		v.u = (u64)(k + 1022 + 1023) << 52;	/* 2^(k + 1022), normal */
		return v.d * 0x1p-1022;
	}
	v.u = (u64)(k + 1023) << 52;
	return v.d;
}

double lb_log(double x)
{
	union lb_dbits v = { .d = x };
	double f, s, z, p;
	int e;

	if (x != x || x < 0)
		return d_nan();
	if (x == 0)
		return -d_inf();
	e = (int)((v.u >> 52) & 0x7ff);
	if (e == 0x7ff)
		return x;			/* +inf */
	if (e == 0) {			/* subnormal: scale into the normals */
		v.d = x * 0x1p54;
		e = (int)((v.u >> 52) & 0x7ff) - 54;
	}
	e -= 1023;
	v.u = (v.u & ((1ULL << 52) - 1)) | (1023ULL << 52);	/* m in [1, 2) */
	if (v.d > SQRT2) {
		v.d *= 0.5;
		e++;
	}
	/* log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716 */
	f = v.d - 1.0;				/* exact */
	s = f / (2.0 + f);
	z = s * s;
	p = 1.0 / 23;
	p = p * z + 1.0 / 21;
	p = p * z + 1.0 / 19;
	p = p * z + 1.0 / 17;
	p = p * z + 1.0 / 15;
	p = p * z + 1.0 / 13;
	p = p * z + 1.0 / 11;
	p = p * z + 1.0 / 9;
	p = p * z + 1.0 / 7;
	p = p * z + 1.0 / 5;
	p = p * z + 1.0 / 3;
	p = p * z;				/* 2s(1 + p) = 2s + 2sp */
	return e * LN2_HI + ((e * LN2_LO + 2 * s * p) + 2 * s);
}

double lb_exp(double x)
{
	double kd, hi, lo, r, p;
	int k, i;

	if (x != x)
		return x;
	if (x > 709.782712893383973096)
		return d_inf();
	if (x < -745.133219101941108420)
		return 0;
	kd = x * INV_LN2;
	k = (int)(kd < 0 ? kd - 0.5 : kd + 0.5);
	hi = x - k * LN2_HI;			/* exact */
	lo = k * LN2_LO;
	r = hi - lo;				/* |r| <= 0.3466 */
	/* Taylor to r^16 / 16!: the remainder is below 1e-21 */
	p = 1.0;
	for (i = 16; i >= 1; i--)
		p = 1.0 + p * r / i;
	if (k > 1023)
		return p * d_pow2(k - 1) * 2.0;
	if (k < -1022)
		return p * d_pow2(k + 54) * 0x1p-54;
	return p * d_pow2(k);
}

double lb_pow(double x, double y)
{
	if (y == 0 || x == 1)
		return 1;
	if (x != x || y != y || x < 0)
		return d_nan();
	if (x == 0)
		return y > 0 ? 0 : d_inf();
	return lb_exp(y * lb_log(x));
}

/* e^z - 1 without cancellation for small z */
static double expm1_(double z)
{
	double p;
	int i;

	if (z > 0.35 || z < -0.35)
		return lb_exp(z) - 1.0;
	p = 1.0;
	for (i = 18; i >= 2; i--)
		p = 1.0 + p * z / i;
	return z * p;
}

/* ---- xoshiro256** ------------------------------------------------------- */

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void lb_rng_seed(struct lb_rng *r, u64 seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	/* the all-zero state is the one xoshiro cannot leave */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 lb_rng_next(struct lb_rng *r)
{
	u64 *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

u64 lb_rng_below(struct lb_rng *r, u64 n)
{
	u64 x;

	if (n <= 1)
		return 0;
#ifdef __SIZEOF_INT128__
	{
		/* Lemire, "Fast random integer generation in an interval" */
		unsigned __int128 m = (unsigned __int128)lb_rng_next(r) * n;
		u64 lo = (u64)m;

		if (lo < n) {
			u64 thresh = -n % n;

			while (lo < thresh) {
				m = (unsigned __int128)lb_rng_next(r) * n;
				lo = (u64)m;
			}
		}
		return (u64)(m >> 64);
	}
#endif
	/* rejection: drop the top 2^64 mod n values */
	do
		x = lb_rng_next(r);
	while (x < -n % n);
	return x % n;
}

double lb_rng_unit(struct lb_rng *r)
{
	return (double)(lb_rng_next(r) >> 11) * 0x1p-53;
}

double lb_rng_exp(struct lb_rng *r, double mean)
{
	/* 1 - u is in (0, 1], exact with 53-bit u */
	return -mean * lb_log(1.0 - lb_rng_unit(r));
}

/* ---- zipf --------------------------------------------------------------- */

/* x^-t' derivatives for Euler-Maclaurin: d^k/dx^k x^-t at x */
static double dpow(double x, double t, int k)
{
	double c = 1.0;
	int i;

	for (i = 0; i < k; i++)
		c *= -(t + i);
	return c * lb_pow(x, -t - k);
}

/*
 * zeta(n, theta) = sum_{i=1..n} i^-theta: the first terms summed (small
 * ones first), the tail by Euler-Maclaurin from m to n, whose remainder
 * with m = 1024 is far below a double's precision.
 */
double lb_zeta(u64 n, double theta)
{
	const u64 m = 1024;
	u64 top = n < m ? n : m, i;
	double sum = 0, dn, dm, lr, integral;

	for (i = top; i >= 1; i--)
		sum += lb_pow((double)i, -theta);
	if (n <= m)
		return sum;
	dn = (double)n;
	dm = (double)m;
	lr = lb_log(dn / dm);
	/* integral_m^n x^-theta dx, also fine near theta = 1 */
	if (theta == 1)
		integral = lr;
	else
		integral = lb_pow(dm, 1 - theta) * expm1_((1 - theta) * lr) / (1 - theta);
	/* sum_{m+1..n} = integral + (f(n) - f(m)) / 2 + B2k / (2k)! terms */
	sum += integral + (lb_pow(dn, -theta) - lb_pow(dm, -theta)) / 2 +
	       (dpow(dn, theta, 1) - dpow(dm, theta, 1)) / 12 -
	       (dpow(dn, theta, 3) - dpow(dm, theta, 3)) / 720 +
	       (dpow(dn, theta, 5) - dpow(dm, theta, 5)) / 30240;
	return sum;
}

void lb_zipf_init(struct lb_zipf *z, u64 n, double theta)
{
	memset(z, 0, sizeof(*z));
	if (n < 1)
		n = 1;
	/* Gray's formula has a pole at theta = 1: take a close neighbour */
	if (theta == 1)
		theta = 1 - 1e-6;
	z->n = n;
	z->theta = theta;
	z->alpha = 1 / (1 - theta);
	z->zetan = lb_zeta(n, theta);
	z->zeta2 = 1 + lb_pow(0.5, theta);
	if (n > 2)
		z->eta = (1 - lb_pow(2.0 / (double)n, 1 - theta)) /
			 (1 - z->zeta2 / z->zetan);
}

u64 lb_zipf_next(const struct lb_zipf *z, struct lb_rng *r)
{
	double u = lb_rng_unit(r), uz = u * z->zetan, v;

	if (uz < 1 || z->n < 2)
		return 0;
	if (uz < z->zeta2 || z->n < 3)
		return 1;
	v = (double)z->n * lb_pow(z->eta * u - z->eta + 1, z->alpha);
	if (!(v < (double)z->n))	/* rounding at the top, or NaN */
		return z->n - 1;
	return (u64)v;
}
