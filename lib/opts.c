// SPDX-License-Identifier: GPL-2.0
/*
 * liblunq: the option engine (opts.h): getopt_long's arrays from table
 * rows, its answers as row indexes, and the layout of --help.
 */
#include <string.h>
#include "opts.h"

void lq_optset_init(struct lq_optset *s, int argc, char **argv, bool novalue)
{
	memset(s, 0, sizeof(*s));
	s->argc = argc;
	s->argv = argv;
	if (novalue)
		strcpy(s->so, ":");
	lq_optset_rewind(s);
}

int lq_optset_add(struct lq_optset *s, const struct lq_optdef *d)
{
	int i = s->n;

	if (i == LQ_OPTS_MAX)
		return -1;
	for (int k = 0; k < i; k++)
		if (!strcmp(s->lo[k].name, d->name))
			return -1;
	s->def[i] = d;
	s->lo[i] = (struct option){ d->name,
				    d->metavar ? required_argument : no_argument,
				    NULL, 256 + i };
	s->lo[i + 1] = (struct option){ NULL, 0, NULL, 0 };
	s->n++;
	if (d->letter) {
		size_t n = strlen(s->so);

		s->so[n++] = d->letter;
		if (d->metavar)
			s->so[n++] = ':';
		s->so[n] = '\0';
	}
	return i;
}

void lq_optset_rewind(struct lq_optset *s)
{
	(void)s;
	optind = 0;
	opterr = 0;
}

int lq_optset_next(struct lq_optset *s)
{
	int c = getopt_long(s->argc, s->argv, s->so, s->lo, NULL);

	if (c == -1)
		return LQ_OPTS_END;
	if (c == ':' && s->so[0] == ':')
		return LQ_OPTS_NOVALUE;
	if (c >= 256 && c < 256 + s->n)
		return c - 256;
	for (int i = 0; c > 0 && c < 256 && i < s->n; i++)
		if (s->def[i]->letter == c)
			return i;
	return LQ_OPTS_UNKNOWN;
}

const char *lq_optset_word(const struct lq_optset *s)
{
	return s->argv[optind - 1];
}

int lq_help_head(FILE *f, const struct lq_optdef *d, bool letter)
{
	int at = fprintf(f, "  ");

	if (d->letter && letter)
		at += fprintf(f, "-%c, ", d->letter);
	at += fprintf(f, "--%s", d->name);
	if (d->metavar)
		at += fprintf(f, " %s", d->metavar);
	return at;
}

/* One line of @len characters at @col, the cursor at @at */
static void help_line(FILE *f, const char *s, size_t len, int col, int at,
		      int width)
{
	const char *end = s + len, *start = s, *p = s;

	if (!len) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "%*s", col - at, "");
	while (p < end) {
		const char *w = p + strspn(p, " ");
		const char *e = w + strcspn(w, " \n");

		if (e > end)
			e = end;
		if (col + (e - start) > width && p > start) {
			fprintf(f, "%.*s\n%*s", (int)(p - start), start, col, "");
			start = w;
		}
		p = e;
	}
	fprintf(f, "%.*s\n", (int)(end - start), start);
}

void lq_help_text(FILE *f, const char *text, int col, int at, int width)
{
	if (at > 0 && at > col - 2) {
		fputc('\n', f);
		at = 0;
	}
	for (;;) {
		size_t n = strcspn(text, "\n");

		help_line(f, text, n, col, at, width);
		if (!text[n])
			break;
		text += n + 1;
		at = 0;
	}
}
