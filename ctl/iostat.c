// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: iostat -x arithmetic, text/JSON rows and Prometheus exposition
 * (iostat.h).  Pure: libc only.
 */
#include <string.h>
#include "iostat.h"
#include "json.h"
#include "lunq_names.h"

/* d(stat) between @a (NULL: all zero) and @b; a reset in between: @b's. */
static u64 lq_delta(const u64 *a, const u64 *b, int i)
{
	u64 old = a ? a[i] : 0;

	return b[i] >= old ? b[i] - old : b[i];
}

int lq_iostat_delta(const u64 *a, const u64 *b, u64 *d)
{
	u64 t0;
	int i;

	/*
	 * The counters restarted between @a and @b (crtime_ns moved: a
	 * reset): the report covers the time since then, all columns alike.
	 */
	if (a && a[LUNQ_ST_CRTIME_NS] != b[LUNQ_ST_CRTIME_NS])
		a = NULL;
	/* since the counters started (a module without crtime_ns: boot) */
	t0 = a ? a[LUNQ_ST_SNAPTIME_NS] : b[LUNQ_ST_CRTIME_NS];
	memset(d, 0, __LUNQ_ST_MAX * sizeof(*d));
	if (b[LUNQ_ST_SNAPTIME_NS] <= t0)
		return -1;
	for (i = 0; i < __LUNQ_ST_MAX; i++)
		d[i] = lq_delta(a, b, i);
	d[LUNQ_ST_SNAPTIME_NS] = b[LUNQ_ST_SNAPTIME_NS] - t0;
	/* gauges: the newer snapshot's */
	d[LUNQ_ST_THROTTLE] = b[LUNQ_ST_THROTTLE];
	d[LUNQ_ST_INFLIGHT] = b[LUNQ_ST_INFLIGHT];
	d[LUNQ_ST_WAITING] = b[LUNQ_ST_WAITING];
	return 0;
}

/* @n / @d, 0 when @d is 0 */
static double lq_div(double n, double d)
{
	return d > 0 ? n / d : 0;
}

void lq_iostat_from_delta(const u64 *d, unsigned int ndev,
			  struct lq_iostat *r)
{
	double ns = (double)d[LUNQ_ST_SNAPTIME_NS], dr, dw, dc;

	memset(r, 0, sizeof(*r));
	if (!ndev || !ns)
		return;
	r->dt = ns / 1e9;
	dr = (double)d[LUNQ_ST_READS];
	dw = (double)d[LUNQ_ST_WRITES];
	dc = (double)d[LUNQ_ST_COMPLETED];
	r->rps = dr / r->dt;
	r->wps = dw / r->dt;
	/* 512-byte sectors -> KiB */
	r->krps = (double)d[LUNQ_ST_READ_SECTORS] / 2 / r->dt;
	r->kwps = (double)d[LUNQ_ST_WRITE_SECTORS] / 2 / r->dt;
	r->wait = (double)d[LUNQ_ST_WLENTIME_NS] / ns;
	r->actv = (double)d[LUNQ_ST_RLENTIME_NS] / ns;
	r->wsvc_t = lq_div((double)d[LUNQ_ST_WLENTIME_NS], dc) / 1e6;
	r->asvc_t = lq_div((double)d[LUNQ_ST_RLENTIME_NS], dc) / 1e6;
	/* a total row: the mean over its devices */
	r->pct_w = 100.0 * (double)d[LUNQ_ST_WTIME_NS] / ns / ndev;
	r->pct_b = 100.0 * (double)d[LUNQ_ST_RTIME_NS] / ns / ndev;
	r->qfullps = (double)d[LUNQ_ST_QFULL] / r->dt;
	r->throttle = d[LUNQ_ST_THROTTLE];
	r->inflight = d[LUNQ_ST_INFLIGHT];
	r->waiting = d[LUNQ_ST_WAITING];
	/* Linux iostat -x, await split into lunq's wait and the device's */
	r->r_lunq = lq_div((double)d[LUNQ_ST_READ_WAIT_NS], dr) / 1e6;
	r->r_dev = lq_div((double)d[LUNQ_ST_READ_SVC_NS], dr) / 1e6;
	r->w_lunq = lq_div((double)d[LUNQ_ST_WRITE_WAIT_NS], dw) / 1e6;
	r->w_dev = lq_div((double)d[LUNQ_ST_WRITE_SVC_NS], dw) / 1e6;
	r->r_await = r->r_lunq + r->r_dev;
	r->w_await = r->w_lunq + r->w_dev;
	r->aqu_sz = r->wait + r->actv;
	r->rareq_sz = lq_div((double)d[LUNQ_ST_READ_SECTORS] / 2, dr);
	r->wareq_sz = lq_div((double)d[LUNQ_ST_WRITE_SECTORS] / 2, dw);
	r->util = r->pct_b;
	r->ios = d[LUNQ_ST_READS] + d[LUNQ_ST_WRITES];
	r->misaligned = d[LUNQ_ST_MISALIGNED_4K];
	r->non_4k = d[LUNQ_ST_SIZE_NOT_4K];
}

