// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench reports: the run header, interval lines, the summary
 * (percentiles, DTrace-style quantize, generator CPU, saturation), JSON
 * and key=value output.  Histograms are kmod/lunq_hist.h's layout,
 * printed with liblunq's histview.c.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "run.h"
#include "lunq_hist.h"
#include "histview.h"
#include "json.h"
#include "result.h"
#include "units.h"

static const char *const lat_name[LB_NLAT] = { "response", "service", "lag" };
static const char *const dir_name[LB_NDIR] = { "read", "write" };
static const char *const preset_name[] = {
	[LB_PRESET_NONE] = "none", [LB_PRESET_BUBBLE] = "bubble",
	[LB_PRESET_ALIGN] = "align", [LB_PRESET_SEQ] = "seq",
	[LB_PRESET_RAND] = "rand", [LB_PRESET_BS] = "bs",
};

/* ---- statistics -------------------------------------------------------------- */

int lb_stats_init(struct lb_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int l = 0; l < LB_NLAT; l++)
		for (int d = 0; d < LB_NDIR; d++) {
			st->h[l][d].counts = calloc(LUNQ_HIST_BUCKETS, sizeof(u64));
			if (!st->h[l][d].counts)
				return -1;
		}
	return 0;
}

void lb_stats_free(struct lb_stats *st)
{
	for (int l = 0; l < LB_NLAT; l++)
		for (int d = 0; d < LB_NDIR; d++) {
			free(st->h[l][d].counts);
			st->h[l][d].counts = NULL;
		}
}

static void hist_merge(struct lq_hist *dst, const struct lq_hist *src)
{
	for (u32 b = 0; b < LUNQ_HIST_BUCKETS; b++)
		dst->counts[b] += src->counts[b];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
}

void lb_stats_add(struct lb_stats *dst, const struct lb_stats *src)
{
	for (int l = 0; l < LB_NLAT; l++)
		for (int d = 0; d < LB_NDIR; d++)
			hist_merge(&dst->h[l][d], &src->h[l][d]);
	for (int d = 0; d < LB_NDIR; d++)
		dst->bytes[d] += src->bytes[d];
	dst->errors += src->errors;
	dst->verify_errors += src->verify_errors;
	dst->fsyncs += src->fsyncs;
	dst->unverified += src->unverified;
	dst->dropped += src->dropped;
	dst->sleeps += src->sleeps;
	dst->spin_ns += src->spin_ns;
	dst->late_sum += src->late_sum;
	if (src->late_max > dst->late_max)
		dst->late_max = src->late_max;
	if (src->backlog_max > dst->backlog_max)
		dst->backlog_max = src->backlog_max;
}

void lb_hist_both(struct lq_hist *dst, const struct lb_stats *st, int lat)
{
	u64 *counts = calloc(LUNQ_HIST_BUCKETS, sizeof(u64));

	memset(dst, 0, sizeof(*dst));
	dst->counts = counts;
	if (!counts)
		return;
	for (int d = 0; d < LB_NDIR; d++)
		hist_merge(dst, &st->h[lat][d]);
}

static u64 pct(const struct lq_hist *h, u32 ppm)
{
	return h->counts ? lunq_hist_percentile(h->counts, h->max, ppm) : 0;
}

/* ---- figures ------------------------------------------------------------------- */

static bool job_open(const struct lb_job *j)
{
	return j->arrival != LB_ARR_CLOSED;
}

/* Lag p99 of an open-loop job against its limit: max(1 ms, 10% of the
 * mean gap); saturated also when arrivals were dropped. */
static bool job_saturated(const struct lb_job *j, u64 *lag_p99, u64 *limit)
{
	struct lq_hist lag;
	u64 lim = (u64)(0.1e9 / j->rate);

	if (!job_open(j))
		return false;
	if (lim < 1000000)
		lim = 1000000;
	lb_hist_both(&lag, &j->st, LB_LAG);
	*lag_p99 = pct(&lag, 990000);
	*limit = lim;
	free(lag.counts);
	return *lag_p99 > lim || j->st.dropped > 0;
}

void lb_figures(const struct lb_run *r, const struct lb_stats *st,
		struct lb_figures *fg)
{
	memset(fg, 0, sizeof(*fg));
	fg->reads = st->h[LB_RESP][LB_RD].count;
	fg->writes = st->h[LB_RESP][LB_WR].count;
	fg->ios = fg->reads + fg->writes;
	fg->bytes = st->bytes[LB_RD] + st->bytes[LB_WR];
	if (r->elapsed_s > 0) {
		fg->iops = (double)fg->ios / r->elapsed_s;
		fg->mbps = (double)fg->bytes / r->elapsed_s / 1048576.0;
	}
	fg->open = job_open(&r->jobs[0]);
	for (int k = 0; k < r->njobs; k++) {
		const struct lb_job *j = &r->jobs[k];
		u64 p99 = 0, lim = 0;

		if (job_open(j) == fg->open)
			fg->qd += j->iodepth * j->threads;
		if (job_saturated(j, &p99, &lim)) {
			fg->saturated = true;
			if (!fg->lag_limit || p99 > fg->lag_p99) {
				fg->lag_p99 = p99;
				fg->lag_limit = lim;
			}
		}
	}
}

