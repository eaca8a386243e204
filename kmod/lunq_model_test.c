// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_model.c, the emulated LUN's service-time models
 * (none, fixed, flash, hdd) and the pblk read-modify-write penalty: exact
 * completion times for scripted IOs.  Run alone with
 *   tests/kunit/run lunq_model
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include "lunq_model.h"

#define MS	1000000ULL	/* ns */
#define US	1000ULL		/* ns */
#define SEC	(1000 * MS)

/* An hdd of 10^6 sectors: a distance of 10^4 sectors is 1 % of a stroke. */
#define CAP	1000000ULL

/* 30 s / 7200 rpm, rounded down */
#define HALF_REV_7200	4166666ULL

/* struct lunq_model is 8 KiB and more: never on the stack. */
static int lunq_model_test_init(struct kunit *test)
{
	struct lunq_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	test->priv = m;
	return 0;
}

static struct lunq_model *model(struct kunit *test,
				const struct lunq_model_cfg *cfg)
{
	struct lunq_model *m = test->priv;

	lunq_model_init(m, cfg);
	return m;
}

/* One IO handed to the LUN and when it must complete. */
struct model_io {
	u64 now;
	u64 sector;
	u32 sectors;
	u64 want;
};

static void run_ios(struct kunit *test, struct lunq_model *m,
		    const struct model_io *io, int n)
{
	int i;

	for (i = 0; i < n; i++, io++)
		KUNIT_EXPECT_EQ_MSG(test,
				    lunq_model_start(m, io->now, io->sector,
						     io->sectors),
				    io->want, "IO %d (at %llu ns, sector %llu+%u)",
				    i, io->now, io->sector, io->sectors);
}

/* none: the lower device alone decides, whatever is configured. */
static void lunq_model_none_returns_now(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_NONE, .svc_us = 1000, .channels = 1,
		.mbps = 1, .seek_ms = 8, .rpm = 7200, .pblk = 4096,
		.rmw_x = 4, .capacity = CAP,
	};
	const struct model_io io[] = {
		{ 0, 0, 8, 0 },
		{ 0, 1, 7, 0 },
		{ 12345, 500000, 2048, 12345 },
		{ 12345, 3, 1, 12345 },
		{ 5 * SEC, 0, 8, 5 * SEC },
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/* fixed: svc + bytes * 1000 / mbps ns. */
static void lunq_model_fixed_transfer_time(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FIXED, .svc_us = 500, .mbps = 100,
		.pblk = 512, .rmw_x = 1,
	};
	struct lunq_model *m = model(test, &cfg);

	/* 1 MiB at 100 MB/s: 10485760 ns, plus 500 us */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 0, 2048),
			500 * US + 10485760);
	/* 4 KiB: 40960 ns */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 7, 8, 8), 7 + 500 * US + 40960);
	/* 512 B at 3 MB/s: 170666.67 ns, rounded down */
	cfg.svc_us = 0;
	cfg.mbps = 3;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 0, 1), 170666ULL);
	/* mbps 0: no transfer time */
	cfg.svc_us = 250;
	cfg.mbps = 0;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, SEC, 0, 2048), SEC + 250 * US);
	/* 64 MiB at 1 MB/s: 67.108864 s (no overflow) */
	cfg.svc_us = 0;
	cfg.mbps = 1;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 0, 131072),
			67108864000ULL);
}

/* fixed: a pure latency, however many IOs are outstanding. */
static void lunq_model_fixed_ignores_concurrency(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FIXED, .svc_us = 200, .mbps = 400,
		.channels = 1, .pblk = 512, .rmw_x = 1,
	};
	struct lunq_model *m = model(test, &cfg);
	/* 4 KiB at 400 MB/s: 10240 ns */
	const u64 lat = 200 * US + 10240;
	int i;

	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_EQ_MSG(test, lunq_model_start(m, MS, i * 8, 8),
				    MS + lat, "IO %d", i);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, MS + 1, 0, 8), MS + 1 + lat);
}

/*
 * flash: C IOs sent at once finish together, the (C+1)-th queues behind
 * the first channel to free; an idle channel starts at once.
 */
