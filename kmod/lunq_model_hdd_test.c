// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "lunq_model_hdd" for "hdd" (lunq_model_hdd.c): one head, seek, rotation, FIFO service:
 * exact completion times for scripted IOs.  Run alone with
 *   tests/kunit/run lunq_model_hdd
 */
#include "lunq_model_test.h"

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

	KUNIT_EXPECT_EQ(test, model_read(m, 0, 1000, 8), HALF_REV_7200);
	KUNIT_EXPECT_EQ(test, model_read(m, 10 * MS, 1008, 8), 10 * MS);
	KUNIT_EXPECT_EQ(test, model_read(m, 20 * MS, 0, 8),
			20 * MS + HALF_REV_7200);
	cfg.rpm = 15000;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 30 * MS, 5000, 8),
			32 * MS);
	cfg.rpm = 5400;		/* 5555555.5 ns */
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 40 * MS, 0, 8),
			40 * MS + 5555555);
	cfg.rpm = 0;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 50 * MS, 7000, 8), 50 * MS);
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

/*
 * seek_curve:sqrt: 1 ms settle + (seek_ms - 1 ms) x 15/8 x sqrt(distance
 * / stroke): at 8 ms, a full stroke 14.125 ms, a quarter 7.5625 ms, either
 * direction; sequential still free; seek_ms at or below the settle time
 * is that time for every seek.
 */
static void lunq_model_hdd_seek_sqrt(struct kunit *test)
{
	struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .svc_us = 0, .seek_ms = 8, .rpm = 0,
		.pblk = 512, .rmw_x = 1, .capacity = CAP,
		.seek_curve = LUNQ_SEEK_SQRT,
	};
	const struct model_io io[] = {
		{ 0, CAP / 4, 8, 7562500ULL },		/* a quarter */
		{ 0, CAP / 4 + 8, 8, 7562500ULL },	/* sequential */
		{ 0, 16, 8, 2 * 7562500ULL },		/* a quarter back */
		{ 0, CAP + 24, 8, 2 * 7562500ULL + 14125000ULL },	/* stroke */
	};

	run_ios(test, model(test, &cfg), io, ARRAY_SIZE(io));
	cfg.seek_ms = 1;
	KUNIT_EXPECT_EQ(test, model_read(model(test, &cfg), 0, CAP / 2, 8),
			(u64)MS);
}

static struct kunit_case lunq_model_hdd_cases[] = {
	KUNIT_CASE(lunq_model_hdd_sequential),
	KUNIT_CASE(lunq_model_hdd_seek_linear),
	KUNIT_CASE(lunq_model_hdd_seek_sqrt),
	KUNIT_CASE(lunq_model_hdd_rotation),
	KUNIT_CASE(lunq_model_hdd_all_terms),
	KUNIT_CASE(lunq_model_hdd_head_serialises),
	{}
};

static struct kunit_suite lunq_model_hdd_suite = {
	.name = "lunq_model_hdd",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_hdd_cases,
};

kunit_test_suites(&lunq_model_hdd_suite);

MODULE_LICENSE("GPL");
