// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: policy files (lunq.conf(5)) -- the parser, the matching of
 * sections to devices and the "what changes" helper.  See policyfile.h.
 *
 * Grammar, one construct per line ('#' outside quotes starts a comment):
 *
 *	line    := blank | header | setting
 *	header  := '[' ( '*' | term { term } ) ']'
 *	term    := FIELD '=' value		(blanks around '=' allowed)
 *	setting := KEY ( '=' | ':' ) value	(blanks around it allowed)
 *	value   := '"' { any but '"' } '"' | plain
 *	plain   := { any but blank, '"', '#' }	(in a header: no ']' nor
 *						'[', and not empty)
 *
 * Every KEY:value word goes through lunq_parse_word(), the module's own
 * parser, so the messages are the kernel's.
 */
#define _GNU_SOURCE		/* FNM_CASEFOLD */
#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "policyfile.h"
#include "kv.h"

enum lq_field {
	LQ_F_NAME,
	LQ_F_DM,
	LQ_F_LOWER,
	LQ_F_VENDOR,
	LQ_F_MODEL,
	LQ_F_SERIAL,
	LQ_F_WWN,
	LQ_F_NR
};

static const char *const lq_field_names[LQ_F_NR] = {
	[LQ_F_NAME] = "name",
	[LQ_F_DM] = "dm",
	[LQ_F_LOWER] = "lower",
	[LQ_F_VENDOR] = "vendor",
	[LQ_F_MODEL] = "model",
	[LQ_F_SERIAL] = "serial",
	[LQ_F_WWN] = "wwn",
};

struct lq_pf_section {
	char *header;			/* "[...]" as written */
	int line;
	char *glob[LQ_F_NR];		/* NULL: any; vendor, model folded */
	struct lq_pf_word w[LUNQ_NR_KEYS];	/* by key; line 0: not set */
};

struct lq_pf_parser {
	const char *path;
	FILE *err;			/* open_memstream() of the messages */
	int nerr;
	struct lq_pf *pf;
	bool in_section;		/* a good header came before */
	bool in_bad_section;		/* a header with an error came before */
	u64 seen;			/* keys of the current section */
	int key_line[LUNQ_NR_KEYS];	/* where they were set */
};

static bool lq_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static char *lq_skip(char *p)
{
	while (lq_blank(*p))
		p++;
	return p;
}

