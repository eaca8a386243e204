// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_zplug.c (suite lunq_zplug): the zone write plug's
 * pure logic -- writes at, beyond and behind a zone's write pointer, the
 * release of plugged writes in order (found in a tree: 65,536 in reverse
 * order within a bound on the nodes visited), the bounded wait, the
 * bounds on held writes, zone commands failing a zone's held writes,
 * unknown pointers and conventional zones.  Run alone with
 *   tests/kunit/run 'lunq_zplug*'
 */
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include "lunq_zplug.h"

#define MS	1000000ULL	/* ns */
#define ZS	64		/* zone size (sectors): shift 6 */

static struct lunq_zone zones[4];

static void setup(struct lunq_zplug *zp)
{
	lunq_zplug_init(zp, zones, ARRAY_SIZE(zones), 6, 1000 * MS);
	lunq_zplug_set(zp, 0, 0);
	lunq_zplug_set(zp, 1, 0);
	lunq_zplug_set(zp, 2, 16);
	lunq_zplug_set(zp, 3, LUNQ_ZWP_NONE);
}

/*
 * In order: each write at the pointer goes and moves it; the zones are
 * apart; a conventional zone is not tracked.
 */
static void lunq_zplug_in_order(struct kunit *test)
{
	struct lunq_waiter w[4] = {};
	struct lunq_zplug zp;

	setup(&zp);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 0, 8, 0), LUNQ_ZP_GO);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 8, 8, 0), LUNQ_ZP_GO);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 16U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], ZS * 2 + 16, 8, 0),
			LUNQ_ZP_GO);
	KUNIT_EXPECT_EQ(test, zones[2].wp, 24U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[3], ZS * 3 + 40, 8, 0),
			LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 0U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 0ULL);
	/* past the range: not tracked */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS * 4, 8, 0),
			LUNQ_ZP_PASS);
}

/*
 * dm core's replay after a resume: the writes at 24, 16 and 8 arrive
 * before the one at 0 they follow (and one of zone 1 among them).  They
 * are plugged; the write at 0 releases 8, 16 and 24 in that order, each
 * moving the pointer past it, and nothing of zone 1.
 */
static void lunq_zplug_reordered(struct kunit *test)
{
	struct lunq_waiter w[5] = {}, *r;
	struct lunq_zplug zp;

	setup(&zp);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[3], 24, 8, 1), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[4], ZS + 8, 8, 2),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 16, 8, 3), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 8, 8, 4), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 4U);
	KUNIT_EXPECT_EQ(test, zones[0].plugged, 3U);
	KUNIT_EXPECT_TRUE(test, lunq_zplug_waiting(&zp, 0));
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 1 + 1000 * MS);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 0U);	/* nothing went */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 0, 8, 5), LUNQ_ZP_GO);
	r = lunq_zplug_release(&zp, 0);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[1]);
	r = lunq_zplug_release(&zp, 0);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[2]);
	r = lunq_zplug_release(&zp, 0);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[3]);
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, 0));
	KUNIT_EXPECT_EQ(test, zones[0].wp, 32U);
	KUNIT_EXPECT_FALSE(test, lunq_zplug_waiting(&zp, 0));
	/* zone 1's stays: its pointer is at 0 */
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, ZS));
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 1U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 2 + 1000 * MS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS, 8, 6), LUNQ_ZP_GO);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, ZS), &w[4]);
	KUNIT_EXPECT_EQ(test, zones[1].wp, 16U);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 0U);
	KUNIT_EXPECT_TRUE(test, list_empty(&zp.plugged));
}

/*
 * A write that can never become sequential: behind the pointer it goes
 * at once, as it is; beyond it, it waits the bound (not a nanosecond
 * less), then goes, oldest first, and the pointer stays.
 */
