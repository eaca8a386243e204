// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "fixed" (reaction:none, auto:off): the table's qdepth,
 * whatever the LUN answers; a refused command is retried as it is.
 */
#include "lunq_args.h"
#include "lunq_pol_ops.h"

static u32 lunq_pol_fixed_start(struct lunq_pol *p,
				const struct lunq_pol_view *v)
{
	return lunq_pol_react_start(p, v);
}

static u32 lunq_pol_fixed_qfull(struct lunq_pol *p,
				const struct lunq_pol_view *v)
{
	return v->depth;
}

static void lunq_pol_fixed_limits(const u32 *val, u32 *min, u32 *max)
{
	*min = val[LUNQ_QDEPTH];
	*max = val[LUNQ_QDEPTH];
}

const struct lunq_policy_ops lunq_pol_fixed = {
	.name = "fixed",
	.start = lunq_pol_fixed_start,
	.qfull = lunq_pol_fixed_qfull,
	.limits = lunq_pol_fixed_limits,
};
