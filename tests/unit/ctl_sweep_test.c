// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ctl/sweep.c, sweep_write.c, tune.c and uintlist.c (lunqctl
 * sweep and tune, pure parts) with lib/result.c and units.c: parsing
 * lunqbench's --kv summary line, the list and duration arguments, the
 * knee finder on synthetic curves, grouping points into curves, the tune
 * rule, the policy-file section tune prints (read back with the real
 * policy-file parser), and the table, CSV and JSON writers against the
 * golden files tests/unit/golden/sweep.txt, sweep.csv, sweep.json (the
 * fixture is tests/unit/ctl_sweep_fixture.h).  The JSON is also parsed by
 * python3 when there is one.  One "ok N name" / "not ok N name" line per
 * check.
 *
 * LINK: ctl/sweep.c ctl/sweep_write.c ctl/tune.c ctl/uintlist.c lib/result.c ctl/svg.c ctl/policyfile.c ctl/kv.c kmod/lunq_args.c lib/units.c lib/json.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sweep.h"
#include "sweep_write.h"
#include "tune.h"
#include "uintlist.h"
#include "policyfile.h"
#include "pf_check.h"
#include "units.h"
#include "golden.h"
#include "ctl_sweep_fixture.h"
#include "py_check.h"

#define TAP_PREFIX "sweep-"
#include "tap.h"

static const char full_kv[] =
	"ios=5994 reads=5994 writes=0 errors=0 verify_errors=0 elapsed_s=3.001 "
	"iops=1997.3 mbps=8.18 resp_p50_ns=2011135 resp_p90_ns=2490367 "
	"resp_p99_ns=2916351 resp_p999_ns=3178495 resp_max_ns=3407872 "
	"svc_p50_ns=2002943 svc_p99_ns=2899967 lag_p99_ns=15871 saturated=0 "
	"loop=closed qd=4\n";

static void test_kv(void)
{
	struct lq_result r;
	char err[128] = "", out[1024];
	const char *l;

	ok(!lq_result_parse(full_kv, &r, err, sizeof(err)) && r.ios == 5994 &&
	   r.reads == 5994 && r.writes == 0 && r.elapsed_s == 3.001 &&
	   r.iops == 1997.3 && r.mbps == 8.18 && r.resp_p50_ns == 2011135 &&
	   r.resp_p90_ns == 2490367 && r.resp_p99_ns == 2916351 &&
	   r.resp_p999_ns == 3178495 && r.resp_max_ns == 3407872 &&
	   r.svc_p50_ns == 2002943 && r.svc_p99_ns == 2899967 &&
	   r.lag_p99_ns == 15871 && !r.saturated && !r.open && r.qd == 4,
	   "kv-full-line");
	ok(!lq_result_parse("ios=10 errors=2 elapsed_s=1 iops=10 mbps=0.04 resp_p50_ns=1 "
			   "resp_p99_ns=2 resp_p999_ns=3 resp_max_ns=4 loop=open "
			   "saturated=1 future_key=xyz", &r, err, sizeof(err)) &&
	   r.open && r.saturated && r.errors == 2 && r.qd == 0,
	   "kv-unknown-key-skipped-optional-zero");
	ok(lq_result_parse("ios=10 errors=0 elapsed_s=1 iops=10 mbps=0 resp_p50_ns=1 "
			  "resp_p999_ns=3 resp_max_ns=4 loop=open", &r, err, sizeof(err)) &&
	   strstr(err, "no resp_p99_ns= word"), "kv-missing-required");
	ok(lq_result_parse("ios=ten", &r, err, sizeof(err)) &&
	   strstr(err, "bad value in 'ios=ten'"), "kv-bad-number");
	ok(lq_result_parse("ios=1 loop=sideways", &r, err, sizeof(err)) &&
	   strstr(err, "loop=sideways"), "kv-bad-loop");
	ok(lq_result_parse("ios=1 garbage", &r, err, sizeof(err)) &&
	   strstr(err, "'garbage' is not key=value"), "kv-not-a-word");
	ok(lq_result_parse("ios=1 iops=-5", &r, err, sizeof(err)) != 0, "kv-negative");

	snprintf(out, sizeof(out), "lunqbench 0.1: 1 target\nios=1 old\ninterval lines\n%s"
		 "done\n", full_kv);
	l = lq_result_find(out);
	ok(l && !strncmp(l, full_kv, 40), "find-kv-last-line");
	ok(l && !lq_result_parse(l, &r, err, sizeof(err)) && r.ios == 5994,
	   "find-kv-parse-stops-at-newline");
	ok(!lq_result_find("no summary\n xios=1\n"), "find-kv-none");
}

