/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: the option engine of both tools.  Each keeps its options in
 * one table whose rows begin with a struct lq_optdef (name, letter,
 * value); from those rows come getopt_long's struct option array and
 * short options (struct lq_optset), the dispatch of what getopt_long
 * answers to a row's index (lq_optset_next), and the layout of --help
 * (lq_help_head, lq_help_text).  What an option does stays the tool's.
 */
#ifndef LIBLUNQ_OPTS_H
#define LIBLUNQ_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* What getopt_long and --help's head know of an option: a table row's
 * first member. */
struct lq_optdef {
	const char *name;	/* the long option without "--"; NULL: none */
	char letter;		/* the short option, 0: none */
	const char *metavar;	/* its value in --help; NULL: takes none */
};

#define LQ_OPTS_MAX	64	/* options in a set */

/* A set of options over argv, as getopt_long reads them: val is 256 +
 * the option's index in the set. */
struct lq_optset {
	int argc;
	char **argv;
	int n;
	const struct lq_optdef *def[LQ_OPTS_MAX];
	struct option lo[LQ_OPTS_MAX + 1];
	char so[2 * LQ_OPTS_MAX + 2];
};

/* lq_optset_next()'s answers besides an index */
#define LQ_OPTS_END	(-1)	/* no more options: optind is the first operand */
#define LQ_OPTS_NOVALUE	(-2)	/* an option without its value (@novalue) */
#define LQ_OPTS_UNKNOWN	(-3)	/* not an option of the set (nor its value,
				 * without @novalue) */

/*
 * An empty set over argv[1..@argc-1]; @novalue: a missing value is told
 * apart from an unknown option.  getopt_long prints nothing.
 */
void lq_optset_init(struct lq_optset *s, int argc, char **argv, bool novalue);
/* @d into the set: its index; -1 (not added) when its name is taken or
 * the set is full. */
int lq_optset_add(struct lq_optset *s, const struct lq_optdef *d);
/* Read argv from its start again. */
void lq_optset_rewind(struct lq_optset *s);
/* The index of the next option (its value in optarg), or LQ_OPTS_*. */
int lq_optset_next(struct lq_optset *s);
/* The word of the last answer, as given (for messages). */
const char *lq_optset_word(const struct lq_optset *s);

/* --help: "  -L, --name METAVAR" (without the letter when !@letter) on @f;
 * the columns it took. */
int lq_help_head(FILE *f, const struct lq_optdef *d, bool letter);
/*
 * --help: @text from column @col, the cursor at column @at (a head that
 * reaches @col - 2: from the next line); each of its lines ("\n") at
 * @col, wrapped before a word that would pass column @width, the blanks
 * between words kept.
 */
void lq_help_text(FILE *f, const char *text, int col, int at, int width);

#endif /* LIBLUNQ_OPTS_H */
