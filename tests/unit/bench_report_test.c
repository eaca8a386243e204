// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench's reports (bench/report.c) on fixed runs, byte for byte
 * against the golden files tests/unit/golden/lunqbench-*: the JSON of a
 * run and of a scan, the text summary, the scan's lines and the --kv
 * line.  The runs
 * are made here, not measured: two jobs (one open loop with reads and
 * writes, lag, a backlog, drops, late timers and spinning; one closed
 * loop), one closed-loop job with --verify and --fsync, and a scan of two
 * runs.  LUNQ_UPDATE_GOLDEN=1 rewrites them (golden.h); their first
 * capture was from the report before its totals came from the result
 * record.
 * LINK: bench/report.c bench/workload.c bench/rng.c lib/histview.c lib/json.c lib/units.c lib/result.c kmod/lunq_hist.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../bench/run.h"
#include "lunq_hist.h"
#include "golden.h"

#define TAP_PREFIX "bench-report-"
#include "tap.h"

/* a fixed sequence of values (an LCG), spread over the layout */
static u64 lcg = 12345;

static u64 next_value(u64 lo, u64 spread)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (lcg >> 33) % spread;
}

static void hist_fill(struct lq_hist *h, u64 n, u64 lo, u64 spread)
{
	h->counts = calloc(LUNQ_HIST_BUCKETS, sizeof(u64));
	for (u64 i = 0; i < n; i++) {
		u64 v = next_value(lo, spread);

		h->counts[lunq_hist_index(v)]++;
		h->count++;
		h->sum += v;
		if (v > h->max)
			h->max = v;
	}
}

static void stats_fill(struct lb_stats *st, u64 rd, u64 wr, u64 lo, u64 spread)
{
	memset(st, 0, sizeof(*st));
	for (int l = 0; l < LB_NLAT; l++) {
		hist_fill(&st->h[l][LB_RD], rd, l == LB_LAG ? lo / 8 : lo, spread);
		hist_fill(&st->h[l][LB_WR], wr, l == LB_LAG ? lo / 8 : lo * 2, spread);
	}
	st->bytes[LB_RD] = rd * 4096;
	st->bytes[LB_WR] = wr * 8192;
}

static void stats_free(struct lb_stats *st)
{
	for (int l = 0; l < LB_NLAT; l++)
		for (int d = 0; d < LB_NDIR; d++)
			free(st->h[l][d].counts);
}

static struct lb_opts opts_base(void)
{
	struct lb_opts o;

	memset(&o, 0, sizeof(o));
	o.engine = LB_ENG_URING;
	o.iodepth = 8;
	o.threads = 1;
	o.batch = 4;
	strcpy(o.bs_spec, "4k");
	o.w.rdpct = 70;
	o.w.seek_ppm = 1000000;
	o.seed = 42;
	o.elapsed = 5;
	o.interval = 1;
	o.spin_pct = 50;
	return o;
}

static struct lb_target tgt = {
	.path = "/dev/mapper/lq", .size = 1ULL << 30, .lbs = 512, .blk = true,
};

static struct lb_job job_base(const char *name, const struct lb_opts *o)
{
	struct lb_job j;

	memset(&j, 0, sizeof(j));
	snprintf(j.name, sizeof(j.name), "%s", name);
	j.tgt = &tgt;
	j.w = o->w;
	j.w.range_hi = tgt.size;
	j.iodepth = o->iodepth;
	j.threads = o->threads;
	j.batch = o->batch;
	return j;
}

static void run_base(struct lb_run *r, const struct lb_opts *o)
{
	*r = (struct lb_run){
		.o = o, .tgts = &tgt, .ntgts = 1, .elapsed_s = 4.987654,
		.cpu_user_s = 0.25, .cpu_sys_s = 1.5, .cpu_main_s = 0.125,
		.clock_ns = 21,
	};
}

/* the merged totals of a run's jobs, as lunqbench.c makes them */
static void run_total(struct lb_run *r)
{
	lb_stats_init(&r->st);
	for (int k = 0; k < r->njobs; k++)
		lb_stats_add(&r->st, &r->jobs[k].st);
}

static struct lb_ival ivals[2] = {
	{ .n = 1, .t = 1.0, .len = 1.0, .ios = 1000, .reads = 700,
	  .bytes = 5000000, .resp_sum = 123456789, .svc_sum = 98765432,
	  .resp_max = 4000000, .lag_p99 = 30000, .resp_p99 = 3000000,
	  .warmup = true },
	{ .n = 2, .t = 2.0, .len = 1.0, .ios = 1100, .reads = 760,
	  .bytes = 5500000, .resp_sum = 133456789, .svc_sum = 108765432,
	  .resp_max = 5000000, .lag_p99 = 40000, .resp_p99 = 3500000,
	  .errors = 2 },
};

