// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of ctl/kv.c: lunqctl's key=value arguments turned
 * into the module's key:value words, checked with kmod/lunq_args.c.
 * LINK: ctl/kv.c kmod/lunq_args.c
 */
#include <stdio.h>
#include <string.h>
#include "kv.h"

static int n, failed;

static void check(int cond, const char *name)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d kv-%s\n", cond ? "" : "not ", n, name);
}

/* words(mode, expected output or NULL for an error, expected error substring, args...) */
static int run(enum lq_kv_mode mode, const char *want, const char *err_has,
	       int argc, char *const *argv)
{
	char out[LUNQ_POLICY_MAX], err[256] = "";
	int rc = lq_kv_words(argc, argv, mode, out, sizeof(out), err, sizeof(err));

	if (want)
		return rc == 0 && !strcmp(out, want);
	if (rc == 0 || !strstr(err, err_has)) {
		printf("# got rc=%d err=\"%s\", want \"%s\"\n", rc, err, err_has);
		return 0;
	}
	return 1;
}

#define ARGS(...) (sizeof((char *const[]){ __VA_ARGS__ }) / sizeof(char *)), (char *const[]){ __VA_ARGS__ }

int main(void)
{
	char buf[64];

	check(!lq_kv_normalize("qdepth=8", buf, sizeof(buf)) && !strcmp(buf, "qdepth:8"),
	      "normalize-equals");
	check(!lq_kv_normalize("qdepth:8", buf, sizeof(buf)) && !strcmp(buf, "qdepth:8"),
	      "normalize-colon");
	check(lq_kv_normalize("qdepth", buf, sizeof(buf)) == -1, "normalize-no-separator");
	check(lq_kv_normalize("=8", buf, sizeof(buf)) == -1, "normalize-no-key");
	check(lq_kv_normalize("pool=a:b", buf, sizeof(buf)) == 0 && !strcmp(buf, "pool:a:b"),
	      "normalize-first-separator");
	check(run(LQ_KV_LIVE, "qdepth:8 sched:disksort max_wait_ms:500", NULL,
		  ARGS("qdepth=8", "sched:disksort", "max_wait_ms=500")), "live-words");
	check(run(LQ_KV_TABLE, "qdepth:8 lun_depth:4 reaction:linux", NULL,
		  ARGS("qdepth=8", "lun_depth=4", "reaction=linux")), "table-words");
	check(run(LQ_KV_TABLE, "", NULL, 0, NULL), "no-words");
	check(run(LQ_KV_LIVE, NULL, "qdepth=abc: qdepth: value must be an integer 0..65535",
		  ARGS("qdepth=abc")), "bad-value-names-word-and-range");
	check(run(LQ_KV_LIVE, NULL, "qdepth=70000: qdepth: value must be an integer 0..65535",
		  ARGS("qdepth=70000")), "out-of-range");
	check(run(LQ_KV_LIVE, NULL, "sched=elevator: sched: value must be one of fifo, disksort",
		  ARGS("sched=elevator")), "bad-enum");
	check(run(LQ_KV_LIVE, NULL, "bogus=1: Unknown optional argument key",
		  ARGS("bogus=1")), "unknown-key");
	check(run(LQ_KV_LIVE, NULL, "qdepth: not a policy word", ARGS("qdepth")),
	      "not-a-word");
	check(run(LQ_KV_LIVE, NULL, "given more than once", ARGS("qdepth=1", "qdepth:2")),
	      "duplicate");
	check(run(LQ_KV_LIVE, NULL, "pool=p1: pool: can only be set on the table line",
		  ARGS("qdepth=1", "pool=p1")), "table-only-refused-live");
	check(run(LQ_KV_TABLE, "pool:p1 pool_depth:4", NULL,
		  ARGS("pool=p1", "pool_depth=4")), "table-only-on-create");
	check(run(LQ_KV_TABLE, NULL, "reaction: needs qdepth:1 or more",
		  ARGS("reaction=linux")), "table-rule-between-keys");
	check(run(LQ_KV_LIVE, "reaction:linux", NULL, ARGS("reaction=linux")),
	      "live-rules-left-to-kernel");
	return failed ? 1 : 0;
}
