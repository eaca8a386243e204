// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policies: what the reactions to QUEUE FULL share (the state
 * machines are lunq_react.c's; each reaction is its own lunq_pol_*.c).
 */
#include <linux/jiffies.h>
#include <linux/time64.h>

#include "lunq_args.h"
#include "lunq_pol_ops.h"

u32 lunq_pol_react_start(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	const u32 *val = p->val;
	struct lunq_react_cfg rc = {
		.mode = val[LUNQ_REACTION],
		.max = val[LUNQ_QDEPTH],
		.min = val[LUNQ_MIN_THROTTLE],
		/* scsi_track_queue_full() counts once per 16 jiffies */
		.bucket_ns = 16ULL * TICK_NSEC,
		.ramp_up_ns = (u64)val[LUNQ_RAMP_UP_MS] * NSEC_PER_MSEC,
		.restore_ns = (u64)val[LUNQ_RESTORE_MS] * NSEC_PER_MSEC,
		.step_ns = (u64)val[LUNQ_STEP_MS] * NSEC_PER_MSEC,
	};

	lunq_react_config(&p->react, &rc);
	return p->react.cur;
}

u32 lunq_pol_react_qfull(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	return lunq_react_qfull(&p->react, v->now, v->in_transport);
}

u32 lunq_pol_react_good(struct lunq_pol *p, u64 now)
{
	return lunq_react_good(&p->react, now);
}

u32 lunq_pol_react_tick(struct lunq_pol *p, u64 now)
{
	return lunq_react_tick(&p->react, now);
}

u64 lunq_pol_react_deadline(const struct lunq_pol *p)
{
	return lunq_react_deadline(&p->react);
}

/* a reaction moves the depth between 1 and qdepth */
void lunq_pol_react_limits(const u32 *val, u32 *min, u32 *max)
{
	*min = 1;
	*max = val[LUNQ_QDEPTH];
}
