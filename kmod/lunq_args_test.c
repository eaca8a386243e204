// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_args.c, the key:value parser shared by the table
 * line and the "set" message.  (tests/unit/args_test.c runs the same code
 * in userspace under ASan/UBSan.)  Run alone with
 *   tests/kunit/run lunq_args
 */
#include <kunit/test.h>
#include "lunq_args.h"

static enum lunq_arg_err parse(struct lunq_keys *p, u64 *seen,
			       const char *word, enum lunq_key *key)
{
	return lunq_parse_word(p, word, seen, key);
}

static void lunq_args_ranges(struct kunit *test)
{
	struct lunq_keys p;
	enum lunq_key key;
	u64 seen = 0;

	lunq_keys_init(&p);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth:65535", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 65535U);
	seen = 0;
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth:65536", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_EQ(test, key, LUNQ_QDEPTH);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 65535U);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth:-1", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth: 4", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "max_wait_ms:3600000", &key),
			LUNQ_ARG_OK);
	seen = 0;
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "max_wait_ms:3600001", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_STREQ(test, lunq_arg_error(LUNQ_ARG_BAD_VALUE, key),
			   "max_wait_ms: value must be an integer 0..3600000");
}

static void lunq_args_sched_enum(struct kunit *test)
{
	struct lunq_keys p;
	enum lunq_key key;
	u64 seen = 0;

	lunq_keys_init(&p);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_SCHED], 0U);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "sched:disksort", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_SCHED], 1U);
	seen = 0;
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "sched:elevator", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_STREQ(test, lunq_arg_error(LUNQ_ARG_BAD_VALUE, key),
			   "sched: value must be one of fifo, disksort");
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_SCHED], 1U);
}

static void lunq_args_form(struct kunit *test)
{
	struct lunq_keys p;
	enum lunq_key key;
	u64 seen = 0;

	lunq_keys_init(&p);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth", &key),
			LUNQ_ARG_NO_COLON);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, ":4", &key),
			LUNQ_ARG_NO_COLON);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "depth:4", &key),
			LUNQ_ARG_UNKNOWN_KEY);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth:4", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth:4", &key),
			LUNQ_ARG_DUPLICATE);
	KUNIT_EXPECT_STREQ(test, lunq_arg_error(LUNQ_ARG_DUPLICATE, key),
			   "qdepth: given more than once");
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "bubble_ms:4", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_BUBBLE_MS], 4);
}

static void lunq_args_format(struct kunit *test)
{
	struct lunq_keys p;
	enum lunq_key key;
	char buf[128];
	u64 seen = 0;

	lunq_keys_init(&p);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "max_wait_ms:500", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "sched:disksort", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "qdepth:8", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, lunq_policy_format(&p, buf, sizeof(buf)), 3U);
	KUNIT_EXPECT_STREQ(test, buf, "qdepth:8 sched:disksort max_wait_ms:500");
	/* a short buffer never gets half a word */
	KUNIT_EXPECT_EQ(test, lunq_policy_format(&p, buf, 12), 1U);
	KUNIT_EXPECT_STREQ(test, buf, "qdepth:8");
}

