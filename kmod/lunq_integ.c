// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq time integrals for iostat -x, see lunq_integ.h.
 */
#include "lunq_integ.h"

void lunq_integ_init(struct lunq_integ *g, u64 now)
{
	memset(g, 0, sizeof(*g));
	g->last = now;
}

void lunq_integ_update(struct lunq_integ *g, u64 now, u32 nwait, u32 nact)
{
	if (now > g->last) {
		u64 dt = now - g->last;

		g->wlentime += dt * g->nwait;
		g->rlentime += dt * g->nact;
		if (g->nwait)
			g->wtime += dt;
		if (g->nact)
			g->rtime += dt;
		g->last = now;
	}
	g->nwait = nwait;
	g->nact = nact;
}

void lunq_integ_reset(struct lunq_integ *g, u64 now)
{
	lunq_integ_update(g, now, g->nwait, g->nact);
	g->wlentime = 0;
	g->rlentime = 0;
	g->wtime = 0;
	g->rtime = 0;
}
