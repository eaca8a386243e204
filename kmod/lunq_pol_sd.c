// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "sd" (reaction:sd): Solaris sd's (cut to the commands in
 * transport, back to qdepth after restore_ms). The state machine is
 * lunq_react.c's.
 */
#include "lunq_pol_ops.h"

/* a restore pending: not steady (lunq_pol_deadline) */
static bool lunq_pol_sd_steady(const struct lunq_pol *p)
{
	return !lunq_pol_react_deadline(p);
}

const struct lunq_policy_ops lunq_pol_sd = {
	.name = "sd",
	.start = lunq_pol_react_start,
	.qfull = lunq_pol_react_qfull,
	.tick = lunq_pol_react_tick,
	.deadline = lunq_pol_react_deadline,
	.steady = lunq_pol_sd_steady,
	.limits = lunq_pol_react_limits,
};
