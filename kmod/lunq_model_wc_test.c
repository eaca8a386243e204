// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the write cache (lunq_model_wc.c) in front of the
 * fixed, hdd and flash models: writes at cache speed while it has room,
 * destage in the media's idle time, reads behind the destage under way,
 * a full cache, flush and FUA, wce:0, live changes.
 *   tests/kunit/run 'lunq_model_wc*'
 */
#include "lunq_model_test.h"

#define WC	(LUNQ_WC_NS)
#define S64K	128		/* sectors of 64 KiB */

/* An hdd whose every IO takes 5 ms (no seek, no rotation). */
static const struct lunq_model_cfg hdd5 = {
	.kind = LUNQ_MODEL_HDD, .svc_us = 5000, .pblk = 512, .rmw_x = 1,
	.capacity = CAP, .wce = 1, .cache_mb = 1,
};

static u64 wr(struct lunq_model *m, u64 now, u64 sector, u32 sectors)
{
	return lunq_model_io(m, now, sector, sectors, LUNQ_MD_WRITE, NULL);
}

static u64 rd(struct lunq_model *m, u64 now, u64 sector, u32 sectors)
{
	return lunq_model_io(m, now, sector, sectors, LUNQ_MD_READ, NULL);
}

/* Writes complete at cache speed; the flush waits for every destage. */
static void wc_writes_and_flush(struct kunit *test)
{
	struct lunq_model *m = model(test, &hdd5);
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, wr(m, 0, i * 1000, 8), (u64)WC);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 32ULL);
	/* the first destage started at once, the others wait for the head */
	KUNIT_EXPECT_EQ(test, m->wc.booked, 1U);
	/* an empty flush at 1 ms: all four on media, one after the other */
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, MS), 20 * MS);
	/* once they are on media the cache is empty, a flush is free */
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 21 * MS), 21 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 0ULL);
}

/*
 * Destage in the idle time: two writes at 0 are on media by 10 ms; a
 * read at 12 ms finds the head free.  A read at 1 ms while destages wait
 * waits only for the one under way.
 */
static void wc_idle_destage(struct kunit *test)
{
	struct lunq_model *m = model(test, &hdd5);

	wr(m, 0, 0, 8);
	wr(m, 0, 1000, 8);
	KUNIT_EXPECT_EQ(test, rd(m, 12 * MS, 5000, 8), 17 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 0ULL);

	m = model(test, &hdd5);
	wr(m, 0, 0, 8);
	wr(m, 0, 1000, 8);
	wr(m, 0, 2000, 8);
	/* the destage under way ends at 5 ms; the read takes the head */
	KUNIT_EXPECT_EQ(test, rd(m, MS, 5000, 8), 10 * MS);
	/* the other two destage after it */
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 2 * MS), 20 * MS);
}

/*
 * A full cache (1 MiB = 16 writes of 64 KiB): the 17th write waits until
 * the oldest is on media, the 18th for the next; reads queue behind the
 * destages booked for them.
 */
static void wc_full(struct kunit *test)
{
	struct lunq_model *m = model(test, &hdd5);
	int i;

	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, wr(m, 0, i * 1000, S64K), (u64)WC);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 16ULL * S64K);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 20000, S64K), 5 * MS + WC);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 21000, S64K), 10 * MS + WC);
	/* in arrival order: not before the one ahead of it */
	KUNIT_EXPECT_EQ(test, wr(m, 0, 22000, S64K), 15 * MS + WC);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 16ULL * S64K);
	/* a read now: behind the three destages booked (15 ms) */
	KUNIT_EXPECT_EQ(test, rd(m, MS, 30000, 8), 20 * MS);
	/* 16 more destages of 5 ms after it */
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, MS), 100 * MS);
}

/* FUA goes to the media (behind the destage under way), not the cache. */
static void wc_fua(struct kunit *test)
{
	struct lunq_model *m = model(test, &hdd5);

	wr(m, 0, 0, 8);
	wr(m, 0, 1000, 8);
	KUNIT_EXPECT_EQ(test, lunq_model_io(m, MS, 2000, 8, LUNQ_MD_FUA, NULL),
			10 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 16ULL);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, MS), 15 * MS);
}

