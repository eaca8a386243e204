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

enum lq_num_err lq_parse_unit(const char *s, size_t n, const struct lq_unit *u,
			      size_t nu, bool exact, u64 *val,
			      const struct lq_unit **unit)
{
	u64 ip = 0, fv = 0, fscale = 1, m;
	size_t i = 0, k;
	int digits = 0, fd = 0;

	if (!n)
		return LQ_NUM_EMPTY;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		u64 d = (u64)(s[i] - '0');

		if (ip > (ULLONG_MAX - d) / 10)
			return LQ_NUM_RANGE;
		ip = ip * 10 + d;
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, fd++) {
			if (fd >= 9) {
				if (exact)
					return LQ_NUM_DECIMALS;
				continue;
			}
			fv = fv * 10 + (u64)(s[i] - '0');
			fscale *= 10;
		}
		if (!fd)
			return LQ_NUM_BAD;
		digits += fd;
	}
	if (!digits)
		return LQ_NUM_BAD;
	for (k = 0; k < nu; k++)
		if (strlen(u[k].sfx) == n - i && !strncmp(u[k].sfx, s + i, n - i))
			break;
	if (k == nu)
		return LQ_NUM_SUFFIX;
	m = u[k].mult;
	/* fv < 10^9 and m <= 2^40: fv * m fits */
	if (exact && (fv * m) % fscale)
		return LQ_NUM_FRACTION;
	if (ip > (ULLONG_MAX - fv * m / fscale) / m)
		return LQ_NUM_RANGE;
	*val = ip * m + fv * m / fscale;
	if (unit)
		*unit = &u[k];
	return LQ_NUM_OK;
}

bool lq_parse_size(const char *s, size_t n, u64 *out)
{
	static const struct lq_unit sizes[] = {
		{ "", 1, "bytes" },
		{ "k", 1ULL << 10, "KiB" }, { "K", 1ULL << 10, "KiB" },
		{ "m", 1ULL << 20, "MiB" }, { "M", 1ULL << 20, "MiB" },
		{ "g", 1ULL << 30, "GiB" }, { "G", 1ULL << 30, "GiB" },
		{ "t", 1ULL << 40, "TiB" }, { "T", 1ULL << 40, "TiB" },
	};

	/* whole numbers only: "1.5k" is not a size here */
	if (memchr(s, '.', n))
		return false;
	return lq_parse_unit(s, n, sizes, ARRAY_SIZE(sizes), true, out, NULL) == LQ_NUM_OK;
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

int lq_parse_duration_ns(const char *s, u64 *ns)
{
	static const struct lq_unit units[] = {
		{ "ns", 1, "ns" }, { "us", 1000, "us" }, { "ms", 1000000, "ms" },
		{ "s", 1000000000, "s" },
	};
	const struct lq_unit *u;
	u64 v;

	if (lq_parse_unit(s, strlen(s), units, ARRAY_SIZE(units), false, &v, &u) ||
	    !v || v / u->mult > 3600ULL * 24 * 365 * 1000000000ULL / u->mult)
		return -1;
	*ns = v;
	return 0;
}