typedef void (*report_fn)(FILE *f, const struct lb_run *r);

/* @fn's output on @r against golden file lunqbench-NAME */
static void check(const char *name, report_fn fn, const struct lb_run *r)
{
	char *out = NULL, gold[64];

	CAPTURE(out, fn(f, r));
	snprintf(gold, sizeof(gold), "lunqbench-%s", name);
	ok(golden(gold, out), name);
	free(out);
}

static void scan_json(FILE *f, const struct lb_run *r)
{
	struct lb_run *runs[2] = { (struct lb_run *)r, (struct lb_run *)r + 1 };

	lb_report_scan_json(f, runs, 2);
}

static void scan_text(FILE *f, const struct lb_run *r)
{
	lb_report_scan_header(f, r);
	lb_report_scan_line(f, r);
}

int main(void)
{
	struct lb_opts o2 = opts_base(), o1 = opts_base(), os = opts_base();
	struct lb_job jobs2[2], job1, jobs[2];
	struct lb_run r2, r1, rs[2];

	/* two jobs: "stream" open loop, reads and writes; "far" closed loop */
	o2.preset = LB_PRESET_BUBBLE;
	o2.iorate = 800;
	o2.arrival = LB_ARR_POISSON;
	o2.warmup = 0.5;
	jobs2[0] = job_base("stream", &o2);
	jobs2[0].arrival = LB_ARR_POISSON;
	jobs2[0].rate = 800;
	jobs2[0].cpu_ns = 123456789;
	stats_fill(&jobs2[0].st, 3000, 1000, 200000, 30000000);
	jobs2[0].st.backlog_max = 9;
	jobs2[0].st.dropped = 3;
	jobs2[0].st.sleeps = 4000;
	jobs2[0].st.late_sum = 4000 * 61000;
	jobs2[0].st.late_max = 2500000;
	jobs2[0].st.spin_ns = 77000000;
	jobs2[1] = job_base("far", &o2);
	jobs2[1].iodepth = 1;
	jobs2[1].w.rdpct = 100;
	jobs2[1].w.range_lo = 1ULL << 29;
	jobs2[1].cpu_ns = 3456789;
	stats_fill(&jobs2[1].st, 40, 0, 5000000, 1500000000);
	run_base(&r2, &o2);
	r2.jobs = jobs2;
	r2.njobs = 2;
	r2.iv = ivals;
	r2.niv = 2;
	r2.interrupted = true;
	r2.cpu_kernel_s = 0.0625;
	run_total(&r2);

	/* one closed-loop job, --verify, --fsync, zipf, the sync engine */
	o1.engine = LB_ENG_SYNC;
	o1.threads = 2;
	o1.verify = true;
	o1.fsync_every = 16;
	o1.w.skew = LB_SKEW_ZIPF;
	o1.w.zipf_theta = 0.99;
	o1.w.seek_ppm = 12500;
	o1.w.align = 8192;
	o1.ios = 5000;
	job1 = job_base("", &o1);
	job1.cpu_ns = 987654321;
	stats_fill(&job1.st, 2500, 2500, 50000, 2000000);
	job1.st.errors = 2;
	job1.st.verify_errors = 1;
	job1.st.unverified = 5;
	job1.st.fsyncs = 156;
	run_base(&r1, &o1);
	r1.jobs = &job1;
	r1.njobs = 1;
	run_total(&r1);

	/* a scan (--preset align) of two runs: offsets 0 and 512 */
	os.preset = LB_PRESET_ALIGN;
	os.w.skew = LB_SKEW_HOT;
	os.w.hot_pct = 10;
	os.w.hot_io_pct = 90;
	for (int i = 0; i < 2; i++) {
		jobs[i] = job_base("", &os);
		jobs[i].w.offset = 512 * i;
		stats_fill(&jobs[i].st, 900 + 100 * i, 0, 100000 * (i + 1), 400000);
		run_base(&rs[i], &os);
		rs[i].jobs = &jobs[i];
		rs[i].njobs = 1;
		rs[i].offset = 512 * i;
		run_total(&rs[i]);
	}

	check("jobs.json", lb_report_json, &r2);
	check("jobs.txt", lb_report_summary, &r2);
	check("jobs.kv", lb_report_kv, &r2);
	check("one.json", lb_report_json, &r1);
	check("one.txt", lb_report_summary, &r1);
	check("one.kv", lb_report_kv, &r1);
	check("scan.txt", scan_text, &rs[1]);
	check("scan.json", scan_json, &rs[0]);

	for (int k = 0; k < 2; k++)
		stats_free(&jobs2[k].st);
	stats_free(&job1.st);
	for (int i = 0; i < 2; i++) {
		stats_free(&jobs[i].st);
		lb_stats_free(&rs[i].st);
	}
	lb_stats_free(&r2.st);
	lb_stats_free(&r1.st);
	return tap_exit();
}
