// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench's options: the table (lb_options[]) and what is made from it
 * with liblunq's option engine (opts.h), getopt_long's array, the
 * defaults, the parser, --help and the hidden
 * --list-options, --list-presets and --hist-bounds.  Then the checks of option combinations.  A new option
 * is an entry here (and in enum lb_optid) and an .TP in lunqbench(1):
 * tests/unit/bench-options.sh fails until both have it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "units.h"
#include "lunq_hist.h"

/* ---- values ------------------------------------------------------------------ */

static u64 opt_size(const char *opt, const char *arg, const char *what)
{
	u64 v;

	if (!lq_parse_size(arg, strlen(arg), &v))
		lb_usage_error("%s: '%s' is not %s", opt, arg, what);
	return v;
}

static u64 opt_uint(const char *opt, const char *arg, u64 lo, u64 hi)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (arg[0] < '0' || arg[0] > '9')
		goto bad;
	v = strtoull(arg, &end, 0);
	if (errno || *end || v < lo || v > hi)
		goto bad;
	return v;
bad:
	lb_usage_error("%s: '%s' is not a whole number from %llu to %llu", opt,
		       arg, (unsigned long long)lo, (unsigned long long)hi);
}

static double opt_num(const char *opt, const char *arg, double lo, double hi,
		      bool lo_open)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || v != v || v < lo || v > hi ||
	    (lo_open && v == lo))
		lb_usage_error("%s: '%s' is not a number %s %g and <= %g", opt, arg,
			       lo_open ? ">" : ">=", lo, hi);
	return v;
}

/* "--name", for messages */
static const char *dashed(const struct lb_option *opt)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "--%s", opt->head.name);
	return buf;
}

/* "a, b or c" */
static void choice_list(char *buf, size_t n, const char *const *names, int count)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < count && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					!i ? "" : i == count - 1 ? " or " : ", ", names[i]);
}

/* ---- the options' parsers ------------------------------------------------------ */

void lb_opt_bs(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	struct lb_workload *w = &o->w;
	const char *dash = strchr(arg, '-');

	(void)opt;
	if (strlen(arg) >= sizeof(o->bs_spec))
		lb_usage_error("--bs: '%s' is too long", arg);
	snprintf(o->bs_spec, sizeof(o->bs_spec), "%s", arg);
	memset(w->bs, 0, sizeof(w->bs));
	memset(w->bs_weight, 0, sizeof(w->bs_weight));
	w->nbs = 0;
	w->bs_min = w->bs_max = w->bs_step = 0;
	if (dash) {
		const char *slash = strchr(dash, '/');
		u64 lo, hi, step = 0;

		if (!lq_parse_size(arg, (size_t)(dash - arg), &lo) ||
		    !lq_parse_size(dash + 1, slash ? (size_t)(slash - dash - 1) :
				    strlen(dash + 1), &hi) ||
		    (slash && !lq_parse_size(slash + 1, strlen(slash + 1), &step)))
			lb_usage_error("--bs: '%s' is not MIN-MAX[/STEP] (sizes like 4k)", arg);
		if (!step)
			step = (lo % 4096 || hi % 4096) ? 512 : 4096;
		if (!lo)
			lb_usage_error("--bs: '%s': size 0", arg);
		if (hi < lo || hi > LB_MAX_IOSIZE)
			lb_usage_error("--bs: '%s': MAX must be >= MIN and <= 64m", arg);
		if ((hi - lo) % step)
			lb_usage_error("--bs: '%s': MAX - MIN is not a multiple of STEP", arg);
		if (hi == lo) {
			w->nbs = 1;
			w->bs[0] = (u32)lo;
			w->bs_weight[0] = 1;
			return;
		}
		w->bs_min = (u32)lo;
		w->bs_max = (u32)hi;
		w->bs_step = (u32)step;
		return;
	}
	for (const char *p = arg;;) {
		size_t n = strcspn(p, ",");
		const char *colon = memchr(p, ':', n);
		u64 sz, wt = 1;

		if (w->nbs == LB_MAX_BS)
			lb_usage_error("--bs: at most %d sizes", LB_MAX_BS);
		if (!lq_parse_size(p, colon ? (size_t)(colon - p) : n, &sz))
			lb_usage_error("--bs: '%.*s' is not a size (like 4k or 4k:30)",
				       (int)n, p);
		if (colon) {
			char num[24];
			size_t wn = n - (size_t)(colon - p) - 1;
			char *end;

			if (!wn || wn >= sizeof(num))
				lb_usage_error("--bs: '%.*s': bad weight", (int)n, p);
			memcpy(num, colon + 1, wn);
			num[wn] = '\0';
			errno = 0;
			wt = strtoull(num, &end, 10);
			if (errno || *end || num[0] == '-' || wt > 1000000)
				lb_usage_error("--bs: '%.*s': the weight must be 0..1000000",
					       (int)n, p);
		}
		if (!sz || sz > LB_MAX_IOSIZE)
			lb_usage_error("--bs: %.*s: a size must be 1 byte to 64m",
				       (int)(colon ? (size_t)(colon - p) : n), p);
		w->bs[w->nbs] = (u32)sz;
		w->bs_weight[w->nbs] = (u32)wt;
		w->nbs++;
		if (!p[n])
			break;
		p += n + 1;
	}
	{
		u64 total = 0;

		for (int i = 0; i < w->nbs; i++)
			total += w->bs_weight[i];
		if (!total)
			lb_usage_error("--bs: '%s': the weights add up to 0", arg);
	}
}

