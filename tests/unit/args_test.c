// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of kmod/lunq_args.c (the table/message word parser),
 * compiled from the very same source the module uses.  Prints one
 * "ok N name" / "not ok N name" line per check.
 */
#include <stdio.h>
#include <string.h>
#include "../../kmod/lunq_args.h"

#define TAP_PREFIX "args-"
#include "tap.h"

/* @q breaks a rule between keys, the one whose message starts with @msg */
static int refused_by(const struct lunq_keys *q, const char *msg)
{
	const char *why = lunq_policy_check(q);

	return why && !strncmp(why, msg, strlen(msg));
}

static enum lunq_arg_err parse(struct lunq_keys *p, const char *w,
			       enum lunq_key *k)
{
	u64 seen = 0;

	return lunq_parse_word(p, w, &seen, k);
}

/*
 * One line of words on @p as a "set" message gives it: each word parsed,
 * then the line resolved as a whole; 1 when all of it was taken.
 */
static int set_line(struct lunq_keys *p, const char *line)
{
	char copy[128], *av[8];
	enum lunq_key k;
	u64 seen = 0;
	int n, i;

	snprintf(copy, sizeof(copy), "%s", line);
	n = lunq_split_words(copy, av, 8);
	for (i = 0; i < n; i++)
		if (lunq_parse_word(p, av[i], &seen, &k) != LUNQ_ARG_OK)
			return 0;
	return n > 0 && !lunq_policy_resolve(p, seen);
}

/* @p's TABLE echo is @want, @n words */
static int formats(const struct lunq_keys *p, const char *want,
		   unsigned int n)
{
	char buf[256];

	return lunq_policy_format(p, buf, sizeof(buf)) == n &&
	       !strcmp(buf, want);
}