int lq_iostat_compute(const u64 *a, const u64 *b, struct lq_iostat *r)
{
	u64 d[__LUNQ_ST_MAX];

	if (lq_iostat_delta(a, b, d)) {
		memset(r, 0, sizeof(*r));
		return -1;
	}
	lq_iostat_from_delta(d, 1, r);
	return 0;
}

void lq_iostat_add(struct lq_iostat_total *t, const u64 *d)
{
	struct lq_iostat r;
	int i;

	/* the interval: the mean of the devices' (they differ by the dump) */
	t->d[LUNQ_ST_SNAPTIME_NS] = (t->d[LUNQ_ST_SNAPTIME_NS] * t->ndev +
				     d[LUNQ_ST_SNAPTIME_NS]) / (t->ndev + 1);
	for (i = 0; i < __LUNQ_ST_MAX; i++)
		if (i != LUNQ_ST_SNAPTIME_NS)
			t->d[i] += d[i];
	/* one unlimited device: the total is unlimited */
	if (!d[LUNQ_ST_THROTTLE])
		t->unlimited = true;
	/* rates and queue lengths: each device's over its own interval */
	lq_iostat_from_delta(d, 1, &r);
	t->rate.rps += r.rps;
	t->rate.wps += r.wps;
	t->rate.krps += r.krps;
	t->rate.kwps += r.kwps;
	t->rate.qfullps += r.qfullps;
	t->rate.wait += r.wait;
	t->rate.actv += r.actv;
	t->rate.pct_w += r.pct_w;
	t->rate.pct_b += r.pct_b;
	t->ndev++;
}

void lq_iostat_total(const struct lq_iostat_total *t, struct lq_iostat *r)
{
	/* per-IO times and sizes: the sums' ratios (weighted by IOs) */
	lq_iostat_from_delta(t->d, t->ndev, r);
	if (!t->ndev)
		return;
	r->rps = t->rate.rps;
	r->wps = t->rate.wps;
	r->krps = t->rate.krps;
	r->kwps = t->rate.kwps;
	r->qfullps = t->rate.qfullps;
	r->wait = t->rate.wait;
	r->actv = t->rate.actv;
	r->aqu_sz = r->wait + r->actv;
	r->pct_w = t->rate.pct_w / t->ndev;
	r->pct_b = t->rate.pct_b / t->ndev;
	r->util = r->pct_b;
	if (t->unlimited)
		r->throttle = 0;
}

void lq_iostat_header(FILE *f, bool extended)
{
	static const char *const ext =
		"    r/s    w/s   kr/s   kw/s wait actv wsvc_t asvc_t  %w  %b qfull/s  thr device";
	static const char *const brief =
		"    r/s    w/s   kr/s   kw/s asvc_t  %b  thr device";

	fprintf(f, "%s\n", extended ? ext : brief);
}

