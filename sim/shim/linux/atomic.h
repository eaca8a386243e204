/* SPDX-License-Identifier: GPL-2.0 */
/* atomic_t for lunq's throttle (lunqsim is single-threaded: plain ints) */
#ifndef SIM_SHIM_LINUX_ATOMIC_H
#define SIM_SHIM_LINUX_ATOMIC_H
#include <linux/types.h>
typedef struct { int counter; } atomic_t;
#define atomic_read(v) ((v)->counter)
#define atomic_set(v, i) ((v)->counter = (i))
static inline bool atomic_try_cmpxchg(atomic_t *v, int *old, int new)
{
	if (v->counter != *old) {
		*old = v->counter;
		return false;
	}
	v->counter = new;
	return true;
}
static inline int atomic_dec_return(atomic_t *v)
{
	return --v->counter;
}
#endif