static void lunq_model_flash_channels(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 100, .channels = 4,
		.pblk = 4096, .rmw_x = 1,
	};
	const struct model_io io[] = {
		{ 0, 0, 8, 100 * US },
		{ 0, 8, 8, 100 * US },
		{ 0, 16, 8, 100 * US },
		{ 0, 24, 8, 100 * US },
		{ 0, 32, 8, 200 * US },		/* 5th: queues */
		{ 50 * US, 40, 8, 200 * US },
		{ 150 * US, 48, 8, 250 * US },	/* a channel free at 100 us */
		{ 150 * US, 56, 8, 250 * US },
		{ 150 * US, 64, 8, 300 * US },
		{ 1 * SEC, 72, 8, 1 * SEC + 100 * US },	/* idle again */
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/* flash: N IOs at once with C channels: throughput C / svc. */
static void lunq_model_flash_throughput(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 250, .channels = 8,
		.pblk = 4096, .rmw_x = 1,
	};
	struct lunq_model *m = model(test, &cfg);
	u64 last = 0;
	int i;

	for (i = 0; i < 800; i++) {
		last = lunq_model_start(m, 0, 8 * i, 8);
		KUNIT_EXPECT_EQ_MSG(test, last, (i / 8 + 1) * 250 * US,
				    "IO %d", i);
	}
	/* 800 IOs in 25 ms: 32000 IOPS = 8 / 250 us */
	KUNIT_EXPECT_EQ(test, last, 25 * MS);
	KUNIT_EXPECT_EQ(test, div64_u64(800 * SEC, last), 32000ULL);
}

/* flash: an IO takes the channel that frees first. */
static void lunq_model_flash_earliest_channel(struct kunit *test)
{
	/* 1 MB/s: one sector is 512 us */
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 0, .mbps = 1,
		.channels = 3, .pblk = 512, .rmw_x = 1,
	};
	const struct model_io io[] = {
		{ 0, 0, 8, 4096 * US },		/* ch0 */
		{ 0, 8, 2, 1024 * US },		/* ch1 */
		{ 0, 10, 4, 2048 * US },	/* ch2 */
		{ 0, 14, 1, 1536 * US },	/* ch1 (free at 1024 us) */
		{ 0, 15, 1, 2048 * US },	/* ch1 (1536) */
		{ 0, 16, 1, 2560 * US },	/* ch2 or ch1 (2048) */
		{ 0, 17, 1, 2560 * US },	/* the other one */
		{ 0, 18, 1, 3072 * US },
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/* flash: the channel count is clamped to 1..LUNQ_MAX_CHANNELS. */
static void lunq_model_flash_channel_clamp(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 10, .channels = 0,
		.pblk = 512, .rmw_x = 1,
	};
	struct lunq_model *m = model(test, &cfg);
	int i;

	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 0, 8), 10 * US);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 8, 8), 20 * US);

	cfg.channels = LUNQ_MAX_CHANNELS + 1000;
	m = model(test, &cfg);
	for (i = 0; i < LUNQ_MAX_CHANNELS; i++)
		KUNIT_EXPECT_EQ_MSG(test, lunq_model_start(m, 0, i, 1),
				    10 * US, "IO %d", i);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 0, 1), 20 * US);
}

