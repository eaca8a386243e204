// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq's throttle, pure part (see lunq_throttle.h).
 */
#include <linux/minmax.h>
#include <linux/limits.h>
#include "lunq_throttle.h"

void lunq_throttle_init(struct lunq_throttle *t)
{
	t->depth = 0;
	t->held = false;
	t->fast_lim = 0;
	atomic_set(&t->nfast, 0);
	t->fast_lba = LUNQ_NO_LBA;
	t->fast_max = 0;
	t->changes = 0;
	t->log_n = 0;
}

bool lunq_throttle_store(struct lunq_throttle *t, u32 depth, u8 cause,
			 u64 t_rel, bool count)
{
	struct lunq_tlog *e;

	if (depth == t->depth)
		return false;
	e = &t->log[t->log_n++ % LUNQ_TLOG_SIZE];
	e->t = t_rel;
	e->from = min_t(u32, t->depth, U16_MAX);
	e->to = min_t(u32, depth, U16_MAX);
	e->cause = cause;
	if (count)
		t->changes++;
	t->depth = depth;
	return true;
}

unsigned int lunq_throttle_log(const struct lunq_throttle *t,
			       struct lunq_tlog *log)
{
	unsigned int k = 0;
	u64 i;

	for (i = t->log_n > LUNQ_TLOG_SIZE ? t->log_n - LUNQ_TLOG_SIZE : 0;
	     i < t->log_n; i++)
		log[k++] = t->log[i % LUNQ_TLOG_SIZE];
	return k;
}
