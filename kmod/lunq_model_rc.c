// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: the read cache ("rcache_mb"), in front of
 * any model but none, as an array controller's.  It models time only:
 * every read still goes to the lower device, and completes no earlier
 * than it did.
 *
 * The cache holds segments of LUNQ_RC_SEG sectors (64 KiB, what a
 * controller stages around a miss): a read whose every segment is cached
 * is a hit and completes LUNQ_RC_NS (+ xfer at mbps) after it reached the
 * LUN, never touching the media; a miss goes to the media as before and
 * its segments enter the cache, so reads near a recent one (LBA locality)
 * hit.  Writes do not fill it (their data is the write cache's).  The
 * table is LUNQ_RC_ENTRIES segments, 8-way set associative (a segment
 * lives in set seg % sets, sets = rcache_mb x 2), least recently used out
 * of its set: bounded work per read, nothing allocated.  Pure arithmetic
 * under the device lock.  KUnit: lunq_model_rc_test.c.
 */
#include <linux/math64.h>
#include <linux/minmax.h>

#include "lunq_model_base.h"

/* Sets in use: rcache_mb MiB of segments, LUNQ_RC_WAYS to a set. */
static u32 rc_sets(const struct lunq_model *m)
{
	u32 mb = min_t(u32, m->cfg.rcache_mb, LUNQ_RC_MAX_MB);

	return mb * 2048 / LUNQ_RC_SEG / LUNQ_RC_WAYS;
}

/*
 * Segment @seg: when cached, its entry's use is stamped and true; else
 * (@fill) it replaces the least recently used of its set.
 */
static bool rc_touch(struct lunq_model *m, u64 seg, bool fill)
{
	struct lunq_model_rc_state *rc = &m->rc;
	u64 set = seg;
	struct lunq_model_rc_entry *e, *lru;
	u32 i;

	e = &rc->e[do_div(set, rc_sets(m)) * LUNQ_RC_WAYS];
	lru = e;
	for (i = 0; i < LUNQ_RC_WAYS; i++) {
		if (e[i].seg == seg + 1) {
			e[i].used = rc->clock;
			return true;
		}
		if (e[i].used < lru->used)
			lru = &e[i];
	}
	if (fill) {
		lru->seg = seg + 1;
		lru->used = rc->clock;
	}
	return false;
}

bool lunq_rc_read(struct lunq_model *m, u64 sector, u32 sectors)
{
	struct lunq_model_rc_state *rc = &m->rc;
	u64 seg, first = div_u64(sector, LUNQ_RC_SEG);
	u64 last = div_u64(sector + sectors - 1, LUNQ_RC_SEG);
	bool hit = true;

	if (!rc_sets(m) || !rc->e)
		return false;
	rc->clock++;
	for (seg = first; seg <= last && hit; seg++)
		hit = rc_touch(m, seg, false);
	if (hit) {
		rc->hits++;
		return true;
	}
	/* a miss: the media reads it, its segments are cached */
	for (seg = first; seg <= last; seg++)
		rc_touch(m, seg, true);
	rc->misses++;
	return false;
}