static void test_args(void)
{
	u32 v[LQ_SWEEP_LIST_MAX];
	char err[128] = "", buf[32];
	u64 ns = 0;
	int k;

	k = lq_parse_uint_list("1,2,4,8,16,32,64", 0, 65535, v, LQ_SWEEP_LIST_MAX,
			       err, sizeof(err));
	ok(k == 7 && v[0] == 1 && v[6] == 64, "list-qdepth");
	ok(lq_parse_uint_list("1,,2", 0, 9, v, 8, err, sizeof(err)) == -1 &&
	   strstr(err, "empty item"), "list-empty-item");
	ok(lq_parse_uint_list("4,x", 0, 9, v, 8, err, sizeof(err)) == -1 &&
	   strstr(err, "'x' is not a number"), "list-not-number");
	ok(lq_parse_uint_list("4,70000", 0, 65535, v, 8, err, sizeof(err)) == -1 &&
	   strstr(err, "70000 is out of range 0..65535"), "list-range");
	ok(lq_parse_uint_list("0,101", 1, 100, v, 8, err, sizeof(err)) == -1 &&
	   strstr(err, "0 is out of range 1..100"), "list-range-low");
	ok(lq_parse_uint_list("4,8,4", 0, 9, v, 8, err, sizeof(err)) == -1 &&
	   strstr(err, "4 is given twice"), "list-duplicate");
	ok(lq_parse_uint_list("1,2,3", 0, 9, v, 2, err, sizeof(err)) == -1 &&
	   strstr(err, "more than 2"), "list-too-many");
	ok(lq_parse_uint_list("", 0, 9, v, 2, err, sizeof(err)) == -1, "list-empty");
	ok(lq_parse_uint_list("-1", 0, 9, v, 2, err, sizeof(err)) == -1, "list-sign");

	ok(!lq_parse_duration_ns("10ms", &ns) && ns == 10000000, "dur-ms");
	ok(!lq_parse_duration_ns("2.5ms", &ns) && ns == 2500000, "dur-fraction");
	ok(!lq_parse_duration_ns("500us", &ns) && ns == 500000, "dur-us");
	ok(!lq_parse_duration_ns("1s", &ns) && ns == 1000000000, "dur-s");
	ok(!lq_parse_duration_ns(".5s", &ns) && ns == 500000000, "dur-leading-dot");
	ok(!lq_parse_duration_ns("800ns", &ns) && ns == 800, "dur-ns");
	ok(lq_parse_duration_ns("10", &ns) && lq_parse_duration_ns("ms", &ns) &&
	   lq_parse_duration_ns("0ms", &ns) && lq_parse_duration_ns("-1ms", &ns) &&
	   lq_parse_duration_ns("10 ms", &ns) && lq_parse_duration_ns("10min", &ns),
	   "dur-refused");

	lq_fmt_ns(buf, sizeof(buf), 64200000);
	ok(!strcmp(buf, "64.2 ms"), "fmt-dur-ms");
	lq_fmt_ns(buf, sizeof(buf), 812);
	ok(!strcmp(buf, "812 ns"), "fmt-dur-ns");
	lq_fmt_ns(buf, sizeof(buf), 2916351);
	ok(!strcmp(buf, "2.92 ms"), "fmt-dur-3-digits");
	lq_fmt_ns(buf, sizeof(buf), 999600000);
	ok(!strcmp(buf, "1.00 s"), "fmt-dur-round-up-unit");
	lq_fmt_ns(buf, sizeof(buf), 10000000);
	ok(!strcmp(buf, "10.0 ms"), "fmt-dur-10ms");
}

