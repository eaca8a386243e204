// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_pool.c (suite lunq_pool): auto's fair shares of a
 * pool (acap from refusals, busy shares, the fair share, the window
 * work's tick, the halving of QUEUE FULL's commands in transport), the
 * window's view of the pool, the seats' counts and the registry.  LUNs
 * (lunq_lun.c) drive the pool as the target does.  Run alone with
 *   tests/kunit/run 'lunq_pool*'
 */
#include <kunit/test.h>
#include <linux/err.h>
#include "lunq_lun.h"
#include "lunq_pool.h"

#define MS	1000000ULL	/* ns */

/* Admit @n commands at @now; each must be accepted. */
static void admit_n(struct kunit *test, struct lunq_lun *l, int n, u64 now)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, lunq_lun_admit(l, now),
				      "admit #%d at %llu ns", i, now);
}

/*
 * Fair shares: two auto LUNs and one that is not in a pool of 32, the
 * others' 16 slots held by other initiators.  A refusal records what the
 * auto LUNs hold (acap, the least of the run); each busy auto LUN's fair
 * share is acap x its share / the busy shares; a LUN that is not auto
 * counts in neither; shares 1:2 split 2:1 ... 1:2; an idle LUN leaves.
 */
static void lunq_pool_fair_shares(struct kunit *test)
{
	struct lunq_pool p;
	struct lunq_lun a = { .foreign = 16, .pool = &p, .seat.is_auto = true };
	struct lunq_lun b = { .foreign = 16, .pool = &p, .seat.is_auto = true };
	struct lunq_lun c = { .pool = &p };	/* not auto: held, not shared */
	u32 sa = 0, sb = 0;
	u64 until = 0;
	bool still;

	lunq_pool_init_slots(&p, 32);
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 0, 1, &until, &still), 0U);
	admit_n(test, &c, 4, 0);
	admit_n(test, &a, 10, 0);
	admit_n(test, &b, 2, 0);		/* 16 + 16 foreign */
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 12);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, MS));	/* refused */
	lunq_pool_busy(&p, &sa, 1);
	lunq_pool_busy(&p, &sb, 1);
	/* the auto LUNs hold 12: 6 each (a cut, b raised) */
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 2 * MS, 1, &until, &still), 6U);
	KUNIT_EXPECT_EQ(test, until, MS + LUNQ_AUTO_QHOLD_NS);
	/* a refusal at fewer held in the same run: the least */
	lunq_lun_release(&a);
	lunq_lun_release(&a);
	admit_n(test, &c, 2, 3 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, 3 * MS));
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 4 * MS, 1, &until, &still), 5U);
	/* shares 1:2 */
	lunq_pool_busy(&p, &sb, 2);
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 4 * MS, 1, &until, &still), 3U);
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 4 * MS, 2, &until, &still), 6U);
	/* b goes idle: a may have all of it */
	lunq_pool_busy(&p, &sb, 0);
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 4 * MS, 1, &until, &still), 10U);
	KUNIT_EXPECT_EQ(test, p.busy_shares, 1U);
	KUNIT_EXPECT_FALSE(test, still);	/* acap moved at 3 ms */
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 3 * MS + LUNQ_POOL_STILL_NS,
					     1, &until, &still), 10U);
	KUNIT_EXPECT_TRUE(test, still);
	/* the hold ends without refusals: no fair share */
	KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, 3 * MS + LUNQ_AUTO_QHOLD_NS,
					     1, &until, &still), 0U);
	/* every command given back counts out of auto_inflight */
	while (a.inflight)
		lunq_lun_release(&a);
	while (b.inflight)
		lunq_lun_release(&b);
	while (c.inflight)
		lunq_lun_release(&c);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.inflight), 0);
	/* a LUN that stops being auto gives back what it counted */
	admit_n(test, &a, 3, 10 * MS);
	a.seat.is_auto = false;
	admit_n(test, &a, 2, 10 * MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 3);
	while (a.inflight)
		lunq_lun_release(&a);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 0);
}

/*
 * Runs of refusals: one that starts within a hold of the last one's end
 * counts; from the eighth in a row the hold doubles, up to 1 s only (the
 * others that leave must find their slots taken back within a second);
 * a pause of more than a hold starts over at 0.5 s.
 */