static void opt_seekpct(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)opt;
	switch (lb_parse_seekpct(arg, &o->w.seek_ppm, &o->w.seek_eof)) {
	case 0:
		return;
	case -2:
		lb_usage_error("--seekpct: '%s' is not a percentage from 0 to 100", arg);
	case -3:
		lb_usage_error("--seekpct: '%s' is finer than 0.0001 (1 IO in a million), the resolution",
			       arg);
	default:
		lb_usage_error("--seekpct: '%s' is not a percentage 0..100 (like 30 or 0.01) or eof",
			       arg);
	}
}

static void opt_range(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	const char *dash = strchr(arg, '-');
	size_t n = strlen(arg);
	bool pct = n && arg[n - 1] == '%';

	(void)opt;
	o->range_pct = pct;
	if (!dash)
		goto bad;
	if (pct) {
		char lo[32], hi[32], *e1, *e2;
		size_t ln = (size_t)(dash - arg), hn = n - ln - 2;

		if (ln >= sizeof(lo) || hn >= sizeof(hi) || !ln || !hn)
			goto bad;
		memcpy(lo, arg, ln);
		lo[ln] = '\0';
		if (ln && lo[ln - 1] == '%')
			lo[ln - 1] = '\0';
		memcpy(hi, dash + 1, hn);
		hi[hn] = '\0';
		o->range_lo_pct = strtod(lo, &e1);
		o->range_hi_pct = strtod(hi, &e2);
		if (*e1 || *e2 || !lo[0] || !hi[0] || lo[0] == '-' || hi[0] == '-' ||
		    o->range_lo_pct < 0 || o->range_hi_pct > 100 ||
		    o->range_lo_pct >= o->range_hi_pct)
			lb_usage_error("--range: '%s': percentages 0..100, LO < HI", arg);
		return;
	}
	if (!lq_parse_size(arg, (size_t)(dash - arg), &o->range_lo) ||
	    !lq_parse_size(dash + 1, strlen(dash + 1), &o->range_hi))
		goto bad;
	if (o->range_lo >= o->range_hi)
		lb_usage_error("--range: '%s': LO must be below HI", arg);
	return;
bad:
	lb_usage_error("--range: '%s' is not LO-HI in bytes (0-1g) or percent (0-50%%)", arg);
}

static void opt_offset(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)opt;
	o->w.offset = opt_size("--offset", arg, "a byte count (like 512 or 4k)");
	if (o->w.offset % 512)
		lb_usage_error("--offset: %s is not a multiple of 512", arg);
}

static void opt_align(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)opt;
	o->w.align = (u32)opt_size("--align", arg, "a byte count (like 4k)");
	if (!o->w.align || o->w.align % 512 || o->w.align > LB_MAX_IOSIZE)
		lb_usage_error("--align: %s is not a multiple of 512 up to 64m", arg);
}

