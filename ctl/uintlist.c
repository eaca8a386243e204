// SPDX-License-Identifier: GPL-2.0
/* lunqctl: a list of integers on the command line (uintlist.h). */
#include <string.h>
#include "uintlist.h"

int lq_parse_uint_list(const char *s, u32 lo, u32 hi, u32 *v, int max,
		       char *err, size_t errlen)
{
	const char *p = s;
	int n = 0, i;

	for (;;) {
		unsigned long long x = 0;
		const char *start = p;

		while (*p >= '0' && *p <= '9') {
			x = x * 10 + (unsigned long long)(*p - '0');
			if (x > 0xffffffffULL)
				x = 0xffffffffULL + 1ULL;
			p++;
		}
		if (p == start || (*p && *p != ',')) {
			size_t l = strcspn(start, ",");

			snprintf(err, errlen, "'%.*s' is not a number", (int)(l > 32 ? 32 : l),
				 start);
			if (!l)
				snprintf(err, errlen, "empty item in '%s'", s);
			return -1;
		}
		if (x < lo || x > hi) {
			snprintf(err, errlen, "%.*s is out of range %u..%u",
				 (int)(p - start), start, lo, hi);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (v[i] == (u32)x) {
				snprintf(err, errlen, "%u is given twice", (u32)x);
				return -1;
			}
		if (n == max) {
			snprintf(err, errlen, "more than %d items", max);
			return -1;
		}
		v[n++] = (u32)x;
		if (!*p)
			return n;
		p++;
	}
}