/*
 * The result record (lib/result.h) of statistics @st over the run's
 * elapsed time: a job's (@open, @qd and @saturated its own) or the
 * run's (lb_figures'); the --kv line, the JSON's totals and the text
 * summary's totals are written from it.
 */
static void lb_result(const struct lb_run *r, const struct lb_stats *st,
		      bool open, u32 qd, bool saturated, struct lq_result *res)
{
	u64 reads = st->h[LB_RESP][LB_RD].count, writes = st->h[LB_RESP][LB_WR].count;
	u64 bytes = st->bytes[LB_RD] + st->bytes[LB_WR];
	struct lq_hist resp, svc, lag;

	lb_hist_both(&resp, st, LB_RESP);
	lb_hist_both(&svc, st, LB_SVC);
	lb_hist_both(&lag, st, LB_LAG);
	*res = (struct lq_result){
		.ios = reads + writes,
		.reads = reads,
		.writes = writes,
		.errors = st->errors,
		.verify_errors = st->verify_errors,
		.elapsed_s = r->elapsed_s,
		.iops = r->elapsed_s > 0 ? (double)(reads + writes) / r->elapsed_s : 0,
		.mbps = r->elapsed_s > 0 ? (double)bytes / r->elapsed_s / 1048576.0 : 0,
		.resp_p50_ns = pct(&resp, 500000),
		.resp_p90_ns = pct(&resp, 900000),
		.resp_p99_ns = pct(&resp, 990000),
		.resp_p999_ns = pct(&resp, 999000),
		.resp_max_ns = resp.max,
		.svc_p50_ns = pct(&svc, 500000),
		.svc_p99_ns = pct(&svc, 990000),
		.lag_p99_ns = pct(&lag, 990000),
		.saturated = saturated,
		.open = open,
		.qd = qd,
	};
	free(resp.counts);
	free(svc.counts);
	free(lag.counts);
}

/* The run's record: its totals over all jobs. */
static void run_result(const struct lb_run *r, struct lq_result *res)
{
	struct lb_figures fg;

	lb_figures(r, &r->st, &fg);
	lb_result(r, &r->st, fg.open, fg.qd, fg.saturated, res);
}

/* ---- CPU ------------------------------------------------------------------- */

static u64 job_ios(const struct lb_job *j)
{
	return j->st.h[LB_RESP][LB_RD].count + j->st.h[LB_RESP][LB_WR].count;
}

/* Where the generator's CPU went: each job's threads, the main thread,
 * and the kernel's threads working for the process (io_uring's io-wq). */
static void cpu_line(FILE *f, const struct lb_run *r)
{
	fputs("  by thread:", f);
	for (int k = 0; k < r->njobs; k++) {
		const struct lb_job *j = &r->jobs[k];
		u64 n = job_ios(j);

		fprintf(f, " %s%s%.2f us per IO (%.2f s),", j->name,
			j->name[0] ? " " : "the job ",
			n ? (double)j->cpu_ns / 1e3 / (double)n : 0,
			(double)j->cpu_ns / 1e9);
	}
	fprintf(f, " main %.2f s", r->cpu_main_s);
	if (r->cpu_kernel_s > 0)
		fprintf(f, ", io_uring workers %.2f s (IOs the target would not take without waiting, issued again)",
			r->cpu_kernel_s);
	fputc('\n', f);
}

/* ---- interval lines ----------------------------------------------------------- */

void lb_ival_take(struct lb_run *r, struct lb_ival *iv, u64 *prev_lag,
		  u64 *cur_lag)
{
	struct lb_ival sum;

	memset(&sum, 0, sizeof(sum));
	memset(iv, 0, sizeof(*iv));
	memset(cur_lag, 0, 2 * LUNQ_HIST_BUCKETS * sizeof(u64));
	for (int i = 0; i < r->nworkers; i++) {
		struct lb_live *l = &r->workers[i].live;
		u64 m = __atomic_exchange_n(&l->resp_max, 0, __ATOMIC_RELAXED);

		sum.ios += __atomic_load_n(&l->ios, __ATOMIC_RELAXED);
		sum.reads += __atomic_load_n(&l->reads, __ATOMIC_RELAXED);
		sum.bytes += __atomic_load_n(&l->bytes, __ATOMIC_RELAXED);
		sum.resp_sum += __atomic_load_n(&l->resp_sum, __ATOMIC_RELAXED);
		sum.svc_sum += __atomic_load_n(&l->svc_sum, __ATOMIC_RELAXED);
		sum.errors += __atomic_load_n(&l->errors, __ATOMIC_RELAXED);
		if (m > iv->resp_max)
			iv->resp_max = m;
		for (u32 b = 0; b < LUNQ_HIST_BUCKETS; b++) {
			cur_lag[b] += __atomic_load_n(&l->lag[b], __ATOMIC_RELAXED);
			cur_lag[LUNQ_HIST_BUCKETS + b] +=
				__atomic_load_n(&l->resp[b], __ATOMIC_RELAXED);
		}
	}
	iv->ios = sum.ios - r->ivcum.ios;
	iv->reads = sum.reads - r->ivcum.reads;
	iv->bytes = sum.bytes - r->ivcum.bytes;
	iv->resp_sum = sum.resp_sum - r->ivcum.resp_sum;
	iv->svc_sum = sum.svc_sum - r->ivcum.svc_sum;
	iv->errors = sum.errors - r->ivcum.errors;
	r->ivcum = sum;
	for (u32 b = 0; b < 2 * LUNQ_HIST_BUCKETS; b++) {
		u64 c = cur_lag[b];

		cur_lag[b] = c - prev_lag[b];
		prev_lag[b] = c;
	}
	iv->lag_p99 = lunq_hist_percentile(cur_lag, ~0ULL, 990000);
	iv->resp_p99 = lunq_hist_percentile(cur_lag + LUNQ_HIST_BUCKETS,
					    iv->resp_max, 990000);
	iv->wall = (long)time(NULL);
}

