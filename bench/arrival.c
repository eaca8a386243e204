// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench: open-loop arrival schedules.  The schedule runs in fractional
 * ns relative to its start, so neither rounding to integer ns nor the
 * size of CLOCK_MONOTONIC values adds drift; fixed gaps are computed as
 * n * gap from the start, not summed.
 */
#include <string.h>
#include "lb.h"

void lb_sched_init(struct lb_sched *s, enum lb_arrival kind, double rate,
		   u64 t0, u64 seed)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->gap_ns = rate > 0 ? 1e9 / rate : 0;
	s->t0 = t0;
	s->t = (double)t0;
	s->burst = 1;
	lb_rng_seed(&s->rng, seed);
}

void lb_sched_burst(struct lb_sched *s, u32 burst)
{
	s->burst = burst ? burst : 1;
}

u64 lb_sched_next(struct lb_sched *s)
{
	u64 now = s->t0 + (u64)(s->rel + 0.5);

	if (s->kind == LB_ARR_CLOSED || !(s->gap_ns > 0))
		return s->t0;
	s->n++;
	switch (s->kind) {
	case LB_ARR_POISSON:
		s->rel += lb_rng_exp(&s->rng, s->gap_ns);
		break;
	case LB_ARR_UNIFORM:
		s->rel += 2 * s->gap_ns * lb_rng_unit(&s->rng);
		break;
	case LB_ARR_BURST:
		s->rel = (double)(s->n / s->burst) * s->burst * s->gap_ns;
		break;
	default:
		s->rel = (double)s->n * s->gap_ns;
		break;
	}
	s->t = (double)s->t0 + s->rel;
	return now;
}
