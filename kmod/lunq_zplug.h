/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's zone write plug: the writes of each sequential zone of a
 * zoned lower device go on in write-pointer order, whatever order they
 * arrive in.  Pure logic (no bios, no dm): the target keeps one struct
 * lunq_zone per zone of its range, allocated at table load, and calls
 * these under its lock.  KUnit: lunq_zplug_test.c.
 *
 * Sectors here count from the start of the target's range, which
 * device-mapper puts on a zone boundary; zones are 1 << shift sectors.
 *
 * Each zone's write pointer is the one lunq tracks: where the writes it
 * has let go in order end (the lower device's, read at every resume,
 * moved by every write, zone append, reset and finish lunq lets go; a
 * write lunq sends below in the order it lets them go).
 *  - a write at the write pointer goes, and moves it;
 *  - a write beyond it is plugged: it waits, off every queue, until the
 *    writes before it have arrived (each that goes releases the plugged
 *    write at the new pointer, lunq_zplug_release()), or for at most
 *    @wait_ns, after which it goes as it is (lunq_zplug_expired()): a
 *    write that can never become sequential is the application's error,
 *    which the lower device then gives it;
 *  - a write beyond it when its zone already holds zone_max writes, or
 *    the device dev_max, is refused (LUNQ_ZP_REFUSE): the caller fails
 *    it, as the block layer fails a write that is not at the pointer;
 *  - a write behind it goes at once, as it is: it can never become
 *    sequential, the lower device refuses it;
 *  - in a zone whose pointer is not known (LUNQ_ZWP_UNKNOWN: the report
 *    failed, or the device disagreed with lunq, lunq_zplug_lost()) the
 *    next write goes and sets it; conventional zones are not tracked.
 * A reset or finish of a zone (a reset of all zones) takes the zone's
 * (every zone's) plugged writes off the plug for the caller to fail:
 * they were meant for the zone as it was, not for the zone it becomes.
 *
 * Cost under the caller's lock: a plugged write is found in the tree of
 * plugged writes keyed by sector, O(log n) (@looked counts the nodes
 * visited); one write at the pointer releases at most zone_max writes
 * behind it, an expiry or a reset at most dev_max.
 */
#ifndef LUNQ_ZPLUG_H
#define LUNQ_ZPLUG_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include "lunq_sched.h"

#define LUNQ_ZWP_UNKNOWN	U32_MAX		/* the next write sets it */
#define LUNQ_ZWP_NONE		(U32_MAX - 1)	/* not tracked (conventional) */

/*
 * The most writes held at once in one zone, and in one device.  One write
 * at a zone's pointer releases every held write of the zone it makes
 * sequential, in one call chain of map() under the device lock with
 * interrupts off: 1024 is deeper than any submitter keeps one zone (a
 * device's queue, dm's replay after a resume) and bounds that chain to
 * 1024 releases of O(log n) each.  The device's bound is what an expiry
 * or a reset of all zones takes in one hold of the lock.
 */
#define LUNQ_ZPLUG_ZONE_MAX	1024
#define LUNQ_ZPLUG_DEV_MAX	8192

/* One zone: 8 bytes. */
struct lunq_zone {
	u32 wp;			/* sectors from the zone's start, or above */
	u32 plugged;		/* plugged writes in this zone */
};

struct lunq_zplug {
	struct lunq_zone *zones;	/* NULL: not zoned, no plug */
	u32 nr;				/* zones of the range */
	u32 shift;			/* zone size: 1 << shift sectors */
	u64 wait_ns;			/* the bound on a plugged write's wait */
	struct list_head plugged;	/* lunq_waiter.arrival, oldest first */
	struct rb_root tree;		/* lunq_waiter.node, by (lba, arrival) */
	u32 nr_plugged;
	u32 zone_max;			/* LUNQ_ZPLUG_ZONE_MAX */
	u32 dev_max;			/* LUNQ_ZPLUG_DEV_MAX */
	u64 looked;			/* tree nodes visited by lookups */
};

/* What becomes of a write (lunq_zplug_write()). */
enum lunq_zp {
	LUNQ_ZP_GO,	/* at the write pointer: goes, the pointer moved */
	LUNQ_ZP_PASS,	/* not tracked, or behind the pointer: goes as is */
	LUNQ_ZP_PLUG,	/* beyond the pointer: plugged, holds @w */
	LUNQ_ZP_REFUSE,	/* beyond it, the zone or device holds its most */
};

/*
 * @zones (@nr of them) all LUNQ_ZWP_UNKNOWN, nothing plugged, the bounds
 * LUNQ_ZPLUG_ZONE_MAX and LUNQ_ZPLUG_DEV_MAX.
 */
void lunq_zplug_init(struct lunq_zplug *zp, struct lunq_zone *zones, u32 nr,
		     u32 shift, u64 wait_ns);
/* The lower device says: zone @z's pointer is @wp (or LUNQ_ZWP_*). */
void lunq_zplug_set(struct lunq_zplug *zp, u32 z, u32 wp);
/*
 * A write of @sectors at @sector arrives at @now; @w is its waiter (off
 * every queue), held on the plug's list and tree when LUNQ_ZP_PLUG.
 */
enum lunq_zp lunq_zplug_write(struct lunq_zplug *zp, struct lunq_waiter *w,
			      u64 sector, u32 sectors, u64 now);
/*
 * After a write, append, reset or finish of @sector's zone went: the
 * plugged write now at that zone's pointer, taken off the plug (the
 * pointer moved past it), or NULL.  Call until NULL; each goes after the
 * one before.  (@w->lba is then its sector here, @w->zsectors its length.)
 */
struct lunq_waiter *lunq_zplug_release(struct lunq_zplug *zp, u64 sector);
/* True when @sector's zone has plugged writes. */
bool lunq_zplug_waiting(const struct lunq_zplug *zp, u64 sector);
/* The plugged writes of @sector's zone (0 out of the range). */
u32 lunq_zplug_held(const struct lunq_zplug *zp, u64 sector);
/* A zone append of @sectors into @sector's zone goes: it lands there. */
void lunq_zplug_append(struct lunq_zplug *zp, u64 sector, u32 sectors);
/*
 * A reset (pointer to the start) or finish (to the end) of @sector's zone
 * goes, or a reset of every zone: the zone's (every zone's) plugged writes
 * are taken off the plug and added to @failed (lunq_waiter.arrival, in
 * sector order; every zone's: oldest first), for the caller to fail.
 * Returns how many.
 */
u32 lunq_zplug_reset(struct lunq_zplug *zp, u64 sector,
		     struct list_head *failed);
u32 lunq_zplug_finish(struct lunq_zplug *zp, u64 sector,
		      struct list_head *failed);
u32 lunq_zplug_reset_all(struct lunq_zplug *zp, struct list_head *failed);
/*
 * The lower device disagreed (a tracked write failed, or one sent as it
 * was succeeded): @sector's zone's pointer is no longer known.
 */
void lunq_zplug_lost(struct lunq_zplug *zp, u64 sector);
/* The oldest plugged write if it has waited @wait_ns by @now, taken off. */
struct lunq_waiter *lunq_zplug_expired(struct lunq_zplug *zp, u64 now);
/* When the oldest plugged write's wait ends (ns); 0: none plugged. */
u64 lunq_zplug_deadline(const struct lunq_zplug *zp);

#endif /* LUNQ_ZPLUG_H */
