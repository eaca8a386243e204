// SPDX-License-Identifier: GPL-2.0
/*
 * liblunq: messages, exits and memory of a lunq program (util.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "util.h"

int lq_nomem_status = 1;

static void message(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", lq_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int lq_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	return code;
}

void lq_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	exit(code);
}

void *lq_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		lq_die(lq_nomem_status, "out of memory");
	return p;
}