static void lunq_zplug_never(struct kunit *test)
{
	struct lunq_waiter w[3] = {};
	struct lunq_zplug zp;

	setup(&zp);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS * 2 + 8, 8, 0),
			LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, zones[2].wp, 16U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 40, 8, 10 * MS),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 48, 8, 20 * MS),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 1010 * MS);
	KUNIT_EXPECT_NULL(test, lunq_zplug_expired(&zp, 1010 * MS - 1));
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_expired(&zp, 1010 * MS), &w[1]);
	KUNIT_EXPECT_NULL(test, lunq_zplug_expired(&zp, 1010 * MS));
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 1020 * MS);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_expired(&zp, 2000 * MS), &w[2]);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 0U);
	KUNIT_EXPECT_EQ(test, zones[0].plugged, 0U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 0ULL);
}

/*
 * Zone commands and appends move the pointer as they go.  A reset or
 * finish fails the zone's plugged writes (they were meant for the zone
 * as it was): the write plugged at 16 before the reset is handed back,
 * never released into the reset zone, and the application's own writes
 * at 0 and 8 are then sequential.  A pointer lost (the device disagreed)
 * or never read is set by the next write.
 */
static void lunq_zplug_commands(struct kunit *test)
{
	struct lunq_waiter w[3] = {};
	struct lunq_zplug zp;
	LIST_HEAD(failed);

	setup(&zp);
	lunq_zplug_append(&zp, ZS, 8);
	KUNIT_EXPECT_EQ(test, zones[1].wp, 8U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_finish(&zp, ZS, &failed), 0U);
	KUNIT_EXPECT_EQ(test, zones[1].wp, (u32)ZS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS, 8, 0), LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], ZS + 8, 8, 0),
			LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_reset(&zp, ZS, &failed), 0U);
	KUNIT_EXPECT_EQ(test, zones[1].wp, 0U);
	/* conventional: stays so */
	KUNIT_EXPECT_EQ(test, lunq_zplug_reset(&zp, ZS * 3, &failed), 0U);
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);
	lunq_zplug_finish(&zp, ZS * 2, &failed);
	KUNIT_EXPECT_EQ(test, lunq_zplug_reset_all(&zp, &failed), 0U);
	KUNIT_EXPECT_EQ(test, zones[2].wp, 0U);
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);
	KUNIT_EXPECT_TRUE(test, list_empty(&failed));

	/* a write plugged before a reset fails with it */
	lunq_zplug_set(&zp, 0, 8);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 16, 8, 0),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_reset(&zp, 0, &failed), 1U);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 0U);
	KUNIT_EXPECT_EQ(test, zones[0].plugged, 0U);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 0U);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&failed));
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&failed, struct lunq_waiter,
						   arrival), &w[0]);
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 0, 8, 0), LUNQ_ZP_GO);
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, 0));
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 8, 8, 0), LUNQ_ZP_GO);
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, 0));
	KUNIT_EXPECT_EQ(test, zones[0].wp, 16U);

	/* lost: the next write sets it, whatever its place */
	lunq_zplug_lost(&zp, 0);
	KUNIT_EXPECT_EQ(test, zones[0].wp, LUNQ_ZWP_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, 0), NULL);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 40, 8, 0), LUNQ_ZP_GO);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 48U);
	lunq_zplug_lost(&zp, ZS * 3);
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);
	/* append into an unknown zone: still unknown */
	lunq_zplug_lost(&zp, ZS);
	lunq_zplug_append(&zp, ZS, 8);
	KUNIT_EXPECT_EQ(test, zones[1].wp, LUNQ_ZWP_UNKNOWN);
}

/*
 * Reset, finish and reset-all hand back exactly the plugged writes of
 * their zone (of every zone), in sector order (reset-all: oldest first);
 * the other zones' stay plugged and are released as before, and the
 * bound's deadline is the oldest one left.
 */