static void opt_zipf(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)opt;
	o->w.zipf_theta = opt_num("--zipf", arg, 0, 100, true);
	if (o->w.zipf_theta == 1)
		lb_usage_error("--zipf: THETA must not be 1 (use 0.99 or 1.01)");
	o->w.skew = LB_SKEW_ZIPF;
}

static void opt_hot(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	const char *slash = strchr(arg, '/');
	char a[16];

	(void)opt;
	if (!slash || (size_t)(slash - arg) >= sizeof(a))
		lb_usage_error("--hot: '%s' is not PCT/IOPCT (like 10/90)", arg);
	memcpy(a, arg, (size_t)(slash - arg));
	a[slash - arg] = '\0';
	o->w.hot_pct = (u32)opt_uint("--hot: PCT", a, 1, 99);
	o->w.hot_io_pct = (u32)opt_uint("--hot: IOPCT", slash + 1, 0, 100);
	o->w.skew = LB_SKEW_HOT;
}

static void opt_iorate(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	char *end;

	(void)opt;
	if (!strcmp(arg, "max")) {
		o->iorate = 0;
		return;
	}
	errno = 0;
	o->iorate = strtod(arg, &end);
	if (errno || end == arg || *end || !(o->iorate > 0) || o->iorate > 1e8)
		lb_usage_error("--iorate: '%s' is not max or a rate in IOs/s (above 0, up to 1e8)",
			       arg);
}

static void opt_interval(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)opt;
	o->interval = opt_num("--interval", arg, 0, 1e7, false);
	if (o->interval > 0 && o->interval < 0.01)
		lb_usage_error("--interval: at least 0.01 s (or 0: no interval lines)");
}

static void opt_size_arg(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)opt;
	o->size = opt_size("--size", arg, "a byte count (like 1g)");
	if (!o->size || o->size % 512)
		lb_usage_error("--size: %s is not a positive multiple of 512", arg);
}

static void opt_preset(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	const char *names[8];
	char list[128];
	int n = 0;

	for (const struct lb_preset_def *p = lb_presets; p->name; p++) {
		if (!strcmp(arg, p->name)) {
			o->preset = p->id;
			return;
		}
		if (n < 8)
			names[n++] = p->name;
	}
	choice_list(list, sizeof(list), names, n);
	lb_usage_error("%s: '%s' is not %s", dashed(opt), arg, list);
}

static void opt_help(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)o, (void)opt, (void)arg;
	lb_help();
	exit(0);
}

static void opt_version(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)o, (void)opt, (void)arg;
	printf("lunqbench %s\n", LB_VERSION);
	exit(0);
}

/* --list-options: one line per option, tab-separated: --NAME, -L (or -),
 * METAVAR (or -), section, and "sweep" for an option lunqctl sweep and
 * tune pass on before "--" (LB_OPTF_SWEEP), else "-".  What
 * tests/unit/bench-options.sh and lunqctl (ctl/bench.c) read. */
static void opt_list(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	(void)o, (void)opt, (void)arg;
	for (int i = 0; i < LBO_N; i++) {
		const struct lb_option *p = &lb_options[i];

		if (p->flags & LB_OPTF_HIDDEN)
			continue;
		printf("--%s\t-%c\t%s\t%s\t%s\n", p->head.name,
		       p->head.letter ? p->head.letter : '-',
		       p->head.metavar ? p->head.metavar : "-", p->section,
		       p->flags & LB_OPTF_SWEEP ? "sweep" : "-");
	}
	exit(0);
}

/* --list-presets: the presets' names, one a line */
static void opt_list_presets(struct lb_opts *o, const struct lb_option *opt,
			     const char *arg)
{
	(void)o, (void)opt, (void)arg;
	for (const struct lb_preset_def *p = lb_presets; p->name; p++)
		printf("%s\n", p->name);
	exit(0);
}

/* --hist-bounds: each bucket of the histograms' layout (kmod/lunq_hist.h),
 * one a line: "INDEX LOWER UPPER", its smallest and largest value in ns;
 * what turns the bucket indices of the JSON's histograms into values
 * (tests/demo/demo.sh) without a copy of the layout. */
static void opt_hist_bounds(struct lb_opts *o, const struct lb_option *opt,
			    const char *arg)
{
	(void)o, (void)opt, (void)arg;
	for (u32 b = 0; b < LUNQ_HIST_BUCKETS; b++)
		printf("%u %llu %llu\n", b, (unsigned long long)lunq_hist_lower(b),
		       (unsigned long long)lunq_hist_upper(b));
	exit(0);
}

