// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lib/histview.c: DTrace-style quantize and lquantize
 * tables, lquantize spec parsing, percentiles, JSON (value formatting:
 * lib_units_test.c).
 * One "ok N name" / "not ok N name" line per check.
 *
 * LINK: lib/histview.c lib/json.c lib/units.c kmod/lunq_hist.c kmod/lunq_names.c
 *
 * Golden files (tests/unit/golden/quantize.txt, lquantize.txt,
 * percentiles.txt, hist.json) live next to this source (found via
 * __FILE__, so the binary runs from anywhere); they were checked by hand
 * (bar lengths, row sums, row placement) -- see the comments at the
 * synthetic histograms below.  LUNQ_UPDATE_GOLDEN=1 rewrites them from
 * the current output instead of comparing: review the diff before
 * committing it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "histview.h"
#include "lunq_hist.h"
#include "golden.h"

#define TAP_PREFIX "histview-"
#include "tap.h"

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static u64 tc[LUNQ_HIST_BUCKETS], bc[LUNQ_HIST_BUCKETS], zc[LUNQ_HIST_BUCKETS];
static struct lq_hist th = { .kind = LUNQ_HIST_SVC_READ, .counts = tc };
static struct lq_hist bh = { .kind = LUNQ_HIST_SIZE, .counts = bc };
static struct lq_hist zh = { .kind = LUNQ_HIST_ALIGN, .counts = zc };

static void record(struct lq_hist *h, u64 v, u64 times)
{
	h->counts[lunq_hist_index(v)] += times;
	h->count += times;
	h->sum += v * times;
	if (v > h->max)
		h->max = v;
}

/*
 * The synthetic histograms of the golden files.
 *
 * th, service times, 1000 IOs; sum 51320000 ns (mean 51.3 us):
 *   value (ns)  count  quantize row    bar: round(40 * count / 1000)
 *   700         100    [512, 1024)     4
 *   3000        300    [2048, 4096)    12
 *   11000       500    [8192, 16384)   20
 *   45000       90     [32768, 65536)  3.6 -> 4
 *   1700000     9      [2^20, 2^21)    0.36 -> 0
 *   25500000    1      [2^24, 2^25)    0.04 -> 0
 * Their buckets' lower bounds (what lquantize places): 700, 2992,
 * 10944, 44800, 1695744, 25427968 -- none across a 10 us, 0.5 ms or 1 ms
 * row edge from its value.
 *
 * bh, IO sizes, 1000 IOs (powers of two are exact bucket bounds):
 *   512 x 50, 4096 x 600, 8192 x 250, 65536 x 99, 1048576 x 1
 *   bars: 2, 24, 10, 3.96 -> 4, 0.04 -> 0
 *
 * zh, alignment-like with zeros: 0 x 5, 1 x 3, 3 x 2: rows -1 (DTrace's
 * zero row below 0), 0 (5: 20 @), 1 (3: 12 @), 2 (2: 8 @), 4 (zero).
 */
static void fill(void)
{
	record(&th, 700, 100);
	record(&th, 3000, 300);
	record(&th, 11000, 500);
	record(&th, 45000, 90);
	record(&th, 1700000, 9);
	record(&th, 25500000, 1);

	record(&bh, 512, 50);
	record(&bh, 4096, 600);
	record(&bh, 8192, 250);
	record(&bh, 65536, 99);
	record(&bh, 1048576, 1);

	record(&zh, 0, 5);
	record(&zh, 1, 3);
	record(&zh, 3, 2);
}

/* Sum of the count column of a quantize/lquantize table; -1 on a bad row. */
static long long table_sum(const char *out, int *rows, int *bad_bar)
{
	const char *line = strchr(out, '\n');
	long long sum = 0;

	*rows = 0;
	*bad_bar = 0;
	if (!line)
		return -1;
	for (line++; *line; line = strchr(line, '\n') + 1) {
		const char *bar = strchr(line, '|');
		unsigned long long c;
		int ats = 0;

		if (!bar || bar - line != 17 || sscanf(bar + 42, "%llu", &c) != 1)
			return -1;
		while (bar[1 + ats] == '@')
			ats++;
		(*rows)++;
		sum += (long long)c;
		/* every bar is 40 columns: @s then spaces */
		if (strspn(bar + 1 + ats, " ") != 40 - (size_t)ats + 1)
			*bad_bar = 1;
	}
	return sum;
}

