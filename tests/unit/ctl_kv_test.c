// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of ctl/kv.c: lunqctl's key=value arguments turned
 * into the module's key:value words, checked with kmod/lunq_args.c; and
 * the kernel's policy string read back (lq_policy_read(): a newer
 * module's key skipped, any other bad word refused).
 * LINK: ctl/kv.c kmod/lunq_args.c
 */
#include <stdio.h>
#include <string.h>
#include "kv.h"

#define TAP_PREFIX "kv-"
#include "tap.h"

/* words(mode, expected output or NULL for an error, expected error substring, args...) */
static int run(enum lq_kv_mode mode, const char *want, const char *err_has,
	       int argc, char *const *argv)
{
	char out[LUNQ_POLICY_MAX], err[256] = "";
	int rc = lq_kv_words(argc, argv, mode, out, sizeof(out), err, sizeof(err));

	if (want)
		return rc == 0 && !strcmp(out, want);
	if (rc == 0 || !strstr(err, err_has)) {
		diag("got rc=%d err=\"%s\", want \"%s\"", rc, err, err_has);
		return 0;
	}
	return 1;
}

#define ARGS(...) (sizeof((char *const[]){ __VA_ARGS__ }) / sizeof(char *)), (char *const[]){ __VA_ARGS__ }

/* lq_policy_read(): what every reader of the kernel's policy string gets */
static void test_policy_read(void)
{
	char big[LUNQ_POLICY_MAX + 16], many[LUNQ_POLICY_MAX];
	struct lunq_keys p;
	const char *why = "unset";
	int i;

	ok(!lq_policy_read("qdepth:8 pool:tgt0 newkey:1 sched:disksort", &p, &why) &&
	   !why && p.val[LUNQ_QDEPTH] == 8 && p.val[LUNQ_SCHED] == 1 &&
	   !strcmp(p.pool, "tgt0") &&
	   p.given == ((1ULL << LUNQ_QDEPTH) | (1ULL << LUNQ_POOL) | (1ULL << LUNQ_SCHED)),
	   "policy-newer-key-skipped");
	ok(!lq_policy_read("newkey:1 newkey:2", &p, NULL) && !p.given,
	   "policy-newer-key-twice-skipped");
	ok(!lq_policy_parse("", &p) && !p.given && p.val[LUNQ_QFULL_DELAY_US] == 3000 &&
	   p.val[LUNQ_AUTO_MAX] == 256, "policy-empty-defaults");
	ok(lq_policy_read("qdepth:8 garbage", &p, &why) == -1 && why &&
	   strstr(why, "key:value"), "policy-no-colon-refused");
	ok(lq_policy_read("qdepth:x", &p, &why) == -1 && why &&
	   !strcmp(why, "qdepth: value must be an integer 0..65535"),
	   "policy-bad-value-refused");
	ok(lq_policy_read("qdepth:8 qdepth:9", &p, &why) == -1 && why &&
	   strstr(why, "given more than once"), "policy-duplicate-refused");
	ok(lq_policy_parse("sched:fast", &p) == -1 &&
	   lq_policy_read("sched:fast", &p, NULL) == -1, "policy-parse-is-read");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "qdepth:1 ", 9);
	ok(lq_policy_read(big, &p, &why) == -1 && why && !strcmp(why, "policy too long"),
	   "policy-too-long");
	for (i = 0; i + 2 < (int)sizeof(many); i += 2)
		memcpy(many + i, "a ", 2);
	many[i] = '\0';
	ok(lq_policy_read(many, &p, &why) == -1 && why &&
	   !strcmp(why, "policy of too many words"), "policy-too-many-words");
}

int main(void)
{
	char buf[64];

	ok(!lq_kv_normalize("qdepth=8", buf, sizeof(buf)) && !strcmp(buf, "qdepth:8"),
	   "normalize-equals");
	ok(!lq_kv_normalize("qdepth:8", buf, sizeof(buf)) && !strcmp(buf, "qdepth:8"),
	   "normalize-colon");
	ok(lq_kv_normalize("qdepth", buf, sizeof(buf)) == -1, "normalize-no-separator");
	ok(lq_kv_normalize("=8", buf, sizeof(buf)) == -1, "normalize-no-key");
	ok(lq_kv_normalize("pool=a:b", buf, sizeof(buf)) == 0 && !strcmp(buf, "pool:a:b"),
	   "normalize-first-separator");
	ok(run(LQ_KV_LIVE, "qdepth:8 sched:disksort max_wait_ms:500", NULL,
		  ARGS("qdepth=8", "sched:disksort", "max_wait_ms=500")), "live-words");
	ok(run(LQ_KV_TABLE, "qdepth:8 lun_depth:4 reaction:linux", NULL,
		  ARGS("qdepth=8", "lun_depth=4", "reaction=linux")), "table-words");
	ok(run(LQ_KV_TABLE, "", NULL, 0, NULL), "no-words");
	ok(run(LQ_KV_LIVE, NULL, "qdepth=abc: qdepth: value must be an integer 0..65535",
		  ARGS("qdepth=abc")), "bad-value-names-word-and-range");
	ok(run(LQ_KV_LIVE, NULL, "qdepth=70000: qdepth: value must be an integer 0..65535",
		  ARGS("qdepth=70000")), "out-of-range");
	ok(run(LQ_KV_LIVE, NULL, "sched=elevator: sched: value must be one of fifo, disksort",
		  ARGS("sched=elevator")), "bad-enum");
	ok(run(LQ_KV_LIVE, NULL, "bogus=1: Unknown optional argument key",
		  ARGS("bogus=1")), "unknown-key");
	ok(run(LQ_KV_LIVE, NULL, "qdepth: not a policy word", ARGS("qdepth")),
	   "not-a-word");
	ok(run(LQ_KV_LIVE, NULL, "given more than once", ARGS("qdepth=1", "qdepth:2")),
	   "duplicate");
	ok(run(LQ_KV_LIVE, NULL, "pool=p1: pool: can only be set on the table line",
		  ARGS("qdepth=1", "pool=p1")), "table-only-refused-live");
	ok(run(LQ_KV_TABLE, "pool:p1 pool_depth:4", NULL,
		  ARGS("pool=p1", "pool_depth=4")), "table-only-on-create");
	ok(run(LQ_KV_TABLE, NULL, "reaction: needs qdepth:1 or more",
		  ARGS("reaction=linux")), "table-rule-between-keys");
	ok(run(LQ_KV_LIVE, "reaction:linux", NULL, ARGS("reaction=linux")),
	   "live-rules-left-to-kernel");
	test_policy_read();
	return tap_exit();
}
