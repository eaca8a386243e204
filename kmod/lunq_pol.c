// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq throttle policies: selection and the clamped dispatch (see
 * lunq_pol.h).  Pure logic; KUnit: lunq_pol_test.c.
 */
#include "lunq_args.h"
#include "lunq_pol.h"

const struct lunq_policy_ops *lunq_pol_select(const u32 *val)
{
	switch (val[LUNQ_AUTO]) {
	case LUNQ_AUTO_KNEE:
		return &lunq_pol_knee;
	case LUNQ_AUTO_TARGET:
		return &lunq_pol_target;
	}
	switch (val[LUNQ_REACTION]) {
	case LUNQ_REACT_LINUX:
		return &lunq_pol_linux;
	case LUNQ_REACT_SD:
		return &lunq_pol_sd;
	case LUNQ_REACT_SD_FC:
		return &lunq_pol_sdfc;
	}
	return &lunq_pol_fixed;
}

void lunq_pol_use(struct lunq_pol *p, const struct lunq_policy_ops *ops,
		  const u32 *val, bool ext)
{
	if (p->ops && p->ops != ops)
		lunq_pol_stop(p);
	p->ops = ops;
	p->val = val;
	p->ext = ext;
	p->qfull_pending = 0;
	/* one from outside moves the depth where auto may: auto_min..max */
	if (ext || !ops->limits)
		lunq_pol_auto_limits(val, &p->min, &p->max);
	else
		ops->limits(val, &p->min, &p->max);
}

void lunq_pol_stop(struct lunq_pol *p)
{
	if (p->ops && p->ops->stop)
		p->ops->stop(p);
}

static u32 lunq_pol_clamped(const struct lunq_pol *p, u32 d)
{
	return lunq_pol_clamp(d, p->min, p->max);
}

u32 lunq_pol_start(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	if (!p->ops->start)
		return lunq_pol_clamped(p, v->depth);
	return lunq_pol_clamped(p, p->ops->start(p, v));
}

u32 lunq_pol_window(struct lunq_pol *p, const struct lunq_pol_window *w)
{
	if (!p->ops->window)
		return w->v.depth;
	return lunq_pol_clamped(p, p->ops->window(p, w));
}

u32 lunq_pol_qfull(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	if (!p->ops->qfull)
		return lunq_pol_clamped(p, v->depth);
	return lunq_pol_clamped(p, p->ops->qfull(p, v));
}

u32 lunq_pol_good(struct lunq_pol *p, u64 now, u32 depth)
{
	return p->ops->good ? lunq_pol_clamped(p, p->ops->good(p, now)) : depth;
}

u32 lunq_pol_tick(struct lunq_pol *p, u64 now, u32 depth)
{
	return p->ops->tick ? lunq_pol_clamped(p, p->ops->tick(p, now)) : depth;
}

bool lunq_pol_shares(const struct lunq_pol *p)
{
	return p->ops && !p->ext && p->ops->share;
}

u32 lunq_pol_share(struct lunq_pol *p, u64 now, u32 fair, u64 until,
		   bool busy, u32 depth)
{
	if (!lunq_pol_shares(p))
		return depth;
	return lunq_pol_clamped(p, p->ops->share(p, now, fair, until, busy));
}

u32 lunq_pol_idle(struct lunq_pol *p, u64 now, u32 depth)
{
	return p->ops->idle ? lunq_pol_clamped(p, p->ops->idle(p, now)) : depth;
}