void lb_report_ival_header(FILE *f)
{
	fprintf(f, "%-8s %9s %10s %8s %9s %7s %9s %9s %9s %12s\n", "hh:mm:ss",
		"interval", "i/o rate", "MB/sec", "bytes/io", "read%", "resp",
		"resp_max", "lag_p99", "queue_depth");
}

void lb_report_ival(FILE *f, const struct lb_ival *iv)
{
	time_t wall = (time_t)iv->wall;
	struct tm tm;
	double n = (double)iv->ios, len = iv->len > 0 ? iv->len : 1;

	localtime_r(&wall, &tm);
	fprintf(f, "%02d:%02d:%02d %9u %10.1f %8.2f %9.0f %7.2f %9.3f %9.3f %9.3f %12.2f%s%s\n",
		tm.tm_hour, tm.tm_min, tm.tm_sec, iv->n, n / len,
		(double)iv->bytes / len / 1048576.0,
		iv->ios ? (double)iv->bytes / n : 0,
		iv->ios ? 100.0 * (double)iv->reads / n : 0,
		iv->ios ? (double)iv->resp_sum / n / 1e6 : 0,
		(double)iv->resp_max / 1e6, (double)iv->lag_p99 / 1e6,
		(double)iv->svc_sum / (len * 1e9),
		iv->warmup ? "  warmup" : "",
		iv->errors ? "  errors" : "");
}

/* ---- header -------------------------------------------------------------------- */

static void fmt_bytes(char *b, size_t n, u64 v)
{
	lq_fmt_bytes(b, n, v);
}

static const char *arrival_name(enum lb_arrival a)
{
	switch (a) {
	case LB_ARR_POISSON: return "poisson";
	case LB_ARR_UNIFORM: return "uniform";
	case LB_ARR_FIXED: return "fixed";
	case LB_ARR_BURST: return "burst";
	default: return "closed";
	}
}

/* "eof", or the percentage ("0.01") */
static void fmt_seekpct(char *b, size_t n, const struct lb_workload *w)
{
	if (w->seek_eof)
		snprintf(b, n, "eof");
	else
		lb_fmt_seekpct(b, n, w->seek_ppm);
}

static void job_line(FILE *f, const struct lb_run *r, const struct lb_job *j)
{
	const struct lb_opts *o = r->o;
	const struct lb_workload *w = &j->w;
	char lo[32], hi[32], sz[32], sk[32];

	fmt_bytes(lo, sizeof(lo), w->range_lo);
	fmt_bytes(hi, sizeof(hi), w->range_hi);
	fmt_seekpct(sk, sizeof(sk), w);
	fprintf(f, "  %s%sbs %s, rdpct %u, seekpct %s", j->name,
		j->name[0] ? ": " : "", o->bs_spec, w->rdpct, sk);
	if (w->skew == LB_SKEW_ZIPF)
		fprintf(f, ", zipf %g", w->zipf_theta);
	else if (w->skew == LB_SKEW_HOT)
		fprintf(f, ", hot %u/%u", w->hot_pct, w->hot_io_pct);
	fprintf(f, ", range [%s, %s)", lo, hi);
	if (w->offset)
		fprintf(f, " + offset %llu", (unsigned long long)w->offset);
	if (w->align) {
		fmt_bytes(sz, sizeof(sz), w->align);
		fprintf(f, ", align %s", sz);
	}
	if (o->engine == LB_ENG_URING)
		fprintf(f, "; uring QD %u x %u thread%s (batch %u)", j->iodepth,
			j->threads, j->threads > 1 ? "s" : "", j->batch);
	else
		fprintf(f, "; sync %u thread%s", j->threads,
			j->threads > 1 ? "s" : "");
	if (job_open(j))
		fprintf(f, ", open loop %g IOs/s %s\n", j->rate,
			arrival_name(j->arrival));
	else
		fprintf(f, ", closed loop\n");
}

