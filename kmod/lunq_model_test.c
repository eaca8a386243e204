// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "lunq_model" for lunq_model.c, what every model shares: none, the ops table, the
 * pblk read-modify-write penalty, live configuration:
 * exact completion times for scripted IOs.  Run alone with
 *   tests/kunit/run lunq_model
 */
#include "lunq_model_test.h"

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
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 8, 8), 140960ULL);
	/* misaligned start */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 9, 8), 3 * 140960ULL);
	/* misaligned length: 100 us + 46080 ns, times 3 */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 8, 9), 3 * 146080ULL);
	/* rmw_x 1: no penalty */
	cfg.rmw_x = 1;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 9, 8), 140960ULL);
	/* pblk 512: nothing is misaligned */
	cfg.rmw_x = 3;
	cfg.pblk = 512;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 9, 8), 140960ULL);

	/* flash: the channel stays busy for the longer time */
	cfg = (struct lunq_model_cfg) {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 100, .channels = 1,
		.pblk = 4096, .rmw_x = 4,
	};
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 1, 8), 400 * US);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 16, 8), 500 * US);

	/* hdd: seek and service both, the head stays busy as long */
	cfg = (struct lunq_model_cfg) {
		.kind = LUNQ_MODEL_HDD, .svc_us = 100, .seek_ms = 4,
		.rpm = 0, .pblk = 4096, .rmw_x = 2, .capacity = CAP,
	};
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 500000, 7),
			2 * (6 * MS + 100 * US));
	/* sequential but misaligned (starts at 500007) */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 500007, 9),
			2 * (6 * MS + 100 * US) + 2 * 100 * US);
	/* sequential and aligned again (500016) */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 500016, 8),
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

	KUNIT_EXPECT_EQ(test, model_read(m, 0, 500000, 8), 6 * MS);
	cfg.svc_us = 1000;
	lunq_model_config(m, &cfg);
	/* still busy until 6 ms, and sequential from 500008 */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 500008, 8), 7 * MS);

	cfg = (struct lunq_model_cfg) {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 100, .channels = 2,
		.pblk = 512, .rmw_x = 1,
	};
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 8), 100 * US);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 8, 8), 100 * US);
	cfg.svc_us = 50;
	lunq_model_config(m, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 16, 8), 150 * US);
	/* a new table's model (zeroed, then configured) starts idle */
	m = model(test, &cfg);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 16, 8), 50 * US);
}

/* The ops table: each kind its model, none and unknown kinds NULL. */
static void lunq_model_ops_table(struct kunit *test)
{
	static const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_HDD, .pblk = 512, .rmw_x = 1,
	};
	struct lunq_model *m = model(test, &cfg);

	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops(LUNQ_MODEL_NONE), NULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops(LUNQ_MODEL_FIXED),
			    &lunq_model_fixed);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops(LUNQ_MODEL_FLASH),
			    &lunq_model_flash);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops(LUNQ_MODEL_HDD),
			    &lunq_model_hdd);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops(LUNQ_MODEL_ARRAY),
			    &lunq_model_array);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops(LUNQ_MODEL_ARRAY + 1), NULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_ops((enum lunq_model_kind)-1),
			    NULL);
	KUNIT_EXPECT_STREQ(test, lunq_model_fixed.name, "fixed");
	KUNIT_EXPECT_STREQ(test, lunq_model_flash.name, "flash");
	KUNIT_EXPECT_STREQ(test, lunq_model_hdd.name, "hdd");
	KUNIT_EXPECT_STREQ(test, lunq_model_array.name, "array");
	/* config picks the ops of the kind, the first time and live */
	KUNIT_EXPECT_PTR_EQ(test, m->ops, &lunq_model_hdd);
	lunq_model_config(m, &(struct lunq_model_cfg){ .kind = LUNQ_MODEL_NONE });
	KUNIT_EXPECT_PTR_EQ(test, m->ops, NULL);
}

/*
 * Without the write cache (wce:0) a flush completes at once on every model:
 * lunq_model_flush() answers @now, busy channels or head or not.
 */
static void lunq_model_flush_at_once(struct kunit *test)
{
	static const enum lunq_model_kind kinds[] = {
		LUNQ_MODEL_NONE, LUNQ_MODEL_FIXED, LUNQ_MODEL_FLASH,
		LUNQ_MODEL_HDD,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct lunq_model_cfg cfg = {
			.kind = kinds[i], .svc_us = 1000, .channels = 1,
			.seek_ms = 8, .pblk = 512, .rmw_x = 1, .capacity = CAP,
		};
		struct lunq_model *m = model(test, &cfg);

		KUNIT_EXPECT_EQ(test, model_read(m, 0, 1000, 8) > 0,
				kinds[i] != LUNQ_MODEL_NONE);
		KUNIT_EXPECT_EQ_MSG(test, lunq_model_flush(m, 5), 5ULL,
				    "kind %d", kinds[i]);
		KUNIT_EXPECT_EQ_MSG(test, lunq_model_flush(m, SEC), SEC,
				    "kind %d", kinds[i]);
	}
}

/*
 * bus_mbps: one transfer path for the LUN.  flash, 16 channels of 100 us,
 * bus 100 MB/s: 1 MiB (10485.76 us on the bus) at a time -- the bus
 * decides, one after the other; 4 KiB reads (40.96 us each) -- the
 * channels decide until the bus is the slower.
 */
static void lunq_model_bus_shared(struct kunit *test)
{
	const struct lunq_model_cfg cfg = {
		.kind = LUNQ_MODEL_FLASH, .svc_us = 100, .channels = 16,
		.pblk = 512, .rmw_x = 1, .bus_mbps = 100,
	};
	struct lunq_model *m = model(test, &cfg);
	u64 mib = 2048ULL * 512 * 1000 / 100;	/* 10485760 ns */
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, i * 2048, 2048,
						    LUNQ_MD_READ, NULL),
				(i + 1) * mib);
	m = model(test, &cfg);
	/* 4 KiB: the first 16 on channels at 100 us, the bus not yet full */
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, i * 8, 8,
						    LUNQ_MD_READ, NULL),
				100 * US);
	/* writes share it too: a write waits for its transfer */
	m = model(test, &cfg);
	lunq_model_io(m, 0, 0, 2048, LUNQ_MD_READ, NULL);
	KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, 4096, 8, LUNQ_MD_WRITE, NULL),
			mib + 40960);
	/* 0: no shared limit */
	m = model(test, &(struct lunq_model_cfg){ .kind = LUNQ_MODEL_FLASH,
		  .svc_us = 100, .channels = 16, .pblk = 512, .rmw_x = 1 });
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, i * 2048, 2048,
						    LUNQ_MD_READ, NULL),
				100 * US);
}

static struct kunit_case lunq_model_cases[] = {
	KUNIT_CASE(lunq_model_none_returns_now),
	KUNIT_CASE(lunq_model_ops_table),
	KUNIT_CASE(lunq_model_flush_at_once),
	KUNIT_CASE(lunq_model_pblk_misaligned),
	KUNIT_CASE(lunq_model_rmw_multiplies),
	KUNIT_CASE(lunq_model_config_keeps_state),
	KUNIT_CASE(lunq_model_bus_shared),
	{}
};

static struct kunit_suite lunq_model_suite = {
	.name = "lunq_model",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_cases,
};

kunit_test_suites(&lunq_model_suite);

MODULE_LICENSE("GPL");