/* hdd: an IO that starts where the last one ended pays no seek/rotation. */
static void lunq_model_hdd_sequential(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 100, .seek_ms = 4,
		.rpm = 7200, .pblk = 512, .rmw_x = 1, .capacity = CAP,
	};
	const struct model_io io[] = {
		{ 0, 0, 8, 100 * US },		/* the head starts at 0 */
		{ 0, 8, 8, 200 * US },
		{ 0, 16, 256, 300 * US },
		{ SEC, 272, 8, SEC + 100 * US },	/* after idling too */
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/* hdd: seek = 3 * seek_ms * distance / capacity, either direction. */
static void lunq_model_hdd_seek_linear(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 0, .seek_ms = 4, .rpm = 0,
		.pblk = 512, .rmw_x = 1, .capacity = CAP,
	};
	const struct model_io io[] = {
		/* 999992 sectors: 12 ms * 0.999992 */
		{ 0, CAP - 8, 8, 11999904 },
		/* head at CAP, back to 0: a full stroke, 3 * 4 ms */
		{ 20 * MS, 0, 8, 32 * MS },
		/* head at 8: half a stroke */
		{ 40 * MS, 500008, 8, 46 * MS },
		/* a quarter */
		{ 50 * MS, 750016, 8, 53 * MS },
		/* sequential */
		{ 60 * MS, 750024, 8, 60 * MS },
		/* backwards by 10 % */
		{ 70 * MS, 650032, 8, 71200 * US },
		/* 1 sector (12 ns) */
		{ 80 * MS, 650041, 8, 80 * MS + 12 },
		/* beyond the capacity: at most a full stroke */
		{ 90 * MS, 5 * CAP, 8, 102 * MS },
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/* hdd: half a revolution for every IO that is not sequential. */
static void lunq_model_hdd_rotation(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 0, .seek_ms = 0,
		.rpm = 7200, .pblk = 512, .rmw_x = 1, .capacity = CAP,
	};
	struct lunq_model *m = model(test, &cfg);

	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 1000, 8), HALF_REV_7200);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 10 * MS, 1008, 8), 10 * MS);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 20 * MS, 0, 8),
			20 * MS + HALF_REV_7200);
	cfg.rpm = 15000;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 30 * MS, 5000, 8),
			32 * MS);
	cfg.rpm = 5400;		/* 5555555.5 ns */
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 40 * MS, 0, 8),
			40 * MS + 5555555);
	cfg.rpm = 0;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 50 * MS, 7000, 8), 50 * MS);
}

/* hdd: seek + rotation + svc + transfer add up. */
static void lunq_model_hdd_all_terms(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 100, .mbps = 200,
		.seek_ms = 4, .rpm = 7200, .pblk = 512, .rmw_x = 1,
		.capacity = CAP,
	};
	const struct model_io io[] = {
		/* 6 ms seek + 4166666 + 100 us + 4 KiB at 200 MB/s */
		{ 0, 500000, 8, 6 * MS + HALF_REV_7200 + 100 * US + 20480 },
		/* sequential: 100 us + 20480 */
		{ 20 * MS, 500008, 8, 20 * MS + 100 * US + 20480 },
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/*
 * hdd: one head serves the IOs one at a time in the order the LUN got
 * them: an IO sent while the head is busy starts when it is free.
 */
static void lunq_model_hdd_head_serialises(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 1000, .seek_ms = 4,
		.rpm = 0, .pblk = 512, .rmw_x = 1, .capacity = CAP,
	};
	const struct model_io io[] = {
		{ 0, 0, 8, 1 * MS },
		{ 0, 8, 8, 2 * MS },
		{ 500 * US, 16, 8, 3 * MS },
		{ 2500 * US, 24, 8, 4 * MS },
		/* starts at 4 ms, then seeks half a stroke from sector 32 */
		{ 3500 * US, 500032, 8, 4 * MS + 6 * MS + 1 * MS },
		/* the head idles: starts at once */
		{ 20 * MS, 500040, 8, 21 * MS },
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
}

/* A start or length that is not a multiple of pblk is misaligned. */
static void lunq_model_pblk_misaligned(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FIXED, .pblk = 4096, .rmw_x = 2,
	};
	u32 off, len;

	for (off = 0; off <= 4096; off += 512)
		KUNIT_EXPECT_EQ_MSG(test,
				    lunq_model_misaligned(&cfg, off / 512, 8),
				    off % 4096 != 0, "offset %u", off);
	for (len = 1; len <= 32; len++)
		KUNIT_EXPECT_EQ_MSG(test,
				    lunq_model_misaligned(&cfg, 16, len),
				    len % 8 != 0, "length %u sectors", len);
	KUNIT_EXPECT_TRUE(test, lunq_model_misaligned(&cfg, (1ULL << 40) + 4,
						      8));
	KUNIT_EXPECT_FALSE(test, lunq_model_misaligned(&cfg, 1ULL << 40, 8));

	/* 512-byte blocks: nothing is misaligned */
	cfg.pblk = 512;
	for (off = 0; off < 16; off++)
		KUNIT_EXPECT_FALSE_MSG(test,
				       lunq_model_misaligned(&cfg, off, off + 1),
				       "sector %u", off);

	/* 8 KiB blocks */
	cfg.pblk = 8192;
	KUNIT_EXPECT_TRUE(test, lunq_model_misaligned(&cfg, 8, 16));
	KUNIT_EXPECT_TRUE(test, lunq_model_misaligned(&cfg, 16, 8));
	KUNIT_EXPECT_FALSE(test, lunq_model_misaligned(&cfg, 32, 16));
}

