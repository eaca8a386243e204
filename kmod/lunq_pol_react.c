// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policies: the reactions to QUEUE FULL, the built-ins of the
 * table's reaction: key (the state machines are lunq_react.c's):
 *
 *   fixed   (reaction:none, auto:off) the table's qdepth, whatever the LUN
 *           answers; a refused command is retried as it is
 *   linux   the Linux SCSI midlayer's (scsi_track_queue_full: -1 per more
 *           than 10 QUEUE FULLs at one depth, +1 per ramp_up_ms without)
 *   sd      Solaris sd's: cut to the commands in transport, back to qdepth
 *           after restore_ms
 *   sd-fc   Solaris sd's adaptive (fibre) variant: cut to the commands in
 *           transport, then +10% every step_ms after restore_ms
 */
#include <linux/jiffies.h>
#include <linux/time64.h>

#include "lunq_args.h"
#include "lunq_builtin.h"

static u32 lunq_pol_react_start(struct lunq_pol *p, const struct lunq_pol_view *v)
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

static u32 lunq_pol_react_qfull(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	return lunq_react_qfull(&p->react, v->now, v->in_transport);
}

static u32 lunq_pol_react_good(struct lunq_pol *p, u64 now)
{
	return lunq_react_good(&p->react, now);
}

static u32 lunq_pol_react_tick(struct lunq_pol *p, u64 now)
{
	return lunq_react_tick(&p->react, now);
}

static u64 lunq_pol_react_deadline(const struct lunq_pol *p)
{
	return lunq_react_deadline(&p->react);
}

/* a reaction moves the depth between 1 and qdepth */
static void lunq_pol_react_limits(const u32 *val, u32 *min, u32 *max)
{
	*min = 1;
	*max = val[LUNQ_QDEPTH];
}

/* fixed: the depth stays; its limits are qdepth itself */
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

/* linux: below qdepth, good completions ramp it up: not steady */
static bool lunq_pol_linux_steady(const struct lunq_pol *p)
{
	return p->react.cur >= p->react.cfg.max;
}

/* sd, sd-fc: a restore pending is not steady (lunq_pol_deadline) */
static bool lunq_pol_sd_steady(const struct lunq_pol *p)
{
	return !lunq_pol_react_deadline(p);
}

const struct lunq_builtin lunq_pol_fixed = {
	.name = "fixed",
	.start = lunq_pol_react_start,
	.qfull = lunq_pol_fixed_qfull,
	.limits = lunq_pol_fixed_limits,
};

const struct lunq_builtin lunq_pol_linux = {
	.name = "linux",
	.start = lunq_pol_react_start,
	.qfull = lunq_pol_react_qfull,
	.good = lunq_pol_react_good,
	.steady = lunq_pol_linux_steady,
	.limits = lunq_pol_react_limits,
};

#define LUNQ_POL_SD_OPS(n) {				\
	.name = n,					\
	.start = lunq_pol_react_start,			\
	.qfull = lunq_pol_react_qfull,			\
	.tick = lunq_pol_react_tick,			\
	.deadline = lunq_pol_react_deadline,		\
	.steady = lunq_pol_sd_steady,			\
	.limits = lunq_pol_react_limits,		\
}

/* one set of hooks: lunq_react.c tells them apart by the reaction key */
const struct lunq_builtin lunq_pol_sd = LUNQ_POL_SD_OPS("sd");
const struct lunq_builtin lunq_pol_sdfc = LUNQ_POL_SD_OPS("sd-fc");
