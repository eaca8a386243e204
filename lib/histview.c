// SPDX-License-Identifier: GPL-2.0
/*
 * liblunq: DTrace-style histogram views, percentiles and JSON
 * (histview.h).  Pure: libc only.
 */
#include <stdlib.h>
#include <string.h>
#include "histview.h"
#include "json.h"
#include "units.h"
#include "units.h"
#include "lunq_hist.h"

#define LQ_BAR_LEN	40

static const char lq_ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
static const char lq_spaces[] = "                                        ";

static void lq_dist_header(FILE *f)
{
	fprintf(f, "%16s %41s %-9s\n", "value",
		"------------- Distribution -------------", "count");
}

/* DTrace's dt_print_quantline() for non-negative data. */
static void lq_dist_row(FILE *f, const char *label, u64 count, u64 total)
{
	unsigned int depth = 0;

	if (count && total) {
		long double x = (long double)count * LQ_BAR_LEN / total;

		depth = (unsigned int)(x + 0.5);
		if (depth > LQ_BAR_LEN)
			depth = LQ_BAR_LEN;
	}
	fprintf(f, "%16s |%s%s %-9llu\n", label, lq_ats + LQ_BAR_LEN - depth,
		lq_spaces + depth, (unsigned long long)count);
}

void lq_hist_print_quantize(FILE *f, const struct lq_hist *h)
{
	u64 rows[LUNQ_QUANT_ROWS], total = 0;
	int first, last, i;
	char label[32];

	lunq_hist_quantize(h->counts, rows);
	for (first = 0; first < LUNQ_QUANT_ROWS && !rows[first]; first++)
		;
	if (first == LUNQ_QUANT_ROWS)
		return;
	for (last = LUNQ_QUANT_ROWS - 1; !rows[last]; last--)
		;
	first--;		/* -1: DTrace's zero row below value 0 */
	if (last < LUNQ_QUANT_ROWS - 1)
		last++;
	for (i = 0; i < LUNQ_QUANT_ROWS; i++)
		total += rows[i];

	lq_dist_header(f);
	for (i = first; i <= last; i++) {
		if (i < 0)
			strcpy(label, "-1");
		else
			snprintf(label, sizeof(label), "%llu",
				 i ? 1ULL << (i - 1) : 0ULL);
		lq_dist_row(f, label, i < 0 ? 0 : rows[i], total);
	}
}

/* @v / @unit, up to 3 decimals when not whole ("1.5", "0.25", "3"). */
static void lq_fmt_scaled(char *buf, size_t len, u64 v, u64 unit)
{
	u64 ip, rem, frac;
	int n;

	if (!unit)
		unit = 1;
	ip = v / unit;
	rem = v % unit;
	frac = (u64)((long double)rem * 1000 / unit + 0.5);
	if (frac >= 1000) {
		ip++;
		frac = 0;
	}
	if (!frac) {
		snprintf(buf, len, "%llu", (unsigned long long)ip);
		return;
	}
	n = snprintf(buf, len, "%llu.%03llu", (unsigned long long)ip,
		     (unsigned long long)frac);
	while (n > 0 && (size_t)n < len && buf[n - 1] == '0')
		buf[--n] = '\0';
}

void lq_hist_print_lquantize(FILE *f, const struct lq_hist *h, u64 lo,
			     u64 hi, u64 step, u64 unit)
{
	u64 levels, top, *rows, total = 0;
	long long first, last, i;
	char label[64], num[40];
	u32 b;

	if (!step || hi <= lo)
		return;
	levels = (hi - lo) / step;
	if (!levels || levels > (1U << 20))
		return;
	top = lo + levels * step;
	rows = calloc(levels + 2, sizeof(*rows));
	if (!rows)
		return;
	for (b = 0; b < LUNQ_HIST_BUCKETS; b++) {
		u64 v = lunq_hist_lower(b);

		if (!h->counts[b])
			continue;
		if (v < lo)
			rows[0] += h->counts[b];
		else if (v >= top)
			rows[levels + 1] += h->counts[b];
		else
			rows[1 + (v - lo) / step] += h->counts[b];
		total += h->counts[b];
	}
	if (!total)
		goto out;
	for (first = 0; !rows[first]; first++)
		;
	for (last = (long long)levels + 1; !rows[last]; last--)
		;
	if (first > 0)
		first--;
	if (last < (long long)levels + 1)
		last++;

	lq_dist_header(f);
	for (i = first; i <= last; i++) {
		if (i == 0) {
			lq_fmt_scaled(num, sizeof(num), lo, unit);
			snprintf(label, sizeof(label), "< %s", num);
		} else if (i == (long long)levels + 1) {
			lq_fmt_scaled(num, sizeof(num), top, unit);
			snprintf(label, sizeof(label), ">= %s", num);
		} else {
			lq_fmt_scaled(label, sizeof(label),
				      lo + (u64)(i - 1) * step, unit);
		}
		lq_dist_row(f, label, rows[i], total);
	}
out:
	free(rows);
}

