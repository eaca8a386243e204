/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl's command line: the options of every subcommand in one table
 * (options.c), from which the parser (getopt_long's arrays), each
 * command's --help and the hidden "lunqctl --list-options" (what
 * tests/unit/ctl-options.sh holds lunqctl(8) and the bash completion
 * ctl/lunqctl.bash to) are all made, as lunqbench's are from
 * bench/options.c.  Pure: libc only.
 *
 * An entry belongs to one command (@cmd): its --help shows it, its .SS
 * in lunqctl(8) documents it.  Entries without a name are lines of that
 * --help text.  The parser reads one scope: a command, or "online" for
 * the options of tune NAME --online (tune's entries with LQ_OPTF_ONLINE).
 * The parser and the layout of --help are liblunq's option engine
 * (opts.h).  A scope also knows the options of another that it refuses with a
 * reason of its own (@refuse): sweep refuses tune --online's, tune
 * --online tune's sweep options.  The lunqbench options sweep and tune
 * pass on are not here: they are lunqbench's (lunqbench --list-options,
 * ctl/bench.c), handed to the parser and --help as extra options.
 */
#ifndef LUNQCTL_OPTIONS_H
#define LUNQCTL_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include "opts.h"	/* liblunq: the option engine */

/* A command's synopsis and summary (its --help text is lq_opts[]'s). */
struct lq_cmd_doc {
	const char *name;
	const char *args;	/* synopsis after the name */
	const char *summary;
};

extern const struct lq_cmd_doc lq_cmd_docs[];	/* ends with an entry without name */
/* @name's entry, NULL when no command has that name */
const struct lq_cmd_doc *lq_cmd_doc(const char *name);
/* "lunqctl CMD: message", the usage line and a hint on stderr; LQ_EUSAGE. */
int lq_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What an option means; one id for the same meaning in several commands. */
enum lq_optid {
	LQO_NONE,		/* a text entry */
	LQO_JSON, LQO_QUIET, LQO_VERBOSE, LQO_OUTPUT,
	/* stat */
	LQO_EXTENDED, LQO_LINUX, LQO_TOTALS, LQO_PROMETHEUS,
	/* hist */
	LQO_WAIT, LQO_SERVICE, LQO_TOTAL, LQO_READ, LQO_WRITE, LQO_SIZE,
	LQO_ALIGN, LQO_QUANTIZE, LQO_LQUANTIZE, LQO_PERCENTILES,
	/* align */
	LQO_VENDOR, LQO_MODEL, LQO_POOL,
	/* events */
	LQO_COUNT, LQO_TIMEOUT,
	/* apply */
	LQO_DRY_RUN, LQO_DEVICE,
	/* sweep, tune */
	LQO_QDEPTH, LQO_SCHED, LQO_LOOP, LQO_CURVE, LQO_P99, LQO_WITHIN,
	LQO_IORATE,
	/* tune --online */
	LQO_ONLINE, LQO_SETTLE, LQO_ELAPSED, LQO_MODE, LQO_KEEP,
};

/* lq_getopt()'s answers besides an enum lq_optid */
#define LQO_END		0	/* no more options: optind is the first operand */
#define LQO_HELP	(-1)	/* -h, --help */
#define LQO_REFUSED	(-2)	/* an option the scope refuses: g->opt */
#define LQO_EXTRA	(-3)	/* an extra option: g->x, its value g->arg */
#define LQO_ERR		(-4)	/* a usage error, printed: return g->rc */
#define LQO_UNKNOWN	(-5)	/* with g->keep_unknown: not an option of
				 * the scope, nothing printed (g->word) */

#define LQ_OPTF_ONLINE	 1	/* tune's: of tune NAME --online (scope "online") */
#define LQ_OPTF_NOHELP	 2	/* not in --help: a text line names it */
#define LQ_OPTF_HIDDEN	 4	/* parsed only: not in --help, --list-options,
				 * lunqctl(8) or the completion */
#define LQ_OPTF_JOIN	 8	/* --help: on the line of the option before,
				 * after " | "; the text is that one's */
