// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "linux" (reaction:linux): the Linux SCSI midlayer's
 * (scsi_track_queue_full: -1 per more than 10 QUEUE FULLs at one depth, +1
 * per ramp_up_ms without one). The state machine is lunq_react.c's.
 */
#include "lunq_pol_ops.h"

/* below qdepth, good completions ramp it up: not steady */
static bool lunq_pol_linux_steady(const struct lunq_pol *p)
{
	return p->react.cur >= p->react.cfg.max;
}

const struct lunq_policy_ops lunq_pol_linux = {
	.name = "linux",
	.start = lunq_pol_react_start,
	.qfull = lunq_pol_react_qfull,
	.good = lunq_pol_react_good,
	.steady = lunq_pol_linux_steady,
	.limits = lunq_pol_react_limits,
};
