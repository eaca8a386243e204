/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_SHIM_LINUX_MATH64_H
#define SIM_SHIM_LINUX_MATH64_H
#include <linux/types.h>
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }
static inline s64 div_s64(s64 a, s32 b) { return a / b; }
static inline u64 div_u64_rem(u64 a, u32 b, u32 *r) { *r = a % b; return a / b; }
static inline u64 div64_u64_rem(u64 a, u64 b, u64 *r) { *r = a % b; return a / b; }
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define DIV64_U64_ROUND_UP(n, d) div64_u64((n) + (d) - 1, (d))
#define DIV_ROUND_UP_ULL(n, d) DIV_ROUND_UP((unsigned long long)(n), (d))
#define do_div(n, base) ({ u32 _r = (n) % (base); (n) /= (base); _r; })
#endif