#define LQ_OPTF_LETTER0	16	/* the letter is taken but never shown */
#define LQ_OPTF_BENCH	32	/* a text entry: "lunqbench options, passed
				 * on:" and the extra options, wrapped */

struct lq_opt {
	struct lq_optdef head;	/* the long option without "--" (NULL:
				 * text), the short one (0: none), its value
				 * in --help (NULL: takes none) */
	const char *cmd;	/* the command it belongs to */
	enum lq_optid id;
	unsigned int flags;	/* LQ_OPTF_* */
	/*
	 * --help: the text after the option (at the command's column; a
	 * "\n" starts a line at that column), or a text entry's lines
	 */
	const char *help;
	const char *refuse;	/* the scopes that know it only to refuse it */
	const char *why;	/* tune --online's reason to refuse it */
};

extern const struct lq_opt lq_opts[];	/* ends with an entry without cmd */

/* An option from another table (lunqbench's), for a scope to take or refuse. */
struct lq_xopt {
	const char *name;	/* without "--" */
	const char *metavar;	/* NULL: takes no value */
};

#define LQ_GETOPT_MAX	LQ_OPTS_MAX	/* long options of a scope, extras included */

struct lq_optscope;

/* The parser of one scope over argv (getopt_long's state: optind). */
struct lq_getopt {
	/* the scope, set by lq_getopt_init(); keep_unknown may be set after */
	const struct lq_optscope *scope;
	int argc;
	char **argv;
	bool keep_unknown;
	/* the answer of the last lq_getopt() */
	const struct lq_opt *opt;	/* the entry: an option or a refused one */
	int x;				/* LQO_EXTRA: the index of the extra */
	const char *arg;		/* the option's value */
	const char *word;		/* the word as given (for messages) */
	int rc;				/* LQO_ERR: the exit code */
	/* the options as getopt_long reads them, and what each index is */
	struct lq_optset set;
	const struct lq_opt *lo_opt[LQ_GETOPT_MAX];	/* NULL: an extra, -h */
	int lo_x[LQ_GETOPT_MAX];
	bool lo_refused[LQ_GETOPT_MAX];
	int help;				/* the index of --help, or -1 */
	struct lq_optdef xdef[LQ_GETOPT_MAX];	/* the extras' */
};

/*
 * Set @g up to read the options of @scope (a command, or "online") in
 * argv[1..@argc-1] (argv[0], the command, and anything from @argc on are
 * not read), with the @nx extra options @x.
 */
void lq_getopt_init(struct lq_getopt *g, const char *scope, int argc,
		    char **argv, const struct lq_xopt *x, int nx);
/*
 * The next option: its enum lq_optid (g->opt its entry, g->arg its value),
 * or one of LQO_END, LQO_HELP, LQO_REFUSED, LQO_EXTRA, LQO_ERR (the
 * scope's own message for an unknown option or a missing value printed
 * with lq_usage()), LQO_UNKNOWN.
 */
int lq_getopt(struct lq_getopt *g);
/* After LQO_UNKNOWN: the message LQO_ERR would have printed; LQ_EUSAGE. */
int lq_getopt_unknown(struct lq_getopt *g);
/*
 * The exit code of an answer @c the caller does not take: LQO_ERR's
 * (printed), else the scope's unknown-option message for g->word.
 */
int lq_getopt_fail(struct lq_getopt *g, int c);

/*
 * The --help text of @cmd after its usage and summary lines: a blank line
 * and its entries, or nothing when it has none; @x: the lunqbench options
 * an LQ_OPTF_BENCH entry names (NULL, @nx < 0: none found).
 */
void lq_opts_help(FILE *f, const char *cmd, const struct lq_xopt *x, int nx);

/*
 * --list-options: a line per option of @cmd, tab-separated: the command,
 * --NAME, -L (or -), its value (or -), and "lunqctl", or "lunqbench" for
 * the @nx extra options @x after them.  An option tune --online and tune
 * share once, an option the scope only refuses or parses (hidden) not.
 */
void lq_opts_list(FILE *f, const char *cmd, const struct lq_xopt *x, int nx);

#endif /* LUNQCTL_OPTIONS_H */
