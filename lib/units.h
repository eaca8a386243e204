/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: sizes and durations, read from the command line and written
 * for people.  One spelling for both tools: lunqbench's --bs 4k and
 * lunqctl sweep's --runtime 2m read the same way.
 */
#ifndef LIBLUNQ_UNITS_H
#define LIBLUNQ_UNITS_H

#include "lq.h"

/* A unit a number may end with: its suffix, what it multiplies by, its name. */
struct lq_unit {
	const char *sfx;	/* "" for a bare number */
	u64 mult;		/* at most 2^40 */
	const char *name;
};

/* Why lq_parse_unit() refused a number. */
enum lq_num_err {
	LQ_NUM_OK = 0,
	LQ_NUM_EMPTY,		/* nothing there */
	LQ_NUM_BAD,		/* no digits, or a '.' without decimals */
	LQ_NUM_DECIMALS,	/* more than 9 decimals (when exact) */
	LQ_NUM_SUFFIX,		/* not one of the units' suffixes */
	LQ_NUM_FRACTION,	/* not a whole number of the smallest unit (when exact) */
	LQ_NUM_RANGE,		/* over 64 bits */
};

/*
 * The one reader of numbers with a unit: @n bytes of @s, decimal digits,
 * optionally '.' and decimals, then exactly one of the @nu suffixes of
 * @u (compared as they are: list "k" and "K" for either case).  *@val is
 * the number times the unit's mult, *@unit (when not NULL) its entry.
 * @exact: the value must come out whole and have at most 9 decimals;
 * else further decimals and what is below 1 are dropped.
 */
enum lq_num_err lq_parse_unit(const char *s, size_t n, const struct lq_unit *u,
			      size_t nu, bool exact, u64 *val,
			      const struct lq_unit **unit);

/*
 * A size: decimal digits and an optional suffix k, m, g, t (either case;
 * powers of 1024): "4096", "4k", "1M".  @n bytes of @s are read (the
 * whole string: strlen).  false when anything else is there, or when it
 * overflows 64 bits.
 */
bool lq_parse_size(const char *s, size_t n, u64 *out);

/*
 * A duration in seconds: a non-negative decimal with an optional suffix
 * s, m (minutes) or h ("10", "10s", "0.5", "2m", "1h").  -1 when not
 * understood.
 */
double lq_parse_secs(const char *s);

/*
 * A duration with a unit: "10ms", "2.5ms", "500us", "1s", "800ns"
 * (decimal, optional fraction, unit ns|us|ms|s required) into ns, > 0
 * and at most a year.  Returns 0, or -1.
 */
int lq_parse_duration_ns(const char *s, u64 *ns);

/* "812 ns", "12.3 us", "4.56 ms", "1.23 s": 3 significant digits. */
void lq_fmt_ns(char *buf, size_t len, u64 ns);

/* "512 B", "4 KiB", "1.5 MiB": up to 3 significant digits, 1024-based. */
void lq_fmt_bytes(char *buf, size_t len, u64 bytes);

#endif /* LIBLUNQ_UNITS_H */
