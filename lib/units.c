// SPDX-License-Identifier: GPL-2.0
/*
 * liblunq: sizes and durations, parsed and formatted (units.h).  Pure:
 * libc only.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "units.h"

bool lq_parse_size(const char *s, size_t n, u64 *out)
{
	u64 v = 0, mul = 1;
	size_t i = 0;

	if (!n || s[0] < '0' || s[0] > '9')
		return false;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		u64 d = (u64)(s[i] - '0');

		if (v > (ULLONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (i < n) {
		switch (s[i]) {
		case 'k': case 'K': mul = 1ULL << 10; break;
		case 'm': case 'M': mul = 1ULL << 20; break;
		case 'g': case 'G': mul = 1ULL << 30; break;
		case 't': case 'T': mul = 1ULL << 40; break;
		default: return false;
		}
		i++;
	}
	if (i != n || (v && mul > ULLONG_MAX / v))
		return false;
	*out = v * mul;
	return true;
}

double lq_parse_secs(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0))
		return -1;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		return v;
	if (!strcmp(end, "m"))
		return v * 60;
	if (!strcmp(end, "h"))
		return v * 3600;
	return -1;
}

/*
 * @v / @unit rounded to @d decimals as @ip, @frac (carry included);
 * false when @ip reaches @limit.
 */
static bool lq_round_to(u64 v, u64 unit, int d, u64 limit, u64 *ip,
			u64 *frac)
{
	u64 p = d == 2 ? 100 : d == 1 ? 10 : 1;

	*ip = v / unit;
	*frac = (u64)((long double)(v % unit) * p / unit + 0.5);
	if (*frac >= p) {
		(*ip)++;
		*frac = 0;
	}
	return *ip < limit;
}

void lq_fmt_ns(char *buf, size_t len, u64 ns)
{
	static const struct {
		u64 unit;
		const char *name;
	} units[] = {
		{ 1000, "us" }, { 1000000, "ms" }, { 1000000000, "s" },
	};
	u64 ip, frac;
	size_t u;
	int d;

	if (ns < 1000) {
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
		return;
	}
	for (u = 0; u < ARRAY_SIZE(units); u++) {
		bool last = u == ARRAY_SIZE(units) - 1;

		if (!last && ns >= units[u + 1].unit)
			continue;
		/* 3 significant digits: x.xx, xx.x, xxx */
		for (d = 2; d >= 0; d--) {
			u64 limit = d == 2 ? 10 : d == 1 ? 100 : 1000;

			if (lq_round_to(ns, units[u].unit, d,
					last && !d ? ~0ULL : limit, &ip, &frac))
				break;
		}
		if (d < 0)
			continue;	/* 999.5 us and up: 1.00 ms */
		if (d)
			snprintf(buf, len, "%llu.%0*llu %s",
				 (unsigned long long)ip, d,
				 (unsigned long long)frac, units[u].name);
		else
			snprintf(buf, len, "%llu %s", (unsigned long long)ip,
				 units[u].name);
		return;
	}
}

void lq_fmt_bytes(char *buf, size_t len, u64 bytes)
{
	static const char *const names[] = {
		"KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	u64 ip, frac;
	size_t u;
	int d, n;

	if (bytes < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
		return;
	}
	for (u = 0; u < ARRAY_SIZE(names); u++) {
		u64 unit = 1ULL << (10 * (u + 1));
		bool last = u == ARRAY_SIZE(names) - 1;

		if (!last && bytes >> (10 * (u + 2)))
			continue;
		for (d = 2; d >= 0; d--) {
			u64 limit = d == 2 ? 10 : d == 1 ? 100 : 1024;

			if (lq_round_to(bytes, unit, d,
					last && !d ? ~0ULL : limit, &ip, &frac))
				break;
		}
		if (d < 0)
			continue;	/* 1023.5 KiB and up: 1 MiB */
		if (d && frac) {
			n = snprintf(buf, len, "%llu.%0*llu",
				     (unsigned long long)ip, d,
				     (unsigned long long)frac);
			while (n > 0 && (size_t)n < len && buf[n - 1] == '0')
				buf[--n] = '\0';
			snprintf(buf + strlen(buf), len - strlen(buf), " %s",
				 names[u]);
		} else {
			snprintf(buf, len, "%llu %s", (unsigned long long)ip,
				 names[u]);
		}
		return;
	}
}