static void lq_pf_err(struct lq_pf_parser *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void lq_pf_err(struct lq_pf_parser *ps, int line, const char *fmt, ...)
{
	va_list ap;

	if (++ps->nerr > LQ_PF_MAX_ERRORS)
		return;
	fprintf(ps->err, "%s:%d: ", ps->path, line);
	va_start(ap, fmt);
	vfprintf(ps->err, fmt, ap);
	va_end(ap);
	fputc('\n', ps->err);
}

/*
 * Copy @s into @out (@len bytes; may be @s), without outer blanks and with
 * every inner run of blanks made one space: how SCSI INQUIRY strings (blank
 * padded) and their patterns are compared.
 */
static char *lq_fold(const char *s, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return out;
	while (*s && n + 1 < len) {
		if (lq_blank(*s) || *s == '\n') {
			while (lq_blank(*s) || *s == '\n')
				s++;
			if (n && *s)
				out[n++] = ' ';
			continue;
		}
		out[n++] = *s++;
	}
	out[n] = '\0';
	return out;
}

/*
 * A value at *@pp: "quoted" or bare (stops at a blank, '#', '"' and any
 * of @stops).  Sets *@val and *@vlen (the quotes excluded), *@quoted, and
 * moves *@pp past it.  Returns NULL, or a message (unterminated quote).
 */
static const char *lq_value(char **pp, const char *stops, char **val,
			    size_t *vlen, bool *quoted)
{
	char *p = *pp, *end;

	*quoted = *p == '"';
	if (*quoted) {
		end = strchr(p + 1, '"');
		if (!end)
			return "unterminated quote (a value cannot hold '\"')";
		*val = p + 1;
		*vlen = end - (p + 1);
		*pp = end + 1;
		if (**pp && !lq_blank(**pp) && **pp != '#' &&
		    !strchr(stops, **pp))
			return "text right after the closing quote";
		return NULL;
	}
	for (end = p; *end && !lq_blank(*end) && *end != '#' &&
	     *end != '"' && !strchr(stops, *end); end++)
		;
	*val = p;
	*vlen = end - p;
	*pp = end;
	if (*end == '"')
		return "a quote inside a value (quote the whole value)";
	return NULL;
}

static struct lq_pf_section *lq_pf_cur(struct lq_pf_parser *ps)
{
	return ps->in_section ? &ps->pf->sec[ps->pf->nsec - 1] : NULL;
}

static void lq_section_free(struct lq_pf_section *s)
{
	int i;

	free(s->header);
	for (i = 0; i < LQ_F_NR; i++)
		free(s->glob[i]);
}

/* A header line; @p is just past the '['. */
static void lq_pf_header(struct lq_pf_parser *ps, int line, char *start,
			 char *p)
{
	struct lq_pf_section s = { .line = line };
	struct lq_pf_section *ns;
	bool star = false;
	int nterms = 0, f;

	ps->in_section = false;
	ps->in_bad_section = true;	/* until the end of this function */
	ps->seen = 0;
	for (;;) {
		const char *msg;
		size_t flen, vlen;
		char *fname, *val;
		bool quoted;

		p = lq_skip(p);
		if (*p == ']')
			break;
		if (!*p || *p == '#') {
			lq_pf_err(ps, line, "missing ']' at the end of the section header");
			goto bad;
		}
		if (*p == '*' && (lq_blank(p[1]) || p[1] == ']' || !p[1] ||
				  p[1] == '#')) {
			star = true;
			p++;
			continue;
		}
		fname = p;
		while (isalpha((unsigned char)*p) || *p == '_')
			p++;
		flen = p - fname;
		if (!flen) {
			lq_pf_err(ps, line, "expected FIELD=GLOB in the section header, found '%.20s'",
				  fname);
			goto bad;
		}
		for (f = 0; f < LQ_F_NR; f++) {
			if (strlen(lq_field_names[f]) == flen &&
			    !strncasecmp(lq_field_names[f], fname, flen))
				break;
		}
		if (f == LQ_F_NR) {
			lq_pf_err(ps, line, "unknown field '%.*s' (fields: name, dm, lower, vendor, model, serial, wwn)",
				  (int)(flen > 40 ? 40 : flen), fname);
			goto bad;
		}
		p = lq_skip(p);
		if (*p != '=') {
			lq_pf_err(ps, line, "%s: expected '=' and a pattern after the field name",
				  lq_field_names[f]);
			goto bad;
		}
		p = lq_skip(p + 1);
		msg = lq_value(&p, "]", &val, &vlen, &quoted);
		if (msg) {
			lq_pf_err(ps, line, "%s: %s", lq_field_names[f], msg);
			goto bad;
		}
		if (!vlen && !quoted) {
			lq_pf_err(ps, line, "%s: empty pattern (%s=\"\" matches an empty value)",
				  lq_field_names[f], lq_field_names[f]);
			goto bad;
		}
		if (!quoted && memchr(val, '[', vlen)) {
			lq_pf_err(ps, line, "%s: a pattern with '[' must be quoted: %s=\"%.*s...\"",
				  lq_field_names[f], lq_field_names[f],
				  (int)(vlen > 40 ? 40 : vlen), val);
			goto bad;
		}
		if (s.glob[f]) {
			lq_pf_err(ps, line, "%s: given twice in one section header",
				  lq_field_names[f]);
			goto bad;
		}
		s.glob[f] = strndup(val, vlen);
		if (!s.glob[f]) {
			lq_pf_err(ps, line, "out of memory");
			goto bad;
		}
		if (f == LQ_F_VENDOR || f == LQ_F_MODEL)
			lq_fold(s.glob[f], s.glob[f], vlen + 1);
		nterms++;
	}
	p++;	/* the ']' */
	s.header = strndup(start, p - start);
	p = lq_skip(p);
	if (*p && *p != '#') {
		lq_pf_err(ps, line, "unexpected text after ']': '%.20s'", p);
		goto bad;
	}
	if (!nterms && !star) {
		lq_pf_err(ps, line, "empty section header (use [*] for every device)");
		goto bad;
	}
	if (nterms && star) {
		lq_pf_err(ps, line, "'*' must be alone in a section header ([*] matches every device)");
		goto bad;
	}
	if (!s.header) {
		lq_pf_err(ps, line, "out of memory");
		goto bad;
	}
	ns = realloc(ps->pf->sec, (ps->pf->nsec + 1) * sizeof(*ns));
	if (!ns) {
		lq_pf_err(ps, line, "out of memory");
		goto bad;
	}
	ps->pf->sec = ns;
	ps->pf->sec[ps->pf->nsec++] = s;
	ps->in_section = true;
	ps->in_bad_section = false;
	return;
bad:
	lq_section_free(&s);
}

/*
 * "key:value" of @k in @p as the kernel prints it ("qdepth:016" is
 * "qdepth:16") into @out (LQ_PF_WORD_MAX bytes); -1 when too long.
 */
static int lq_canonical(const struct lunq_keys *p, enum lunq_key k,
			char *out)
{
	char val[LQ_PF_WORD_MAX];
	int n;

	lunq_policy_value(p, k, val, sizeof(val));
	n = snprintf(out, LQ_PF_WORD_MAX, "%s:%s", lunq_key_name(k), val);
	return n < 0 || n >= LQ_PF_WORD_MAX ? -1 : 0;
}

/* A "key = value" line; @p at its first character. */
static void lq_pf_setting(struct lq_pf_parser *ps, int line, char *p)
{
	struct lq_pf_section *sec = lq_pf_cur(ps);
	struct lunq_keys scratch;
	enum lunq_arg_err aerr;
	const char *msg;
	size_t klen, vlen;
	enum lunq_key k;
	char canon[LQ_PF_WORD_MAX];
	char *key, *val, *word;
	bool quoted;
	int klim;

	key = p;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
		p++;
	klen = p - key;
	klim = klen > 40 ? 40 : klen;
	if (!klen) {
		lq_pf_err(ps, line, "expected KEY = VALUE or a [section] header, found '%.20s'",
			  key);
		return;
	}
	p = lq_skip(p);
	if (*p != '=' && *p != ':') {
		lq_pf_err(ps, line, "%.*s: expected '=' or ':' and a value after the key",
			  klim, key);
		return;
	}
	p = lq_skip(p + 1);
	msg = lq_value(&p, "", &val, &vlen, &quoted);
	if (msg) {
		lq_pf_err(ps, line, "%.*s: %s", klim, key, msg);
		return;
	}
	p = lq_skip(p);
	if (*p && *p != '#') {
		lq_pf_err(ps, line, "%.*s: unexpected '%.20s' after the value (one key per line)",
			  klim, key, p);
		return;
	}
	if (!sec && !ps->in_bad_section)
		lq_pf_err(ps, line, "%.*s: outside a section (put a [header] above it)",
			  klim, key);

	word = malloc(klen + vlen + 2);
	if (!word) {
		lq_pf_err(ps, line, "out of memory");
		return;
	}
	memcpy(word, key, klen);
	word[klen] = ':';
	memcpy(word + klen + 1, val, vlen);
	word[klen + 1 + vlen] = '\0';
	lunq_keys_init(&scratch);
	aerr = lunq_parse_word(&scratch, word, &ps->seen, &k);
	if (!aerr)
		ps->key_line[k] = line;
	if (aerr == LUNQ_ARG_UNKNOWN_KEY || aerr == LUNQ_ARG_NO_COLON)
		lq_pf_err(ps, line, "%.*s: unknown key", klim, key);
	else if (aerr == LUNQ_ARG_DUPLICATE)
		lq_pf_err(ps, line, "%s in this section (first on line %d)",
			  lunq_arg_error(aerr, k), ps->key_line[k]);
	else if (aerr)
		lq_pf_err(ps, line, "%s", lunq_arg_error(aerr, k));
	else if (lunq_key_table_only(k))
		lq_pf_err(ps, line, "%s", lunq_table_only_error(k));
	else if (lq_canonical(&scratch, k, canon))	/* never: valid words are short */
		lq_pf_err(ps, line, "%s: value too long", lunq_key_name(k));
	else if (sec) {
		strcpy(sec->w[k].word, canon);
		sec->w[k].key = k;
		sec->w[k].line = line;
		sec->w[k].section = sec->header;
	}
	free(word);
}

static void lq_pf_line(struct lq_pf_parser *ps, int line, char *s)
{
	char *p = lq_skip(s);

	if (!*p || *p == '#')
		return;
	if (*p == '[')
		lq_pf_header(ps, line, p, p + 1);
	else
		lq_pf_setting(ps, line, p);
}

void lq_pf_free(struct lq_pf *pf)
{
	int i;

	for (i = 0; i < pf->nsec; i++)
		lq_section_free(&pf->sec[i]);
	free(pf->sec);
	pf->sec = NULL;
	pf->nsec = 0;
}

int lq_pf_parse(struct lq_pf *pf, const char *path, FILE *f, char **errs)
{
	struct lq_pf_parser ps = { .path = path, .pf = pf };
	char *buf = NULL, *line = NULL;
	size_t bufsz = 0, cap = 0;
	ssize_t len;
	int lineno = 0;

	pf->sec = NULL;
	pf->nsec = 0;
	*errs = NULL;
	ps.err = open_memstream(&buf, &bufsz);
	if (!ps.err) {
		*errs = strdup("out of memory\n");
		return -1;
	}
	while (ps.nerr <= LQ_PF_MAX_ERRORS &&
	       (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			lq_pf_err(&ps, lineno, "a NUL byte: not a text file");
			continue;
		}
		lq_pf_line(&ps, lineno, line);
	}
	free(line);
	if (ps.nerr <= LQ_PF_MAX_ERRORS && ferror(f))
		lq_pf_err(&ps, lineno + 1, "read error: %s", strerror(errno));
	if (ps.nerr > LQ_PF_MAX_ERRORS)
		fprintf(ps.err, "%s:%d: too many errors, stopped here\n",
			path, lineno);
	fclose(ps.err);
	if (!ps.nerr) {
		free(buf);
		return 0;
	}
	lq_pf_free(pf);
	*errs = buf;
	return -1;
}

static const char *lq_ident_field(const struct lq_ident *id, int f)
{
	switch (f) {
	case LQ_F_NAME:
		return id->name;
	case LQ_F_DM:
		return id->dm;
	case LQ_F_LOWER:
		return id->lower;
	case LQ_F_VENDOR:
		return id->vendor;
	case LQ_F_MODEL:
		return id->model;
	case LQ_F_SERIAL:
		return id->serial;
	case LQ_F_WWN:
		return id->wwn;
	}
	return "";
}

static bool lq_section_match(const struct lq_pf_section *s,
			     const struct lq_ident *id)
{
	char folded[sizeof(id->model) > sizeof(id->vendor) ?
		    sizeof(id->model) : sizeof(id->vendor)];
	int f;

	for (f = 0; f < LQ_F_NR; f++) {
		const char *v = lq_ident_field(id, f);
		int flags = 0;

		if (!s->glob[f])
			continue;
		if (f == LQ_F_VENDOR || f == LQ_F_MODEL) {
			v = lq_fold(v, folded, sizeof(folded));
			flags = FNM_CASEFOLD;
		}
		if (fnmatch(s->glob[f], v, flags))
			return false;
	}
	return true;
}

int lq_pf_resolve(const struct lq_pf *pf, const struct lq_ident *id,
		  struct lq_pf_word *out, int max)
{
	const struct lq_pf_word *best[LUNQ_NR_KEYS] = { NULL };
	int i, k, n = 0;

	for (i = 0; i < pf->nsec; i++) {
		const struct lq_pf_section *s = &pf->sec[i];

		if (!lq_section_match(s, id))
			continue;
		for (k = 0; k < LUNQ_NR_KEYS; k++) {
			if (s->w[k].line)
				best[k] = &s->w[k];
		}
	}
	for (k = 0; k < LUNQ_NR_KEYS && n < max; k++) {
		if (!best[k])
			continue;
		out[n++] = *best[k];
	}
	return n;
}

int lq_pf_changes(const char *current_policy, const struct lq_pf_word *w,
		  int n, struct lq_pf_change *out, const char **why)
{
	struct lunq_keys cur, np;
	enum lunq_arg_err aerr;
	u64 seen = 0;
	enum lunq_key k;
	int i, c = 0;

	if (lq_policy_read(current_policy, &cur, why))
		return -EINVAL;
	np = cur;
	for (i = 0; i < n; i++) {
		char old[LQ_PF_WORD_MAX], new[LQ_PF_WORD_MAX];
		struct lunq_keys one = cur;
		u64 one_seen = 0;

		aerr = lunq_parse_word(&one, w[i].word, &one_seen, &k);
		if (!aerr && lunq_key_table_only(k)) {
			*why = lunq_table_only_error(k);
			return -EINVAL;
		}
		if (!aerr)
			aerr = lunq_parse_word(&np, w[i].word, &seen, &k);
		if (aerr) {
			*why = lunq_arg_error(aerr, k);
			return -EINVAL;
		}
		lunq_policy_value(&cur, k, old, sizeof(old));
		lunq_policy_value(&one, k, new, sizeof(new));
		if (!strcmp(old, new))
			continue;
		out[c].key = k;
		if (snprintf(out[c].word, sizeof(out[c].word), "%s:%s",
			     lunq_key_name(k), new) >= (int)sizeof(out[c].word)) {
			*why = "policy word too long";	/* cannot happen */
			return -EINVAL;
		}
		strcpy(out[c].old, old);
		strcpy(out[c].new, new);
		out[c].line = w[i].line;
		out[c].section = w[i].section;
		c++;
	}
	*why = lunq_policy_check(&np);
	return c;
}
