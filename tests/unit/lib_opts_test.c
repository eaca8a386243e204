// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lib/opts.c, the option engine of lunqctl and lunqbench:
 * a set's getopt_long arrays and its answers as indexes (long and short
 * options, values, a missing value told apart or not, an unknown option,
 * a name taken twice, reading argv again), and the layout of --help (an
 * option's head, text at a column, wrapped with its blanks kept, a long
 * head's text on the next line, lines of its own).
 *
 * LINK: lib/opts.c
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

#define TAP_PREFIX "opts-"
#include "tap.h"

static const struct lq_optdef defs[] = {
	{ "json", 'j', NULL },
	{ "count", 'c', "N" },
	{ "qdepth", 0, "LIST" },
	{ "quiet", 0, NULL },
};

/* the answers to @argv, one "i:VALUE" (or "END", "NOVALUE", "UNKNOWN:WORD")
 * each, blank-separated, into @out */
static void answers(bool novalue, int argc, char **argv, char *out, size_t n)
{
	struct lq_optset s;
	size_t len = 0;
	int c;

	lq_optset_init(&s, argc, argv, novalue);
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		lq_optset_add(&s, &defs[i]);
	out[0] = '\0';
	do {
		c = lq_optset_next(&s);
		if (c == LQ_OPTS_END)
			len += (size_t)snprintf(out + len, n - len, "END@%d", optind);
		else if (c == LQ_OPTS_NOVALUE)
			len += (size_t)snprintf(out + len, n - len, "NOVALUE ");
		else if (c == LQ_OPTS_UNKNOWN)
			len += (size_t)snprintf(out + len, n - len, "UNKNOWN:%s ",
						lq_optset_word(&s));
		else
			len += (size_t)snprintf(out + len, n - len, "%d:%s ", c,
						optarg ? optarg : "-");
	} while (c != LQ_OPTS_END && c != LQ_OPTS_NOVALUE && len < n);
}

static int answers_are(bool novalue, const char *args, const char *want)
{
	char buf[256], out[256], *argv[16];
	int argc = 0;

	snprintf(buf, sizeof(buf), "cmd %s", args);
	for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	answers(novalue, argc, argv, out, sizeof(out));
	diag("  %s: %s", args, out);
	return !strcmp(out, want);
}

/* what @fn printed is @want */
#define PRINTS(want, fn)						\
	({								\
		char *_b = NULL;					\
		size_t _n = 0;						\
		FILE *f = open_memstream(&_b, &_n);			\
		int _ok;						\
		fn;							\
		fclose(f);						\
		_ok = !strcmp(_b, want);				\
		if (!_ok)						\
			printf("# got:\n%s# want:\n%s", _b, want);	\
		free(_b);						\
		_ok;							\
	})

int main(void)
{
	struct lq_optset s;
	static const struct lq_optdef again = { "json", 'J', NULL };

	ok(answers_are(true, "-j --count 3 -c4 --qdepth=1,2 --quiet x y",
			  "0:- 1:3 1:4 2:1,2 3:- END@7"), "long-short-values");
	ok(answers_are(true, "--qd 4 --js x", "2:4 0:- END@4"), "abbreviations");
	ok(answers_are(true, "-j --count", "0:- NOVALUE "), "novalue");
	ok(answers_are(false, "-j --count", "0:- UNKNOWN:--count END@3"),
	   "novalue-as-unknown");
	ok(answers_are(true, "--bogus", "UNKNOWN:--bogus END@2"), "unknown-long");
	ok(answers_are(true, "-Z x", "UNKNOWN:-Z END@2"), "unknown-letter");
	ok(answers_are(true, "x -- -j", "END@2"), "operands-first");

	lq_optset_init(&s, 0, NULL, false);
	ok(lq_optset_add(&s, &defs[0]) == 0 && lq_optset_add(&s, &again) == -1 &&
	   s.n == 1 && !strcmp(s.so, "j"), "name-taken-once");
	{
		char *argv[] = { "cmd", "-c", "5", "x", NULL };
		int a, b;

		lq_optset_init(&s, 4, argv, true);
		for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
			lq_optset_add(&s, &defs[i]);
		ok(!strcmp(s.so, ":jc:"), "short-options");
		a = lq_optset_next(&s);
		lq_optset_next(&s);
		lq_optset_rewind(&s);
		b = lq_optset_next(&s);
		ok(a == 1 && b == 1 && !strcmp(optarg, "5"), "rewind");
	}

	ok(PRINTS("  -c, --count N", lq_help_head(f, &defs[1], true)),
	   "head-letter");
	ok(PRINTS("  --count N", lq_help_head(f, &defs[1], false)),
	   "head-no-letter");
	ok(PRINTS("  --quiet   no output\n",
		  lq_help_text(f, "no output", 12, lq_help_head(f, &defs[3], true),
				  INT_MAX)), "text-at-column");
	ok(PRINTS("  --qdepth LIST\n      a b\n",
		  lq_help_text(f, "a b", 6, lq_help_head(f, &defs[2], true),
				  INT_MAX)), "long-head-next-line");
	ok(PRINTS("    one\n    two\n", lq_help_text(f, "one\ntwo", 4, 0, INT_MAX)),
	   "lines");
	ok(PRINTS("aaa bbb\nccc.  ddd\n",
		  lq_help_text(f, "aaa bbb ccc.  ddd", 0, 0, 10)), "wrap-blanks-kept");
	ok(PRINTS("  x   aaa bbb\n      ccc\n",
		  lq_help_text(f, "aaa bbb ccc", 6, fprintf(f, "  x"), 13)),
	   "wrap-at-column");
	ok(PRINTS("a\n\nb\n", lq_help_text(f, "a\n\nb", 0, 0, INT_MAX)),
	   "empty-line");

	printf("# %d checks, %d failed\n", tap_n, tap_failed);
	return tap_exit();
}
