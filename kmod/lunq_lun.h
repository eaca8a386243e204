/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq emulated LUN: command slots, a pool shared with other LUNs,
 * commands of other initiators, and LUN resets.  Pure logic (no bios);
 * the pool registry that names and refcounts pools is in lunq_pool.c.
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
 *
 * Fair shares (auto in a pool, the host's side): the pool also counts the
 * commands of its auto devices (auto_inflight; a LUN counts its own while
 * pool_auto is set and gives each back when it leaves).  When the pool
 * refuses a command, the auto devices' commands then in the pool are an
 * upper bound of what the pool takes from them now (the others' are
 * held): acap, the least of a run of refusals less than a hold apart,
 * which ends a hold (0.5 s) after the last.  While it lasts, each busy
 * auto device's fair share is acap x its share / the busy auto devices'
 * shares (lunq_pool_fair()), at least 1; when it ends they try for more.
 * A run that starts within a hold of the last one's end (they were
 * refused again at once) counts; from the eighth in a row the hold
 * doubles, up to 32 s: other initiators that stay are asked ever more
 * rarely.
 */
#ifndef LUNQ_LUN_H
#define LUNQ_LUN_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>

#define LUNQ_POOL_HOLD_NS	(500 * 1000 * 1000ULL)	/* acap's first hold */
#define LUNQ_POOL_HOLD_MAX_NS	(32 * 1000 * 1000 * 1000ULL)
#define LUNQ_POOL_RUNS		8	/* runs in a row before the hold doubles */
#define LUNQ_POOL_STILL_NS	(50 * 1000 * 1000ULL)	/* acap settled */

/* Command slots shared by several LUNs (one target port). */
struct lunq_pool {
	atomic_t inflight;
	atomic_t auto_inflight;	/* of those, the auto devices' */
	u32 depth;
	u64 t0;			/* creation: its LUNs' foreign_period phase */
	spinlock_t lock;	/* the fields below */
	u32 acap;		/* 0: none */
	u64 acap_until;
	u64 acap_t;		/* when it last changed */
	u64 hold;		/* acap's hold */
	u32 runs;		/* runs of refusals in a row */
	u32 busy_shares;	/* of the auto devices with IOs waiting */
	u32 view_busy;		/* devices with a window work, IOs waiting */
	u32 view_shares;	/* their shares (the share: key) */
};

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
	bool pool_auto;			/* count new commands as auto's */
	u32 auto_held;			/* commands counted in auto_inflight */
};

void lunq_pool_init_slots(struct lunq_pool *p, u32 depth);

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

/*
 * The pool refused a command at @now (lunq_lun_admit() calls it); only
 * while auto devices hold commands there does it say anything.
 */
void lunq_pool_refused(struct lunq_pool *p, u64 now);

/* Whether busy auto devices besides the one of busy share @mine exist. */
bool lunq_pool_shared(const struct lunq_pool *p, u32 mine);

/* Replace this device's busy share *@mine (0: not busy) with @share. */
void lunq_pool_busy(struct lunq_pool *p, u32 *mine, u32 share);

/*
 * What a policy's window sees of the pool (struct lunq_pol_window): this
 * device's busy share *@mine (0: not busy) replaced by @share, then the
 * busy devices and this device's part of the pool's depth by shares
 * (when it is busy; else as if it were).
 */
void lunq_pool_view(struct lunq_pool *p, u32 *mine, u32 share, u32 *busy,
		    u32 *part);

/*
 * The fair share at @now of a busy auto device of weight @share, 0 when
 * the pool has no acap; *@until: when the acap ends (if nothing refuses);
 * *@still: acap has not moved for 50 ms (a run's first refusals come
 * while the commands of before are still draining: a share from them
 * may only cut, not raise).
 */
u32 lunq_pool_fair(struct lunq_pool *p, u64 now, u32 share, u64 *until,
		   bool *still);

#endif /* LUNQ_LUN_H */
