// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "lunq_model_flash" for "flash" (lunq_model_flash.c): parallel channels:
 * exact completion times for scripted IOs.  Run alone with
 *   tests/kunit/run lunq_model_flash
 */
#include "lunq_model_test.h"

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
		last = model_read(m, 0, 8 * i, 8);
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

	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 8), 10 * US);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 8, 8), 20 * US);

	cfg.channels = LUNQ_MAX_CHANNELS + 1000;
	m = model(test, &cfg);
	for (i = 0; i < LUNQ_MAX_CHANNELS; i++)
		KUNIT_EXPECT_EQ_MSG(test, model_read(m, 0, i, 1),
				    10 * US, "IO %d", i);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 1), 20 * US);
}

static struct kunit_case lunq_model_flash_cases[] = {
	KUNIT_CASE(lunq_model_flash_channels),
	KUNIT_CASE(lunq_model_flash_throughput),
	KUNIT_CASE(lunq_model_flash_earliest_channel),
	KUNIT_CASE(lunq_model_flash_channel_clamp),
	{}
};

static struct kunit_suite lunq_model_flash_suite = {
	.name = "lunq_model_flash",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_flash_cases,
};

kunit_test_suites(&lunq_model_flash_suite);

MODULE_LICENSE("GPL");