static void lunq_pool_acap_runs(struct kunit *test)
{
	struct lunq_pool p;
	u64 t = 0, until = 0;
	bool still;
	int i;

	lunq_pool_init_slots(&p, 32);
	atomic_set(&p.auto_inflight, 8);
	for (i = 0; i < LUNQ_AUTO_REFUSED + 3; i++) {
		lunq_pool_refused(&p, t);
		KUNIT_EXPECT_EQ(test, lunq_pool_fair(&p, t, 1, &until, &still), 8U);
		t = until + MS;		/* refused again just after the end */
	}
	/* the 8th run holds 1 s, and so do the 9th and 10th */
	KUNIT_EXPECT_EQ(test, p.hold.ns, 2 * LUNQ_AUTO_QHOLD_NS);
	KUNIT_EXPECT_EQ(test, p.hold.ns, LUNQ_AUTO_QHOLD_MAX_NS);
	for (i = 0; i < 10; i++) {
		lunq_pool_refused(&p, t);
		t = p.acap_until + MS;
	}
	KUNIT_EXPECT_EQ(test, p.hold.ns, LUNQ_AUTO_QHOLD_MAX_NS);
	/* a pause longer than a hold: the first hold again */
	lunq_pool_refused(&p, p.acap_until + p.hold.ns + MS);
	KUNIT_EXPECT_EQ(test, p.hold.ns, LUNQ_AUTO_QHOLD_NS);
	KUNIT_EXPECT_EQ(test, p.hold.n, 0U);
}

/*
 * The cue to cut at once (lunq_pool_news()): every new or lower acap
 * moves the pool's acap_gen and each seat sees it once; a refusal while
 * no auto device holds a command, or at as many held in the same run,
 * says nothing new.  The siblings of a LUN that is refused learn its
 * fair share before their next command, not at their next tick.
 */
static void lunq_pool_news_cues(struct kunit *test)
{
	struct lunq_pool p;
	struct lunq_lun a = { .foreign = 16, .pool = &p, .seat.is_auto = true };
	struct lunq_lun b = { .foreign = 16, .pool = &p, .seat.is_auto = true };

	lunq_pool_init_slots(&p, 32);
	KUNIT_EXPECT_FALSE(test, lunq_pool_news(&p, &a.seat));
	/* refused while no auto device holds any: nothing learnt */
	b.seat.is_auto = false;
	admit_n(test, &b, 16, 0);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, MS));
	KUNIT_EXPECT_FALSE(test, lunq_pool_news(&p, &a.seat));
	KUNIT_EXPECT_FALSE(test, lunq_pool_news(&p, &b.seat));
	while (b.inflight)
		lunq_lun_release(&b);
	b.seat.is_auto = true;
	/* a new run: both seats see it, once */
	admit_n(test, &a, 10, 2 * MS);
	admit_n(test, &b, 6, 2 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, 3 * MS));
	KUNIT_EXPECT_TRUE(test, lunq_pool_news(&p, &a.seat));
	KUNIT_EXPECT_TRUE(test, lunq_pool_news(&p, &b.seat));
	KUNIT_EXPECT_FALSE(test, lunq_pool_news(&p, &b.seat));
	/* refused again at as many held: the same acap, no news */
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, 4 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_pool_news(&p, &a.seat));
	/* at fewer held (b gave two back, the others hold 18): lower */
	lunq_lun_release(&b);
	lunq_lun_release(&b);
	b.foreign = 18;
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, 5 * MS));
	KUNIT_EXPECT_EQ(test, p.acap, 14U);
	KUNIT_EXPECT_TRUE(test, lunq_pool_news(&p, &a.seat));
	KUNIT_EXPECT_TRUE(test, lunq_pool_news(&p, &b.seat));
	while (a.inflight)
		lunq_lun_release(&a);
	while (b.inflight)
		lunq_lun_release(&b);
}

