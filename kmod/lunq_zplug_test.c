// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_zplug.c (suite lunq_zplug): the zone write plug's
 * pure logic -- writes at, beyond and behind a zone's write pointer, the
 * release of plugged writes in order, the bounded wait, zone commands,
 * unknown pointers and conventional zones.  Run alone with
 *   tests/kunit/run 'lunq_zplug*'
 */
#include <kunit/test.h>
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
 * Zone commands and appends move the pointer as they go; a reset makes a
 * plugged write at the zone's start sequential.  A pointer lost (the
 * device disagreed) or never read is set by the next write.
 */
static void lunq_zplug_commands(struct kunit *test)
{
	struct lunq_waiter w[2] = {};
	struct lunq_zplug zp;

	setup(&zp);
	lunq_zplug_append(&zp, ZS, 8);
	KUNIT_EXPECT_EQ(test, zones[1].wp, 8U);
	lunq_zplug_finish(&zp, ZS);
	KUNIT_EXPECT_EQ(test, zones[1].wp, (u32)ZS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], ZS, 8, 0), LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], ZS + 8, 8, 0),
			LUNQ_ZP_PASS);
	lunq_zplug_reset(&zp, ZS);
	KUNIT_EXPECT_EQ(test, zones[1].wp, 0U);
	lunq_zplug_reset(&zp, ZS * 3);	/* conventional: stays so */
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);
	lunq_zplug_finish(&zp, ZS * 2);
	lunq_zplug_reset_all(&zp);
	KUNIT_EXPECT_EQ(test, zones[2].wp, 0U);
	KUNIT_EXPECT_EQ(test, zones[3].wp, LUNQ_ZWP_NONE);

	/* reset and write reordered: the write waits for the reset */
	lunq_zplug_finish(&zp, 0);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[0], 0, 8, 0), LUNQ_ZP_PASS);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 8, 8, 0),
			LUNQ_ZP_PASS);
	lunq_zplug_set(&zp, 0, 8);
	KUNIT_EXPECT_EQ(test, lunq_zplug_write(&zp, &w[1], 16, 8, 0),
			LUNQ_ZP_PLUG);
	lunq_zplug_reset(&zp, 0);
	lunq_zplug_set(&zp, 0, 8);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, 0), NULL);
	lunq_zplug_append(&zp, 0, 8);
	KUNIT_EXPECT_PTR_EQ(test, lunq_zplug_release(&zp, 0), &w[1]);
	KUNIT_EXPECT_EQ(test, zones[0].wp, 24U);

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
	KUNIT_CASE(lunq_zplug_fresh),
	{}
};

static struct kunit_suite lunq_zplug_suite = {
	.name = "lunq_zplug",
	.test_cases = lunq_zplug_cases,
};
kunit_test_suite(lunq_zplug_suite);

MODULE_LICENSE("GPL");
