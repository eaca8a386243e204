// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ctl/iostat.c: iostat -x arithmetic between two snapshots,
 * text and JSON rows, Prometheus exposition (the JSON primitives:
 * lib_json_test.c).
 * One "ok N name" / "not ok N name" line per check.
 *
 * LINK: ctl/iostat.c lib/json.c kmod/lunq_names.c
 *
 * Golden files live in tests/unit/golden/ next to this source (found via
 * __FILE__, so the binary runs from anywhere).  LUNQ_UPDATE_GOLDEN=1
 * rewrites them from the current output instead of comparing: review the
 * diff before committing it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iostat.h"
#include "golden.h"

#define TAP_PREFIX "iostat-"
#include "tap.h"

static int near(double a, double b)
{
	double d = a - b;

	return d < 1e-9 && d > -1e-9;
}

static u64 a[__LUNQ_ST_MAX], b[__LUNQ_ST_MAX];

static void snapshots(void)
{
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	a[LUNQ_ST_SNAPTIME_NS] = 1000000000000ULL;	/* t = 1000 s */
	a[LUNQ_ST_READS] = 100;
	a[LUNQ_ST_WRITES] = 50;
	a[LUNQ_ST_READ_SECTORS] = 800;
	a[LUNQ_ST_WRITE_SECTORS] = 1600;
	a[LUNQ_ST_COMPLETED] = 160;
	a[LUNQ_ST_WLENTIME_NS] = 5000000000ULL;
	a[LUNQ_ST_RLENTIME_NS] = 20000000000ULL;
	a[LUNQ_ST_WTIME_NS] = 1000000000ULL;
	a[LUNQ_ST_RTIME_NS] = 3000000000ULL;
	a[LUNQ_ST_QFULL] = 2;
	a[LUNQ_ST_THROTTLE] = 64;
	a[LUNQ_ST_INFLIGHT] = 9;

	/* 2 s later */
	b[LUNQ_ST_SNAPTIME_NS] = 1002000000000ULL;
	b[LUNQ_ST_READS] = 300;			/* +200: 100/s */
	b[LUNQ_ST_WRITES] = 150;		/* +100: 50/s */
	b[LUNQ_ST_READ_SECTORS] = 800 + 4000;	/* 2000 KiB: 1000 KiB/s */
	b[LUNQ_ST_WRITE_SECTORS] = 1600 + 2048;	/* 1024 KiB: 512 KiB/s */
	b[LUNQ_ST_COMPLETED] = 460;		/* +300 */
	b[LUNQ_ST_WLENTIME_NS] = 5600000000ULL;	/* +0.6 s: wait 0.3, 2 ms */
	b[LUNQ_ST_RLENTIME_NS] = 23600000000ULL; /* +3.6 s: actv 1.8, 12 ms */
	b[LUNQ_ST_WTIME_NS] = 1100000000ULL;	/* +0.1 s: %w 5 */
	b[LUNQ_ST_RTIME_NS] = 4500000000ULL;	/* +1.5 s: %b 75 */
	b[LUNQ_ST_QFULL] = 12;			/* +10: 5/s */
	b[LUNQ_ST_THROTTLE] = 32;
	b[LUNQ_ST_INFLIGHT] = 3;
	b[LUNQ_ST_WAITING] = 1;
}

