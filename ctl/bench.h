/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl and the lunqbench program (bench.c): finding it, running it as
 * a child, and the options of its table that sweep and tune pass on
 * before "--" (those "lunqbench --list-options" marks "sweep").
 * Plumbing: fork, exec, pipes.
 */
#ifndef LUNQCTL_BENCH_H
#define LUNQCTL_BENCH_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "options.h"

/* A child's run (lq_bench_run()). */
struct lq_run {
	char *out;		/* its stdout (and stderr unless verbose), the
				 * last MiB, NUL-terminated; free() it */
	size_t len;
	int status;		/* waitpid status */
	bool interrupted;	/* stopped because *stop was set */
	bool timed_out;
	bool exec_failed;
};

/*
 * Run @argv (argv[0] a path) as a child in its own process group (so a
 * Ctrl-C at the terminal reaches lunqctl only, which stops the child and
 * then restores what it changed); it dies with lunqctl
 * (PR_SET_PDEATHSIG).  Stopped when *@stop becomes non-zero (@stop may be
 * NULL), or after @timeout_s (<= 0: never).  Returns 0 when it ran (see
 * @r), -1 when it could not be started.
 */
int lq_bench_run(char *const *argv, bool verbose, double timeout_s,
		 volatile sig_atomic_t *stop, struct lq_run *r);

#define LQ_BENCH_OPTS_MAX	32

/* lunqbench, found and its options read (lq_bench()). */
struct lq_bench {
	int rc;			/* LQ_OK, or the exit code of why not */
	char err[PATH_MAX + 128];	/* then the message */
	char path[PATH_MAX];
	int n;			/* the options sweep and tune pass on */
	struct lq_xopt opt[LQ_BENCH_OPTS_MAX];
	char dashed[LQ_BENCH_OPTS_MAX][40];	/* "--engine" (opt[i].name + 2) */
	char metavar[LQ_BENCH_OPTS_MAX][64];
};

/*
 * $LUNQBENCH; else ../bench/lunqbench and lunqbench next to this lunqctl
 * (/proc/self/exe: the build tree, or an install of both); else PATH.
 * Then its table: "PATH --list-options", the options marked "sweep".
 * Done once; never NULL.
 */
const struct lq_bench *lq_bench(void);

#endif /* LUNQCTL_BENCH_H */