static void test_quantize(void)
{
	struct lq_hist empty = { .counts = calloc(LUNQ_HIST_BUCKETS, sizeof(u64)) };
	u64 c80[LUNQ_HIST_BUCKETS] = { 0 };
	struct lq_hist h80 = { .counts = c80 };
	char *out, *all;
	int rows, bad;

	CAPTURE(all,
		fputs("service_read (ns)\n", f);
		lq_hist_print_quantize(f, &th);
		fputs("\nsize (bytes)\n", f);
		lq_hist_print_quantize(f, &bh);
		fputs("\nalign (bytes)\n", f);
		lq_hist_print_quantize(f, &zh));
	ok(golden("quantize.txt", all), "quantize-golden");
	free(all);

	CAPTURE(out, lq_hist_print_quantize(f, &th));
	ok(starts_with(out, "           value  ------------- Distribution ------------- count    \n"),
	   "quantize-header");
	ok(table_sum(out, &rows, &bad) == 1000 && rows == 18 && !bad,
	   "quantize-rows-sum-to-count");
	ok(strstr(out, "             256 |                                         0        \n"
			  "             512 |@@@@                                     100      \n") &&
	   strstr(out, "           32768 |@@@@                                     90       \n") &&
	   strstr(out, "        33554432 |                                         0        \n"),
	   "quantize-rows-and-trim");
	free(out);

	CAPTURE(out, lq_hist_print_quantize(f, &zh));
	ok(table_sum(out, &rows, &bad) == 10 && rows == 5 && !bad &&
	   strstr(out, "\n              -1 |                                         0        \n"
			  "               0 |@@@@@@@@@@@@@@@@@@@@                     5        \n"),
	   "quantize-zero-row-below-0");
	free(out);

	/* ties round up like DTrace: 40 * 1/80 = 0.5 -> 1, 39.5 -> 40 */
	h80.counts[lunq_hist_index(1)] = 1;
	h80.counts[lunq_hist_index(1000)] = 79;
	h80.count = 80;
	CAPTURE(out, lq_hist_print_quantize(f, &h80));
	ok(strstr(out, "               1 |@                                        1        \n") &&
	   strstr(out, "             512 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 79       \n"),
	   "quantize-half-rounds-up");
	free(out);

	CAPTURE(out, lq_hist_print_quantize(f, &empty));
	ok(!strcmp(out, ""), "quantize-empty-prints-nothing");
	free(out);
	CAPTURE(out, lq_hist_print_lquantize(f, &empty, 0, 10, 1, 1));
	ok(!strcmp(out, ""), "lquantize-empty-prints-nothing");
	free(out);
	CAPTURE(out, lq_hist_print_percentiles(f, &empty, true));
	ok(!strcmp(out, "count   0\n"), "percentiles-empty");
	free(out);
	free(empty.counts);
}

struct lspec {
	const char *spec;
	bool time;
	struct lq_hist *h;
};

