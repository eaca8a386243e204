/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: sizes and durations, read from the command line and written
 * for people.  One spelling for both tools: lunqbench's --bs 4k and
 * lunqctl sweep's --runtime 2m read the same way.
 */
#ifndef LIBLUNQ_UNITS_H
#define LIBLUNQ_UNITS_H

#include "lq.h"

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

/* "812 ns", "12.3 us", "4.56 ms", "1.23 s": 3 significant digits. */
void lq_fmt_ns(char *buf, size_t len, u64 ns);

/* "512 B", "4 KiB", "1.5 MiB": up to 3 significant digits, 1024-based. */
void lq_fmt_bytes(char *buf, size_t len, u64 bytes);

#endif /* LIBLUNQ_UNITS_H */