/* One number of an lquantize spec; @what names it in messages. */
static int lq_parse_num(const char *s, size_t n, bool time, const char *what,
			u64 *val, u64 *mult, const char **mname,
			char *err, size_t errlen)
{
	static const struct lq_unit tsfx[] = {
		{ "", 1, "ns" }, { "ns", 1, "ns" }, { "us", 1000, "us" },
		{ "ms", 1000000, "ms" }, { "s", 1000000000, "s" },
	}, bsfx[] = {
		{ "", 1, "bytes" },
		{ "k", 1ULL << 10, "KiB" }, { "K", 1ULL << 10, "KiB" },
		{ "m", 1ULL << 20, "MiB" }, { "M", 1ULL << 20, "MiB" },
		{ "g", 1ULL << 30, "GiB" }, { "G", 1ULL << 30, "GiB" },
	};
	const struct lq_unit *u;
	size_t i;

	/* digits before any '.': ".5ms" is not a number here */
	switch (n && s[0] == '.' ? LQ_NUM_BAD : lq_parse_unit(s, n, time ? tsfx : bsfx,
			      time ? ARRAY_SIZE(tsfx) : ARRAY_SIZE(bsfx), true,
			      val, &u)) {
	case LQ_NUM_OK:
		*mult = u->mult;
		*mname = u->name;
		return 0;
	case LQ_NUM_EMPTY:
		snprintf(err, errlen, "%s is empty (expected LO,HI,STEP)", what);
		break;
	case LQ_NUM_RANGE:
		snprintf(err, errlen, "%s \"%.*s\": too large", what, (int)n, s);
		break;
	case LQ_NUM_DECIMALS:
		snprintf(err, errlen, "%s \"%.*s\": more than 9 decimals", what,
			 (int)n, s);
		break;
	case LQ_NUM_SUFFIX:
		i = strspn(s, "0123456789.");
		i = i < n ? i : n;
		snprintf(err, errlen, "%s \"%.*s\": unknown suffix \"%.*s\" (%s)",
			 what, (int)n, s, (int)(n - i), s + i,
			 time ? "ns, us, ms, s" : "k, m, g; none for bytes");
		break;
	case LQ_NUM_FRACTION:
		snprintf(err, errlen, "%s \"%.*s\": not a whole number of %s",
			 what, (int)n, s, time ? "ns" : "bytes");
		break;
	default:
		snprintf(err, errlen, "%s \"%.*s\": bad number", what, (int)n, s);
		break;
	}
	return -1;
}

int lq_parse_lquantize(const char *arg, bool time, u64 *lo, u64 *hi,
		       u64 *step, u64 *unit, const char **unit_name,
		       char *err, size_t errlen)
{
	static const char *const what[3] = { "LO", "HI", "STEP" };
	const char *p = arg, *c, *mn[3];
	u64 v[3], m[3], levels;
	size_t len[3];
	const char *part[3];
	int i;

	for (i = 0; i < 3; i++) {
		c = strchr(p, ',');
		if ((i < 2 && !c) || (i == 2 && c)) {
			snprintf(err, errlen,
				 "\"%s\": expected LO,HI,STEP (three numbers)",
				 arg);
			return -1;
		}
		part[i] = p;
		len[i] = c ? (size_t)(c - p) : strlen(p);
		if (c)
			p = c + 1;
	}
	for (i = 0; i < 3; i++)
		if (lq_parse_num(part[i], len[i], time, what[i], &v[i], &m[i],
				 &mn[i], err, errlen))
			return -1;
	if (v[0] >= v[1]) {
		snprintf(err, errlen, "LO (%.*s) must be below HI (%.*s)",
			 (int)len[0], part[0], (int)len[1], part[1]);
		return -1;
	}
	if (!v[2]) {
		snprintf(err, errlen, "STEP (%.*s) must not be 0",
			 (int)len[2], part[2]);
		return -1;
	}
	levels = (v[1] - v[0]) / v[2];
	if (!levels) {
		snprintf(err, errlen, "STEP (%.*s) larger than HI - LO",
			 (int)len[2], part[2]);
		return -1;
	}
	if (levels > LQ_LQUANT_MAX_ROWS) {
		snprintf(err, errlen,
			 "(HI - LO) / STEP = %llu rows, at most %d (larger STEP?)",
			 (unsigned long long)levels, LQ_LQUANT_MAX_ROWS);
		return -1;
	}
	*lo = v[0];
	*hi = v[1];
	*step = v[2];
	*unit = m[2];
	*unit_name = mn[2];
	return 0;
}

