// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lunqctl stat's view of the adaptive throttle
 * (ctl/cmd_stat.c, included here with netlink replaced by fixed
 * snapshots): a device with auto on gets its line after the table
 * ("NAME: throttle 16 (auto knee: hold, ...)") and an "auto" object in
 * JSON; a device with auto off gets the object but no line; a module
 * without the auto statistics gets neither.  One "ok N name" /
 * "not ok N name" line per check.
 *
 * LINK: ctl/iostat.c ctl/autotune.c ctl/tune.c ctl/sweep.c ctl/svg.c ctl/kv.c ctl/options.c lib/opts.c lib/util.c lib/json.c lib/units.c kmod/lunq_args.c kmod/lunq_names.c tests/unit/ctl_nl_fake.c
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd_stat.c"
#include "ctl_nl_fake.h"

static bool old_module;

int lq_parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 10);
	return *s && !*end && *v <= max ? 0 : -1;
}

int lq_cmd_help(const char *cmd)
{
	(void)cmd;
	return LQ_OK;
}

int lq_find_dev(struct lq_nl *nl, const char *name, struct lq_dev *d)
{
	(void)nl;
	(void)name;
	(void)d;
	return LQ_ENOTFOUND;
}

int lq_nl_events_join(struct lq_nl *nl)
{
	(void)nl;
	return LQ_EFAIL;
}

int lq_nl_events_wait(struct lq_nl *nl, int timeout_ms,
		      void (*cb)(const struct lq_event *ev, void *arg), void *arg)
{
	(void)nl;
	(void)timeout_ms;
	(void)cb;
	(void)arg;
	return LQ_EFAIL;
}

/* the pool word of a policy string (lunqctl.c parses it with lunq_args) */
void lq_pool_of(const char *policy, char *buf, size_t len)
{
	const char *p = strstr(policy, "pool:");

	buf[0] = '\0';
	if (p)
		snprintf(buf, len, "%.*s", (int)strcspn(p + 5, " "), p + 5);
}

u64 lq_nl_overruns(const struct lq_nl *nl)
{
	(void)nl;
	return 0;
}

static void dev(struct lq_dev *d, const char *name, const char *policy,
		u64 phase, u64 thr)
{
	int k;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->dm_name, sizeof(d->dm_name), "%s", name);
	snprintf(d->policy, sizeof(d->policy), "%s", policy);
	d->st[LUNQ_ST_CRTIME_NS] = 1000000000ULL;
	d->st[LUNQ_ST_SNAPTIME_NS] = 3000000000ULL;	/* 2 s */
	d->st[LUNQ_ST_READS] = 4000;
	d->st[LUNQ_ST_READ_SECTORS] = 32000;
	d->st[LUNQ_ST_COMPLETED] = 4000;
	d->st[LUNQ_ST_RLENTIME_NS] = 32800000000ULL;
	d->st[LUNQ_ST_RTIME_NS] = 2000000000ULL;
	fake_auto(d, thr, phase, phase);
	d->st[LUNQ_ST_MISALIGNED_4K] = 5;
	d->st[LUNQ_ST_SIZE_NOT_4K] = 7;
	d->st[LUNQ_ST_WLENTIME_NS] = 8000000000ULL;	/* 2 ms per read */
	if (!old_module) {
		d->st[LUNQ_ST_READ_WAIT_NS] = 8000000000ULL;
		d->st[LUNQ_ST_READ_SVC_NS] = 32800000000ULL;
	}
	for (k = 1; k < __LUNQ_ST_MAX; k++)
		d->have[k] = !old_module || k < LUNQ_ST_AUTO_PHASE;
}

int lq_nl_dump(struct lq_nl *nl, struct lq_dev **devs, int *n)
{
	(void)nl;
	*devs = calloc(2, sizeof(**devs));
	if (!*devs)
		return LQ_EFAIL;
	dev(&(*devs)[0], "lq0", "qdepth:32 auto:knee", 3, 16);
	dev(&(*devs)[1], "lq1", "qdepth:8 pool:p0", 0, 8);
	*n = 2;
	return LQ_OK;
}

/* ---- running ------------------------------------------------------------------ */

#define TAP_PREFIX "stat-auto-"
#include "tap.h"

static char out[8192];

