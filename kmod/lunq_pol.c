// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq throttle policies: selection and the clamped, traced dispatch
 * (see lunq_pol.h).  Pure logic; KUnit: lunq_pol_test.c.
 */
#include "lunq_args.h"
#include "lunq_pol.h"
#include "lunq_trace.h"

const struct lunq_builtin *lunq_pol_select(const u32 *val)
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

/* A policy takes over: the count of its answers out of the limits starts */
static void lunq_pol_zero_answers(struct lunq_pol *p)
{
	p->ans_zero = 0;
	p->ans_below = 0;
	p->ans_above = 0;
}

void lunq_pol_use(struct lunq_pol *p, const struct lunq_builtin *bi,
		  const u32 *val)
{
	if (p->ext || (p->bi && p->bi != bi)) {
		lunq_pol_stop(p);
		lunq_pol_zero_answers(p);
	}
	p->bi = bi;
	p->ext = NULL;
	p->val = val;
	p->qfull_pending = 0;
	bi->limits(val, &p->min, &p->max);
}

void lunq_pol_use_ext(struct lunq_pol *p, const struct lunq_policy_ops *ops,
		      const u32 *val)
{
	if (p->bi || (p->ext && p->ext != ops)) {
		lunq_pol_stop(p);
		lunq_pol_zero_answers(p);
	}
	p->bi = NULL;
	p->ext = ops;
	p->val = val;
	p->qfull_pending = 0;
	/* one from outside moves the depth where auto may */
	lunq_pol_auto_limits(val, &p->min, &p->max);
}

void lunq_pol_stop(struct lunq_pol *p)
{
	if (p->ext && p->ext->stop)
		p->ext->stop(&p->dev);
	else if (p->bi && p->bi->stop)
		p->bi->stop(p);
}

const char *lunq_pol_name(const struct lunq_pol *p)
{
	if (p->ext)
		return p->ext->name;
	return p->bi ? p->bi->name : "-";
}

/*
 * Every answer: clamped to the limits, counted when they changed one the
 * policy gave (@own; an answer of 0 apart: a policy whose arithmetic went
 * wrong), and traced with what it saw.
 */
static u32 lunq_pol_answer_as(struct lunq_pol *p, enum lunq_pol_hook hook,
			      u32 depth, u32 d, const struct lunq_pol_window *w,
			      bool own)
{
	u32 c = lunq_pol_clamp(d, p->min, p->max);

	if (unlikely(c != d) && own) {
		if (c > d)
			(*(d ? &p->ans_below : &p->ans_zero))++;
		else
			p->ans_above++;
	}
	if (p->evq)
		trace_lunq_pol_answer(p->evq, lunq_pol_name(p), hook, depth,
				      d, c, w);
	return c;
}

static u32 lunq_pol_answer(struct lunq_pol *p, enum lunq_pol_hook hook,
			   u32 depth, u32 d, const struct lunq_pol_window *w)
{
	return lunq_pol_answer_as(p, hook, depth, d, w, true);
}

u32 lunq_pol_start(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	u32 d = v->depth;
	bool own = true;

	if (p->ext && p->ext->start)
		d = p->ext->start(&p->dev, v);
	else if (p->bi)
		d = p->bi->start(p, v);
	else
		own = false;
	return lunq_pol_answer_as(p, LUNQ_PH_START, v->depth, d, NULL, own);
}

u32 lunq_pol_restart(struct lunq_pol *p, const u32 *val, u32 depth,
		     u32 in_transport, u64 now)
{
	struct lunq_pol_view v = { .now = now, .depth = depth,
				   .in_transport = in_transport };

	if (p->ext) {
		/* attached from outside: it stays, within the new limits */
		lunq_pol_use_ext(p, p->ext, val);
		return lunq_pol_clamp(depth, p->min, p->max);
	}
	lunq_pol_use(p, lunq_pol_select(val), val);
	v.min = p->min;
	v.max = p->max;
	return lunq_pol_start(p, &v);
}

u32 lunq_pol_window(struct lunq_pol *p, const struct lunq_pol_window *w)
{
	u32 d;

	if (p->ext && p->ext->window)
		d = p->ext->window(&p->dev, w);
	else if (p->bi && p->bi->window)
		d = p->bi->window(p, w);
	else
		return w->v.depth;
	return lunq_pol_answer(p, LUNQ_PH_WINDOW, w->v.depth, d, w);
}

u32 lunq_pol_qfull(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	u32 d = v->depth;
	bool own = true;

	if (p->ext && p->ext->qfull)
		d = p->ext->qfull(&p->dev, v);
	else if (p->bi && p->bi->qfull)
		d = p->bi->qfull(p, v);
	else
		own = false;
	return lunq_pol_answer_as(p, LUNQ_PH_QFULL, v->depth, d, NULL, own);
}

u32 lunq_pol_good(struct lunq_pol *p, u64 now, u32 depth)
{
	if (!p->bi || !p->bi->good)
		return depth;
	return lunq_pol_answer(p, LUNQ_PH_GOOD, depth, p->bi->good(p, now),
			       NULL);
}

u32 lunq_pol_tick(struct lunq_pol *p, u64 now, u32 depth)
{
	if (!p->bi || !p->bi->tick)
		return depth;
	return lunq_pol_answer(p, LUNQ_PH_TICK, depth, p->bi->tick(p, now),
			       NULL);
}

u32 lunq_pol_idle(struct lunq_pol *p, u64 now, u32 depth)
{
	if (!p->bi || !p->bi->idle)
		return depth;
	return lunq_pol_answer(p, LUNQ_PH_IDLE, depth, p->bi->idle(p, now),
			       NULL);
}

u32 lunq_pol_starved(struct lunq_pol *p, u64 now, u32 reads, u32 depth)
{
	if (!p->bi || !p->bi->starved)
		return depth;
	return lunq_pol_answer(p, LUNQ_PH_STARVED, depth,
			       p->bi->starved(p, now, reads), NULL);
}

bool lunq_pol_shares(const struct lunq_pol *p)
{
	return p->bi && p->bi->share;
}

u32 lunq_pol_share(struct lunq_pol *p, u64 now, u32 fair, u64 until,
		   bool busy, u32 depth)
{
	if (!lunq_pol_shares(p))
		return depth;
	return lunq_pol_answer(p, LUNQ_PH_SHARE, depth,
			       p->bi->share(p, now, fair, until, busy), NULL);
}

bool lunq_pol_windows(const struct lunq_pol *p)
{
	return p->ext || (p->bi && p->bi->window);
}

bool lunq_pol_win_ready(const struct lunq_pol *p, u64 ns, u64 ios,
			u64 wait_ns, u64 act_ns, u64 dflt_ns, bool *idle)
{
	if (p->bi && p->bi->win_ready)
		return p->bi->win_ready(p, ns, ios, wait_ns, act_ns, idle);
	*idle = false;
	return ns >= dflt_ns;
}

void lunq_pol_fill(const struct lunq_pol *p, u64 *v, u64 now)
{
	v[LUNQ_ST_POL_ZERO] = p->ans_zero;
	v[LUNQ_ST_POL_BELOW] = p->ans_below;
	v[LUNQ_ST_POL_ABOVE] = p->ans_above;
	if (p->bi && p->bi->fill)
		p->bi->fill(p, v, now);
}