/* A misaligned IO occupies its channel or the head rmw_x times as long. */
static void lunq_model_rmw_multiplies(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FIXED, .svc_us = 100, .mbps = 100,
		.pblk = 4096, .rmw_x = 3,
	};
	struct lunq_model *m = model(test, &cfg);

	/* aligned: 100 us + 40960 ns */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 8, 8), 140960ULL);
	/* misaligned start */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 9, 8), 3 * 140960ULL);
	/* misaligned length: 100 us + 46080 ns, times 3 */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 8, 9), 3 * 146080ULL);
	/* rmw_x 1: no penalty */
	cfg.rmw_x = 1;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 9, 8), 140960ULL);
	/* pblk 512: nothing is misaligned */
	cfg.rmw_x = 3;
	cfg.pblk = 512;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 9, 8), 140960ULL);

	/* flash: the channel stays busy for the longer time */
	cfg = (struct lunq_model_cfg) {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 100, .channels = 1,
		.pblk = 4096, .rmw_x = 4,
	};
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 1, 8), 400 * US);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 16, 8), 500 * US);

	/* hdd: seek and service both, the head stays busy as long */
	cfg = (struct lunq_model_cfg) {
		.kind = LUNQ_MODEL_HDD, .svc_us = 100, .seek_ms = 4,
		.rpm = 0, .pblk = 4096, .rmw_x = 2, .capacity = CAP,
	};
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 500000, 7),
			2 * (6 * MS + 100 * US));
	/* sequential but misaligned (starts at 500007) */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 500007, 9),
			2 * (6 * MS + 100 * US) + 2 * 100 * US);
	/* sequential and aligned again (500016) */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 500016, 8),
			2 * (6 * MS + 100 * US) + 3 * 100 * US);
}

/* lunq_model_config(): the head position and busy channels stay. */
static void lunq_model_config_keeps_state(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 0, .seek_ms = 4, .rpm = 0,
		.pblk = 512, .rmw_x = 1, .capacity = CAP,
	};
	struct lunq_model *m = model(test, &cfg);

	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 500000, 8), 6 * MS);
	cfg.svc_us = 1000;
	lunq_model_config(m, &cfg);
	/* still busy until 6 ms, and sequential from 500008 */
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 500008, 8), 7 * MS);

	cfg = (struct lunq_model_cfg) {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 100, .channels = 2,
		.pblk = 512, .rmw_x = 1,
	};
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 0, 8), 100 * US);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 8, 8), 100 * US);
	cfg.svc_us = 50;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 16, 8), 150 * US);
	/* lunq_model_init() forgets them */
	lunq_model_init(m, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_model_start(m, 0, 16, 8), 50 * US);
}

static struct kunit_case lunq_model_cases[] = {
	KUNIT_CASE(lunq_model_none_returns_now),
	KUNIT_CASE(lunq_model_fixed_transfer_time),
	KUNIT_CASE(lunq_model_fixed_ignores_concurrency),
	KUNIT_CASE(lunq_model_flash_channels),
	KUNIT_CASE(lunq_model_flash_throughput),
	KUNIT_CASE(lunq_model_flash_earliest_channel),
	KUNIT_CASE(lunq_model_flash_channel_clamp),
	KUNIT_CASE(lunq_model_hdd_sequential),
	KUNIT_CASE(lunq_model_hdd_seek_linear),
	KUNIT_CASE(lunq_model_hdd_rotation),
	KUNIT_CASE(lunq_model_hdd_all_terms),
	KUNIT_CASE(lunq_model_hdd_head_serialises),
	KUNIT_CASE(lunq_model_pblk_misaligned),
	KUNIT_CASE(lunq_model_rmw_multiplies),
	KUNIT_CASE(lunq_model_config_keeps_state),
	{}
};

static struct kunit_suite lunq_model_suite = {
	.name = "lunq_model",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_cases,
};

kunit_test_suites(&lunq_model_suite);

MODULE_LICENSE("GPL");
