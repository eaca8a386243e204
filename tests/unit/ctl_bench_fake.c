// SPDX-License-Identifier: GPL-2.0
/*
 * What ctl/bench.c's lq_bench() finds in the build tree, for unit tests
 * that run lunqctl's code without a lunqbench to run: the options
 * bench/lunqbench --list-options marks "sweep" (sweep and tune pass them
 * on; tune --online refuses them).  Linked by tests/unit/ctl_tune_online_test.c
 * in place of bench.c.
 */
#include "bench.h"
#include "exit.h"

const struct lq_bench *lq_bench(void)
{
	static const char *const names[][2] = {
		{ "engine", "uring|sync" }, { "iodepth", "N" }, { "threads", "N" },
		{ "bs", "SIZE|SIZE:W,...|MIN-MAX[/STEP]" }, { "rdpct", "N" },
		{ "seekpct", "PCT|eof" }, { "range", "LO-HI" }, { "seed", "N" },
		{ "arrival", "poisson|uniform|fixed" }, { "elapsed", "S" },
		{ "warmup", "S" },
	};
	static struct lq_bench b;

	if (!b.n) {
		snprintf(b.path, sizeof(b.path), "/nonexistent/lunqbench");
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(b.dashed[i], sizeof(b.dashed[i]), "--%s", names[i][0]);
			snprintf(b.metavar[i], sizeof(b.metavar[i]), "%s", names[i][1]);
			b.opt[i] = (struct lq_xopt){ b.dashed[i] + 2, b.metavar[i] };
			b.n++;
		}
	}
	return &b;
}