static int run(const char *args)
{
	char buf[128], *argv[8], *save = NULL, *w;
	FILE *fo = tmpfile(), *fe = fopen("/dev/null", "w");
	int argc = 0, rc;
	size_t k;

	snprintf(buf, sizeof(buf), "stat %s", args);
	for (w = strtok_r(buf, " ", &save); w && argc < 7; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	/* usage errors (options.c's lq_usage) are not what is checked */
	rc = fake_run(cmd_stat, argc, argv, fo, fe);
	fclose(fe);
	rewind(fo);
	k = fread(out, 1, sizeof(out) - 1, fo);
	out[k] = '\0';
	fclose(fo);
	return rc;
}

static int same(const char *got, const char *want)
{
	if (!strcmp(got, want))
		return 1;
	printf("# got:\n%s# want:\n%s", got, want);
	return 0;
}

int main(void)
{
	int rc;

	rc = run("");
	ok(rc == LQ_OK && same(out,
		"    r/s    w/s   kr/s   kw/s asvc_t  %b  thr device\n"
		" 2000.0    0.0 8000.0    0.0    8.2 100   16 lq0\n"
		" 2000.0    0.0 8000.0    0.0    8.2 100    8 lq1\n"
		"lq0: throttle 16 (auto knee: hold, knee 16, peak 2000 IOPS, min service 8.20 ms, window p99 8.40 ms)\n"
		"\n"), "text");
	rc = run("lq1");
	ok(rc == LQ_OK && !strstr(out, "auto"), "text-auto-off");
	rc = run("-j lq0");
	ok(rc == LQ_OK && strstr(out,
		",\"throttle\":16,\"inflight\":0,\"waiting\":0,\"ios\":4000,\"misaligned\":5,\"non_4k\":7,\"auto\":{\"mode\":\"knee\",\"phase\":\"hold\",\"target_ns\":null,\"throttle\":16,\"peak_iops\":2000,\"svc_min_ns\":8200000,\"knee\":16,\"p99_ns\":8400000,\"windows\":0,\"moves\":0}}]}\n"),
	   "json");
	rc = run("-j lq1");
	ok(rc == LQ_OK && strstr(out, "\"auto\":{\"mode\":\"off\",\"phase\":\"off\","),
	   "json-auto-off");

	/* Linux view: await = lunq's wait + the device's */
	rc = run("-L lq0");
	ok(rc == LQ_OK && same(out,
		"Device               r/s     w/s     rkB/s     wkB/s r_await r_lunq  r_dev w_await w_lunq  w_dev aqu-sz rareq-sz wareq-sz  %util misal non4k\n"
		"lq0               2000.0     0.0    8000.0       0.0   10.20   2.00   8.20    0.00   0.00   0.00  20.40      4.0      0.0  100.0     5     7\n"
		"lq0: throttle 16 (auto knee: hold, knee 16, peak 2000 IOPS, min service 8.20 ms, window p99 8.40 ms)\n"
		"\n"), "linux");
	/* totals: a row per pool (lq1 only) and all; thr summed, %b the mean */
	rc = run("-C");
	ok(rc == LQ_OK && strstr(out,
		" 2000.0    0.0 8000.0    0.0    8.2 100    8 pool:p0\n"
		" 4000.0    0.0 16000.0    0.0    8.2 100   24 all\n"), "totals");
	rc = run("-C -j");
	ok(rc == LQ_OK && strstr(out, "{\"schema\":2,") &&
	   strstr(out, "],\"totals\":[{\"pool\":\"p0\",\"devices\":1,\"interval_s\":2,\"r_s\":2000,") &&
	   strstr(out, "{\"pool\":null,\"devices\":2,\"interval_s\":2,\"r_s\":4000,") &&
	   strstr(out, "\"r_await_ms\":10.2,\"r_lunq_ms\":2,\"r_dev_ms\":8.2,"),
	   "totals-json");
	rc = run("-p -C");
	ok(rc == LQ_EUSAGE, "prom-no-totals");

	old_module = true;
	rc = run("");
	ok(rc == LQ_OK && !strstr(out, "auto") && strstr(out, "   16 lq0\n"),
	   "old-module-text");
	rc = run("-j");
	ok(rc == LQ_OK && !strstr(out, "auto") &&
	   strstr(out, "\"throttle\":16,\"inflight\":0,\"waiting\":0,\"ios\":4000,\"misaligned\":5,\"non_4k\":7}"),
	   "old-module-json");
	return tap_exit();
}