void lq_iostat_row(FILE *f, const char *name, const struct lq_iostat *r,
		   bool extended)
{
	char thr[24];

	if (r->throttle)
		snprintf(thr, sizeof(thr), "%llu",
			 (unsigned long long)r->throttle);
	else
		strcpy(thr, "-");
	fprintf(f, "%7.1f %6.1f %6.1f %6.1f ", r->rps, r->wps, r->krps,
		r->kwps);
	if (extended)
		fprintf(f, "%4.1f %4.1f %6.1f %6.1f %3.0f %3.0f %7.1f %4s %s\n",
			r->wait, r->actv, r->wsvc_t, r->asvc_t, r->pct_w,
			r->pct_b, r->qfullps, thr, name);
	else
		fprintf(f, "%6.1f %3.0f %4s %s\n", r->asvc_t, r->pct_b, thr,
			name);
}

void lq_iostat_linux_header(FILE *f)
{
	fprintf(f, "%-16s %7s %7s %9s %9s %7s %6s %6s %7s %6s %6s %6s %8s %8s %6s %5s %5s\n",
		"Device", "r/s", "w/s", "rkB/s", "wkB/s", "r_await", "r_lunq",
		"r_dev", "w_await", "w_lunq", "w_dev", "aqu-sz", "rareq-sz",
		"wareq-sz", "%util", "misal", "non4k");
}

void lq_iostat_linux_row(FILE *f, const char *name, const struct lq_iostat *r)
{
	fprintf(f, "%-16s %7.1f %7.1f %9.1f %9.1f %7.2f %6.2f %6.2f %7.2f %6.2f %6.2f %6.2f %8.1f %8.1f %6.1f %5llu %5llu\n",
		name, r->rps, r->wps, r->krps, r->kwps, r->r_await, r->r_lunq,
		r->r_dev, r->w_await, r->w_lunq, r->w_dev, r->aqu_sz,
		r->rareq_sz, r->wareq_sz, r->util,
		(unsigned long long)r->misaligned,
		(unsigned long long)r->non_4k);
}

void lq_iostat_json_begin(FILE *f, const char *name, const struct lq_iostat *r)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
		{ "interval_s", offsetof(struct lq_iostat, dt) },
		{ "r_s", offsetof(struct lq_iostat, rps) },
		{ "w_s", offsetof(struct lq_iostat, wps) },
		{ "kr_s", offsetof(struct lq_iostat, krps) },
		{ "kw_s", offsetof(struct lq_iostat, kwps) },
		{ "wait", offsetof(struct lq_iostat, wait) },
		{ "actv", offsetof(struct lq_iostat, actv) },
		{ "wsvc_t_ms", offsetof(struct lq_iostat, wsvc_t) },
		{ "asvc_t_ms", offsetof(struct lq_iostat, asvc_t) },
		{ "pct_w", offsetof(struct lq_iostat, pct_w) },
		{ "pct_b", offsetof(struct lq_iostat, pct_b) },
		{ "qfull_s", offsetof(struct lq_iostat, qfullps) },
		{ "r_await_ms", offsetof(struct lq_iostat, r_await) },
		{ "r_lunq_ms", offsetof(struct lq_iostat, r_lunq) },
		{ "r_dev_ms", offsetof(struct lq_iostat, r_dev) },
		{ "w_await_ms", offsetof(struct lq_iostat, w_await) },
		{ "w_lunq_ms", offsetof(struct lq_iostat, w_lunq) },
		{ "w_dev_ms", offsetof(struct lq_iostat, w_dev) },
		{ "aqu_sz", offsetof(struct lq_iostat, aqu_sz) },
		{ "rareq_sz_kib", offsetof(struct lq_iostat, rareq_sz) },
		{ "wareq_sz_kib", offsetof(struct lq_iostat, wareq_sz) },
		{ "pct_util", offsetof(struct lq_iostat, util) },
	};
	size_t i;

	if (name) {
		fputs("{\"device\":", f);
		lq_json_str(f, name);
	}
	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		fprintf(f, ",\"%s\":", nums[i].key);
		lq_json_num(f, *(const double *)((const char *)r + nums[i].off));
	}
	fprintf(f, ",\"throttle\":%llu,\"inflight\":%llu,\"waiting\":%llu,\"ios\":%llu,\"misaligned\":%llu,\"non_4k\":%llu",
		(unsigned long long)r->throttle,
		(unsigned long long)r->inflight,
		(unsigned long long)r->waiting,
		(unsigned long long)r->ios,
		(unsigned long long)r->misaligned,
		(unsigned long long)r->non_4k);
}

