// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "lunq_model_fixed" for "fixed" (lunq_model_fixed.c): a pure latency of svc + xfer:
 * exact completion times for scripted IOs.  Run alone with
 *   tests/kunit/run lunq_model_fixed
 */
#include "lunq_model_test.h"

/* fixed: svc + bytes * 1000 / mbps ns. */
static void lunq_model_fixed_transfer_time(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FIXED, .svc_us = 500, .mbps = 100,
		.pblk = 512, .rmw_x = 1,
	};
	struct lunq_model *m = model(test, &cfg);

	/* 1 MiB at 100 MB/s: 10485760 ns, plus 500 us */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 2048),
			500 * US + 10485760);
	/* 4 KiB: 40960 ns */
	KUNIT_EXPECT_EQ(test, model_read(m, 7, 8, 8), 7 + 500 * US + 40960);
	/* 512 B at 3 MB/s: 170666.67 ns, rounded down */
	cfg.svc_us = 0;
	cfg.mbps = 3;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 1), 170666ULL);
	/* mbps 0: no transfer time */
	cfg.svc_us = 250;
	cfg.mbps = 0;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, SEC, 0, 2048), SEC + 250 * US);
	/* 64 MiB at 1 MB/s: 67.108864 s (no overflow) */
	cfg.svc_us = 0;
	cfg.mbps = 1;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 131072),
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
		KUNIT_EXPECT_EQ_MSG(test, model_read(m, MS, i * 8, 8),
				    MS + lat, "IO %d", i);
	KUNIT_EXPECT_EQ(test, model_read(m, MS + 1, 0, 8), MS + 1 + lat);
}

static struct kunit_case lunq_model_fixed_cases[] = {
	KUNIT_CASE(lunq_model_fixed_transfer_time),
	KUNIT_CASE(lunq_model_fixed_ignores_concurrency),
	{}
};

static struct kunit_suite lunq_model_fixed_suite = {
	.name = "lunq_model_fixed",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_fixed_cases,
};

kunit_test_suites(&lunq_model_fixed_suite);

MODULE_LICENSE("GPL");