void lb_report_header(FILE *f, const struct lb_run *r)
{
	const struct lb_opts *o = r->o;
	char sz[32];

	fprintf(f, "lunqbench %s", LB_VERSION);
	if (o->preset != LB_PRESET_NONE)
		fprintf(f, ", preset %s", preset_name[o->preset]);
	if (o->elapsed > 0)
		fprintf(f, ", %g s", o->elapsed);
	if (o->warmup > 0)
		fprintf(f, " (warmup %g s)", o->warmup);
	if (o->ios)
		fprintf(f, ", %llu IOs", (unsigned long long)o->ios);
	fprintf(f, ", seed %llu%s\n", (unsigned long long)o->seed,
		o->verify ? ", verify" : "");
	for (int i = 0; i < r->ntgts; i++) {
		const struct lb_target *t = &r->tgts[i];

		fmt_bytes(sz, sizeof(sz), t->size);
		fprintf(f, "  %s: %s %s, %u-byte sectors, %s\n", t->path, sz,
			t->blk ? "block device" : "file", t->lbs,
			o->buffered ? "buffered" : "O_DIRECT");
	}
	for (int k = 0; k < r->njobs; k++)
		job_line(f, r, &r->jobs[k]);
}

/* ---- summary ------------------------------------------------------------------- */

static const struct {
	const char *name;
	u32 ppm;
} pcts[] = {
	{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 },
	{ "p99.9", 999000 }, { "p99.99", 999900 },
};

/* A percentile means little when fewer than 10 IOs lie beyond it. */
static bool pct_shown(u64 n, u32 ppm)
{
	return (long double)n * (1000000 - ppm) / 1e6L >= 10;
}

static void lat_row(FILE *f, const char *label, const struct lq_hist *h)
{
	char b[32];

	fprintf(f, "  %-14s %9llu", label, (unsigned long long)h->count);
	if (!h->count) {
		fputc('\n', f);
		return;
	}
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		if (pct_shown(h->count, pcts[i].ppm))
			lq_fmt_ns(b, sizeof(b), pct(h, pcts[i].ppm));
		else
			snprintf(b, sizeof(b), "-");
		fprintf(f, " %9s", b);
	}
	lq_fmt_ns(b, sizeof(b), h->max);
	fprintf(f, " %9s", b);
	lq_fmt_ns(b, sizeof(b), (u64)((long double)h->sum / h->count + 0.5L));
	fprintf(f, " %9s\n", b);
}

static void lat_table(FILE *f, const struct lb_stats *st, bool open)
{
	bool mixed = st->h[LB_RESP][LB_RD].count && st->h[LB_RESP][LB_WR].count;

	fprintf(f, "  %-14s %9s", "", "ios");
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		fprintf(f, " %9s", pcts[i].name);
	fprintf(f, " %9s %9s\n", "max", "mean");
	for (int l = open ? LB_RESP : LB_SVC; l < LB_NLAT; l++) {
		struct lq_hist h;
		char label[32];

		lb_hist_both(&h, st, l);
		lat_row(f, lat_name[l], &h);
		free(h.counts);
		if (mixed && l != LB_LAG)
			for (int d = 0; d < LB_NDIR; d++) {
				snprintf(label, sizeof(label), "%s %s", lat_name[l],
					 dir_name[d]);
				lat_row(f, label, &st->h[l][d]);
			}
	}
}

static void loop_line(FILE *f, const struct lb_run *r, const struct lb_job *j,
		      const struct lb_stats *st)
{
	if (job_open(j)) {
		fprintf(f, "open loop, %g IOs/s %s, at most %u outstanding: response = lag + service\n",
			j->rate, arrival_name(j->arrival), j->iodepth * j->threads);
		fprintf(f, "  backlog max %llu, dropped %llu\n",
			(unsigned long long)st->backlog_max,
			(unsigned long long)st->dropped);
	} else {
		fprintf(f, "closed loop: service latency at QD %u (not response times; lag: completion to next submit)\n",
			j->iodepth * j->threads);
	}
	(void)r;
}

