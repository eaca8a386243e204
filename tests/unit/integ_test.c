// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of kmod/lunq_integ.c (the iostat -x time integrals),
 * compiled from the module's own source.  One "ok N name" line per check.
 */
#include <stdio.h>
#include "../../kmod/lunq_integ.h"

#define TAP_PREFIX "integ-"
#include "tap.h"

int main(void)
{
	struct lunq_integ g;

	lunq_integ_init(&g, 1000);
	lunq_integ_update(&g, 1000, 0, 1);	/* one sent at t=1000 */
	lunq_integ_update(&g, 1500, 2, 1);	/* two wait from 1500 */
	lunq_integ_update(&g, 2000, 1, 2);	/* one of them sent */
	lunq_integ_update(&g, 3000, 0, 0);	/* all done by 3000 */
	/* active: 1 x 1000 (1000..2000) + 2 x 1000; waiting: 2 x 500 + 1 x 1000 */
	ok(g.rlentime == 3000 && g.wlentime == 2000, "lentimes");
	ok(g.rtime == 2000 && g.wtime == 1500, "busy-times");
	lunq_integ_update(&g, 5000, 0, 0);	/* idle time adds nothing */
	ok(g.rlentime == 3000 && g.rtime == 2000 && g.last == 5000,
	   "idle-adds-nothing");
	lunq_integ_update(&g, 5000, 3, 4);
	lunq_integ_update(&g, 4000, 3, 4);	/* clock read before last */
	ok(g.wlentime == 2000 && g.last == 5000, "past-time-ignored");
	lunq_integ_reset(&g, 6000);		/* 1000 ns at 3 wait, 4 act */
	ok(!g.wlentime && !g.rlentime && !g.wtime && !g.rtime &&
	   g.nwait == 3 && g.nact == 4 && g.last == 6000, "reset");
	lunq_integ_update(&g, 6500, 3, 4);
	ok(g.wlentime == 1500 && g.rlentime == 2000 && g.wtime == 500,
	   "after-reset");
	return tap_exit();
}
