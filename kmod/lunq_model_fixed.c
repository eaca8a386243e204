// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq model "fixed": every IO takes svc + xfer from the moment it is
 * sent, however many are outstanding -- a pure latency, like dm-delay.
 * No state.  KUnit: lunq_model_fixed_test.c.
 */
#include "lunq_model_base.h"

static u64 lunq_fixed_start(struct lunq_model *m, u64 now, u64 sector,
			    u32 sectors)
{
	return now + lunq_model_busy(&m->cfg, sector, sectors, 0);
}

const struct lunq_model_ops lunq_model_fixed = {
	.name = "fixed",
	.start = lunq_fixed_start,
};