void lb_report_summary(FILE *f, const struct lb_run *r)
{
	const struct lb_opts *o = r->o;
	struct lb_figures fg;
	struct lq_result res;
	struct lq_hist h;
	int hl;

	lb_figures(r, &r->st, &fg);
	run_result(r, &res);
	fprintf(f, "\nsummary%s: ios %llu (reads %llu, writes %llu), errors %llu, verify errors %llu, elapsed %.2f s\n",
		r->interrupted ? " (interrupted)" : "",
		(unsigned long long)res.ios, (unsigned long long)res.reads,
		(unsigned long long)res.writes,
		(unsigned long long)res.errors,
		(unsigned long long)res.verify_errors, res.elapsed_s);
	fprintf(f, "  iops %.1f, MB/s %.2f, bytes/io %.0f\n", res.iops, res.mbps,
		res.ios ? (double)fg.bytes / (double)res.ios : 0);
	if (o->fsync_every)
		fprintf(f, "  fsync: %llu fdatasyncs, one after every %u writes of a thread\n",
			(unsigned long long)r->st.fsyncs, o->fsync_every);
	if (o->verify)
		fprintf(f, "  verify: %llu reads checked, %llu not checked (a write to their blocks failed)\n",
			(unsigned long long)(res.reads - r->st.unverified),
			(unsigned long long)r->st.unverified);

	if (r->njobs > 1) {
		fprintf(f, "jobs (latency: response in open loop, service in closed loop):\n");
		fprintf(f, "  %-24s %-6s %9s %10s %8s %9s %9s %9s\n", "job", "loop",
			"ios", "iops", "MB/s", "p50", "p99", "max");
		for (int k = 0; k < r->njobs; k++) {
			const struct lb_job *j = &r->jobs[k];
			u64 n, bytes = j->st.bytes[LB_RD] + j->st.bytes[LB_WR];
			char b1[32], b2[32], b3[32];

			lb_hist_both(&h, &j->st, job_open(j) ? LB_RESP : LB_SVC);
			n = h.count;
			lq_fmt_ns(b1, sizeof(b1), pct(&h, 500000));
			if (pct_shown(n, 990000))
				lq_fmt_ns(b2, sizeof(b2), pct(&h, 990000));
			else
				snprintf(b2, sizeof(b2), "-");
			lq_fmt_ns(b3, sizeof(b3), h.max);
			fprintf(f, "  %-24s %-6s %9llu %10.1f %8.2f %9s %9s %9s\n",
				j->name, job_open(j) ? "open" : "closed",
				(unsigned long long)n,
				r->elapsed_s > 0 ? (double)n / r->elapsed_s : 0,
				r->elapsed_s > 0 ? (double)bytes / r->elapsed_s / 1048576.0 : 0,
				n ? b1 : "-", n ? b2 : "-", n ? b3 : "-");
			free(h.counts);
		}
		for (int k = 0; k < r->njobs; k++) {
			fprintf(f, "%s: ", r->jobs[k].name);
			loop_line(f, r, &r->jobs[k], &r->jobs[k].st);
			lat_table(f, &r->jobs[k].st, job_open(&r->jobs[k]));
		}
	} else {
		loop_line(f, r, &r->jobs[0], &r->st);
		lat_table(f, &r->st, fg.open);
	}

	hl = fg.open ? LB_RESP : LB_SVC;
	if (r->njobs > 1) {
		/* per job: their latencies differ in kind and size */
		for (int k = 0; k < r->njobs; k++) {
			const struct lb_job *j = &r->jobs[k];

			lb_hist_both(&h, &j->st, job_open(j) ? LB_RESP : LB_SVC);
			if (h.count) {
				fprintf(f, "\n%s: %s latency (ns), %llu IOs:\n", j->name,
					job_open(j) ? "response" : "service",
					(unsigned long long)h.count);
				lq_hist_print_quantize(f, &h);
			}
			free(h.counts);
		}
	} else {
		lb_hist_both(&h, &r->st, hl);
		if (h.count) {
			fprintf(f, "\n%s latency (ns), %llu IOs:\n", lat_name[hl],
				(unsigned long long)h.count);
			lq_hist_print_quantize(f, &h);
		}
		free(h.counts);
	}

	fprintf(f, "\ngenerator: %.2f us CPU per IO (user %.2f s, sys %.2f s); clock read %llu ns\n",
		fg.ios ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)fg.ios : 0,
		r->cpu_user_s, r->cpu_sys_s, (unsigned long long)r->clock_ns);
	cpu_line(f, r);
	if (r->st.sleeps) {
		char a[32], b[32];

		lq_fmt_ns(a, sizeof(a), r->st.late_sum / r->st.sleeps);
		lq_fmt_ns(b, sizeof(b), r->st.late_max);
		fprintf(f, "timers: %llu timed sleeps woke %s late on average, at worst %s (--spin %u",
			(unsigned long long)r->st.sleeps, a, b, r->o->spin_pct);
		if (r->st.spin_ns) {
			lq_fmt_ns(a, sizeof(a), r->st.spin_ns);
			fprintf(f, ": spun %s in all)\n", a);
		} else {
			fprintf(f, ": never spun)\n");
		}
	}
	if (fg.saturated) {
		char a[32], b[32];

		lq_fmt_ns(a, sizeof(a), fg.lag_p99);
		lq_fmt_ns(b, sizeof(b), fg.lag_limit);
		fprintf(f, "WARNING: the open-loop schedule was not kept: lag p99 %s (limit %s), backlog max %llu, dropped %llu; these response times are not the target's alone\n",
			a, b, (unsigned long long)r->st.backlog_max,
			(unsigned long long)r->st.dropped);
		if (r->st.dropped)
			fprintf(f, "  %llu arrivals were never issued: still in the backlog when the run ended\n",
				(unsigned long long)r->st.dropped);
		if (r->st.backlog_max)
			fprintf(f, "  arrivals waited for a free slot (all --iodepth x --threads were out): the target was slower than the rate, or the limit is too low\n");
		else
			fprintf(f, "  the generator itself was late (CPU or timer wake-ups: see the timers line)\n");
	}
	for (int i = 0; i < r->nworkers; i++)
		if (r->workers[i].fatal) {
			fprintf(f, "WARNING: the run stopped early (%s failed)\n",
				r->workers[i].fatal);
			break;
		}
}

/* ---- key=value ----------------------------------------------------------------- */

void lb_report_kv(FILE *f, const struct lb_run *r)
{
	struct lq_result res;

	run_result(r, &res);
	lq_result_kv(f, &res);
}