static void test_lquantize(void)
{
	static const struct lspec specs[] = {
		{ "0,100us,10us", true, &th },
		{ "0.5ms,3ms,0.5ms", true, &th },
		{ "1ms,30ms,1ms", true, &th },
		{ "0,64k,4k", false, &bh },
		{ "0,2m,256k", false, &bh },
	};
	u64 lo, hi, step, unit;
	const char *un;
	char err[160], *out, *all;
	size_t i;
	int rows, bad, ok = 1;

	CAPTURE(all,
		for (i = 0; i < ARRAY_SIZE(specs); i++) {
			if (lq_parse_lquantize(specs[i].spec, specs[i].time, &lo,
					       &hi, &step, &unit, &un, err,
					       sizeof(err))) {
				fprintf(f, "%s: %s\n", specs[i].spec, err);
				continue;
			}
			fprintf(f, "%slquantize %s (%s)\n", i ? "\n" : "",
				specs[i].spec, un);
			lq_hist_print_lquantize(f, specs[i].h, lo, hi, step,
						unit);
		});
	ok(golden("lquantize.txt", all), "lquantize-golden");
	free(all);

	/* every view keeps all IOs */
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		if (lq_parse_lquantize(specs[i].spec, specs[i].time, &lo, &hi,
				       &step, &unit, &un, err, sizeof(err))) {
			ok = 0;
			continue;
		}
		CAPTURE(out, lq_hist_print_lquantize(f, specs[i].h, lo, hi,
						     step, unit));
		if (table_sum(out, &rows, &bad) != 1000 || bad)
			ok = 0;
		free(out);
	}
	ok(ok, "lquantize-rows-sum-to-count");

	ok(!lq_parse_lquantize("0,100us,10us", true, &lo, &hi, &step, &unit,
				  &un, err, sizeof(err)) &&
	   lo == 0 && hi == 100000 && step == 10000 && unit == 1000 &&
	   !strcmp(un, "us"), "parse-us");
	ok(!lq_parse_lquantize("500us,20ms,1ms", true, &lo, &hi, &step,
				  &unit, &un, err, sizeof(err)) &&
	   lo == 500000 && hi == 20000000 && step == 1000000 &&
	   unit == 1000000 && !strcmp(un, "ms"), "parse-unit-from-step");
	ok(!lq_parse_lquantize("0,2s,100000000", true, &lo, &hi, &step,
				  &unit, &un, err, sizeof(err)) &&
	   hi == 2000000000ULL && step == 100000000 && unit == 1 &&
	   !strcmp(un, "ns"), "parse-no-suffix-ns");
	ok(!lq_parse_lquantize("1.5s,3s,0.5s", true, &lo, &hi, &step,
				  &unit, &un, err, sizeof(err)) &&
	   lo == 1500000000ULL && step == 500000000 && !strcmp(un, "s"),
	   "parse-fraction");
	ok(!lq_parse_lquantize("0,1G,64M", false, &lo, &hi, &step, &unit,
				  &un, err, sizeof(err)) &&
	   hi == 1ULL << 30 && step == 64ULL << 20 && unit == 1ULL << 20 &&
	   !strcmp(un, "MiB"), "parse-bytes-M");
	ok(!lq_parse_lquantize("512,8k,512", false, &lo, &hi, &step, &unit,
				  &un, err, sizeof(err)) &&
	   lo == 512 && hi == 8192 && unit == 1 && !strcmp(un, "bytes"),
	   "parse-bytes-plain");
	ok(!lq_parse_lquantize("0,10g,1g", false, &lo, &hi, &step, &unit,
				  &un, err, sizeof(err)) &&
	   step == 1ULL << 30 && !strcmp(un, "GiB"), "parse-bytes-g");
	/* DTrace: levels = (hi - lo) / step, rounded down */
	ok(!lq_parse_lquantize("0,25,10", true, &lo, &hi, &step, &unit,
				  &un, err, sizeof(err)), "parse-uneven-ok");
	CAPTURE(out, lq_hist_print_lquantize(f, &zh, 0, 25, 10, 1));
	ok(strstr(out, "\n               0 |") &&
	   strstr(out, "\n              10 |") &&
	   !strstr(out, ">= 25") && !strstr(out, "              20 |"),
	   "uneven-top-row");
	free(out);
}

struct bad {
	const char *arg;
	bool time;
	const char *msg;	/* expected substring of the error */
};

