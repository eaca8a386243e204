/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq time integrals for iostat -x (Solaris kstat_io semantics).
 * Pure logic (lunq_pure.h): the target advances them under its lock before
 * every change of the number of IOs waiting (wait queue and retry list) or
 * active (sent to the LUN, not completed), so between two snapshots
 *   wait   = d(wlentime) / dt     actv   = d(rlentime) / dt
 *   %w     = d(wtime) / dt        %b     = d(rtime) / dt
 *   wsvc_t = d(wlentime) / d(completed)   asvc_t = d(rlentime) / d(completed)
 * come out exactly (dt = d(snaptime)).  The lock-free path's IOs are
 * integrated apart, without the lock (lunq_busy.h); the target adds both.
 */
#ifndef LUNQ_INTEG_H
#define LUNQ_INTEG_H

#include "lunq_pure.h"

struct lunq_integ {
	u64 last;		/* ns: integrated up to here */
	u32 nwait, nact;	/* counts since @last */
	u64 wlentime;		/* integral of nwait dt, ns */
	u64 rlentime;		/* integral of nact dt, ns */
	u64 wtime;		/* time with nwait > 0, ns */
	u64 rtime;		/* time with nact > 0, ns */
};

/* Start at @now with nothing waiting or active. */
void lunq_integ_init(struct lunq_integ *g, u64 now);

/*
 * Integrate up to @now with the counts in force so far, then take @nwait
 * and @nact as the counts from @now on.  A @now before the last update
 * (clock read outside the lock) integrates nothing.
 */
void lunq_integ_update(struct lunq_integ *g, u64 now, u32 nwait, u32 nact);

/* Zero the integrals (stats reset); the counts stay. */
void lunq_integ_reset(struct lunq_integ *g, u64 now);

#endif /* LUNQ_INTEG_H */