/* ---- JSON ---------------------------------------------------------------------- */

static void json_hist(FILE *f, const struct lq_hist *h)
{
	const char *sep = "";

	fprintf(f, "{\"count\":%llu,\"sum\":%llu,\"max\":%llu,\"buckets\":[",
		(unsigned long long)h->count, (unsigned long long)h->sum,
		(unsigned long long)h->max);
	for (u32 b = 0; b < LUNQ_HIST_BUCKETS; b++) {
		if (!h->counts[b])
			continue;
		fprintf(f, "%s[%u,%llu]", sep, b, (unsigned long long)h->counts[b]);
		sep = ",";
	}
	fputs("]}", f);
}

static void json_hists(FILE *f, const struct lb_stats *st)
{
	fputs("{", f);
	for (int d = 0; d < LB_NDIR; d++) {
		fprintf(f, "%s\"%s\":{", d ? "," : "", dir_name[d]);
		for (int l = 0; l < LB_NLAT; l++) {
			fprintf(f, "%s\"%s\":", l ? "," : "", lat_name[l]);
			json_hist(f, &st->h[l][d]);
		}
		fputs("}", f);
	}
	fputs("}", f);
}

static void json_pcts(FILE *f, const struct lb_stats *st)
{
	fputs("{", f);
	for (int l = 0; l < LB_NLAT; l++) {
		struct lq_hist h;

		lb_hist_both(&h, st, l);
		fprintf(f, "%s\"%s\":{\"count\":%llu", l ? "," : "", lat_name[l],
			(unsigned long long)h.count);
		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
			fprintf(f, ",\"%s\":%llu", pcts[i].name,
				(unsigned long long)pct(&h, pcts[i].ppm));
		fprintf(f, ",\"max\":%llu,\"mean\":", (unsigned long long)h.max);
		lq_json_num(f, h.count ? (double)h.sum / (double)h.count : 0);
		fputs("}", f);
		free(h.counts);
	}
	fputs("}", f);
}

/*
 * The members of a "totals" object in order: a field of the result
 * record by its key (lib/result.h), or a figure of the statistics the
 * record does not hold.
 */
enum tot_src { T_REC, T_BYTES, T_UNVERIFIED, T_FSYNCS, T_BACKLOG, T_DROPPED, T_PCTS };
static const struct {
	const char *key;
	enum tot_src src;
} totals_members[] = {
	{ "ios", T_REC }, { "reads", T_REC }, { "writes", T_REC },
	{ "bytes", T_BYTES }, { "errors", T_REC }, { "verify_errors", T_REC },
	{ "unverified", T_UNVERIFIED }, { "fsyncs", T_FSYNCS },
	{ "elapsed_s", T_REC }, { "iops", T_REC }, { "mbps", T_REC },
	{ "loop", T_REC }, { "qd", T_REC }, { "backlog_max", T_BACKLOG },
	{ "dropped", T_DROPPED }, { "saturated", T_REC },
	{ "percentiles_ns", T_PCTS },
};

/* A figure of @st the record does not hold */
static u64 tot_figure(const struct lb_stats *st, enum tot_src src)
{
	switch (src) {
	case T_BYTES: return st->bytes[LB_RD] + st->bytes[LB_WR];
	case T_UNVERIFIED: return st->unverified;
	case T_FSYNCS: return st->fsyncs;
	case T_BACKLOG: return st->backlog_max;
	case T_DROPPED: return st->dropped;
	default: return 0;
	}
}

static void json_totals(FILE *f, const struct lb_run *r, const struct lb_stats *st,
			const struct lq_result *res)
{
	for (size_t i = 0; i < sizeof(totals_members) / sizeof(totals_members[0]); i++) {
		enum tot_src src = totals_members[i].src;

		if (src == T_FSYNCS && !r->o->fsync_every)
			continue;
		fprintf(f, "%s\"%s\":", i ? "," : "{", totals_members[i].key);
		if (src == T_REC)
			lq_result_json_value(f, lq_result_field(totals_members[i].key),
					     res, lq_json_num);
		else if (src == T_PCTS)
			json_pcts(f, st);
		else
			fprintf(f, "%llu", (unsigned long long)tot_figure(st, src));
	}
	fputs("}", f);
}

/* "seekpct": the percentage, exact (up to 4 decimals), "seek_eof" */
static void json_seek(FILE *f, const struct lb_workload *w)
{
	char b[32];

	lb_fmt_seekpct(b, sizeof(b), w->seek_ppm);
	fprintf(f, ",\"seekpct\":%s,\"seek_eof\":%s", b,
		w->seek_eof ? "true" : "false");
}