static void test_parse_errors(void)
{
	static const struct bad bad[] = {
		{ "", true, "expected LO,HI,STEP" },
		{ "0,10ms", true, "expected LO,HI,STEP" },
		{ "0,10ms,1ms,2ms", true, "expected LO,HI,STEP" },
		{ ",10ms,1ms", true, "LO is empty" },
		{ "0,,1ms", true, "HI is empty" },
		{ "0,10ms,", true, "STEP is empty" },
		{ "x,10ms,1ms", true, "LO \"x\": bad number" },
		{ "-1,10ms,1ms", true, "LO \"-1\": bad number" },
		{ "0,10xs,1ms", true, "HI \"10xs\": unknown suffix \"xs\"" },
		{ "0,10ms,1k", true, "STEP \"1k\": unknown suffix \"k\"" },
		{ "0,10k,1ms", false, "STEP \"1ms\": unknown suffix \"ms\"" },
		{ "0,10 ms,1ms", true, "HI \"10 ms\": unknown suffix \" ms\"" },
		{ "0,1.ms,1ms", true, "HI \"1.ms\": bad number" },
		{ "0,.5ms,1us", true, "HI \".5ms\": bad number" },
		{ "0,1.5,1", true, "HI \"1.5\": not a whole number of ns" },
		{ "0,1.0001k,1", false, "HI \"1.0001k\": not a whole number of bytes" },
		{ "0,1.0000000001s,1", true, "more than 9 decimals" },
		{ "0,99999999999999999999,1", true, "HI \"99999999999999999999\": too large" },
		{ "0,20000000000s,1s", true, "HI \"20000000000s\": too large" },
		{ "10ms,10ms,1ms", true, "LO (10ms) must be below HI (10ms)" },
		{ "20ms,10ms,1ms", true, "LO (20ms) must be below HI (10ms)" },
		{ "0,10ms,0us", true, "STEP (0us) must not be 0" },
		{ "0,10ms,20ms", true, "STEP (20ms) larger than HI - LO" },
		{ "0,1s,1ms", true, "1000 rows" },
		{ "0,2s,1ms", true, "(HI - LO) / STEP = 2000 rows, at most 1000" },
	};
	u64 lo = 7, hi = 7, step = 7, unit = 7;
	const char *un = "unchanged";
	char err[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char name[64];
		int rc;

		err[0] = '\0';
		rc = lq_parse_lquantize(bad[i].arg, bad[i].time, &lo, &hi,
					&step, &unit, &un, err, sizeof(err));
		snprintf(name, sizeof(name), "parse-error \"%s\"", bad[i].arg);
		/* "0,1s,1ms" is exactly 1000 rows: allowed */
		if (!strcmp(bad[i].arg, "0,1s,1ms")) {
			ok(rc == 0, "parse-1000-rows-allowed");
			continue;
		}
		if (rc != -1 || !strstr(err, bad[i].msg))
			diag("rc %d, err \"%s\"", rc, err);
		ok(rc == -1 && strstr(err, bad[i].msg), name);
	}
	ok(lq_parse_lquantize("0,1k,1", true, &lo, &hi, &step, &unit, &un,
				 err, sizeof(err)) == -1 &&
	   lo == 0 && hi == 1000000000ULL, "parse-error-leaves-outputs");
}

static void test_percentiles_json(void)
{
	char *out, *all;

	CAPTURE(all,
		fputs("service_read\n", f);
		lq_hist_print_percentiles(f, &th, true);
		fputs("\nsize\n", f);
		lq_hist_print_percentiles(f, &bh, false));
	ok(golden("percentiles.txt", all), "percentiles-golden");
	/* p50: the 500th IO is in 11000's bucket [10752, 11007], mid 10879 */
	ok(strstr(all, "p50     10.9 us\n") &&
	   strstr(all, "p99.99  25.5 ms\n") &&
	   strstr(all, "max     25.5 ms\n"), "percentiles-values");
	free(all);

	CAPTURE(all,
		lq_hist_json(f, "data0", "service_read", &th, true);
		fputc('\n', f);
		lq_hist_json(f, "d\"1", "size", &bh, false);
		fputc('\n', f));
	ok(golden("hist.json", all), "json-golden");
	free(all);

	CAPTURE(out, lq_hist_json(f, "data0", "size", &bh, false));
	ok(starts_with(out, "{\"schema\":2,\"device\":\"data0\",\"hist\":\"size\",\"unit\":\"bytes\","
			  "\"count\":1000,\"sum\":") &&
	   strstr(out, "\"quantize\":[[512,50],[4096,600],[8192,250],"
			  "[65536,99],[1048576,1]]") &&
	   strstr(out, "\"buckets\":[[512,527,50],") &&
	   out[strlen(out) - 1] == '}', "json-shape");
	free(out);
}

int main(void)
{
	fill();
	test_quantize();
	test_lquantize();
	test_parse_errors();
	test_percentiles_json();
	return tap_exit();
}