/* Prometheus metric kinds. */
enum lq_prom_kind {
	LQ_PROM_COUNTER,	/* lunq_<name>_total */
	LQ_PROM_SECONDS,	/* ns counter: lunq_<name - _ns>_seconds_total */
	LQ_PROM_GAUGE,		/* lunq_<name> */
	LQ_PROM_GAUGE_SECONDS,	/* ns gauge: lunq_<name - _ns>_seconds */
};

static const struct {
	enum lq_prom_kind kind;
	const char *help;
} lq_prom_stats[__LUNQ_ST_MAX] = {
	[LUNQ_ST_READS] = { LQ_PROM_COUNTER, "Reads completed." },
	[LUNQ_ST_WRITES] = { LQ_PROM_COUNTER, "Writes completed." },
	[LUNQ_ST_FLUSHES] = { LQ_PROM_COUNTER, "Empty flushes completed." },
	[LUNQ_ST_DISCARDS] = { LQ_PROM_COUNTER,
		"Discards and secure erases completed." },
	[LUNQ_ST_OTHER] = { LQ_PROM_COUNTER,
		"Write zeroes and zone management operations completed." },
	[LUNQ_ST_READ_SECTORS] = { LQ_PROM_COUNTER, "512-byte sectors read." },
	[LUNQ_ST_WRITE_SECTORS] = { LQ_PROM_COUNTER,
		"512-byte sectors written." },
	[LUNQ_ST_DISCARD_SECTORS] = { LQ_PROM_COUNTER,
		"512-byte sectors discarded." },
	[LUNQ_ST_ERRORS] = { LQ_PROM_COUNTER, "IOs completed with an error." },
	[LUNQ_ST_COMPLETED] = { LQ_PROM_COUNTER,
		"IOs completed (all operations)." },
	[LUNQ_ST_DISPATCHED] = { LQ_PROM_COUNTER,
		"Commands sent to the lower device." },
	[LUNQ_ST_REQUEUED] = { LQ_PROM_COUNTER,
		"IOs handed back to dm (noflush suspend)." },
	[LUNQ_ST_RETRIED] = { LQ_PROM_COUNTER,
		"Commands sent again after QUEUE FULL or abort." },
	[LUNQ_ST_QFULL] = { LQ_PROM_COUNTER, "QUEUE FULL answers." },
	[LUNQ_ST_RESETS] = { LQ_PROM_COUNTER, "LUN resets." },
	[LUNQ_ST_ABORTED] = { LQ_PROM_COUNTER,
		"Commands aborted by LUN resets." },
	[LUNQ_ST_THROTTLE_CHANGES] = { LQ_PROM_COUNTER,
		"Moves of the throttle by the reaction or auto." },
	[LUNQ_ST_MAX_INFLIGHT] = { LQ_PROM_GAUGE,
		"Highest number of IOs in flight seen." },
	[LUNQ_ST_MAX_WAITING] = { LQ_PROM_GAUGE,
		"Highest number of IOs waiting seen." },
	[LUNQ_ST_THROTTLE] = { LQ_PROM_GAUGE,
		"Live throttle (queue depth; 0 = unlimited)." },
	[LUNQ_ST_INFLIGHT] = { LQ_PROM_GAUGE, "IOs in flight." },
	[LUNQ_ST_WAITING] = { LQ_PROM_GAUGE, "IOs waiting." },
	[LUNQ_ST_RETRYING] = { LQ_PROM_GAUGE,
		"Commands on the retry list." },
	[LUNQ_ST_LUN_INFLIGHT] = { LQ_PROM_GAUGE,
		"Commands holding a slot of the emulated LUN." },
	[LUNQ_ST_POOL_INFLIGHT] = { LQ_PROM_GAUGE,
		"Commands in flight on all LUNs of the pool." },
	[LUNQ_ST_OLDEST_WAIT_NS] = { LQ_PROM_GAUGE_SECONDS,
		"Age of the oldest waiting IO in seconds." },
	[LUNQ_ST_MISALIGNED_4K] = { LQ_PROM_COUNTER,
		"Reads and writes not starting on 4 KiB." },
	[LUNQ_ST_SIZE_NOT_4K] = { LQ_PROM_COUNTER,
		"Reads and writes not a multiple of 4 KiB." },
	[LUNQ_ST_BUBBLES] = { LQ_PROM_COUNTER, "IOs over bubble_ms." },
	[LUNQ_ST_EVENTS_DROPPED] = { LQ_PROM_COUNTER,
		"Events rate-limited or overflowed." },
	[LUNQ_ST_SNAPTIME_NS] = { LQ_PROM_SECONDS,
		"Monotonic clock of the snapshot in seconds." },
	[LUNQ_ST_WLENTIME_NS] = { LQ_PROM_SECONDS,
		"Integral of the IOs waiting over time (IO-seconds)." },
	[LUNQ_ST_RLENTIME_NS] = { LQ_PROM_SECONDS,
		"Integral of the IOs active over time (IO-seconds)." },
	[LUNQ_ST_WTIME_NS] = { LQ_PROM_SECONDS,
		"Time with at least one IO waiting in seconds." },
	[LUNQ_ST_RTIME_NS] = { LQ_PROM_SECONDS,
		"Time with at least one IO active in seconds." },
	[LUNQ_ST_CRTIME_NS] = { LQ_PROM_GAUGE_SECONDS,
		"Monotonic clock when the counters started (creation or reset) in seconds." },
	[LUNQ_ST_AUTO_PHASE] = { LQ_PROM_GAUGE,
		"What auto is doing: 0 off, 1 down, 2 up, 3 hold, 4 probe, 5 track." },
	[LUNQ_ST_AUTO_PEAK_IOPS] = { LQ_PROM_GAUGE,
		"auto: most IOPS of the recent windows." },
	[LUNQ_ST_AUTO_SVC_MIN_NS] = { LQ_PROM_GAUGE_SECONDS,
		"auto: lowest mean service time of the recent windows in seconds." },
	[LUNQ_ST_AUTO_KNEE] = { LQ_PROM_GAUGE,
		"auto: peak IOPS x minimum service time (the knee's depth)." },
	[LUNQ_ST_AUTO_P99_NS] = { LQ_PROM_GAUGE_SECONDS,
		"auto: service p99 of the last window in seconds." },
	[LUNQ_ST_AUTO_WINDOWS] = { LQ_PROM_COUNTER,
		"auto: measurement windows." },
	[LUNQ_ST_AUTO_MOVES] = { LQ_PROM_COUNTER,
		"auto: moves of the throttle by auto." },
	[LUNQ_ST_AUTO_SVC_NS] = { LQ_PROM_GAUGE_SECONDS,
		"auto: mean service time of the last window in seconds." },
	[LUNQ_ST_READ_WAIT_NS] = { LQ_PROM_SECONDS,
		"Time completed reads waited in lunq, summed, in seconds." },
	[LUNQ_ST_READ_SVC_NS] = { LQ_PROM_SECONDS,
		"Time completed reads spent at the device, summed, in seconds." },
	[LUNQ_ST_WRITE_WAIT_NS] = { LQ_PROM_SECONDS,
		"Time completed writes waited in lunq, summed, in seconds." },
	[LUNQ_ST_WRITE_SVC_NS] = { LQ_PROM_SECONDS,
		"Time completed writes spent at the device, summed, in seconds." },
	[LUNQ_ST_WRITE_MISALIGNED_4K] = { LQ_PROM_COUNTER,
		"Writes not starting on 4 KiB." },
	[LUNQ_ST_WRITE_SIZE_NOT_4K] = { LQ_PROM_COUNTER,
		"Writes not a multiple of 4 KiB." },
	[LUNQ_ST_POL_ZERO] = { LQ_PROM_GAUGE,
		"Answers of 0 of the policy in force, raised to auto_min." },
	[LUNQ_ST_POL_BELOW] = { LQ_PROM_GAUGE,
		"Other answers of the policy in force below auto_min." },
	[LUNQ_ST_POL_ABOVE] = { LQ_PROM_GAUGE,
		"Answers of the policy in force above auto_max." },
};