static void test_knee(void)
{
	/* IOPS rise linearly with load while p99 stays, then IOPS flatten
	 * and p99 climbs: the bend is index 3 (3000 IOPS at 2 ms)
	 */
	const double bx[] = { 1000, 2000, 3000, 3000, 3050, 3060 };
	const double by[] = { 2e6, 2e6, 2e6, 4e6, 8e6, 16e6 };
	/* Little's law, closed loop with N outstanding on a 4-way LUN of
	 * 2 ms: X = 500 min(N, 4), R = N / X; the bend is N = 4 (index 2)
	 */
	double lx[6], ly[6];
	const int nq[] = { 1, 2, 4, 8, 16, 32 };
	/* perfect scaling, no bend: IOPS grow, p99 constant */
	const double mx[] = { 100, 200, 400, 800 };
	const double my[] = { 1e6, 1e6, 1e6, 1e6 };
	const double one_x[] = { 1234 }, one_y[] = { 5e6 };
	/* equal power at index 1 and 2 (2000/2ms = 4000/4ms): the earlier */
	const double tx[] = { 1000, 2000, 4000, 4100 };
	const double ty[] = { 2e6, 2e6, 4e6, 8e6 };
	const double zx[] = { 0, 100, 200 }, zy[] = { 1e6, 0, 1e6 };
	double pw = -1;
	int i;

	for (i = 0; i < 6; i++) {
		lx[i] = 500.0 * (nq[i] < 4 ? nq[i] : 4);
		ly[i] = nq[i] / lx[i] * 1e9;
	}
	ok(lq_knee(bx, by, 6, &pw) == 2 && pw == 1500000, "knee-linear-then-flat");
	ok(lq_knee(lx, ly, 6, NULL) == 2, "knee-littles-law");
	ok(lq_knee(mx, my, 4, NULL) == 3, "knee-monotone-no-bend-is-last");
	ok(lq_knee(one_x, one_y, 1, &pw) == 0 && pw > 246799 && pw < 246801,
	   "knee-single-point");
	ok(lq_knee(tx, ty, 4, NULL) == 1, "knee-tie-earlier");
	ok(lq_knee(zx, zy, 3, NULL) == 2, "knee-skips-zero-iops-and-p99");
	ok(lq_knee(zx, zy, 1, &pw) == -1 && pw == 0, "knee-none");
	ok(lq_knee(NULL, NULL, 0, NULL) == -1, "knee-empty");
}

static void add(struct lq_sweep *s, const char *sched, u32 qd, bool open, u32 pct,
		bool probe, double iops, u64 p99_ns)
{
	struct lq_point p;

	fx_point(&p, sched, qd, open, pct, probe);
	p.r.iops = iops;
	p.r.resp_p99_ns = p99_ns;
	p.qfull_s = -1;
	lq_sweep_add(s, &p);
}

static void test_curves(void)
{
	struct lq_sweep s;
	const struct lq_curve *c;

	lq_sweep_init(&s, "lq", "/dev/mapper/lq", "");
	add(&s, "fifo", 0, false, 0, false, 2100, 50000000);	/* unlimited: last */
	add(&s, "fifo", 4, false, 0, false, 2000, 3000000);
	add(&s, "fifo", 1, false, 0, false, 500, 2500000);
	add(&s, "disksort", 4, false, 0, true, 2000, 3000000);	/* a probe */
	add(&s, "disksort", 4, true, 50, false, 1000, 2100000);
	add(&s, "disksort", 4, true, 10, false, 200, 2000000);
	add(&s, "disksort", 8, true, 10, false, 200, 2000000);
	add(&s, "fifo", 2, false, 0, false, 0, 0);		/* no IOs: not drawn */
	ok(!lq_sweep_curves(&s) && s.ncurves == 3, "curves-count");
	c = &s.curves[0];
	ok(!strcmp(c->label, "fifo closed") && c->n == 3 && c->idx[0] == 2 &&
	   c->idx[1] == 1 && c->idx[2] == 0, "curves-closed-by-qdepth-0-last");
	ok(c->knee == 1 && s.pts[1].knee && !s.pts[0].knee, "curves-closed-knee");
	c = &s.curves[1];
	ok(!strcmp(c->label, "disksort qdepth=4 open") && c->n == 2 &&
	   c->idx[0] == 5 && c->idx[1] == 4, "curves-open-by-rate");
	ok(!strcmp(s.curves[2].label, "disksort qdepth=8 open") && s.curves[2].n == 1,
	   "curves-open-per-qdepth");
	ok(s.pts[3].curve == -1 && s.pts[7].curve == -1 && !s.pts[3].knee,
	   "curves-probe-and-empty-not-drawn");
	lq_sweep_free(&s);
	ok(s.n == 0 && !s.pts && !s.curves, "curves-free");
}