/* ---- the table ------------------------------------------------------------------- */

static const struct lb_choice engines[] = {
	{ "uring", LB_ENG_URING }, { "sync", LB_ENG_SYNC }, { NULL, 0 },
};
static const struct lb_choice arrivals[] = {
	{ "poisson", LB_ARR_POISSON }, { "uniform", LB_ARR_UNIFORM },
	{ "fixed", LB_ARR_FIXED }, { NULL, 0 },
};

#define OFF(field)	offsetof(struct lb_opts, field)
#define S_ENGINE	"Engine and concurrency"
#define S_WORKLOAD	"Workload"
#define S_RATE		"Rate and duration"
#define S_VERIFY	"Verify"
#define S_PRESETS	"Presets"
#define S_OUTPUT	"Output and help"

const struct lb_option lb_options[LBO_N] = {
	[LBO_ENGINE] = { { "engine", 0, "uring|sync" }, S_ENGINE,
		"io_uring rings, or threads doing pread/pwrite", "uring", NULL,
		LB_OPT_CHOICE, OFF(engine), .choices = engines, .flags = LB_OPTF_SWEEP },
	[LBO_IODEPTH] = { { "iodepth", 0, "N" }, S_ENGINE,
		"uring: IOs outstanding per thread",
		"1", "1; open loop: 64, the most outstanding",
		LB_OPT_U32, OFF(iodepth), LB_GIVEN(iodepth_set), 1, LB_MAX_DEPTH, .flags = LB_OPTF_SWEEP },
	[LBO_THREADS] = { { "threads", 0, "N" }, S_ENGINE,
		"uring: submitter threads, one ring each; sync: IO threads", "1", NULL,
		LB_OPT_U32, OFF(threads), LB_GIVEN(threads_set), 1, LB_MAX_THREADS, .flags = LB_OPTF_SWEEP },
	[LBO_BATCH] = { { "batch", 0, "N" }, S_ENGINE,
		"uring: most IOs per submit and CQEs per reap", NULL, "min(iodepth, 16)",
		LB_OPT_U32, OFF(batch), LB_GIVEN(batch_set), 1, LB_MAX_DEPTH },
	[LBO_BUFFERED] = { { "buffered", 0, NULL }, S_ENGINE,
		"no O_DIRECT", NULL, NULL, LB_OPT_FLAG, OFF(buffered) },
	[LBO_SYNC] = { { "sync", 0, NULL }, S_ENGINE,
		"O_DSYNC: a write completes once it is durable (FUA, or a "
		"cache flush after it)", NULL, NULL, LB_OPT_FLAG, OFF(dsync) },
	[LBO_FSYNC] = { { "fsync", 0, "N" }, S_ENGINE,
		"sync engine: an fdatasync after every N writes of a thread; "
		"the write before it waits for it (its latency includes it)",
		"0", "0: none",
		LB_OPT_U32, OFF(fsync_every), 0, 0, 1000000000 },

	[LBO_FORCE] = { { "force", 0, NULL }, S_ENGINE,
		"write to a block device even when it is mounted or held (by "
		"dm, md, swap...): without it such a load is refused", NULL, NULL,
		LB_OPT_FLAG, OFF(force) },

	[LBO_BS] = { { "bs", 0, "SIZE|SIZE:W,...|MIN-MAX[/STEP]" }, S_WORKLOAD,
		"IO sizes: one, up to 16 with weights, or a range in steps "
		"(suffixes k m g; O_DIRECT: multiples of the sector size)", "4k", NULL,
		LB_OPT_FUNC, .parse = lb_opt_bs, .flags = LB_OPTF_SWEEP },
	[LBO_RDPCT] = { { "rdpct", 0, "N" }, S_WORKLOAD,
		"percent reads", "100", NULL,
		LB_OPT_U32, OFF(w.rdpct), 0, 0, 100, .flags = LB_OPTF_SWEEP },
	[LBO_SEEKPCT] = { { "seekpct", 0, "PCT|eof" }, S_WORKLOAD,
		"0 sequential, 100 random, else PCT% jumps (decimals down to "
		"0.0001); eof: sequential, each job once through its range, "
		"then it ends (no time limit unless --elapsed)", "100", NULL,
		LB_OPT_FUNC, .parse = opt_seekpct, .flags = LB_OPTF_SWEEP },
	[LBO_RANGE] = { { "range", 0, "LO-HI" }, S_WORKLOAD,
		"part of the target: bytes (1g-2g) or percent (0-50%)", "0-100%", NULL,
		LB_OPT_FUNC, 0, LB_GIVEN(range_set), .parse = opt_range, .flags = LB_OPTF_SWEEP },
	[LBO_OFFSET] = { { "offset", 0, "BYTES" }, S_WORKLOAD,
		"added to every position, a multiple of 512 (vdbench)", NULL, NULL,
		LB_OPT_FUNC, 0, LB_GIVEN(offset_set), .parse = opt_offset },
	[LBO_ALIGN] = { { "align", 0, "BYTES" }, S_WORKLOAD,
		"random positions are multiples of it (default: of the IO size)",
		NULL, NULL,
		LB_OPT_FUNC, .parse = opt_align },
	[LBO_ZIPF] = { { "zipf", 0, "THETA" }, S_WORKLOAD,
		"zipf-skewed random positions (THETA > 0, not 1)", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_zipf },
	[LBO_HOT] = { { "hot", 0, "PCT/IOPCT" }, S_WORKLOAD,
		"IOPCT% of random IOs in the first PCT% of the range", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_hot },
	[LBO_SEED] = { { "seed", 0, "N" }, S_WORKLOAD,
		"generator and verify seed", "1", NULL,
		LB_OPT_U64, OFF(seed), 0, 0, ULLONG_MAX, .flags = LB_OPTF_SWEEP },

	[LBO_IORATE] = { { "iorate", 0, "max|N" }, S_RATE,
		"max: closed loop; N: open loop, N IOs/s", "max", NULL,
		LB_OPT_FUNC, .parse = opt_iorate },
	[LBO_ARRIVAL] = { { "arrival", 0, "poisson|uniform|fixed" }, S_RATE,
		"open-loop gaps", "poisson", NULL,
		LB_OPT_CHOICE, OFF(arrival), .choices = arrivals, .flags = LB_OPTF_SWEEP },
	[LBO_BURST] = { { "burst", 0, "N" }, S_RATE,
		"open loop in bursts: N IOs at once (per target) every "
		"--burst-every ms (seed 004: the system dumps many commands "
		"on a device at once)", NULL, NULL,
		LB_OPT_U32, OFF(burst), 0, 1, LB_MAX_DEPTH },
	[LBO_BURST_EVERY] = { { "burst-every", 0, "MS" }, S_RATE,
		"the bursts' period, ms (with --burst)", NULL, NULL,
		LB_OPT_NUM, OFF(burst_ms), .dlo = 0, .dhi = 3.6e6,
		.flags = LB_OPTF_LO_OPEN },
	[LBO_ELAPSED] = { { "elapsed", 0, "S" }, S_RATE,
		"seconds", "10", NULL,
		LB_OPT_NUM, OFF(elapsed), LB_GIVEN(elapsed_set), .dlo = 0, .dhi = 1e7,
		.flags = LB_OPTF_LO_OPEN | LB_OPTF_SWEEP },
	[LBO_INTERVAL] = { { "interval", 0, "S" }, S_RATE,
		"seconds per interval line (0: none)", "1", NULL,
		LB_OPT_FUNC, 0, LB_GIVEN(interval_set), .parse = opt_interval },
	[LBO_WARMUP] = { { "warmup", 0, "S" }, S_RATE,
		"leave the first S seconds out of the summary", NULL, NULL,
		LB_OPT_NUM, OFF(warmup), .dlo = 0, .dhi = 1e7, .flags = LB_OPTF_SWEEP },
	[LBO_IOS] = { { "ios", 0, "N" }, S_RATE,
		"exactly N IOs (no time limit unless --elapsed)", NULL, NULL,
		LB_OPT_U64, OFF(ios), 0, 1, ULLONG_MAX / 2 },
	[LBO_SPIN] = { { "spin", 0, "PCT" }, S_RATE,
		"open loop: spin at most PCT% of the time between arrivals to meet "
		"them (0: only sleep; 100: as long as the timers need, up to 5 ms)",
		"0", NULL, LB_OPT_U32, OFF(spin_pct), 0, 0, 100 },
	[LBO_SIZE] = { { "size", 0, "SIZE" }, S_RATE,
		"bytes of the target to use; makes or extends a file", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_size_arg },

	[LBO_VERIFY] = { { "verify", 0, NULL }, S_VERIFY,
		"writes carry headers (seq, sector, seed, crc32c), reads are "
		"checked; --bs a multiple of 4k", NULL, NULL, LB_OPT_FLAG, OFF(verify) },

	[LBO_PRESET] = { { "preset", 0, "NAME" }, S_PRESETS,
		"the defaults of preset NAME; options given explicitly override "
		"them:", NULL, NULL, LB_OPT_FUNC, .parse = opt_preset },

	[LBO_JSON] = { { "json", 0, NULL }, S_OUTPUT,
		"one JSON object at the end, nothing else on stdout", NULL, NULL,
		LB_OPT_FLAG, OFF(json) },
	[LBO_KV] = { { "kv", 0, NULL }, S_OUTPUT,
		"a last line of key=value words (lunqctl sweep)", NULL, NULL,
		LB_OPT_FLAG, OFF(kv) },
	[LBO_HELP] = { { "help", 'h', NULL }, S_OUTPUT, "this help", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_help },
	[LBO_VERSION] = { { "version", 'V', NULL }, S_OUTPUT, "the version", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_version },
	[LBO_LIST_OPTIONS] = { { "list-options", 0, NULL }, S_OUTPUT,
		"the option table, one option a line (for tests)", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_list, .flags = LB_OPTF_HIDDEN },
	[LBO_LIST_PRESETS] = { { "list-presets", 0, NULL }, S_OUTPUT,
		"the presets' names, one a line (for tests)", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_list_presets, .flags = LB_OPTF_HIDDEN },
	[LBO_HIST_BOUNDS] = { { "hist-bounds", 0, NULL }, S_OUTPUT,
		"each histogram bucket's index, lowest and highest value (ns), "
		"one a line", NULL, NULL,
		LB_OPT_FUNC, .parse = opt_hist_bounds, .flags = LB_OPTF_HIDDEN },
};

