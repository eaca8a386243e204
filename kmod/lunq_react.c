// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq host reaction to QUEUE FULL: the Linux midlayer's and Solaris
 * sd's throttle state machines, see lunq_react.h.
 */
#include <linux/minmax.h>
#include <linux/math64.h>

#include "lunq_react.h"

void lunq_react_init(struct lunq_react *r, const struct lunq_react_cfg *cfg)
{
	*r = (struct lunq_react) { .cfg = *cfg, .cur = cfg->max };
}

void lunq_react_config(struct lunq_react *r, const struct lunq_react_cfg *cfg)
{
	if (cfg->mode != r->cfg.mode || cfg->max != r->cfg.max) {
		lunq_react_init(r, cfg);
		return;
	}
	/* a pending restore keeps its time; the next one uses the new period */
	r->cfg = *cfg;
}

/* scsi_track_queue_full(sdev, sdev->queue_depth - 1) */
static u32 lunq_react_linux_qfull(struct lunq_react *r, u64 now)
{
	u32 depth = r->cur - 1;
	u64 bucket = r->cfg.bucket_ns ? div64_u64(now, r->cfg.bucket_ns) : now;

	if (r->have_qfull &&
	    bucket == (r->cfg.bucket_ns ?
		       div64_u64(r->last_qfull, r->cfg.bucket_ns) :
		       r->last_qfull))
		return r->cur;
	r->have_qfull = true;
	r->last_qfull = now;
	if (r->last_depth != depth) {
		r->count = 1;
		r->last_depth = depth;
	} else {
		r->count++;
	}
	if (r->count <= 10)
		return r->cur;
	if (depth > 0)	/* scsi_change_queue_depth() ignores depth 0 */
		r->cur = depth;
	return r->cur;
}

/* sd_reduce_throttle(un, SD_THROTTLE_QFULL) */
static u32 lunq_react_sd_qfull(struct lunq_react *r, u64 now, u32 in_transport)
{
	if (r->cur > 1) {
		if (r->cfg.mode == LUNQ_REACT_SD_FC) {
			if (in_transport > 0)
				r->cur = in_transport;
		} else {
			r->cur = in_transport ? in_transport : 1;
		}
		r->cur = min(r->cur, r->cfg.max);
	}
	if (!r->restore_at)
		r->restore_at = now + r->cfg.restore_ns ?: 1;
	return r->cur;
}

u32 lunq_react_qfull(struct lunq_react *r, u64 now, u32 in_transport)
{
	switch (r->cfg.mode) {
	case LUNQ_REACT_LINUX:
		return lunq_react_linux_qfull(r, now);
	case LUNQ_REACT_SD:
	case LUNQ_REACT_SD_FC:
		return lunq_react_sd_qfull(r, now, in_transport);
	default:
		return r->cur;
	}
}

/* scsi_handle_queue_ramp_up() */
u32 lunq_react_good(struct lunq_react *r, u64 now)
{
	if (r->cfg.mode != LUNQ_REACT_LINUX || r->cur >= r->cfg.max)
		return r->cur;
	if (r->have_ramp && now - r->last_ramp < r->cfg.ramp_up_ns)
		return r->cur;
	if (r->have_qfull && now - r->last_qfull < r->cfg.ramp_up_ns)
		return r->cur;
	r->cur++;
	r->have_ramp = true;
	r->last_ramp = now;
	return r->cur;
}

/* sd_restore_throttle() */
u32 lunq_react_tick(struct lunq_react *r, u64 now)
{
	u32 step;

	if (!r->restore_at || now < r->restore_at)
		return r->cur;
	r->restore_at = 0;
	if (r->cfg.mode == LUNQ_REACT_SD_FC) {
		step = max(r->cur / 10, 1U);
		r->cur = min(r->cur + step, r->cfg.max);
		if (r->cur < r->cfg.max)
			r->restore_at = now + r->cfg.step_ns ?: 1;
		if (r->cur < r->cfg.min) {
			/* "allow it to ratchet down again" */
			r->cur = r->cfg.max;
			r->restore_at = 0;
		}
	} else if (r->cfg.mode == LUNQ_REACT_SD) {
		r->cur = r->cfg.max;
	}
	return r->cur;
}