static void test_tune(void)
{
	struct lq_sweep s;
	struct lq_tune t;

	/* max 2000; 95% = 1900: qdepth 4 (1950) is the smallest in range */
	lq_sweep_init(&s, "lq", "/dev/mapper/lq", "");
	add(&s, "fifo", 1, false, 0, false, 495, 2300000);
	add(&s, "fifo", 2, false, 0, false, 985, 2400000);
	add(&s, "fifo", 4, false, 0, false, 1950, 2900000);
	add(&s, "fifo", 8, false, 0, false, 1990, 5100000);
	add(&s, "fifo", 16, false, 0, false, 2000, 9800000);
	add(&s, "fifo", 32, false, 0, true, 5000, 1000);	/* open curves' probe */
	s.pts[5].open = true;	/* an open point: never considered */
	ok(lq_tune_pick(s.pts, s.n, 10000000, 95, &t) == 2 && t.max == 4 &&
	   t.max_iops == 2000 && t.fastest_ok == -1, "tune-smallest-within-95pct");
	ok(lq_tune_pick(s.pts, s.n, 2800000, 95, &t) == -1 && t.best == 2 &&
	   t.fastest_ok == 1, "tune-none-meets-best-and-fastest-ok");
	ok(lq_tune_pick(s.pts, s.n, 1000, 95, &t) == -1 && t.best == 2 &&
	   t.fastest_ok == -1, "tune-none-meets-anything");
	ok(lq_tune_pick(s.pts, s.n, 2900000, 95, &t) == 2, "tune-p99-equal-target-meets");
	ok(lq_tune_pick(s.pts, s.n, 10000000, 99, &t) == 3, "tune-within-99pct");
	lq_sweep_free(&s);

	/* ties: two qdepths at exactly 95% of the max: the smaller; qdepth
	 * 0 (unlimited) counts as the largest
	 */
	lq_sweep_init(&s, "lq", "/dev/mapper/lq", "");
	add(&s, "fifo", 0, false, 0, false, 2000, 1000000);
	add(&s, "fifo", 16, false, 0, false, 1900, 1000000);
	add(&s, "fifo", 8, false, 0, false, 1900, 1000000);
	ok(lq_tune_pick(s.pts, s.n, 1000000, 95, &t) == 2, "tune-tie-smaller-qdepth-at-95pct");
	s.pts[1].r.iops = s.pts[2].r.iops = 1899.9;
	ok(lq_tune_pick(s.pts, s.n, 1000000, 95, &t) == 0, "tune-unlimited-only-in-range");
	s.pts[0].r.resp_p99_ns = 5000000;
	s.pts[1].r.iops = 1950;
	s.pts[1].r.resp_p99_ns = 4000000;
	s.pts[2].r.iops = 1950;
	s.pts[2].r.resp_p99_ns = 4000000;
	ok(lq_tune_pick(s.pts, s.n, 1000000, 95, &t) == -1 && t.best == 2,
	   "tune-best-tie-smaller-qdepth");
	s.n = 0;
	ok(lq_tune_pick(s.pts, s.n, 1000000, 95, &t) == -1 && t.max == -1 &&
	   t.best == -1, "tune-no-points");
	lq_sweep_free(&s);
}