/* ---- applying an option ------------------------------------------------------------ */

static void apply(struct lb_opts *o, const struct lb_option *opt, const char *arg)
{
	void *field = (char *)o + opt->off;

	switch (opt->kind) {
	case LB_OPT_FLAG:
		*(bool *)field = true;
		break;
	case LB_OPT_U32:
		*(u32 *)field = (u32)opt_uint(dashed(opt), arg, opt->lo, opt->hi);
		break;
	case LB_OPT_U64:
		*(u64 *)field = opt_uint(dashed(opt), arg, opt->lo, opt->hi);
		break;
	case LB_OPT_NUM:
		*(double *)field = opt_num(dashed(opt), arg, opt->dlo, opt->dhi,
					   opt->flags & LB_OPTF_LO_OPEN);
		break;
	case LB_OPT_CHOICE: {
		const char *names[8];
		char list[128];
		int n = 0;

		_Static_assert(sizeof(enum lb_engine) == sizeof(int) &&
			       sizeof(enum lb_arrival) == sizeof(int), "enums are ints");
		for (const struct lb_choice *c = opt->choices; c->name; c++) {
			if (!strcmp(arg, c->name)) {
				*(int *)field = c->value;
				return;
			}
			if (n < 8)
				names[n++] = c->name;
		}
		choice_list(list, sizeof(list), names, n);
		lb_usage_error("%s: '%s' is not %s", dashed(opt), arg, list);
	}
	case LB_OPT_FUNC:
		opt->parse(o, opt, arg);
		break;
	}
}

