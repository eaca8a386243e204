/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: what lunqctl (ctl/) and lunqbench (bench/) share.  The types
 * of the module's UAPI and pure headers, and a histogram as userspace
 * holds it.  The library (lib/Makefile -> liblunq.a):
 *
 *   util.c       messages with the program's name, exits, memory (util.h)
 *   json.c       JSON strings and numbers (json.h)
 *   units.c      sizes and durations: parsing "4k", "10s"; "4.56 ms",
 *                "1.5 MiB" for people (units.h)
 *   histview.c   DTrace-style quantize/lquantize views of a histogram,
 *                percentiles, JSON (histview.h)
 *   result.c     lunqbench's result record: its fields described once,
 *                the --kv summary line read and written, CSV and JSON
 *                (result.h)
 *   busy.c       what keeps a block device busy: mounts, holders, swap,
 *                also of its partitions (busy.h)
 *   opts.c       the option engine: getopt_long's arrays from table rows,
 *                its answers as row indexes, the layout of --help (opts.h)
 *   kmod/lunq_hist.c, lunq_names.c, lunq_args.c, compiled as they are
 *                in the module: the histogram layout, the statistic and
 *                key names, the policy-word parser
 *
 * Pure: libc only (no libm, no libnl).  Unit tests: tests/unit/lib_*.
 */
#ifndef LIBLUNQ_LQ_H
#define LIBLUNQ_LQ_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include "lunq_pure.h"
#include "uapi/lunq.h"

/* One histogram (GET_HIST, or lunqbench's own): LUNQ_HIST_BUCKETS counts. */
struct lq_hist {
	u32 kind;			/* enum lunq_hist_kind */
	u64 count, sum, max;
	u64 *counts;			/* LUNQ_HIST_BUCKETS entries */
};

#endif /* LIBLUNQ_LQ_H */
