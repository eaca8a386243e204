// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "knee" (auto:knee): the depth of greatest power (IOPS per
 * unit of service time), found as BBR finds its window: peak rate x least
 * service time. The controller is lunq_auto.c's (its rules in
 * lunq_auto.h), shared with the other auto mode in lunq_pol_auto.c.
 */
#include "lunq_pol_ops.h"

const struct lunq_policy_ops lunq_pol_knee = {
	.name = "knee",
	.start = lunq_pol_auto_start,
	.window = lunq_pol_auto_window,
	.qfull = lunq_pol_auto_qfull,
	.stop = lunq_pol_auto_stop,
	.win_ready = lunq_pol_auto_win_ready,
	.idle = lunq_pol_auto_idle,
	.fill = lunq_pol_auto_fill,
	.limits = lunq_pol_auto_limits,
};