static const struct {
	const char *name;
	u32 ppm;
} lq_pcts[] = {
	{ "p50", 500000 }, { "p90", 900000 }, { "p95", 950000 },
	{ "p99", 990000 }, { "p99.9", 999000 }, { "p99.99", 999900 },
};

static u64 lq_hist_mean(const struct lq_hist *h)
{
	return h->count ? (u64)((long double)h->sum / h->count + 0.5) : 0;
}

void lq_hist_print_percentiles(FILE *f, const struct lq_hist *h, bool time)
{
	void (*fmt)(char *, size_t, u64) = time ? lq_fmt_ns : lq_fmt_bytes;
	char buf[48];
	size_t i;

	fprintf(f, "%-7s %llu\n", "count", (unsigned long long)h->count);
	if (!lunq_hist_total(h->counts))
		return;
	fmt(buf, sizeof(buf), lq_hist_mean(h));
	fprintf(f, "%-7s %s\n", "mean", buf);
	for (i = 0; i < ARRAY_SIZE(lq_pcts); i++) {
		fmt(buf, sizeof(buf),
		    lunq_hist_percentile(h->counts, h->max, lq_pcts[i].ppm));
		fprintf(f, "%-7s %s\n", lq_pcts[i].name, buf);
	}
	fmt(buf, sizeof(buf), h->max);
	fprintf(f, "%-7s %s\n", "max", buf);
}

void lq_hist_json(FILE *f, const char *device, const char *hist_name,
		  const struct lq_hist *h, bool time)
{
	u64 rows[LUNQ_QUANT_ROWS];
	const char *sep = "";
	size_t i;
	u32 b;

	fprintf(f, "{\"schema\":%d,\"device\":", LQ_JSON_SCHEMA);
	lq_json_str(f, device);
	fputs(",\"hist\":", f);
	lq_json_str(f, hist_name);
	fprintf(f, ",\"unit\":\"%s\"", time ? "ns" : "bytes");
	fprintf(f, ",\"count\":%llu,\"sum\":%llu,\"max\":%llu,\"mean\":",
		(unsigned long long)h->count, (unsigned long long)h->sum,
		(unsigned long long)h->max);
	lq_json_num(f, h->count ? (double)h->sum / (double)h->count : 0);
	fputs(",\"percentiles\":{", f);
	for (i = 0; i < ARRAY_SIZE(lq_pcts); i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", lq_pcts[i].name,
			(unsigned long long)lunq_hist_percentile(h->counts,
				h->max, lq_pcts[i].ppm));
	fputs("},\"quantize\":[", f);
	lunq_hist_quantize(h->counts, rows);
	for (i = 0; i < LUNQ_QUANT_ROWS; i++) {
		if (!rows[i])
			continue;
		fprintf(f, "%s[%llu,%llu]", sep,
			i ? 1ULL << (i - 1) : 0ULL,
			(unsigned long long)rows[i]);
		sep = ",";
	}
	fputs("],\"buckets\":[", f);
	sep = "";
	for (b = 0; b < LUNQ_HIST_BUCKETS; b++) {
		if (!h->counts[b])
			continue;
		fprintf(f, "%s[%llu,%llu,%llu]", sep,
			(unsigned long long)lunq_hist_lower(b),
			(unsigned long long)lunq_hist_upper(b),
			(unsigned long long)h->counts[b]);
		sep = ",";
	}
	fputs("]}", f);
}
