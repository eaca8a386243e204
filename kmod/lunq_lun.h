/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq emulated LUN: command slots, a pool shared with other LUNs,
 * commands of other initiators, and LUN resets.  Pure logic (no bios);
 * the pool (its registry, slots and auto's fair shares) is lunq_pool.c.
 * KUnit: lunq_lun_test.c.
 *
 * A command sent to the LUN is accepted when
 *   - the LUN has a free slot: lun_depth is 0 (no limit of its own) or
 *     inflight + foreign(now) < lun_depth, and
 *   - its pool, if any, has a free slot: pool inflight + foreign(now) <
 *     pool_depth (the other LUNs' commands count there too);
 * otherwise the LUN answers QUEUE FULL.  foreign(now) is the number of
 * commands other initiators hold: "foreign" all the time, or, with
 * foreign_period_ns, during the first half of every period (counted from
 * when the LUN was created, or its pool: the other initiators come and go
 * at the same time for every LUN of a pool), 0 in the second half.
 *
 * After reset_after consecutive QUEUE FULLs (0 = never) the LUN resets:
 * its generation number moves on, and every command accepted under an
 * older generation is aborted: the host gets it back (when the lower
 * device has returned it: lunq cannot abort IO below) and retries it.
 * An aborted command keeps its slot until then.
 */
#ifndef LUNQ_LUN_H
#define LUNQ_LUN_H

#include <linux/types.h>

#include "lunq_pool.h"

struct lunq_lun {
	u32 depth;			/* lun_depth; 0 = no limit of its own */
	u32 inflight;			/* commands holding a slot */
	u32 foreign;
	u64 foreign_period_ns;		/* 0 = foreign all the time */
	u64 t0;				/* creation: phase of the pattern */
	struct lunq_pool *pool;		/* NULL = none */
	u32 reset_after;		/* 0 = never reset */
	u32 consecutive;		/* QUEUE FULLs since the last accept */
	u32 gen;			/* reset generation */
	struct lunq_pool_seat seat;	/* auto's, in the pool */
};

/* Commands of other initiators at @now. */
u32 lunq_lun_foreign(const struct lunq_lun *l, u64 now);

/* Accept a command at @now (taking its slots), or false: QUEUE FULL. */
bool lunq_lun_admit(struct lunq_lun *l, u64 now);

/* A command accepted by lunq_lun_admit() left the LUN. */
void lunq_lun_release(struct lunq_lun *l);

/*
 * Count a QUEUE FULL answer.  True when it is the reset_after-th in a row:
 * the LUN resets (gen moves on, the run starts over).
 */
bool lunq_lun_qfull(struct lunq_lun *l);

#endif /* LUNQ_LUN_H */