/*
 * The window work's tick: a device is busy when its wait time moved
 * since the last tick or IOs wait now; busy, it counts its share and gets
 * its fair share while the pool has an acap; not busy, neither.  The
 * first tick makes its seat auto: the commands it has in the pool then
 * count in auto_inflight, as do those it sends after; each leaves the
 * count when it leaves the pool (a count of only the later ones lost one
 * for every earlier one given back: a device with 8 in the pool counted
 * 1, and acap, from it, halved the fair share of every device).  Leaving
 * gives its share back and its commands leave the count.
 */
static void lunq_pool_tick_shares(struct kunit *test)
{
	struct lunq_pool p;
	struct lunq_lun a = { .foreign = 16, .pool = &p };
	struct lunq_lun b = { .foreign = 16, .pool = &p };
	u64 until = 0;
	bool still = true;
	int i;

	lunq_pool_init_slots(&p, 32);
	/* not auto yet: its commands are not auto's */
	admit_n(test, &a, 2, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 0);
	/* idle (no wait time, nothing waiting): not busy, no share */
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &a.seat, a.inflight, 0, 1, 0,
					     false, &until, &still), 0U);
	KUNIT_EXPECT_TRUE(test, a.seat.is_auto);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 2);
	KUNIT_EXPECT_EQ(test, p.busy_shares, 0U);
	KUNIT_EXPECT_FALSE(test, still);
	admit_n(test, &a, 6, 0);
	/* the two of before given back, two sent: still all 8 counted */
	for (i = 0; i < 2; i++) {
		lunq_lun_release(&a);
		admit_n(test, &a, 1, 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 8);
	admit_n(test, &b, 6, 0);	/* b not auto yet */
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 8);
	/* b becomes auto: both busy (wait time moved / IOs waiting) */
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &b.seat, b.inflight, MS, 2,
					     5 * MS, false, &until, &still), 0U);
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &a.seat, a.inflight, MS, 1, 0,
					     true, &until, &still), 0U);
	KUNIT_EXPECT_EQ(test, p.busy_shares, 3U);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 14);
	/* full (16 + 16 foreign): refused, the auto devices hold all 16 */
	admit_n(test, &b, 2, 2 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, 2 * MS));
	KUNIT_EXPECT_EQ(test, p.acap, 16U);
	/* shares 1:2 of 16; b's wait time stays: no longer busy */
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &a.seat, a.inflight, 3 * MS,
					     1, 0, true, &until, &still), 5U);
	KUNIT_EXPECT_EQ(test, until, 2 * MS + LUNQ_AUTO_QHOLD_NS);
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &b.seat, b.inflight, 3 * MS,
					     2, 5 * MS, false, &until, &still),
			0U);
	KUNIT_EXPECT_EQ(test, p.busy_shares, 1U);
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &a.seat, a.inflight, 4 * MS,
					     1, 0, true, &until, &still), 16U);
	/* acap settled after 50 ms without moving */
	KUNIT_EXPECT_FALSE(test, still);
	KUNIT_EXPECT_EQ(test, lunq_pool_tick(&p, &a.seat, a.inflight,
					     2 * MS + LUNQ_POOL_STILL_NS, 1,
					     0, true, &until, &still), 16U);
	KUNIT_EXPECT_TRUE(test, still);
	/* a leaves: its share goes, its commands leave the count */
	lunq_pool_leave(&p, &a.seat);
	KUNIT_EXPECT_FALSE(test, a.seat.is_auto);
	KUNIT_EXPECT_EQ(test, p.busy_shares, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 8);
	lunq_lun_release(&b);
	lunq_lun_release(&a);
	admit_n(test, &a, 1, 10 * MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 7);
	/* no pool: leaving is nothing */
	lunq_pool_leave(NULL, &a.seat);
	while (a.inflight)
		lunq_lun_release(&a);
	while (b.inflight)
		lunq_lun_release(&b);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.auto_inflight), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.inflight), 0);
}

/*
 * QUEUE FULL's commands in transport: halved for an auto device while
 * other busy auto devices share the pool; all of them when it is alone
 * busy, not auto, or has no pool.
 */
