// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policies: auto, the built-ins of the table's auto: key -- one
 * controller, lunq_auto*.c's (its rules in kmod/dm-lunq.rst, "auto"), in
 * two modes, read from the table at start:
 *
 *   knee    (auto:knee) the depth of greatest power (IOPS per unit of
 *           service time), found as BBR finds its window: peak rate x
 *           least service time
 *   target  (auto:target) the largest depth whose service p99 stays within
 *           target_us
 *
 * auto reads the window through the view every policy gets (struct
 * lunq_pol_window, lunq_pol_ops.h), as a BPF policy would.
 */
#include <linux/math64.h>
#include <linux/time64.h>

#include "lunq_args.h"
#include "lunq_auto_cfg.h"
#include "uapi/lunq.h"
#include "lunq_builtin.h"

/* Restarts the controller only when its keys (auto_start too) changed. */
static u32 lunq_pol_auto_start(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	const u32 *val = p->val;
	const struct lunq_auto_cfg *o = &p->autoc.cfg;
	struct lunq_auto_cfg c = {
		.mode = val[LUNQ_AUTO],
		.min = val[LUNQ_AUTO_MIN],
		.max = val[LUNQ_AUTO_MAX],
		/* auto_start 0 starts at the top */
		.start = val[LUNQ_AUTO_START] ?: val[LUNQ_AUTO_MAX],
		.target_ns = (u64)val[LUNQ_TARGET_US] * NSEC_PER_USEC,
		.win_ns = LUNQ_AUTO_WIN_NS,
		.win_ios = LUNQ_AUTO_WIN_IOS,
		.probe_every = LUNQ_AUTO_PROBE_EVERY,
		.rate_ns = LUNQ_AUTO_RATE_NS,
		.svc_ns = LUNQ_AUTO_SVC_NS,
		.hold_ns = LUNQ_AUTO_HOLD_NS,
		.qhold_ns = LUNQ_AUTO_QHOLD_NS,
		.qhold_max_ns = LUNQ_AUTO_QHOLD_MAX_NS,
		.hold_max_ns = LUNQ_AUTO_HOLD_MAX_NS,
	};

	if (c.mode != o->mode || c.min != o->min || c.max != o->max ||
	    c.start != o->start || c.target_ns != o->target_ns) {
		lunq_auto_init(&p->autoc, &c, v->now);
		p->rebase = true;
	}
	/* other keys: auto follows what they do */
	return p->autoc.depth;
}

/* Another policy takes over: the next start of auto starts afresh. */
static void lunq_pol_auto_stop(struct lunq_pol *p)
{
	p->autoc.cfg.mode = LUNQ_AUTO_OFF;
	p->autoc.phase = LUNQ_AP_OFF;
}

static u32 lunq_pol_auto_window(struct lunq_pol *p, const struct lunq_pol_window *w)
{
	struct lunq_auto_sample s = {
		.ns = w->ns,
		.ios = w->ios,
		.svc_sum_ns = w->svc_sum_ns,
		.p99_ns = w->svc_p99_ns,
		.wait_ns = w->wait_ns,
		.qfull = w->qfull,
		.inflight_x1000 = w->inflight_x1000,
		.lwait_mean_ns = w->lunq_wait_mean_ns,
		.lwait_p99_ns = w->lunq_wait_p99_ns,
		.waiting = w->lunq_waiting,
		.oldest_ns = w->lunq_wait_oldest_ns,
		.run_ios = w->run_ios,
		.run_p99_ns = w->run_svc_p99_ns,
	};

	return lunq_auto_window(&p->autoc, &s, w->v.now);
}

static u32 lunq_pol_auto_qfull(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	u32 d = lunq_auto_qfull(&p->autoc, v->now, v->in_transport);

	if (d != v->depth)
		p->rebase = true;	/* a new window after it */
	return d;
}

static bool lunq_pol_auto_settling(const struct lunq_pol *p, u64 now)
{
	return now < p->autoc.settle_until;
}

static bool lunq_pol_auto_win_ready(const struct lunq_pol *p, u64 ns, u64 ios,
				    u64 wait_ns, u64 act_ns, bool *idle)
{
	return lunq_auto_window_ready(&p->autoc, ns, ios, wait_ns, act_ns,
				      idle);
}

static u32 lunq_pol_auto_idle(struct lunq_pol *p, u64 now)
{
	return lunq_auto_idle(&p->autoc, now);
}

static u32 lunq_pol_auto_share(struct lunq_pol *p, u64 now, u32 fair, u64 until,
			bool busy)
{
	u32 was = p->autoc.depth;
	u32 d = lunq_auto_limit(&p->autoc, now, fair, until, busy);

	if (d != was)
		p->rebase = true;	/* a new window after it */
	return d;
}

static u64 lunq_pol_auto_age(const struct lunq_pol *p)
{
	return lunq_auto_age(&p->autoc);
}

static u32 lunq_pol_auto_starved(struct lunq_pol *p, u64 now, u32 reads)
{
	u32 was = p->autoc.depth;
	u32 d = lunq_auto_starved(&p->autoc, now, reads);

	if (d != was)
		p->rebase = true;	/* a new window after it */
	return d;
}

static void lunq_pol_auto_fill(const struct lunq_pol *p, u64 *v, u64 now)
{
	const struct lunq_auto *a = &p->autoc;

	v[LUNQ_ST_AUTO_PHASE] = a->phase;
	v[LUNQ_ST_AUTO_PEAK_IOPS] = lunq_auto_peak_iops(a, now);
	v[LUNQ_ST_AUTO_SVC_MIN_NS] = lunq_auto_svc_min(a, now);
	v[LUNQ_ST_AUTO_KNEE] = lunq_auto_knee(a, now);
	v[LUNQ_ST_AUTO_P99_NS] = a->p99;
	v[LUNQ_ST_AUTO_WINDOWS] = a->windows;
	v[LUNQ_ST_AUTO_MOVES] = a->moves;
	v[LUNQ_ST_AUTO_SVC_NS] = a->svc;
}

void lunq_pol_auto_limits(const u32 *val, u32 *min, u32 *max)
{
	*min = val[LUNQ_AUTO_MIN];
	*max = val[LUNQ_AUTO_MAX];
}

#define LUNQ_POL_AUTO_OPS(n) {				\
	.name = n,					\
	.start = lunq_pol_auto_start,			\
	.window = lunq_pol_auto_window,			\
	.qfull = lunq_pol_auto_qfull,			\
	.stop = lunq_pol_auto_stop,			\
	.settling = lunq_pol_auto_settling,		\
	.win_ready = lunq_pol_auto_win_ready,		\
	.idle = lunq_pol_auto_idle,			\
	.share = lunq_pol_auto_share,			\
	.age = lunq_pol_auto_age,			\
	.starved = lunq_pol_auto_starved,		\
	.fill = lunq_pol_auto_fill,			\
	.limits = lunq_pol_auto_limits,			\
}

/* one set of hooks: the controller reads its mode from the table */
const struct lunq_builtin lunq_pol_knee = LUNQ_POL_AUTO_OPS("knee");
const struct lunq_builtin lunq_pol_target = LUNQ_POL_AUTO_OPS("target");