/*
 * wce:0 is write-through (every write at media speed, flush free); going
 * 1 -> 0 live, what is cached still destages and a flush waits for it.
 * A write larger than the cache is written through.
 */
static void wc_off_and_live(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	struct lunq_model *m;

	c.wce = 0;
	m = model(test, &c);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 0, 8), 5 * MS);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 1000, 8), 10 * MS);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0), 0ULL);

	m = model(test, &hdd5);
	wr(m, 0, 0, 8);
	wr(m, 0, 1000, 8);
	c.wce = 0;
	lunq_model_config(m, &c);
	/* write-through: behind the destage under way (0..5 ms) */
	KUNIT_EXPECT_EQ(test, wr(m, MS, 2000, 8), 10 * MS);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, MS), 15 * MS);

	m = model(test, &hdd5);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 0, 4096), 5 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 0ULL);
}

/*
 * fixed: no media contention, each destage takes svc from its
 * acceptance; flash: destages spread over the free channels.
 */
static void wc_fixed_flash(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	struct lunq_model *m;

	c.kind = LUNQ_MODEL_FIXED;
	m = model(test, &c);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 0, 8), (u64)WC);
	KUNIT_EXPECT_EQ(test, wr(m, MS, 8, 8), MS + WC);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 2 * MS), 6 * MS);

	c.kind = LUNQ_MODEL_FLASH;
	c.channels = 2;
	m = model(test, &c);
	wr(m, 0, 0, 8);
	wr(m, 0, 8, 8);
	wr(m, 0, 16, 8);
	/* two channels destage the first two at once, the third at 5 ms */
	KUNIT_EXPECT_EQ(test, m->wc.booked, 2U);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, MS), 10 * MS);
	/* a read at 11 ms: both channels idle */
	KUNIT_EXPECT_EQ(test, rd(m, 11 * MS, 0, 8), 16 * MS);
}

/*
 * A sequential run destages in one media command (one svc for all, up to
 * LUNQ_WC_MERGE sectors); writes accepted after the destage started, or
 * elsewhere, are not in it.
 */
static void wc_merge(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	struct lunq_model *m;
	int i;

	c.mbps = 100;		/* 4 KiB: 40.96 us */
	m = model(test, &c);
	/* the first is destaged at once, alone: 5 ms + 40.96 us */
	wr(m, 0, 0, 8);
	for (i = 1; i < 5; i++)
		wr(m, 0, i * 8, 8);
	wr(m, 0, 100000, 8);
	/* writes 2..5 in one command after it, then the one elsewhere */
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0),
			3 * 5 * MS + 40960 + 4 * 40960 + 40960);
	KUNIT_EXPECT_EQ(test, m->wc.slot[1].end, m->wc.slot[4].end);
	KUNIT_EXPECT_EQ(test, m->wc.slot[4].end, 2 * 5 * MS + 5 * 40960);
	/* a run longer than LUNQ_WC_MERGE is cut */
	c.mbps = 0;
	c.cache_mb = 16;
	m = model(test, &c);
	wr(m, 0, 0, 8);		/* under way alone */
	for (i = 0; i < 3; i++)
		wr(m, 0, 8 + i * LUNQ_WC_MERGE / 2, LUNQ_WC_MERGE / 2);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0), 3 * 5 * MS);
}

/* The ring: more than LUNQ_WC_SLOTS small writes count as a full cache. */
static void wc_slots(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	struct lunq_model *m;
	int i;

	c.cache_mb = 64;
	m = model(test, &c);
	for (i = 0; i < LUNQ_WC_SLOTS; i++)
		KUNIT_EXPECT_EQ(test, wr(m, 0, i * 8, 8), (u64)WC);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 1 << 20, 8), 5 * MS + WC);
	KUNIT_EXPECT_EQ(test, m->wc.n, (u32)LUNQ_WC_SLOTS);
}