static void lunq_pool_transport_halved(struct kunit *test)
{
	struct lunq_pool p;
	struct lunq_pool_seat a = { 0 }, b = { 0 }, c = { 0 };
	u64 until;
	bool still;

	lunq_pool_init_slots(&p, 32);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(NULL, &a, 9), 9U);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &a, 9), 9U);
	lunq_pool_tick(&p, &a, 0, 0, 1, 0, true, &until, &still);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &a, 9), 9U);
	lunq_pool_tick(&p, &b, 0, 0, 3, 0, true, &until, &still);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &a, 9), 4U);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &b, 9), 4U);
	/* c is not auto: all of its own */
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &c, 9), 9U);
	/* b idle: a is alone busy again */
	lunq_pool_tick(&p, &b, 0, MS, 3, 0, false, &until, &still);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &a, 9), 9U);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &b, 9), 4U);
	lunq_pool_leave(&p, &b);
	KUNIT_EXPECT_EQ(test, lunq_pool_transport(&p, &b, 9), 9U);
}

/*
 * The window's view of the pool (every policy with a window): the busy
 * devices and this one's part of the depth by shares; a device that is
 * not busy is counted out but told its part as if it were.
 */
static void lunq_pool_view_parts(struct kunit *test)
{
	struct lunq_pool p = { 0 };
	u32 ma = 0, mb = 0, busy, part;

	lunq_pool_init_slots(&p, 32);
	lunq_pool_view(&p, &ma, 1, &busy, &part);
	KUNIT_EXPECT_EQ(test, busy, 1U);
	KUNIT_EXPECT_EQ(test, part, 32U);
	lunq_pool_view(&p, &mb, 2, &busy, &part);
	KUNIT_EXPECT_EQ(test, busy, 2U);
	KUNIT_EXPECT_EQ(test, part, 21U);	/* 32 x 2 / 3 */
	lunq_pool_view(&p, &ma, 1, &busy, &part);
	KUNIT_EXPECT_EQ(test, part, 10U);	/* 32 x 1 / 3 */
	lunq_pool_view(&p, &mb, 0, &busy, &part);
	KUNIT_EXPECT_EQ(test, busy, 1U);
	KUNIT_EXPECT_EQ(test, part, 16U);	/* as if busy at 1: 32 / 2 */
	KUNIT_EXPECT_EQ(test, mb, 0U);
	/* auto's busy shares are apart */
	KUNIT_EXPECT_EQ(test, p.busy_shares, 0U);
	lunq_pool_view(&p, &ma, 0, &busy, &part);
	KUNIT_EXPECT_EQ(test, p.view_busy, 0U);
	KUNIT_EXPECT_EQ(test, p.view_shares, 0U);
}

/*
 * The registry: the first table names the depth, later ones may repeat
 * it or leave it out; another depth, or no depth for a new pool, is an
 * error; the last reference frees it.
 */
static void lunq_pool_registry(struct kunit *test)
{
	const char *err = NULL;
	struct lunq_pool *p, *q;

	p = lunq_pool_get("kunit-pool", 0, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR(p), (long)-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, err);
	p = lunq_pool_get("kunit-pool", 16, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p));
	KUNIT_EXPECT_EQ(test, p->depth, 16U);
	KUNIT_EXPECT_STREQ(test, lunq_pool_name(p), "kunit-pool");
	KUNIT_EXPECT_EQ(test, p->hold.ns, LUNQ_AUTO_QHOLD_NS);
	q = lunq_pool_get("kunit-pool", 0, &err);
	KUNIT_EXPECT_PTR_EQ(test, q, p);
	err = NULL;
	q = lunq_pool_get("kunit-pool", 8, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR(q), (long)-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, err);
	lunq_pool_put(p);
	lunq_pool_put(p);
}

static struct kunit_case lunq_pool_cases[] = {
	KUNIT_CASE(lunq_pool_fair_shares),
	KUNIT_CASE(lunq_pool_acap_runs),
	KUNIT_CASE(lunq_pool_news_cues),
	KUNIT_CASE(lunq_pool_tick_shares),
	KUNIT_CASE(lunq_pool_transport_halved),
	KUNIT_CASE(lunq_pool_view_parts),
	KUNIT_CASE(lunq_pool_registry),
	{}
};

static struct kunit_suite lunq_pool_suite = {
	.name = "lunq_pool",
	.test_cases = lunq_pool_cases,
};

kunit_test_suites(&lunq_pool_suite);

MODULE_LICENSE("GPL");