static void lunq_zplug_fail(struct kunit *test)
{
	struct lunq_waiter w[6] = {}, *r;
	struct lunq_zplug zp;
	LIST_HEAD(failed);
	LIST_HEAD(all);

	setup(&zp);
	/* zone 0: 24, 8 and 40; zone 1: 16 and 8; zone 2 (at 16): 32 */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 24, 8, 1), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], ZS + 16, 8, 2),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 8, 8, 3), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[3], ZS * 2 + 32, 8, 4),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[4], 40, 8, 5), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[5], ZS + 8, 8, 6),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 6U);

	KUNIT_EXPECT_EQ(test, lunq_zplug_reset(&zp, 0, &failed), 3U);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 3U);
	KUNIT_EXPECT_EQ(test, zones[0].plugged, 0U);
	r = list_first_entry(&failed, struct lunq_waiter, arrival);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[2]);
	r = list_next_entry(r, arrival);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[0]);
	r = list_next_entry(r, arrival);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[4]);
	KUNIT_EXPECT_TRUE(test, list_is_last(&r->arrival, &failed));
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 2 + 1000 * MS);

	/* finish zone 2: its one write; the pointer at the zone's end */
	INIT_LIST_HEAD(&failed);
	KUNIT_EXPECT_EQ(test, lunq_zplug_finish(&zp, ZS * 2 + 8, &failed), 1U);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&failed, struct lunq_waiter,
						   arrival), &w[3]);
	KUNIT_EXPECT_EQ(test, zones[2].wp, (u32)ZS);

	/* zone 1's two are untouched: 8 is released by the write at 0 */
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 2U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS, 8, 7), LUNQ_ZP_GO);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, ZS), &w[5]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, ZS), &w[1]);
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, ZS));
	KUNIT_EXPECT_EQ(test, zones[1].wp, 24U);

	/* reset-all: every zone's, oldest first; nothing is left */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], ZS + 40, 8, 8),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 32, 8, 9), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_reset_all(&zp, &all), 2U);
	r = list_first_entry(&all, struct lunq_waiter, arrival);
	KUNIT_EXPECT_PTR_EQ(test, r, &w[1]);
	KUNIT_EXPECT_PTR_EQ(test, list_next_entry(r, arrival), &w[2]);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 0U);
	KUNIT_EXPECT_EQ(test, zones[0].plugged + zones[1].plugged, 0U);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 0U);
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);
	KUNIT_EXPECT_EQ(test, lunq_zplug_deadline(&zp), 0ULL);
	KUNIT_EXPECT_NULL(test, lunq_zplug_expired(&zp, U64_MAX));
	/* the tree is empty too: a new write plugs and is released alone */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[3], 8, 8, 10), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[4], 0, 8, 10), LUNQ_ZP_GO);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, 0), &w[3]);
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, 0));
}

/*
 * The bounds: a zone holds at most zone_max writes, the device dev_max;
 * beyond either a write is refused (and not held); one released makes
 * room again.  Writes at or behind the pointer are never refused.
 */
static void lunq_zplug_cap(struct kunit *test)
{
	struct lunq_waiter w[8] = {};
	struct lunq_zplug zp;

	setup(&zp);
	KUNIT_EXPECT_EQ(test, zp.zone_max, (u32)LUNQ_ZPLUG_ZONE_MAX);
	KUNIT_EXPECT_EQ(test, zp.dev_max, (u32)LUNQ_ZPLUG_DEV_MAX);
	zp.zone_max = 2;
	zp.dev_max = 3;
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 16, 8, 0), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 8, 8, 0), LUNQ_ZP_PLUG);
	/* the zone's bound */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 24, 8, 0),
			LUNQ_ZP_REFUSE);
	KUNIT_EXPECT_EQ(test, zones[0].plugged, 2U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[3], ZS + 8, 8, 0),
			LUNQ_ZP_PLUG);
	/* the device's bound, in a zone with room */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[4], ZS + 16, 8, 0),
			LUNQ_ZP_REFUSE);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 3U);
	KUNIT_EXPECT_EQ(test, lunq_zplug_held(&zp, ZS), 1U);
	/* at the pointer, behind it, untracked: never refused */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[5], ZS * 2 + 8, 8, 0),
			LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[5], ZS * 3 + 8, 8, 0),
			LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[5], ZS * 2 + 16, 8, 0),
			LUNQ_ZP_GO);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[6], 0, 8, 0), LUNQ_ZP_GO);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, 0), &w[1]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, 0), &w[0]);
	KUNIT_EXPECT_NULL(test, lunq_zplug_release(&zp, 0));
	/* room again */
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[2], 32, 8, 0), LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[4], ZS + 16, 8, 0),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 3U);
}