void lb_opt_default(struct lb_opts *o, const char *setting)
{
	const char *eq = strchr(setting, '=');
	size_t n = eq ? (size_t)(eq - setting) : strlen(setting);

	for (int i = 0; i < LBO_N; i++)
		if (strlen(lb_options[i].head.name) == n &&
		    !strncmp(lb_options[i].head.name, setting, n)) {
			apply(o, &lb_options[i], eq ? eq + 1 : NULL);
			return;
		}
	lq_die(LB_EIO, "internal: no option '%.*s'", (int)n, setting);
}

static void set_defaults(struct lb_opts *o)
{
	char buf[128];

	memset(o, 0, sizeof(*o));
	for (int i = 0; i < LBO_N; i++)
		if (lb_options[i].def) {
			snprintf(buf, sizeof(buf), "%s=%s", lb_options[i].head.name,
				 lb_options[i].def);
			lb_opt_default(o, buf);
		}
}

/* ---- the command line --------------------------------------------------------------- */

static void check_combinations(struct lb_opts *o, const bool *given)
{
	if (given[LBO_ZIPF] && given[LBO_HOT])
		lb_usage_error("--zipf and --hot exclude each other");
	if (o->json && o->kv)
		lb_usage_error("--json and --kv exclude each other");
	if (o->ios && given[LBO_WARMUP])
		lb_usage_error("--warmup: not with --ios (--ios counts every IO)");
	if (o->ios && !o->elapsed_set)
		o->elapsed = 0;
	/*
	 * eof ends the run, unless a preset scans with --elapsed per run or
	 * has a job of its own that never ends (bubble's far reads)
	 */
	if (o->w.seek_eof && !o->elapsed_set && o->preset != LB_PRESET_ALIGN &&
	    o->preset != LB_PRESET_BS && o->preset != LB_PRESET_BUBBLE)
		o->elapsed = 0;
	if (o->elapsed && o->warmup >= o->elapsed)
		lb_usage_error("--warmup: %g s leaves nothing of --elapsed %g s", o->warmup,
			       o->elapsed);
	if (o->preset == LB_PRESET_ALIGN && o->offset_set)
		lb_usage_error("--offset: --preset align scans the offsets itself");
	if (o->preset == LB_PRESET_ALIGN && o->ios)
		lb_usage_error("--ios: --preset align runs --elapsed per offset");
	if (o->preset == LB_PRESET_BS && given[LBO_BS])
		lb_usage_error("--bs: --preset bs scans the sizes itself");
	if (o->preset == LB_PRESET_BS && o->ios)
		lb_usage_error("--ios: --preset bs runs --elapsed per size");
	if (given[LBO_BURST] != given[LBO_BURST_EVERY])
		lb_usage_error("--burst and --burst-every go together (N IOs every MS ms)");
	if (given[LBO_BURST]) {
		if (given[LBO_IORATE] || given[LBO_ARRIVAL])
			lb_usage_error("--burst: sets the arrivals itself; not with --iorate or --arrival");
		if (o->engine == LB_ENG_URING && o->threads > 1)
			lb_usage_error("--burst: one ring per target (--threads 1) or --engine sync");
		if (o->preset != LB_PRESET_NONE)
			lb_usage_error("--burst: not with --preset");
		o->arrival = LB_ARR_BURST;
		/* per target: N every MS ms */
		o->iorate = o->burst * 1000.0 / o->burst_ms;
	}
	if (o->fsync_every && o->engine != LB_ENG_SYNC)
		lb_usage_error("--fsync: needs --engine sync (an application's write, then fsync, one at a time per thread)");
	if (o->engine == LB_ENG_SYNC) {
		if (o->iodepth_set && o->iodepth > 1)
			lb_usage_error("--iodepth: the sync engine has one IO per thread; use --threads %u",
				       o->iodepth);
		if (o->batch_set)
			lb_usage_error("--batch: only for --engine uring");
		if (!o->threads_set && o->iodepth > 1)
			o->threads = o->iodepth;	/* a preset's queue depth */
		o->iodepth = 1;
		o->batch = 1;
	} else {
		if (!o->iodepth_set && o->iorate > 0 && o->preset == LB_PRESET_NONE)
			o->iodepth = o->burst > 64 ? o->burst : 64;
		if (!o->batch_set)
			o->batch = o->iodepth < 16 ? o->iodepth : 16;
		else if (o->batch > o->iodepth)
			lb_usage_error("--batch: %u is more than --iodepth %u", o->batch,
				       o->iodepth);
	}
	if (o->verify) {
		if (o->w.nbs) {
			for (int i = 0; i < o->w.nbs; i++)
				if (o->w.bs[i] % LB_VBLOCK)
					lb_usage_error("--verify: --bs must be a multiple of 4k (verify blocks), not %u",
						       o->w.bs[i]);
		} else if (o->w.bs_min % LB_VBLOCK || o->w.bs_step % LB_VBLOCK) {
			lb_usage_error("--verify: --bs MIN and STEP must be multiples of 4k (verify blocks)");
		}
		if (o->w.offset % LB_VBLOCK)
			lb_usage_error("--verify: --offset must be a multiple of 4k");
		if (o->w.align % LB_VBLOCK)
			lb_usage_error("--verify: --align must be a multiple of 4k");
		if (o->preset == LB_PRESET_ALIGN)
			lb_usage_error("--verify: not with --preset align (offsets below 4k)");
		if (o->preset == LB_PRESET_BS)
			lb_usage_error("--verify: not with --preset bs (sizes below 4k)");
	}
}

