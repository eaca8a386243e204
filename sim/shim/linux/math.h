/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_SHIM_LINUX_MATH_H
#define SIM_SHIM_LINUX_MATH_H
#include <linux/types.h>
/* floor(sqrt(x)), bit by bit as lib/math/int_sqrt.c computes it */
static inline u32 int_sqrt64(u64 x)
{
	u64 b, m, y = 0;

	if (x <= 1)
		return x;
	m = 1ULL << ((63 - __builtin_clzll(x)) & ~1ULL);
	while (m != 0) {
		b = y + m;
		y >>= 1;
		if (x >= b) {
			x -= b;
			y += m;
		}
		m >>= 2;
	}
	return y;
}
static inline unsigned long int_sqrt(unsigned long x) { return int_sqrt64(x); }
#endif