/* policy:NAME and reaction:/auto: say the same thing; both at once: no */
static void lunq_args_policy_key(struct kunit *test)
{
	static const struct {
		const char *word;
		u32 reaction, auto_mode, pol;
	} cases[] = {
		{ "policy:fixed", 0, 0, 0 }, { "policy:linux", 1, 0, 1 },
		{ "policy:sd", 2, 0, 2 }, { "policy:sd-fc", 3, 0, 3 },
		{ "policy:knee", 0, 1, 4 }, { "policy:target", 0, 2, 5 },
		{ "reaction:sd-fc", 3, 0, 3 }, { "auto:knee", 0, 1, 4 },
		{ "auto:target", 0, 2, 5 }, { "reaction:none", 0, 0, 0 },
	};
	struct lunq_keys p;
	enum lunq_key key;
	unsigned int i;
	u64 seen;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		lunq_keys_init(&p);
		seen = 0;
		KUNIT_ASSERT_EQ(test, parse(&p, &seen, cases[i].word, &key),
				LUNQ_ARG_OK);
		KUNIT_EXPECT_NULL(test, lunq_policy_resolve(&p, seen));
		KUNIT_EXPECT_EQ_MSG(test, p.val[LUNQ_REACTION], cases[i].reaction,
				    "%s", cases[i].word);
		KUNIT_EXPECT_EQ_MSG(test, p.val[LUNQ_AUTO], cases[i].auto_mode,
				    "%s", cases[i].word);
		KUNIT_EXPECT_EQ_MSG(test, p.val[LUNQ_POL], cases[i].pol, "%s",
				    cases[i].word);
	}
	lunq_keys_init(&p);
	seen = 0;
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "policy:knee", &key), LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "reaction:linux", &key), LUNQ_ARG_OK);
	KUNIT_EXPECT_STREQ(test, lunq_policy_resolve(&p, seen),
			   "policy: give policy:NAME, or reaction: and auto:, not both");
	lunq_keys_init(&p);
	seen = 0;
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "policy:fast", &key),
			LUNQ_ARG_BAD_VALUE);
}

/* The array's member drives: spindle_depth's range, sptf on an array. */
/* Parse @words (NULL-terminated) as one line over @p, then resolve it. */
static const char *line(struct lunq_keys *p, const char *const *words)
{
	enum lunq_key key;
	u64 seen = 0;

	for (; *words; words++)
		if (parse(p, &seen, *words, &key) != LUNQ_ARG_OK)
			return *words;
	return lunq_policy_resolve(p, seen);
}

#define LINE(p, ...) line(p, (const char *const[]){ __VA_ARGS__, NULL })
#define AUTO_START_GIVEN(p) (!!((p)->given & (1ULL << LUNQ_AUTO_START)))

/*
 * auto's start has its own key, auto_start; the old spelling (qdepth with
 * auto on) still sets it, and then shows as auto_start in TABLE status.
 */
static void lunq_args_auto_start(struct kunit *test)
{
	struct lunq_keys p;
	char buf[128];

	lunq_keys_init(&p);
	KUNIT_EXPECT_NULL(test, LINE(&p, "auto:knee", "auto_start:12"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 12U);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 0U);
	lunq_policy_format(&p, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "auto:knee auto_start:12");

	/* the old spelling: qdepth is the start, shown as auto_start too */
	lunq_keys_init(&p);
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:20", "auto:knee"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 20U);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 20U);
	lunq_policy_format(&p, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "qdepth:20 auto:knee auto_start:20");
	/* a later qdepth word moves the start, as it did */
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:32"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 32U);
	/* auto_start alone leaves qdepth (auto:off's throttle) as it is */
	KUNIT_EXPECT_NULL(test, LINE(&p, "auto_start:8"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 8U);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 32U);
	/* both in one line: each its own meaning */
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:64", "auto_start:4"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 4U);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 64U);
	/* once an auto_start word was given, qdepth does not move it */
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:50"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 4U);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_QDEPTH], 50U);
	KUNIT_EXPECT_NULL(test, LINE(&p, "auto:off"));
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:40"));
	KUNIT_EXPECT_NULL(test, LINE(&p, "auto:knee"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 4U);

	/* auto turned on later starts from the table's qdepth, as it did */
	lunq_keys_init(&p);
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:16"));
	KUNIT_EXPECT_FALSE(test, AUTO_START_GIVEN(&p));
	KUNIT_EXPECT_NULL(test, LINE(&p, "auto:knee"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 16U);
	KUNIT_EXPECT_TRUE(test, AUTO_START_GIVEN(&p));

	/* no qdepth, no auto_start: 0 (auto_max), and nothing added */
	lunq_keys_init(&p);
	KUNIT_EXPECT_NULL(test, LINE(&p, "auto:knee"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 0U);
	KUNIT_EXPECT_FALSE(test, AUTO_START_GIVEN(&p));

	/* with auto off, qdepth is the throttle alone */
	lunq_keys_init(&p);
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:16", "reaction:linux"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 0U);
	KUNIT_EXPECT_FALSE(test, AUTO_START_GIVEN(&p));

	/* bad input: a clear error, the value unchanged */
	lunq_keys_init(&p);
	KUNIT_EXPECT_STREQ(test, LINE(&p, "auto_start:65536"), "auto_start:65536");
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_AUTO_START], 0U);
	KUNIT_EXPECT_STREQ(test, lunq_arg_error(LUNQ_ARG_BAD_VALUE,
						LUNQ_AUTO_START),
			   "auto_start: value must be an integer 0..65535");
}

static void lunq_args_array_keys(struct kunit *test)
{
	struct lunq_keys p;
	enum lunq_key key;
	u64 seen = 0;

	lunq_keys_init(&p);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_SPINDLE_DEPTH], 32U);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "spindle_depth:0", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_STREQ(test, lunq_arg_error(LUNQ_ARG_BAD_VALUE, key),
			   "spindle_depth: value must be an integer 1..32");
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "spindle_depth:33", &key),
			LUNQ_ARG_BAD_VALUE);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_SPINDLE_DEPTH], 32U);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "spindle_depth:2", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_SPINDLE_DEPTH], 2U);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "lun_order:sptf", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "lun_depth:64", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_EQ(test, parse(&p, &seen, "model:array", &key),
			LUNQ_ARG_OK);
	KUNIT_EXPECT_NULL(test, lunq_policy_check(&p));
	p.val[LUNQ_MODEL] = 2;	/* flash */
	KUNIT_EXPECT_STREQ(test, lunq_policy_check(&p),
			   "lun_order: sptf orders an hdd's command queue (an array's: each spindle's): give model:hdd or array with it");
}