void lb_parse_args(struct lb_opts *o, int argc, char **argv)
{
	struct lq_optset set;
	bool given[LBO_N] = { false };
	int id;

	lq_optset_init(&set, argc, argv, true);
	for (int i = 0; i < LBO_N; i++)
		lq_optset_add(&set, &lb_options[i].head);
	set_defaults(o);
	/* pass 1: the preset, whose settings the other options override */
	while ((id = lq_optset_next(&set)) != LQ_OPTS_END)
		if (id == LBO_PRESET)
			apply(o, &lb_options[LBO_PRESET], optarg);
	for (const struct lb_preset_def *p = lb_presets; p->name; p++)
		if (p->id == o->preset)
			for (const char *const *s = p->set; *s; s++)
				lb_opt_default(o, *s);

	lq_optset_rewind(&set);
	while ((id = lq_optset_next(&set)) != LQ_OPTS_END) {
		const struct lb_option *opt;

		if (id == LQ_OPTS_NOVALUE)
			lb_usage_error("%s needs a value (see --help)", lq_optset_word(&set));
		if (id < 0)
			lb_usage_error("unknown option '%s' (see --help)", lq_optset_word(&set));
		opt = &lb_options[id];
		given[id] = true;
		if (opt->given)
			*(bool *)((char *)o + opt->given - 1) = true;
		if (id != LBO_PRESET)	/* pass 1 did it */
			apply(o, opt, optarg);
	}
	o->targets = argv + optind;
	o->ntargets = argc - optind;
	if (!o->ntargets)
		lb_usage_error("no TARGET given (see --help)");
	check_combinations(o, given);
}