/*
 * destage:cscan: the cache destages in ascending LBA order from where the
 * last destage ended, wrapping to the lowest (WOW's CSCAN); fifo takes
 * arrival order.  An hdd of 1 ms per command and 8 ms average seek
 * (24 ns per sector of distance): four writes at once, the first
 * destaged at once, then 1000, 2000, 500000 (59.2 ms) against fifo's
 * 1000, 500000, 2000 (71.1 ms).
 */
static void wc_cscan(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	static const u64 at[] = { 900000, 1000, 500000, 2000 };
	struct lunq_model *m;
	int i;

	c.svc_us = 1000;
	c.seek_ms = 8;
	c.destage = LUNQ_DESTAGE_CSCAN;
	m = model(test, &c);
	for (i = 0; i < 4; i++)
		wr(m, 0, at[i], 8);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0), 59151808ULL);
	KUNIT_EXPECT_EQ(test, m->wc.cursor, 500008ULL);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 60 * MS), 60 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.n, 0U);

	c.destage = LUNQ_DESTAGE_FIFO;
	m = model(test, &c);
	for (i = 0; i < 4; i++)
		wr(m, 0, at[i], 8);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0), 71104192ULL);
}

/*
 * cscan with a full cache: the destage booked for a waiting write is the
 * next in LBA order from the cursor, and a flush sweeps on from there.
 */
static void wc_cscan_full(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	struct lunq_model *m;
	int i;

	c.destage = LUNQ_DESTAGE_CSCAN;
	m = model(test, &c);
	/* 16 x 64 KiB fill 1 MiB; the first destages at once (0..5 ms) */
	for (i = 0; i < 16; i++)
		wr(m, 0, (16 - i) * 10000, S64K);
	/* the 17th waits for the first on media; the 18th for the next up */
	KUNIT_EXPECT_EQ(test, wr(m, 0, 500000, S64K), 5 * MS + WC);
	KUNIT_EXPECT_EQ(test, wr(m, 0, 600000, S64K), 10 * MS + WC);
	KUNIT_EXPECT_EQ(test, m->wc.cursor, 500000ULL + S64K);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 16ULL * S64K);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0), 90 * MS);
}

/*
 * Watermarks: with wc_high:50 wc_low:25 the cache holds writes without
 * destaging until it is half full, then destages in the idle time down
 * to a quarter; a flush still takes everything.
 */
static void wc_watermarks(struct kunit *test)
{
	struct lunq_model_cfg c = hdd5;
	struct lunq_model *m;
	int i;

	c.wc_high = 50;
	c.wc_low = 25;
	m = model(test, &c);
	for (i = 0; i < 7; i++)
		wr(m, 0, i * 1000, S64K);
	KUNIT_EXPECT_EQ(test, m->wc.booked, 0U);
	/* 8 x 64 KiB: half of 1 MiB, the first destage starts */
	wr(m, 0, 7000, S64K);
	KUNIT_EXPECT_EQ(test, m->wc.booked, 1U);
	/* by 100 ms four destages ran (0..20 ms): down to a quarter */
	KUNIT_EXPECT_EQ(test, rd(m, 100 * MS, 9000, 8), 105 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 4ULL * S64K);
	KUNIT_EXPECT_EQ(test, m->wc.booked, 0U);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 200 * MS), 220 * MS);
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 221 * MS), 221 * MS);
	KUNIT_EXPECT_EQ(test, m->wc.dirty, 0ULL);
}

static struct kunit_case lunq_model_wc_cases[] = {
	KUNIT_CASE(wc_writes_and_flush),
	KUNIT_CASE(wc_idle_destage),
	KUNIT_CASE(wc_full),
	KUNIT_CASE(wc_fua),
	KUNIT_CASE(wc_off_and_live),
	KUNIT_CASE(wc_fixed_flash),
	KUNIT_CASE(wc_merge),
	KUNIT_CASE(wc_slots),
	KUNIT_CASE(wc_cscan),
	KUNIT_CASE(wc_cscan_full),
	KUNIT_CASE(wc_watermarks),
	{}
};

static struct kunit_suite lunq_model_wc_suite = {
	.name = "lunq_model_wc",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_wc_cases,
};
kunit_test_suite(lunq_model_wc_suite);

MODULE_LICENSE("GPL");
