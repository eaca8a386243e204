// SPDX-License-Identifier: GPL-2.0
/* liblunq: JSON strings and numbers (json.h).  Pure: libc only. */
#include <string.h>
#include "json.h"

void lq_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void lq_json_num(FILE *f, double v)
{
	char buf[400], *e;

	/* NaN compares unequal to itself; v - v is NaN for infinities */
	if (v != v || v - v != 0)
		v = 0;
	snprintf(buf, sizeof(buf), "%.3f", v);
	e = buf + strlen(buf);
	while (e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		*--e = '\0';
	fputs(strcmp(buf, "-0") ? buf : "0", f);
}