static void test_compute(void)
{
	struct lq_iostat r;
	char *out;

	snapshots();
	ok(lq_iostat_compute(a, b, &r) == 0, "compute-ok");
	ok(near(r.dt, 2) && near(r.rps, 100) && near(r.wps, 50),
	   "rates");
	ok(near(r.krps, 1000) && near(r.kwps, 512), "kib-rates");
	ok(near(r.wait, 0.3) && near(r.actv, 1.8), "wait-actv");
	ok(near(r.wsvc_t, 2) && near(r.asvc_t, 12), "svc-times-ms");
	ok(near(r.pct_w, 5) && near(r.pct_b, 75), "percent-busy");
	ok(near(r.qfullps, 5), "qfull-rate");
	ok(r.throttle == 32 && r.inflight == 3 && r.waiting == 1,
	   "gauges-from-newer");

	CAPTURE(out, lq_iostat_header(f, true); lq_iostat_row(f, "data0", &r, true));
	ok(!strcmp(out,
		"    r/s    w/s   kr/s   kw/s wait actv wsvc_t asvc_t  %w  %b qfull/s  thr device\n"
		"  100.0   50.0 1000.0  512.0  0.3  1.8    2.0   12.0   5  75     5.0   32 data0\n"),
	   "text-extended");
	if (tap_failed)
		printf("# %s", out);
	free(out);
	CAPTURE(out, lq_iostat_header(f, false); lq_iostat_row(f, "data0", &r, false));
	ok(!strcmp(out,
		"    r/s    w/s   kr/s   kw/s asvc_t  %b  thr device\n"
		"  100.0   50.0 1000.0  512.0   12.0  75   32 data0\n"),
	   "text-short");
	free(out);

	CAPTURE(out, lq_iostat_json_begin(f, "data0", &r); fputc('}', f));
	ok(!strcmp(out,
		"{\"device\":\"data0\",\"interval_s\":2,\"r_s\":100,\"w_s\":50,"
		"\"kr_s\":1000,\"kw_s\":512,\"wait\":0.3,\"actv\":1.8,"
		"\"wsvc_t_ms\":2,\"asvc_t_ms\":12,\"pct_w\":5,\"pct_b\":75,"
		"\"qfull_s\":5,\"r_await_ms\":0,\"r_lunq_ms\":0,\"r_dev_ms\":0,"
		"\"w_await_ms\":0,\"w_lunq_ms\":0,\"w_dev_ms\":0,\"aqu_sz\":2.1,"
		"\"rareq_sz_kib\":10,\"wareq_sz_kib\":10.24,\"pct_util\":75,"
		"\"throttle\":32,\"inflight\":3,\"waiting\":1,\"ios\":300,"
		"\"misaligned\":0,\"non_4k\":0}"),
	   "json");
	free(out);

	/* unlimited throttle: "-"; a wide value widens its column */
	r.throttle = 0;
	r.rps = 1234567.25;
	CAPTURE(out, lq_iostat_row(f, "d", &r, false));
	ok(!strcmp(out,
		"1234567.2   50.0 1000.0  512.0   12.0  75    - d\n"),
	   "text-unlimited-and-wide");
	free(out);
}

static void test_edges(void)
{
	struct lq_iostat r;
	char *out;

	/* NULL older snapshot: everything since the counters were reset */
	snapshots();
	memset(b, 0, sizeof(b));
	b[LUNQ_ST_SNAPTIME_NS] = 4000000000ULL;		/* 4 s */
	b[LUNQ_ST_READS] = 40;
	b[LUNQ_ST_COMPLETED] = 40;
	b[LUNQ_ST_RLENTIME_NS] = 2000000000ULL;		/* actv 0.5, 50 ms */
	b[LUNQ_ST_RTIME_NS] = 1000000000ULL;		/* %b 25 */
	ok(lq_iostat_compute(NULL, b, &r) == 0 && near(r.dt, 4) &&
	   near(r.rps, 10) && near(r.actv, 0.5) && near(r.asvc_t, 50) &&
	   near(r.pct_b, 25) && r.wps == 0 && r.wsvc_t == 0,
	   "null-older-snapshot");

	/* NULL older snapshot: the span starts at crtime_ns */
	b[LUNQ_ST_CRTIME_NS] = 2000000000ULL;		/* 2 s before */
	ok(lq_iostat_compute(NULL, b, &r) == 0 && near(r.dt, 2) &&
	   near(r.rps, 20) && near(r.actv, 1) && near(r.pct_b, 50),
	   "null-older-since-crtime");

	/* crtime moved between the snapshots (a reset): since the reset */
	snapshots();
	b[LUNQ_ST_CRTIME_NS] = b[LUNQ_ST_SNAPTIME_NS] - 1000000000ULL;
	b[LUNQ_ST_READS] = 5;
	b[LUNQ_ST_COMPLETED] = 5;
	ok(lq_iostat_compute(a, b, &r) == 0 && near(r.dt, 1) &&
	   near(r.rps, 5), "reset-between-by-crtime");

	/* snaptime did not advance (or went back): -1, all zero */
	snapshots();
	b[LUNQ_ST_SNAPTIME_NS] = a[LUNQ_ST_SNAPTIME_NS];
	ok(lq_iostat_compute(a, b, &r) == -1 && r.rps == 0 && r.dt == 0,
	   "dt-zero");
	b[LUNQ_ST_SNAPTIME_NS] = a[LUNQ_ST_SNAPTIME_NS] - 1;
	ok(lq_iostat_compute(a, b, &r) == -1, "dt-negative");
	memset(b, 0, sizeof(b));
	ok(lq_iostat_compute(NULL, b, &r) == -1, "null-older-dt-zero");

	/* no completion: service times 0, never NaN */
	snapshots();
	b[LUNQ_ST_COMPLETED] = a[LUNQ_ST_COMPLETED];
	ok(lq_iostat_compute(a, b, &r) == 0 && r.wsvc_t == 0 &&
	   r.asvc_t == 0 && near(r.actv, 1.8), "no-completions-svc-0");
	CAPTURE(out, lq_iostat_json_begin(f, "x", &r); fputc('}', f));
	ok(strstr(out, "\"wsvc_t_ms\":0,\"asvc_t_ms\":0,") &&
	   !strstr(out, "nan") && !strstr(out, ":inf") &&
	   !strstr(out, ":-inf"), "no-completions-json");
	free(out);

	/* a counter reset between the snapshots counts from zero */
	snapshots();
	b[LUNQ_ST_READS] = 20;			/* < a's 100 */
	ok(lq_iostat_compute(a, b, &r) == 0 && near(r.rps, 10),
	   "counter-reset-between");
}