static void json_config(FILE *f, const struct lb_run *r)
{
	const struct lb_opts *o = r->o;

	fprintf(f, "{\"engine\":\"%s\",\"iodepth\":%u,\"threads\":%u,\"batch\":%u,\"bs\":",
		o->engine == LB_ENG_URING ? "uring" : "sync", o->iodepth,
		o->threads, o->batch);
	lq_json_str(f, o->bs_spec);
	fprintf(f, ",\"rdpct\":%u", o->w.rdpct);
	json_seek(f, &o->w);
	fprintf(f, ",\"align\":%u,\"skew\":\"%s\"", o->w.align,
		o->w.skew == LB_SKEW_ZIPF ? "zipf" :
		o->w.skew == LB_SKEW_HOT ? "hot" : "none");
	if (o->w.skew == LB_SKEW_ZIPF) {
		fputs(",\"zipf_theta\":", f);
		lq_json_num(f, o->w.zipf_theta);
	}
	if (o->w.skew == LB_SKEW_HOT)
		fprintf(f, ",\"hot_pct\":%u,\"hot_io_pct\":%u", o->w.hot_pct,
			o->w.hot_io_pct);
	fprintf(f, ",\"seed\":%llu,\"iorate\":", (unsigned long long)o->seed);
	lq_json_num(f, o->iorate);
	fprintf(f, ",\"arrival\":\"%s\",\"elapsed_s\":",
		o->iorate > 0 ? arrival_name(o->arrival) : "closed");
	lq_json_num(f, o->elapsed);
	fputs(",\"interval_s\":", f);
	lq_json_num(f, o->interval);
	fputs(",\"warmup_s\":", f);
	lq_json_num(f, o->warmup);
	fprintf(f, ",\"spin_pct\":%u", o->spin_pct);
	fprintf(f, ",\"ios_limit\":%llu,\"verify\":%s,\"direct\":%s,\"preset\":\"%s\"",
		(unsigned long long)o->ios, o->verify ? "true" : "false",
		o->buffered ? "false" : "true", preset_name[o->preset]);
	fputs(",\"targets\":[", f);
	for (int i = 0; i < r->ntgts; i++) {
		fprintf(f, "%s{\"path\":", i ? "," : "");
		lq_json_str(f, r->tgts[i].path);
		fprintf(f, ",\"size\":%llu,\"sector\":%u,\"type\":\"%s\"}",
			(unsigned long long)r->tgts[i].size, r->tgts[i].lbs,
			r->tgts[i].blk ? "block" : "file");
	}
	fprintf(f, "],\"clock\":\"CLOCK_MONOTONIC\",\"clock_read_ns\":%llu}",
		(unsigned long long)r->clock_ns);
}

/* The body of a run: jobs, totals, intervals, histograms (no braces). */
static void json_run_body(FILE *f, const struct lb_run *r)
{
	struct lb_figures fg;
	struct lq_result res;

	lb_figures(r, &r->st, &fg);
	run_result(r, &res);
	fputs("\"jobs\":[", f);
	for (int k = 0; k < r->njobs; k++) {
		const struct lb_job *j = &r->jobs[k];
		u64 p99 = 0, lim = 0;
		bool sat = job_saturated(j, &p99, &lim);
		struct lq_result res;

		fprintf(f, "%s{\"name\":", k ? "," : "");
		lq_json_str(f, j->name);
		fputs(",\"target\":", f);
		lq_json_str(f, j->tgt->path);
		fprintf(f, ",\"loop\":\"%s\",\"arrival\":\"%s\",\"rate\":",
			job_open(j) ? "open" : "closed", arrival_name(j->arrival));
		lq_json_num(f, job_open(j) ? j->rate : 0);
		fprintf(f, ",\"iodepth\":%u,\"threads\":%u,\"rdpct\":%u",
			j->iodepth, j->threads, j->w.rdpct);
		json_seek(f, &j->w);
		fprintf(f, ",\"range\":[%llu,%llu],\"offset\":%llu,\"totals\":",
			(unsigned long long)j->w.range_lo,
			(unsigned long long)j->w.range_hi,
			(unsigned long long)j->w.offset);
		lb_result(r, &j->st, job_open(j), j->iodepth * j->threads, sat, &res);
		json_totals(f, r, &j->st, &res);
		fputs(",\"cpu_s\":", f);
		lq_json_num(f, (double)j->cpu_ns / 1e9);
		fputs(",\"cpu_ns_per_io\":", f);
		lq_json_num(f, job_ios(j) ? (double)j->cpu_ns / (double)job_ios(j) : 0);
		fputs(",\"hist\":", f);
		json_hists(f, &j->st);
		fputs("}", f);
	}
	fputs("],\"totals\":", f);
	json_totals(f, r, &r->st, &res);
	fprintf(f, ",\"interrupted\":%s,\"cpu_user_s\":", r->interrupted ? "true" : "false");
	lq_json_num(f, r->cpu_user_s);
	fputs(",\"cpu_sys_s\":", f);
	lq_json_num(f, r->cpu_sys_s);
	fputs(",\"cpu_ns_per_io\":", f);
	lq_json_num(f, fg.ios ? (r->cpu_user_s + r->cpu_sys_s) * 1e9 / (double)fg.ios : 0);
	fputs(",\"spin_s\":", f);
	lq_json_num(f, (double)r->st.spin_ns / 1e9);
	fputs(",\"cpu_main_s\":", f);
	lq_json_num(f, r->cpu_main_s);
	fputs(",\"cpu_kernel_workers_s\":", f);
	lq_json_num(f, r->cpu_kernel_s);
	fputs(",\"intervals\":[", f);
	for (size_t i = 0; i < r->niv; i++) {
		const struct lb_ival *iv = &r->iv[i];
		double len = iv->len > 0 ? iv->len : 1, n = (double)iv->ios;

		fprintf(f, "%s{\"n\":%u,\"t\":", i ? "," : "", iv->n);
		lq_json_num(f, iv->t);
		fputs(",\"len\":", f);
		lq_json_num(f, iv->len);
		fprintf(f, ",\"ios\":%llu,\"reads\":%llu,\"bytes\":%llu,\"errors\":%llu,\"iops\":",
			(unsigned long long)iv->ios, (unsigned long long)iv->reads,
			(unsigned long long)iv->bytes, (unsigned long long)iv->errors);
		lq_json_num(f, n / len);
		fputs(",\"mbps\":", f);
		lq_json_num(f, (double)iv->bytes / len / 1048576.0);
		fputs(",\"resp_mean_ns\":", f);
		lq_json_num(f, iv->ios ? (double)iv->resp_sum / n : 0);
		fprintf(f, ",\"resp_p99_ns\":%llu,\"resp_max_ns\":%llu,\"lag_p99_ns\":%llu,\"queue_depth\":",
			(unsigned long long)iv->resp_p99,
			(unsigned long long)iv->resp_max,
			(unsigned long long)iv->lag_p99);
		lq_json_num(f, (double)iv->svc_sum / (len * 1e9));
		fprintf(f, ",\"warmup\":%s}", iv->warmup ? "true" : "false");
	}
	fprintf(f, "],\"hist_layout\":{\"name\":\"lunq_hist\",\"unit\":\"ns\",\"exact\":%u,\"sub_bits\":%u,\"max_bits\":%u,\"buckets\":%u}",
		LUNQ_HIST_EXACT, LUNQ_HIST_SUB_BITS, LUNQ_HIST_MAX_BITS,
		LUNQ_HIST_BUCKETS);
	fputs(",\"hist\":", f);
	json_hists(f, &r->st);
}