/* ---- --help --------------------------------------------------------------------------- */

#define HELP_COL	26
#define HELP_WIDTH	79

void lb_help(void)
{
	const char *section = NULL;

	printf("usage: %s [OPTIONS] TARGET...\n\n"
"The load generator of lunq: open or closed loop, io_uring or synchronous\n"
"threads; response, service and lag latency (lag = submit - scheduled time).\n"
"TARGET: block devices or files (a missing or short file needs --size).\n",
	       lq_prog);
	for (int i = 0; i < LBO_N; i++) {
		const struct lb_option *p = &lb_options[i];
		char text[512];
		int at;

		if (p->flags & LB_OPTF_HIDDEN)
			continue;
		if (!section || strcmp(section, p->section))
			printf("%s%s:\n", section ? "" : "\n", p->section);
		section = p->section;
		at = lq_help_head(stdout, &p->head, true);
		if (p->defhelp || p->def)
			snprintf(text, sizeof(text), "%s (default %s)", p->help,
				 p->defhelp ? p->defhelp : p->def);
		else
			snprintf(text, sizeof(text), "%s", p->help);
		lq_help_text(stdout, text, HELP_COL, at, HELP_WIDTH);
		if (i == LBO_PRESET)
			for (const struct lb_preset_def *ps = lb_presets; ps->name; ps++)
				lq_help_text(stdout, ps->help, HELP_COL,
					     printf("    %s", ps->name), HELP_WIDTH);
	}
	printf("\n"
"Closed-loop latency is service latency at a queue depth, never a response\n"
"time; open-loop response time includes any wait for the generator.\n"
"Exit status: 0 ok, 1 usage or bad value, 2 target missing or cannot be\n"
"opened, or a busy block device a load would write to, 3 verify errors,\n"
"4 IO errors.  lunqbench(1) has it all.\n");
}