/* A label value, escaped per the exposition format: backslash, quote, newline. */
static void lq_prom_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* ns as exact decimal seconds, trailing zeros dropped. */
static void lq_prom_seconds(FILE *f, u64 ns)
{
	char frac[16];
	int i;

	if (!(ns % 1000000000ULL)) {
		fprintf(f, "%llu", (unsigned long long)(ns / 1000000000ULL));
		return;
	}
	snprintf(frac, sizeof(frac), "%09llu",
		 (unsigned long long)(ns % 1000000000ULL));
	for (i = 8; frac[i] == '0'; i--)
		frac[i] = '\0';
	fprintf(f, "%llu.%s", (unsigned long long)(ns / 1000000000ULL), frac);
}

void lq_prom_print(FILE *f, const struct lq_dev *devs, int n)
{
	int s, d;

	for (s = LUNQ_ST_UNSPEC + 1; s < __LUNQ_ST_MAX; s++) {
		const char *name = lunq_stat_names[s];
		enum lq_prom_kind kind = lq_prom_stats[s].kind;
		const char *help = lq_prom_stats[s].help;
		char metric[96];
		size_t len;
		bool any = false;

		if (!name)
			continue;
		for (d = 0; d < n; d++)
			any |= devs[d].have[s];
		if (!any)
			continue;
		if (!help) {
			/* a statistic newer than this table */
			kind = LQ_PROM_GAUGE;
			help = name;
		}
		len = strlen(name);
		if (kind == LQ_PROM_SECONDS || kind == LQ_PROM_GAUGE_SECONDS) {
			if (len > 3 && !strcmp(name + len - 3, "_ns"))
				len -= 3;
			snprintf(metric, sizeof(metric), "lunq_%.*s_seconds%s",
				 (int)len, name,
				 kind == LQ_PROM_SECONDS ? "_total" : "");
		} else {
			snprintf(metric, sizeof(metric), "lunq_%s%s", name,
				 kind == LQ_PROM_COUNTER ? "_total" : "");
		}
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", metric, help, metric,
			kind == LQ_PROM_COUNTER || kind == LQ_PROM_SECONDS ?
			"counter" : "gauge");
		for (d = 0; d < n; d++) {
			if (!devs[d].have[s])
				continue;
			fprintf(f, "%s{device=\"", metric);
			lq_prom_label(f, devs[d].name);
			fputs("\"} ", f);
			if (kind == LQ_PROM_SECONDS ||
			    kind == LQ_PROM_GAUGE_SECONDS)
				lq_prom_seconds(f, devs[d].st[s]);
			else
				fprintf(f, "%llu",
					(unsigned long long)devs[d].st[s]);
			fputc('\n', f);
		}
	}
}
