// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "sd-fc" (reaction:sd-fc): Solaris sd's adaptive (fibre)
 * variant (cut to the commands in transport, then +10% every step_ms after
 * restore_ms). The state machine is lunq_react.c's.
 */
#include "lunq_pol_ops.h"

/* a restore pending: not steady (lunq_pol_deadline) */
static bool lunq_pol_sdfc_steady(const struct lunq_pol *p)
{
	return !lunq_pol_react_deadline(p);
}

const struct lunq_policy_ops lunq_pol_sdfc = {
	.name = "sd-fc",
	.start = lunq_pol_react_start,
	.qfull = lunq_pol_react_qfull,
	.tick = lunq_pol_react_tick,
	.deadline = lunq_pol_react_deadline,
	.steady = lunq_pol_sdfc_steady,
	.limits = lunq_pol_react_limits,
};