int main(void)
{
	struct lunq_keys p, q, before;
	enum lunq_key k;
	char buf[256];
	u64 seen;

	lunq_keys_init(&p);
	ok(p.val[LUNQ_QDEPTH] == 0 && p.val[LUNQ_PBLK] == 512 &&
	   p.val[LUNQ_CHANNELS] == 1 && p.given == 0, "defaults");

	before = p;
	ok(parse(&p, "qdepth", &k) == LUNQ_ARG_NO_COLON, "no-colon");
	ok(parse(&p, ":5", &k) == LUNQ_ARG_NO_COLON, "empty-key");
	ok(parse(&p, "foo:1", &k) == LUNQ_ARG_UNKNOWN_KEY &&
	   k == LUNQ_NR_KEYS, "unknown-key");
	ok(parse(&p, "qdepthx:1", &k) == LUNQ_ARG_UNKNOWN_KEY, "key-prefix");
	ok(parse(&p, "qdepth:", &k) == LUNQ_ARG_BAD_VALUE && k == LUNQ_QDEPTH,
	   "empty-value");
	ok(parse(&p, "qdepth:abc", &k) == LUNQ_ARG_BAD_VALUE, "not-a-number");
	ok(parse(&p, "qdepth:-1", &k) == LUNQ_ARG_BAD_VALUE, "negative");
	ok(parse(&p, "qdepth:+1", &k) == LUNQ_ARG_BAD_VALUE, "plus-sign");
	ok(parse(&p, "qdepth:65536", &k) == LUNQ_ARG_BAD_VALUE, "above-max");
	ok(parse(&p, "qdepth:99999999999", &k) == LUNQ_ARG_BAD_VALUE,
	   "u32-overflow");
	ok(parse(&p, "pool_depth:0", &k) == LUNQ_ARG_BAD_VALUE, "below-min");
	ok(parse(&p, "pblk:1000", &k) == LUNQ_ARG_BAD_VALUE, "not-pow2");
	ok(parse(&p, "pblk:256", &k) == LUNQ_ARG_BAD_VALUE, "pow2-below");
	ok(parse(&p, "sched:elevator", &k) == LUNQ_ARG_BAD_VALUE,
	   "enum-unknown");
	ok(parse(&p, "reaction:sd-fcx", &k) == LUNQ_ARG_BAD_VALUE,
	   "enum-prefix");
	ok(parse(&p, "pool:a/b", &k) == LUNQ_ARG_BAD_VALUE, "name-charset");
	ok(parse(&p, "pool:", &k) == LUNQ_ARG_BAD_VALUE, "name-empty");
	ok(parse(&p, "pool:abcdefghijabcdefghijabcdefghijXY", &k) ==
	   LUNQ_ARG_BAD_VALUE, "name-too-long");
	ok(lunq_key_supported(LUNQ_QDEPTH) &&
	   lunq_key_supported(LUNQ_SCHED) &&
	   lunq_key_supported(LUNQ_MAX_WAIT_MS) &&
	   lunq_key_supported(LUNQ_LUN_DEPTH) &&
	   lunq_key_supported(LUNQ_MODEL), "supported-keys");
	seen = 1U << LUNQ_SCHED;
	ok(lunq_parse_word(&p, "sched:fifo", &seen, &k) == LUNQ_ARG_DUPLICATE &&
	   k == LUNQ_SCHED && seen == 1U << LUNQ_SCHED, "duplicate");
	ok(!memcmp(&p, &before, sizeof(p)), "errors-change-nothing");
	ok(parse(&p, "bubble_ms:4", &k) == LUNQ_ARG_OK &&
	   p.val[LUNQ_BUBBLE_MS] == 4 && lunq_key_supported(LUNQ_BUBBLE_MS),
	   "bubble_ms");

	/* valid words (on a copy) */
	q = p;
	ok(parse(&q, "reaction:sd-fc", &k) == LUNQ_ARG_OK &&
	   q.val[LUNQ_REACTION] == 3, "enum-valid");
	ok(parse(&q, "pool:abcdefghijabcdefghijabcdefghijX", &k) ==
	   LUNQ_ARG_OK && strlen(q.pool) == 31, "name-31-chars");
	ok(parse(&q, "pblk:4096", &k) == LUNQ_ARG_OK &&
	   q.val[LUNQ_PBLK] == 4096, "pow2-valid");
	ok(lunq_key_table_only(LUNQ_POOL) && lunq_key_table_only(LUNQ_PBLK) &&
	   lunq_key_table_only(LUNQ_POOL_DEPTH) &&
	   !lunq_key_table_only(LUNQ_LUN_DEPTH) &&
	   !lunq_key_table_only(LUNQ_QDEPTH), "table-only-keys");

	/* rules between keys */
	q = p;
	ok(lunq_policy_check(&q) == NULL, "rules-defaults-ok");
	q.val[LUNQ_REACTION] = 1;
	ok(refused_by(&q, "reaction: needs qdepth"), "rule-reaction-needs-qdepth");
	q.val[LUNQ_QDEPTH] = 8;
	ok(lunq_policy_check(&q) == NULL, "rule-reaction-with-qdepth");
	q.val[LUNQ_FOREIGN] = 2;
	ok(refused_by(&q, "foreign: needs"), "rule-foreign-needs-slots");
	q.val[LUNQ_LUN_DEPTH] = 2;
	ok(refused_by(&q, "foreign: must be below lun_depth"),
	   "rule-foreign-below-lun-depth");
	q.val[LUNQ_FOREIGN_PERIOD_MS] = 1000;
	ok(lunq_policy_check(&q) == NULL, "rule-foreign-periodic-ok");
	q.given |= 1U << LUNQ_POOL_DEPTH;
	ok(refused_by(&q, "pool_depth: needs pool"), "rule-pool-depth-needs-pool");

	ok(!strcmp(lunq_arg_error(LUNQ_ARG_BAD_VALUE, LUNQ_QDEPTH),
		   "qdepth: value must be an integer 0..65535"), "msg-range");
	ok(!strcmp(lunq_arg_error(LUNQ_ARG_BAD_VALUE, LUNQ_SCHED),
		   "sched: value must be one of fifo, disksort"), "msg-enum");
	ok(!strcmp(lunq_arg_error(LUNQ_ARG_UNKNOWN_KEY, LUNQ_NR_KEYS),
		   "Unknown optional argument key"), "msg-unknown");

	/* TABLE echo: given keys in canonical order, key:value words */
	p.given = 1U << LUNQ_QDEPTH | 1U << LUNQ_SCHED | 1U << LUNQ_POOL |
		  1U << LUNQ_MODEL;
	p.val[LUNQ_QDEPTH] = 8;
	p.val[LUNQ_SCHED] = 1;
	p.val[LUNQ_MODEL] = 3;
	strcpy(p.pool, "tgt0");
	ok(lunq_policy_format(&p, buf, sizeof(buf)) == 4 &&
	   !strcmp(buf, "qdepth:8 sched:disksort pool:tgt0 model:hdd"),
	   "format");
	ok(lunq_policy_format(&p, buf, 20) == 1 &&
	   !strcmp(buf, "qdepth:8"), "format-truncates-whole-words");
	lunq_keys_init(&p);
	ok(lunq_policy_format(&p, buf, sizeof(buf)) == 0 && !buf[0],
	   "format-empty");
	{
		char line[] = " qdepth:8\tsched:fifo \n", three[] = "a b c";
		char blank[] = " \t\n", *av[2];

		ok(lunq_split_words(line, av, 2) == 2 &&
		   !strcmp(av[0], "qdepth:8") && !strcmp(av[1], "sched:fifo"),
		   "split-words");
		ok(lunq_split_words(blank, av, 2) == 0, "split-blank");
		ok(lunq_split_words(three, av, 2) == -E2BIG, "split-too-many");
	}
	/* auto's start: its own key, and the old spelling (qdepth) */
	lunq_keys_init(&p);
	ok(set_line(&p, "auto:knee auto_start:12") &&
	   p.val[LUNQ_AUTO_START] == 12 && p.val[LUNQ_QDEPTH] == 0 &&
	   formats(&p, "auto:knee auto_start:12", 2), "auto-start");
	lunq_keys_init(&p);
	ok(set_line(&p, "qdepth:20 auto:knee") &&
	   p.val[LUNQ_AUTO_START] == 20 && p.val[LUNQ_QDEPTH] == 20 &&
	   formats(&p, "qdepth:20 auto:knee auto_start:20", 3),
	   "auto-start-old-spelling");
	/* ... set auto:off, set qdepth:32, set auto:knee: auto starts at 32 */
	ok(set_line(&p, "auto:off"), "auto-start-off");
	ok(set_line(&p, "qdepth:32"), "auto-start-qdepth-while-off");
	ok(set_line(&p, "auto:knee") && p.val[LUNQ_AUTO_START] == 32 &&
	   p.val[LUNQ_QDEPTH] == 32 &&
	   formats(&p, "qdepth:32 auto:knee auto_start:32", 3),
	   "auto-start-old-spelling-while-off");
	/* auto off, auto_start:0 given: a qdepth word leaves it (sysfs) */
	lunq_keys_init(&p);
	ok(set_line(&p, "qdepth:8"), "auto-start-off-qdepth");
	ok(set_line(&p, "auto_start:0") && p.val[LUNQ_AUTO_START] == 0,
	   "auto-start-said-0");
	ok(set_line(&p, "qdepth:16") && p.val[LUNQ_AUTO_START] == 0 &&
	   p.val[LUNQ_QDEPTH] == 16, "auto-start-said-qdepth-leaves-it");
	ok(set_line(&p, "auto:knee") && p.val[LUNQ_AUTO_START] == 0,
	   "auto-start-said-auto-on");
	before = p;
	ok(parse(&p, "auto_start:65536", &k) == LUNQ_ARG_BAD_VALUE &&
	   k == LUNQ_AUTO_START &&
	   !strcmp(lunq_arg_error(LUNQ_ARG_BAD_VALUE, k),
		   "auto_start: value must be an integer 0..65535") &&
	   !memcmp(&p, &before, sizeof(p)), "auto-start-bad");

	/* stats: on (default), off; off refused with what reads the times */
	lunq_keys_init(&q);
	ok(q.val[LUNQ_STATS] == 0 && lunq_key_supported(LUNQ_STATS) &&
	   !lunq_key_table_only(LUNQ_STATS), "stats-default-on-live");
	ok(set_line(&q, "stats:off") && q.val[LUNQ_STATS] == 1 &&
	   !lunq_policy_check(&q) && formats(&q, "stats:off", 1),
	   "stats-off");
	ok(set_line(&q, "qdepth:32 stats:off") && !lunq_policy_check(&q) &&
	   formats(&q, "qdepth:32 stats:off", 2), "stats-off-with-qdepth");
	before = q;
	ok(parse(&q, "stats:no", &k) == LUNQ_ARG_BAD_VALUE &&
	   k == LUNQ_STATS &&
	   !strcmp(lunq_arg_error(LUNQ_ARG_BAD_VALUE, k),
		   "stats: value must be one of on, off") &&
	   !memcmp(&q, &before, sizeof(q)), "stats-bad-value");
	q.val[LUNQ_AUTO] = 1;
	ok(refused_by(&q, "stats: off leaves auto"), "stats-off-refuses-auto");
	q.val[LUNQ_AUTO] = 0;
	q.val[LUNQ_BUBBLE_MS] = 5;
	ok(refused_by(&q, "stats: off times no IO"),
	   "stats-off-refuses-bubble");
	q.val[LUNQ_STATS] = 0;
	ok(!lunq_policy_check(&q), "stats-on-bubble-ok");
	ok(set_line(&q, "stats:on") && q.val[LUNQ_STATS] == 0, "stats-on");
	return tap_exit();
}