/* The section and a qdepth line, read back by the policy-file parser. */
static int section_matches(const char *hdr, const struct lq_ident *id)
{
	char text[512];

	snprintf(text, sizeof(text), "# lunqctl tune\n%s\nqdepth = 4\n", hdr);
	return pf_resolves(text, "tune", id, "qdepth:4");
}

static void test_section(void)
{
	struct lq_ident qemu = { .name = "lq", .dm = "lq", .lower = "sda",
				 .vendor = "QEMU", .model = "QEMU HARDDISK" };
	struct lq_ident other = qemu;
	struct lq_ident nvme = { .name = "fast0", .lower = "nvme0n1",
				 .model = "QEMU NVMe Ctrl" };
	struct lq_ident odd = { .name = "odd", .vendor = "A*B",
				 .model = "M[1]\"x\\y#z" };
	struct lq_ident nullb = { .name = "lq#1@2048", .lower = "nullb0" };
	char buf[256];

	lq_tune_section(buf, sizeof(buf), &qemu, true);
	ok(!strcmp(buf, "[vendor=QEMU model=\"QEMU HARDDISK\"]"), "section-vendor-model");
	ok(section_matches(buf, &qemu), "section-vendor-model-parses-and-matches");
	snprintf(other.model, sizeof(other.model), "QEMU CD-ROM");
	ok(!section_matches(buf, &other), "section-other-model-no-match");
	lq_tune_section(buf, sizeof(buf), &nvme, true);
	ok(!strcmp(buf, "[model=\"QEMU NVMe Ctrl\"]") && section_matches(buf, &nvme),
	   "section-model-without-vendor");
	lq_tune_section(buf, sizeof(buf), &odd, true);
	ok(!strcmp(buf, "[vendor=A?B model=\"M?1??x?y#z\"]") && section_matches(buf, &odd),
	   "section-wildcards-and-quotes-become-question-marks");
	lq_tune_section(buf, sizeof(buf), &nullb, true);
	ok(!strcmp(buf, "[name=\"lq#1@2048\"]") && section_matches(buf, &nullb),
	   "section-no-model-by-name-quoted");
	lq_tune_section(buf, sizeof(buf), &qemu, false);
	ok(!strcmp(buf, "[name=lq]") && section_matches(buf, &qemu), "section-by-name");
	lq_tune_section(buf, 8, &qemu, true);
	ok(strlen(buf) == 7, "section-truncated-terminated");
}

/* check NAME: python3's json module reads @text (skipped without python3) */
static void json_parses(const char *text, const char *name)
{
	if (system("command -v python3 > /dev/null 2>&1"))
		skip(name, "no python3");
	else
		ok(py_accepts(text, "import json,sys; json.load(open(sys.argv[1]))"), name);
}

/* every line of @csv (no quoted fields) has @cols fields */
static int csv_columns_equal(const char *csv, int cols)
{
	int k = 1, lines = 0;

	for (; *csv; csv++) {
		if (*csv == ',')
			k++;
		if (*csv == '\n') {
			if (k != cols) {
				diag("line %d has %d fields", lines + 1, k);
				return 0;
			}
			k = 1;
			lines++;
		}
	}
	return lines > 1;
}

static void test_writers(void)
{
	struct lq_sweep s;
	char *out = NULL;

	fixture(&s);
	ok(s.ncurves == 3 && s.pts[2].knee && s.pts[7].knee && s.pts[11].knee &&
	   !s.pts[13].knee && s.n == 14, "fixture-knees");
	CAPTURE(out, lq_sweep_print(f, &s));
	ok(golden("sweep.txt", out), "table-golden");
	free(out);
	CAPTURE(out, lq_sweep_csv(f, &s));
	ok(golden("sweep.csv", out), "csv-golden");
	free(out);
	CAPTURE(out, lq_sweep_json(f, &s));
	ok(golden("sweep.json", out), "json-golden");
	json_parses(out, "json-parses");
	free(out);
	s.pts[3].ran = false;
	s.pts[4].qfull_s = -1;
	CAPTURE(out, lq_sweep_print(f, &s));
	ok(strstr(out, "not measured") != NULL, "table-not-measured");
	free(out);
	CAPTURE(out, lq_sweep_csv(f, &s));
	ok(csv_columns_equal(out, 30), "csv-rows-as-wide-as-header");
	free(out);
	lq_sweep_free(&s);
}