static void test_escape(void)
{
	char *out;

	CAPTURE(out, lq_iostat_json_begin(f, "we\"ird", &(struct lq_iostat){ 0 }); fputc('}', f));
	ok(!strncmp(out, "{\"device\":\"we\\\"ird\",", 20), "json-device-escaped");
	free(out);
}

static void test_prom(void)
{
	static struct lq_dev devs[2];
	char *out;
	int s;

	memset(devs, 0, sizeof(devs));
	strcpy(devs[0].name, "data0");
	for (s = 1; s < __LUNQ_ST_MAX; s++) {
		devs[0].have[s] = true;
		devs[0].st[s] = 1000 + s;
	}
	devs[0].st[LUNQ_ST_THROTTLE] = 32;
	devs[0].st[LUNQ_ST_OLDEST_WAIT_NS] = 1500000;		/* 0.0015 s */
	devs[0].st[LUNQ_ST_SNAPTIME_NS] = 1002000000000ULL;	/* 1002 s */
	devs[0].st[LUNQ_ST_WLENTIME_NS] = 5600000000ULL;	/* 5.6 s */
	devs[0].st[LUNQ_ST_RLENTIME_NS] = 1;			/* 1e-9 s */
	devs[0].st[LUNQ_ST_WTIME_NS] = 0;
	devs[0].st[LUNQ_ST_RTIME_NS] = 123456789012ULL;		/* 123.456789012 */
	/* an older module: fewer statistics; a name needing escapes */
	strcpy(devs[1].name, "odd\"na\\me\n");
	for (s = LUNQ_ST_READS; s <= LUNQ_ST_WRITES; s++) {
		devs[1].have[s] = true;
		devs[1].st[s] = 7;
	}
	devs[1].have[LUNQ_ST_THROTTLE] = true;
	devs[1].have[LUNQ_ST_SNAPTIME_NS] = true;
	devs[1].st[LUNQ_ST_SNAPTIME_NS] = 999999999;
	devs[0].have[LUNQ_ST_BUBBLES] = false;	/* no device has it */

	CAPTURE(out, lq_prom_print(f, devs, 2));
	ok(golden("prom.txt", out), "prom-golden");
	ok(strstr(out, "lunq_reads_total{device=\"odd\\\"na\\\\me\\n\"} 7\n") != NULL,
	   "prom-label-escaped");
	ok(!strstr(out, "bubbles") && !strstr(out, "unspec"),
	   "prom-skips-missing");
	ok(strstr(out, "# TYPE lunq_oldest_wait_seconds gauge\n") &&
	   strstr(out, "lunq_oldest_wait_seconds{device=\"data0\"} 0.0015\n") &&
	   strstr(out, "# TYPE lunq_rtime_seconds_total counter\n") &&
	   strstr(out, "# TYPE lunq_max_inflight gauge\n") &&
	   strstr(out, "# TYPE lunq_qfull_total counter\n"),
	   "prom-types");
	free(out);
	CAPTURE(out, lq_prom_print(f, devs, 0));
	ok(!strcmp(out, ""), "prom-no-devices");
	free(out);
}

int main(void)
{
	test_compute();
	test_edges();
	test_escape();
	test_prom();
	return tap_exit();
}
