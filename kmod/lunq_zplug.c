// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq's zone write plug, see lunq_zplug.h.  Pure logic: callers hold
 * the lock that protects the structures.
 */
#include "lunq_zplug.h"

void lunq_zplug_init(struct lunq_zplug *zp, struct lunq_zone *zones, u32 nr,
		     u32 shift, u64 wait_ns)
{
	u32 z;

	zp->zones = zones;
	zp->nr = nr;
	zp->shift = shift;
	zp->wait_ns = wait_ns;
	INIT_LIST_HEAD(&zp->plugged);
	zp->nr_plugged = 0;
	for (z = 0; z < nr; z++) {
		zones[z].wp = LUNQ_ZWP_UNKNOWN;
		zones[z].plugged = 0;
	}
}

void lunq_zplug_set(struct lunq_zplug *zp, u32 z, u32 wp)
{
	if (z < zp->nr)
		zp->zones[z].wp = wp;
}

/* @sector's zone, or NULL when out of the range */
static struct lunq_zone *lunq_zone_of(const struct lunq_zplug *zp, u64 sector)
{
	u64 z = sector >> zp->shift;

	return z < zp->nr ? &zp->zones[z] : NULL;
}

static u32 lunq_zoff(const struct lunq_zplug *zp, u64 sector)
{
	return sector & ((1ULL << zp->shift) - 1);
}

static bool lunq_zwp_known(u32 wp)
{
	return wp != LUNQ_ZWP_UNKNOWN && wp != LUNQ_ZWP_NONE;
}

enum lunq_zp lunq_zplug_write(struct lunq_zplug *zp, struct lunq_waiter *w,
			      u64 sector, u32 sectors, u64 now)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);
	u32 off = lunq_zoff(zp, sector);

	if (!zn || zn->wp == LUNQ_ZWP_NONE)
		return LUNQ_ZP_PASS;
	if (zn->wp == LUNQ_ZWP_UNKNOWN || off == zn->wp) {
		zn->wp = off + sectors;
		return LUNQ_ZP_GO;
	}
	if (off < zn->wp)
		return LUNQ_ZP_PASS;
	w->lba = sector;
	w->zsectors = sectors;
	w->t_queued = now;
	list_add_tail(&w->arrival, &zp->plugged);
	zn->plugged++;
	zp->nr_plugged++;
	return LUNQ_ZP_PLUG;
}

static void lunq_zplug_take(struct lunq_zplug *zp, struct lunq_waiter *w)
{
	list_del_init(&w->arrival);
	lunq_zone_of(zp, w->lba)->plugged--;
	zp->nr_plugged--;
}

struct lunq_waiter *lunq_zplug_release(struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);
	u64 base = sector >> zp->shift << zp->shift;
	struct lunq_waiter *w;

	if (!zn || !zn->plugged || !lunq_zwp_known(zn->wp))
		return NULL;
	list_for_each_entry(w, &zp->plugged, arrival) {
		if (w->lba == base + zn->wp) {
			lunq_zplug_take(zp, w);
			zn->wp += w->zsectors;
			return w;
		}
	}
	return NULL;
}

bool lunq_zplug_waiting(const struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	return zn && zn->plugged;
}

void lunq_zplug_append(struct lunq_zplug *zp, u64 sector, u32 sectors)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && lunq_zwp_known(zn->wp))
		zn->wp += sectors;
}

void lunq_zplug_reset(struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && zn->wp != LUNQ_ZWP_NONE)
		zn->wp = 0;
}

void lunq_zplug_finish(struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && zn->wp != LUNQ_ZWP_NONE)
		zn->wp = 1U << zp->shift;
}

void lunq_zplug_reset_all(struct lunq_zplug *zp)
{
	u32 z;

	for (z = 0; z < zp->nr; z++)
		if (zp->zones[z].wp != LUNQ_ZWP_NONE)
			zp->zones[z].wp = 0;
}

void lunq_zplug_lost(struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && zn->wp != LUNQ_ZWP_NONE)
		zn->wp = LUNQ_ZWP_UNKNOWN;
}

struct lunq_waiter *lunq_zplug_expired(struct lunq_zplug *zp, u64 now)
{
	struct lunq_waiter *w;

	w = list_first_entry_or_null(&zp->plugged, struct lunq_waiter,
				     arrival);
	if (!w || now - w->t_queued < zp->wait_ns)
		return NULL;
	lunq_zplug_take(zp, w);
	return w;
}

u64 lunq_zplug_deadline(const struct lunq_zplug *zp)
{
	const struct lunq_waiter *w;

	if (list_empty(&zp->plugged))
		return 0;
	w = list_first_entry(&zp->plugged, struct lunq_waiter, arrival);
	return w->t_queued + zp->wait_ns;
}