/*
 * stats: on (default) or off, live; off is refused beside auto and
 * bubble_ms (they read the times stats:off does not take), and a refused
 * line changes nothing.
 */
static void lunq_args_stats(struct kunit *test)
{
	struct lunq_keys p, before;
	char buf[128];

	lunq_keys_init(&p);
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_STATS], 0U);
	KUNIT_EXPECT_FALSE(test, lunq_key_table_only(LUNQ_STATS));
	KUNIT_EXPECT_NULL(test, LINE(&p, "qdepth:32", "stats:off"));
	KUNIT_EXPECT_EQ(test, p.val[LUNQ_STATS], 1U);
	KUNIT_EXPECT_NULL(test, lunq_policy_check(&p));
	lunq_policy_format(&p, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "qdepth:32 stats:off");

	before = p;
	KUNIT_EXPECT_STREQ(test, LINE(&p, "stats:0"), "stats:0");
	KUNIT_EXPECT_EQ(test, memcmp(&p, &before, sizeof(p)), 0);
	KUNIT_EXPECT_STREQ(test, lunq_arg_error(LUNQ_ARG_BAD_VALUE, LUNQ_STATS),
			   "stats: value must be one of on, off");

	p.val[LUNQ_AUTO] = 1;	/* knee */
	KUNIT_EXPECT_STREQ(test, lunq_policy_check(&p),
			   "stats: off leaves auto nothing to measure (its windows read the statistics): give auto:off with it, or stats:on");
	p.val[LUNQ_AUTO] = 0;
	p.val[LUNQ_BUBBLE_MS] = 10;
	KUNIT_EXPECT_STREQ(test, lunq_policy_check(&p),
			   "stats: off times no IO, so no bubble can be seen: give bubble_ms:0 with it, or stats:on");
	p.val[LUNQ_STATS] = 0;
	KUNIT_EXPECT_NULL(test, lunq_policy_check(&p));
}

static struct kunit_case lunq_args_cases[] = {
	KUNIT_CASE(lunq_args_ranges),
	KUNIT_CASE(lunq_args_sched_enum),
	KUNIT_CASE(lunq_args_form),
	KUNIT_CASE(lunq_args_format),
	KUNIT_CASE(lunq_args_policy_key),
	KUNIT_CASE(lunq_args_array_keys),
	KUNIT_CASE(lunq_args_auto_start),
	KUNIT_CASE(lunq_args_stats),
	{}
};

static struct kunit_suite lunq_args_suite = {
	.name = "lunq_args",
	.test_cases = lunq_args_cases,
};

kunit_test_suite(lunq_args_suite);

MODULE_LICENSE("GPL");