static void test_tune_report(void)
{
	struct lq_ident qemu = { .name = "lq", .dm = "lq", .vendor = "QEMU",
				 .model = "QEMU HARDDISK" };
	struct lq_ident nullb = { .name = "lq", .dm = "lq", .lower = "nullb0" };
	struct lq_tune_req q = { .p99_ns = 10000000, .within_pct = 95,
				 .sched = "fifo", .id = &qemu };
	struct lq_sweep s;
	struct lq_tune t;
	char *out = NULL;

	lq_sweep_init(&s, "lq", "/dev/mapper/lq", "");
	add(&s, "fifo", 1, false, 0, false, 495, 2300000);
	add(&s, "fifo", 4, false, 0, false, 1950, 2900000);
	add(&s, "fifo", 16, false, 0, false, 2000, 9800000);
	lq_tune_pick(s.pts, s.n, q.p99_ns, 95, &t);
	CAPTURE(out, lq_tune_report(f, &s, &t, &q, false));
	ok(!strcmp(out,
		   "lq: qdepth 4 is the smallest within 95% of the most IOPS (2000.0 at qdepth 16) whose p99 meets 10.0 ms: 1950.0 IOPS, p99 2.90 ms\n"
		   "# lunq.conf(5) lines for lq (p99 <= 10.0 ms, sched fifo):\n"
		   "[vendor=QEMU model=\"QEMU HARDDISK\"]\n"
		   "qdepth = 4\n"
		   "# or for lq alone: [name=lq]\n"), "report-met-by-model");
	if (strncmp(out, "lq: qdepth 4", 12))
		printf("# %s", out);
	free(out);
	q.id = &nullb;
	q.sched = "disksort";
	q.sched_given = true;
	CAPTURE(out, lq_tune_report(f, &s, &t, &q, false));
	ok(strstr(out, "\n[name=lq]\nqdepth = 4\nsched = disksort\n") &&
	   !strstr(out, "or for lq alone"), "report-met-by-name-with-sched");
	free(out);
	CAPTURE(out, lq_tune_report(f, &s, &t, &q, true));
	ok(strstr(out, "\"met\":true,\"qdepth\":4,") &&
	   strstr(out, "\"policy\":\"[name=lq]\\nqdepth = 4\\nsched = disksort\\n\"") &&
	   strstr(out, "\"best\":null"), "report-json-met");
	json_parses(out, "report-json-met-parses");
	free(out);
	q.p99_ns = 2500000;
	lq_tune_pick(s.pts, s.n, q.p99_ns, 95, &t);
	CAPTURE(out, lq_tune_report(f, &s, &t, &q, false));
	ok(!strcmp(out,
		   "lq: no qdepth within 95% of the most IOPS (2000.0 at qdepth 16) meets p99 2.50 ms; "
		   "the best was qdepth 4: 1950.0 IOPS, p99 2.90 ms; qdepth 1 meets it at 495.0 IOPS (25% of the most)\n"),
	   "report-none");
	if (strncmp(out, "lq: no qdepth", 13))
		printf("# %s", out);
	free(out);
	CAPTURE(out, lq_tune_report(f, &s, &t, &q, true));
	ok(strstr(out, "\"met\":false,\"qdepth\":null") &&
	   strstr(out, "\"best\":{\"qdepth\":4,") &&
	   strstr(out, "\"fastest_ok\":{\"qdepth\":1,"), "report-json-none");
	json_parses(out, "report-json-none-parses");
	free(out);
	lq_sweep_free(&s);
}

int main(void)
{
	test_kv();
	test_args();
	test_knee();
	test_curves();
	test_tune();
	test_section();
	test_writers();
	test_tune_report();
	return tap_exit();
}