void lb_report_json(FILE *f, const struct lb_run *r)
{
	fprintf(f, "{\"schema\":%d,\"lunqbench\":\"%s\",\"config\":",
		LQ_JSON_SCHEMA, LB_VERSION);
	json_config(f, r);
	fputs(",", f);
	json_run_body(f, r);
	fputs("}\n", f);
}

/* ---- --preset align and bs: the scans -------------------------------------------- */

/* The run's value in a scan: its offset (align) or IO size (bs). */
static u64 scan_value(const struct lb_run *r)
{
	return r->o->preset == LB_PRESET_BS ? r->bs : r->offset;
}

void lb_report_scan_header(FILE *f, const struct lb_run *r)
{
	struct lb_figures fg;
	bool bs = r->o->preset == LB_PRESET_BS;

	lb_figures(r, &r->st, &fg);
	fprintf(f, "%s scan: %s\n", bs ? "IO size" : "offset",
		fg.open ? "response latency (open loop)" :
		"service latency (closed loop)");
	fprintf(f, "%*s %10s %10s %8s %9s %9s %9s %9s\n", bs ? 8 : 6,
		bs ? "size" : "offset", "ios", "iops", "MB/s", "mean", "p50",
		"p99", "max");
}

void lb_report_scan_line(FILE *f, const struct lb_run *r)
{
	struct lb_figures fg;
	struct lq_hist h;
	char mean[32], p50[32], p99[32], mx[32];

	lb_figures(r, &r->st, &fg);
	lb_hist_both(&h, &r->st, fg.open ? LB_RESP : LB_SVC);
	lq_fmt_ns(mean, sizeof(mean), h.count ? h.sum / h.count : 0);
	lq_fmt_ns(p50, sizeof(p50), pct(&h, 500000));
	if (pct_shown(h.count, 990000))
		lq_fmt_ns(p99, sizeof(p99), pct(&h, 990000));
	else
		snprintf(p99, sizeof(p99), "-");
	lq_fmt_ns(mx, sizeof(mx), h.max);
	fprintf(f, "%*llu %10llu %10.1f %8.2f %9s %9s %9s %9s%s%s\n",
		r->o->preset == LB_PRESET_BS ? 8 : 6,
		(unsigned long long)scan_value(r), (unsigned long long)fg.ios,
		fg.iops, fg.mbps, mean, p50, p99, mx,
		r->st.errors ? "  errors" : "",
		fg.saturated ? "  saturated" : "");
	free(h.counts);
}

void lb_report_scan_json(FILE *f, struct lb_run *const *runs, int n)
{
	fprintf(f, "{\"schema\":%d,\"lunqbench\":\"%s\",\"config\":",
		LQ_JSON_SCHEMA, LB_VERSION);
	if (n)
		json_config(f, runs[0]);
	else
		fputs("{}", f);
	fputs(",\"runs\":[", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s{\"%s\":%llu,", i ? "," : "",
			runs[i]->o->preset == LB_PRESET_BS ? "bs_bytes" : "offset",
			(unsigned long long)scan_value(runs[i]));
		json_run_body(f, runs[i]);
		fputs("}", f);
	}
	fputs("]}\n", f);
}