/*
 * 65,536 writes of one 256 MiB zone arrive in reverse order, each plugged
 * (the bounds raised to hold them all); the write at the zone's start
 * releases all of them, in order, each found in the tree without a walk
 * of the others: the nodes visited stay under 2 (log2 n + 1) per release
 * (a red-black tree's height), where the walk of a list is n^2 / 2.
 */
#define REV_N	65536U
static void lunq_zplug_reverse(struct kunit *test)
{
	struct lunq_zone big[1];
	struct lunq_waiter *w, *r;
	struct lunq_zplug zp;
	u64 bound = (u64)REV_N * 2 * (ilog2(REV_N) + 1);
	u32 i, n = 0, order = 0;

	w = kvcalloc(REV_N, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	lunq_zplug_init(&zp, big, 1, 19, 1000 * MS);	/* 2^19 sectors */
	lunq_zplug_set(&zp, 0, 0);
	zp.zone_max = REV_N;
	zp.dev_max = REV_N;
	for (i = REV_N - 1; i > 0; i--)
		if (lunq_zplug_write(&zp, &w[i], (u64)i * 8, 8, i) != LUNQ_ZP_PLUG)
			n++;
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, REV_N - 1);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 0, 8, 0), LUNQ_ZP_GO);
	zp.looked = 0;
	while ((r = lunq_zplug_release(&zp, 0))) {
		n++;
		if (r != &w[n])
			order++;
	}
	KUNIT_EXPECT_EQ(test, n, REV_N - 1);
	KUNIT_EXPECT_EQ(test, order, 0U);
	KUNIT_EXPECT_EQ(test, big[0].wp, REV_N * 8);
	KUNIT_EXPECT_EQ(test, zp.nr_plugged, 0U);
	KUNIT_EXPECT_TRUE(test, list_empty(&zp.plugged));
	KUNIT_EXPECT_LE_MSG(test, zp.looked, bound,
			    "%llu nodes visited to release %u writes",
			    zp.looked, REV_N - 1);
	kunit_info(test, "%u releases: %llu nodes visited (bound %llu)\n",
		   REV_N - 1, zp.looked, bound);
	kvfree(w);
}

/* Freshly loaded: no pointer known, the first write in a zone sets it. */
static void lunq_zplug_fresh(struct kunit *test)
{
	struct lunq_waiter w[2] = {};
	struct lunq_zplug zp;

	lunq_zplug_init(&zp, zones, ARRAY_SIZE(zones), 6, MS);
	KUNIT_EXPECT_EQ(test, zones[2].wp, LUNQ_ZWP_UNKNOWN);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS * 2 + 32, 8, 0),
			LUNQ_ZP_GO);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], ZS * 2 + 48, 8, 0),
			LUNQ_ZP_PLUG);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_expired(&zp, MS), &w[1]);
	/* the set ignores zones out of the range */
	lunq_zplug_set(&zp, 4, 0);
}

static struct kunit_case lunq_zplug_cases[] = {
	KUNIT_CASE(lunq_zplug_in_order),
	KUNIT_CASE(lunq_zplug_reordered),
	KUNIT_CASE(lunq_zplug_never),
	KUNIT_CASE(lunq_zplug_commands),
	KUNIT_CASE(lunq_zplug_fail),
	KUNIT_CASE(lunq_zplug_cap),
	KUNIT_CASE(lunq_zplug_reverse),
	KUNIT_CASE(lunq_zplug_fresh),
	{}
};

static struct kunit_suite lunq_zplug_suite = {
	.name = "lunq_zplug",
	.test_cases = lunq_zplug_cases,
};
kunit_test_suite(lunq_zplug_suite);

MODULE_LICENSE("GPL");
