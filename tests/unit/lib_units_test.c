// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lib/units.c: sizes and durations as both tools read them
 * from the command line (lunqbench --bs 4k, lunqctl sweep --runtime 2m)
 * and write them for people.  One "ok N name" / "not ok N name" line per
 * check.
 *
 * LINK: lib/units.c
 */
#include <stdio.h>
#include <string.h>
#include "units.h"

#define TAP_PREFIX "units-"
#include "tap.h"

static bool size_is(const char *s, u64 want)
{
	u64 v = 0;

	return lq_parse_size(s, strlen(s), &v) && v == want;
}

static bool size_bad(const char *s)
{
	u64 v = 12345;

	return !lq_parse_size(s, strlen(s), &v) && v == 12345;
}

static void test_parse_size(void)
{
	u64 v = 0;

	ok(size_is("0", 0) && size_is("4096", 4096) && size_is("4k", 4096) &&
	   size_is("4K", 4096) && size_is("1m", 1ULL << 20) &&
	   size_is("2G", 2ULL << 30) && size_is("1t", 1ULL << 40),
	   "size-suffixes");
	ok(size_is("18446744073709551615", ~0ULL) &&
	   size_is("16777215t", 16777215ULL << 40), "size-largest");
	ok(size_bad("") && size_bad("k") && size_bad("-1") &&
	   size_bad(" 4k") && size_bad("4kb") && size_bad("4x") &&
	   size_bad("1.5k") && size_bad("18446744073709551616") &&
	   size_bad("16777216t") && size_bad("0x10"), "size-refused");
	/* only @n bytes count: "4k-8k" read as its two halves */
	ok(lq_parse_size("4k-8k", 2, &v) && v == 4096 &&
	   lq_parse_size("4k-8k" + 3, 2, &v) && v == 8192 &&
	   !lq_parse_size("4k-8k", 3, &v), "size-length");
}

static void test_parse_secs(void)
{
	ok(lq_parse_secs("10") == 10 && lq_parse_secs("10s") == 10 &&
	   lq_parse_secs("0.5") == 0.5 && lq_parse_secs("2m") == 120 &&
	   lq_parse_secs("1h") == 3600 && lq_parse_secs("0") == 0,
	   "secs-suffixes");
	ok(lq_parse_secs("") < 0 && lq_parse_secs("s") < 0 &&
	   lq_parse_secs("-1") < 0 && lq_parse_secs("10x") < 0 &&
	   lq_parse_secs("10ms") < 0 && lq_parse_secs("nan") < 0,
	   "secs-refused");
}

static void test_format(void)
{
	static const struct {
		u64 v;
		const char *ns, *bytes;
	} t[] = {
		{ 0, "0 ns", "0 B" },
		{ 812, "812 ns", "812 B" },
		{ 999, "999 ns", "999 B" },
		{ 1000, "1.00 us", "1000 B" },
		{ 1024, "1.02 us", "1 KiB" },
		{ 1536, "1.54 us", "1.5 KiB" },
		{ 4096, "4.10 us", "4 KiB" },
		{ 9995, "10.0 us", "9.76 KiB" },
		{ 12345, "12.3 us", "12.1 KiB" },
		{ 99950, "100 us", "97.6 KiB" },
		{ 999499, "999 us", "976 KiB" },
		{ 999500, "1.00 ms", "976 KiB" },
		{ 1048064, "1.05 ms", "1 MiB" },	/* 1023.5 KiB */
		{ 1048575, "1.05 ms", "1 MiB" },
		{ 1572864, "1.57 ms", "1.5 MiB" },
		{ 4560000, "4.56 ms", "4.35 MiB" },
		{ 1230000000, "1.23 s", "1.15 GiB" },
		{ 2199023255552ULL, "2199 s", "2 TiB" },
		{ ~0ULL, "18446744074 s", "16 EiB" },
	};
	char buf[48], name[64];
	size_t i;
	int ok_ns = 1, ok_b = 1;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		lq_fmt_ns(buf, sizeof(buf), t[i].v);
		if (strcmp(buf, t[i].ns)) {
			diag("lq_fmt_ns(%llu) = \"%s\", want \"%s\"",
			       (unsigned long long)t[i].v, buf, t[i].ns);
			ok_ns = 0;
		}
		lq_fmt_bytes(buf, sizeof(buf), t[i].v);
		if (strcmp(buf, t[i].bytes)) {
			diag("lq_fmt_bytes(%llu) = \"%s\", want \"%s\"",
			       (unsigned long long)t[i].v, buf, t[i].bytes);
			ok_b = 0;
		}
	}
	ok(ok_ns, "fmt-ns");
	ok(ok_b, "fmt-bytes");
	lq_fmt_ns(buf, 5, 12345);
	snprintf(name, sizeof(name), "fmt-truncates \"%s\"", buf);
	ok(!strcmp(buf, "12.3"), name);
}

int main(void)
{
	test_parse_size();
	test_parse_secs();
	test_format();
	return tap_exit();
}
