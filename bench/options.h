/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqbench's command line: every option in one table (options.c), from
 * which getopt_long's struct option array, the parser (liblunq's option
 * engine, opts.h), the defaults,
 * --help and the hidden --list-options, --list-presets (what
 * tests/unit/bench-options.sh checks --help and lunqbench(1) against,
 * and lunqctl sweep reads the options it passes on from) are all made.  The presets (presets.c) are option settings applied
 * like defaults.
 */
#ifndef LUNQBENCH_OPTIONS_H
#define LUNQBENCH_OPTIONS_H

#include <stddef.h>
#include "opts.h"	/* liblunq: the option engine */
#include "run.h"

#define LB_MAX_IOSIZE	(64U << 20)
#define LB_MAX_DEPTH	4096U
#define LB_MAX_THREADS	1024U

/* The options, in the order of --help; the index into lb_options[]. */
enum lb_optid {
	LBO_ENGINE, LBO_IODEPTH, LBO_THREADS, LBO_BATCH, LBO_BUFFERED,
	LBO_SYNC, LBO_FORCE, LBO_FSYNC,
	LBO_BS, LBO_RDPCT, LBO_SEEKPCT, LBO_RANGE, LBO_OFFSET, LBO_ALIGN,
	LBO_ZIPF, LBO_HOT, LBO_SEED,
	LBO_IORATE, LBO_ARRIVAL, LBO_BURST, LBO_BURST_EVERY, LBO_ELAPSED, LBO_INTERVAL, LBO_WARMUP,
	LBO_IOS, LBO_SPIN, LBO_SIZE,
	LBO_VERIFY,
	LBO_PRESET,
	LBO_JSON, LBO_KV, LBO_HELP, LBO_VERSION, LBO_LIST_OPTIONS, LBO_LIST_PRESETS,
	LBO_HIST_BOUNDS,
	LBO_N
};

enum lb_optkind {
	LB_OPT_FLAG,		/* no argument: the bool at off becomes true */
	LB_OPT_U32,		/* a whole number lo..hi into the u32 at off */
	LB_OPT_U64,		/* the same into a u64 */
	LB_OPT_NUM,		/* a number dlo..dhi into the double at off */
	LB_OPT_CHOICE,		/* one of choices[] into the enum at off */
	LB_OPT_FUNC,		/* parse(): anything else */
};

#define LB_OPTF_HIDDEN	1	/* not in --help, lunqbench(1), --list-options */
#define LB_OPTF_LO_OPEN	2	/* LB_OPT_NUM: above dlo, not equal */
#define LB_OPTF_SWEEP	4	/* it shapes the load: lunqctl sweep and tune
				 * take it before "--" and pass it on
				 * (--list-options says "sweep") */

struct lb_choice {
	const char *name;
	int value;
};

struct lb_option;
/* Parses @arg into @o; a bad value is a usage error (exit 1). */
typedef void lb_optparse_fn(struct lb_opts *o, const struct lb_option *opt,
			    const char *arg);

struct lb_option {
	struct lq_optdef head;	/* the long option (without "--"), the short
				 * one (0: none), the argument in --help
				 * (NULL: takes none) */
	const char *section;	/* heading in --help and .SS in lunqbench(1) */
	const char *help;	/* --help text (wrapped when printed) */
	const char *def;	/* the default, parsed like the option; NULL:
				 * zero, or as help says */
	const char *defhelp;	/* the default as --help shows it, when not def */
	enum lb_optkind kind;
	size_t off;		/* offsetof(struct lb_opts, field) */
	size_t given;		/* LB_GIVEN(bool field) set when given, 0: none */
	unsigned long long lo, hi;	/* LB_OPT_U32, LB_OPT_U64 */
	double dlo, dhi;	/* LB_OPT_NUM */
	const struct lb_choice *choices;	/* LB_OPT_CHOICE, NULL-ended */
	lb_optparse_fn *parse;	/* LB_OPT_FUNC */
	unsigned flags;		/* LB_OPTF_* */
};
#define LB_GIVEN(field)	(offsetof(struct lb_opts, field) + 1)

extern const struct lb_option lb_options[LBO_N];

/* The presets (presets.c): option settings "NAME=VALUE" applied after the
 * defaults, before the command line. */
struct lb_preset_def {
	const char *name;
	enum lb_preset id;
	const char *help;	/* for --help */
	const char *const *set;	/* "option=value", NULL-ended */
};
extern const struct lb_preset_def lb_presets[];	/* ends with name NULL */

/* Applies a "name=value" setting (or "name" for a flag) as a default:
 * parsed like the option, but not marked as given. */
void lb_opt_default(struct lb_opts *o, const char *setting);
void lb_parse_args(struct lb_opts *o, int argc, char **argv);
void lb_help(void);
/* The parsers some presets and options share. */
void lb_opt_bs(struct lb_opts *o, const struct lb_option *opt, const char *arg);

/* a bad option or value: "lunqbench: message", exit 1 (liblunq's lq_die) */
#define lb_usage_error(...) lq_die(LB_EUSAGE, __VA_ARGS__)

#endif
