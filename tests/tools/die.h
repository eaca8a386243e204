/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test tools' fatal error: "TOOL: message" on stderr, exit status 2.
 * The tool defines TOOL_NAME before it includes this file.
 */
#ifndef LUNQ_TOOLS_DIE_H
#define LUNQ_TOOLS_DIE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, TOOL_NAME ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

#endif
