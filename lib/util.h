/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: what every lunq program does the same way, as iproute2's
 * lib/utils.c does for ip and tc: a message with the program's name, an
 * exit with a status, memory that is there or the end.
 *
 * The program defines lq_prog, its name in messages ("lunqctl",
 * "lunqbench"; a unit test, the name of the tool it stands for).
 */
#ifndef LIBLUNQ_UTIL_H
#define LIBLUNQ_UTIL_H

#include <stddef.h>

extern const char *lq_prog;

/*
 * lq_xcalloc()'s exit status when memory runs out; the program sets its
 * own (lunqbench 4, lunqctl 6) before it allocates.  Default 1.
 */
extern int lq_nomem_status;

/* "PROG: message" and a newline on stderr; returns @code. */
int lq_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same, then exit(@code). */
void lq_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* calloc() of at least one byte; out of memory: lq_die(lq_nomem_status). */
void *lq_xcalloc(size_t n, size_t size);

#endif /* LIBLUNQ_UTIL_H */
