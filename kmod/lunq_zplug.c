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
	zp->tree = RB_ROOT;
	zp->nr_plugged = 0;
	zp->zone_max = LUNQ_ZPLUG_ZONE_MAX;
	zp->dev_max = LUNQ_ZPLUG_DEV_MAX;
	zp->looked = 0;
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

static struct lunq_waiter *lunq_zplug_node(struct rb_node *n)
{
	return rb_entry(n, struct lunq_waiter, node);
}

/*
 * Into the tree: by sector, and a write after those of its sector that
 * were plugged before it (rotations keep the in-order sequence).
 */
static void lunq_zplug_insert(struct lunq_zplug *zp, struct lunq_waiter *w)
{
	struct rb_node **link = &zp->tree.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (w->lba < lunq_zplug_node(parent)->lba)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&w->node, parent, link);
	rb_insert_color(&w->node, &zp->tree);
}

/* The first plugged write (by sector, then arrival) at or after @sector. */
static struct lunq_waiter *lunq_zplug_first(struct lunq_zplug *zp,
					    u64 sector)
{
	struct rb_node *n = zp->tree.rb_node;
	struct lunq_waiter *w, *found = NULL;

	while (n) {
		zp->looked++;
		w = lunq_zplug_node(n);
		if (w->lba >= sector) {
			found = w;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return found;
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
	if (zn->plugged >= zp->zone_max || zp->nr_plugged >= zp->dev_max)
		return LUNQ_ZP_REFUSE;
	w->lba = sector;
	w->zsectors = sectors;
	w->t_queued = now;
	list_add_tail(&w->arrival, &zp->plugged);
	lunq_zplug_insert(zp, w);
	zn->plugged++;
	zp->nr_plugged++;
	return LUNQ_ZP_PLUG;
}

static void lunq_zplug_take(struct lunq_zplug *zp, struct lunq_waiter *w)
{
	list_del_init(&w->arrival);
	rb_erase(&w->node, &zp->tree);
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
	w = lunq_zplug_first(zp, base + zn->wp);
	if (!w || w->lba != base + zn->wp)
		return NULL;
	lunq_zplug_take(zp, w);
	zn->wp += w->zsectors;
	return w;
}

bool lunq_zplug_waiting(const struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	return zn && zn->plugged;
}

u32 lunq_zplug_held(const struct lunq_zplug *zp, u64 sector)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	return zn ? zn->plugged : 0;
}

void lunq_zplug_append(struct lunq_zplug *zp, u64 sector, u32 sectors)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && lunq_zwp_known(zn->wp))
		zn->wp += sectors;
}

/* @sector's zone's plugged writes, in sector order, onto @failed */
static u32 lunq_zplug_drop(struct lunq_zplug *zp, u64 sector,
			   struct list_head *failed)
{
	u64 base = sector >> zp->shift << zp->shift;
	u64 end = base + (1ULL << zp->shift);
	struct lunq_waiter *w;
	struct rb_node *next;
	u32 n = 0;

	if (!lunq_zplug_held(zp, sector))
		return 0;
	w = lunq_zplug_first(zp, base);
	while (w && w->lba < end) {
		next = rb_next(&w->node);
		lunq_zplug_take(zp, w);
		list_add_tail(&w->arrival, failed);
		n++;
		w = next ? lunq_zplug_node(next) : NULL;
	}
	return n;
}

u32 lunq_zplug_reset(struct lunq_zplug *zp, u64 sector,
		     struct list_head *failed)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && zn->wp != LUNQ_ZWP_NONE)
		zn->wp = 0;
	return lunq_zplug_drop(zp, sector, failed);
}

u32 lunq_zplug_finish(struct lunq_zplug *zp, u64 sector,
		      struct list_head *failed)
{
	struct lunq_zone *zn = lunq_zone_of(zp, sector);

	if (zn && zn->wp != LUNQ_ZWP_NONE)
		zn->wp = 1U << zp->shift;
	return lunq_zplug_drop(zp, sector, failed);
}

u32 lunq_zplug_reset_all(struct lunq_zplug *zp, struct list_head *failed)
{
	u32 n = zp->nr_plugged;
	u32 z;

	for (z = 0; z < zp->nr; z++) {
		if (zp->zones[z].wp != LUNQ_ZWP_NONE)
			zp->zones[z].wp = 0;
		zp->zones[z].plugged = 0;
	}
	list_splice_tail_init(&zp->plugged, failed);
	zp->tree = RB_ROOT;
	zp->nr_plugged = 0;
	return n;
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
