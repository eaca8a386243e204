// SPDX-License-Identifier: GPL-2.0
/*
 * The arena's scenario files in C (scenario.h); the rules and messages
 * are tests/lib/scenario-file.sh's, in the same order.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static const char *const keys[] = {
	"name", "about", "lower", "lun", "luns", "start", "load", "load2",
	"neighbour", "neighbour_load", "phase_s", "changes",
	"foreign_period_ms", "phase", "goal", "objective", "latency",
	"latency_name", "bound_ms", "bound_latency", "bound_name",
	"target_ms", "observer",
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

struct rd {
	const char *path;
	char line[16];
	FILE *err;
	int errors;
};

static void err(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	fprintf(r->err, "%s:%s: ", r->path, r->line);
	va_start(ap, fmt);
	vfprintf(r->err, fmt, ap);
	va_end(ap);
	fputc('\n', r->err);
	r->errors++;
}

/* an integer in [lo, hi], digits only, at most 9 of them */
static int uint_in(const char *v, unsigned int lo, unsigned int hi,
		   unsigned int *out)
{
	size_t n = strlen(v), i;
	unsigned long x;

	if (!n || n > 9)
		return 0;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)v[i]))
			return 0;
	x = strtoul(v, NULL, 10);
	if (x < lo || x > hi)
		return 0;
	*out = x;
	return 1;
}

static int lat_ok(const char *v)
{
	static const char *const h[] = {
		"resp", "wait", "service", "total", "wait_read", "wait_write",
		"service_read", "service_write", "total_read", "total_write",
	};
	static const char *const k[] = {
		"p50", "p90", "p99", "p99.9", "p99.99", "max",
	};
	const char *c = strchr(v, ':');
	size_t i, n;
	int hok = 0;

	if (!c)
		return 0;
	n = c - v;
	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		if (strlen(h[i]) == n && !strncmp(v, h[i], n))
			hok = 1;
	if (!hok)
		return 0;
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (!strcmp(c + 1, k[i]))
			return 1;
	return 0;
}

/*
 * The keys of a phase's words, sorted and joined by spaces into @out;
 * 0 when a word is not KEY=VALUE (KEY starting with a-z) or a key comes
 * twice
 */
static int wkeys(const char *words, char *out, size_t size)
{
	char buf[SCN_LINE], *k[SCN_LINE / 2], *w, *save = NULL;
	size_t n = 0, i, j;

	snprintf(buf, sizeof(buf), "%s", words);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(w, '=');

		if (!islower((unsigned char)w[0]) || !eq || !eq[1])
			return 0;
		*eq = 0;
		for (i = 0; i < n; i++)
			if (!strcmp(k[i], w))
				return 0;
		k[n++] = w;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(k[j - 1], k[j]) > 0; j--) {
			char *t = k[j];

			k[j] = k[j - 1];
			k[j - 1] = t;
		}
	out[0] = 0;
	for (i = 0; i < n; i++) {
		strncat(out, k[i], size - strlen(out) - 1);
		strncat(out, " ", size - strlen(out) - 1);
	}
	return 1;
}

static int has_word(const char *words, const char *prefix)
{
	char buf[SCN_LINE + 2];

	snprintf(buf, sizeof(buf), " %s", words);
	return strstr(buf, prefix) != NULL;
}

/* foreign=N, N digits > 0 */
static int foreign_on(const char *p)
{
	size_t i;

	if (strncmp(p, "foreign=", 8) || !p[8] || !strcmp(p, "foreign=0"))
		return 0;
	for (i = 8; p[i]; i++)
		if (!isdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

/* rate=N, N > 0 without a leading 0 */
static int rate_ok(const char *p)
{
	size_t i;

	if (strncmp(p, "rate=", 5) || !p[5] || p[5] == '0')
		return 0;
	for (i = 5; p[i]; i++)
		if (!isdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

static void set_str(char *dst, size_t size, const char *v)
{
	snprintf(dst, size, "%s", v);
}

int scn_read(const char *path, struct scenario *s, FILE *errf)
{
	struct rd r = { .path = path, .err = errf };
	char line[SCN_LINE + 2], seen[NKEYS] = { 0 };
	unsigned int ln = 0, v, i;
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->luns = 1;
	s->changes = SCN_SET;
	f = fopen(path, "r");
	if (!f) {
		fprintf(errf, "%s: no such scenario file\n", path);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *k, *val, *eq;
		size_t n = strlen(line), ki;

		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		snprintf(r.line, sizeof(r.line), "%u", ++ln);
		if (!n || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			err(&r, "not KEY=VALUE: '%s'", line);
			continue;
		}
		*eq = 0;
		k = line;
		val = eq + 1;
		for (ki = 0; ki < NKEYS && strcmp(keys[ki], k); ki++)
			;
		if (ki == NKEYS) {
			char all[512] = "";

			for (i = 0; i < NKEYS; i++) {
				strcat(all, i ? " " : "");
				strcat(all, keys[i]);
			}
			err(&r, "unknown key '%s' (keys: %s)", k, all);
			continue;
		}
		if (strcmp(k, "phase")) {
			if (seen[ki]) {
				err(&r, "'%s' given twice", k);
				continue;
			}
			seen[ki] = 1;
		}
		if (!*val) {
			err(&r, "'%s' has no value", k);
			continue;
		}
		if (!strcmp(k, "name")) {
			if (strspn(val, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(val) ||
			    !strcmp(val, "oracle") || strlen(val) >= sizeof(s->name))
				err(&r, "name: letters, digits, - and _ (not oracle), not '%s'", val);
			else
				set_str(s->name, sizeof(s->name), val);
		} else if (!strcmp(k, "about")) {
			set_str(s->about, sizeof(s->about), val);
		} else if (!strcmp(k, "lower")) {
			if (strcmp(val, "nb") && strcmp(val, "nb2") && strcmp(val, "own"))
				err(&r, "lower: nb, nb2 or own, not '%s'", val);
			else
				set_str(s->lower, sizeof(s->lower), val);
		} else if (!strcmp(k, "lun")) {
			set_str(s->lun, sizeof(s->lun), val);
		} else if (!strcmp(k, "luns")) {
			if (uint_in(val, 1, SCN_MAX_LUNS, &v))
				s->luns = v;
			else
				err(&r, "luns: 1..%d, not '%s'", SCN_MAX_LUNS, val);
		} else if (!strcmp(k, "start")) {
			if (uint_in(val, 1, 1024, &v))
				s->start = v;
			else
				err(&r, "start: a depth 1..1024, not '%s'", val);
		} else if (!strcmp(k, "load")) {
			set_str(s->load, sizeof(s->load), val);
		} else if (!strcmp(k, "load2")) {
			set_str(s->load2, sizeof(s->load2), val);
		} else if (!strcmp(k, "neighbour")) {
			if (strncmp(val, "nb ", 3) && strncmp(val, "nb2 ", 4) &&
			    strcmp(val, "nb") && strcmp(val, "nb2"))
				err(&r, "neighbour: its lower device (nb or nb2) then its words, not '%s'", val);
			else
				set_str(s->nb, sizeof(s->nb), val);
		} else if (!strcmp(k, "neighbour_load")) {
			set_str(s->nb_load, sizeof(s->nb_load), val);
		} else if (!strcmp(k, "phase_s")) {
			if (uint_in(val, 2, SCN_MAX_PHASE_S, &v) && v % 2 == 0)
				s->phase_s = v;
			else
				err(&r, "phase_s: even seconds 2..%d (--quick halves it), not '%s'", SCN_MAX_PHASE_S, val);
		} else if (!strcmp(k, "changes")) {
			if (!strcmp(val, "set"))
				s->changes = SCN_SET;
			else if (!strcmp(val, "foreign"))
				s->changes = SCN_FOREIGN;
			else if (!strcmp(val, "rate"))
				s->changes = SCN_RATE;
			else
				err(&r, "changes: set, foreign or rate, not '%s'", val);
		} else if (!strcmp(k, "foreign_period_ms")) {
			if (uint_in(val, 2, 3600000, &v) && v % 2 == 0)
				s->fperiod_ms = v;
			else
				err(&r, "foreign_period_ms: an even number of ms 2..3600000, not '%s'", val);
		} else if (!strcmp(k, "phase")) {
			char wk[SCN_LINE];

			if (s->nph >= SCN_MAX_PHASES) {
				err(&r, "more than %d phases", SCN_MAX_PHASES);
				continue;
			}
			if (!wkeys(val, wk, sizeof(wk))) {
				err(&r, "phase: WORD=VALUE words, each key once, not '%s'", val);
				continue;
			}
			set_str(s->phase[s->nph++], SCN_LINE, val);
		} else if (!strcmp(k, "goal")) {
			if (!strcmp(val, "iops"))
				s->goal = SCN_IOPS;
			else if (!strcmp(val, "latency"))
				s->goal = SCN_LATENCY;
			else
				err(&r, "goal: iops or latency, not '%s'", val);
		} else if (!strcmp(k, "objective")) {
			set_str(s->objective, sizeof(s->objective), val);
		} else if (!strcmp(k, "latency")) {
			if (lat_ok(val) && strlen(val) < sizeof(s->lat))
				set_str(s->lat, sizeof(s->lat), val);
			else
				err(&r, "latency: resp:KEY or HIST:KEY (HIST wait, service, total, or one of them _read or _write; KEY p50 p90 p99 p99.9 p99.99 max), not '%s'", val);
		} else if (!strcmp(k, "latency_name")) {
			set_str(s->lat_name, sizeof(s->lat_name), val);
		} else if (!strcmp(k, "bound_ms")) {
			if (uint_in(val, 0, 3600000, &v))
				s->bound_ms = v;
			else
				err(&r, "bound_ms: ms 0..3600000 (0: none), not '%s'", val);
		} else if (!strcmp(k, "bound_latency")) {
			if (lat_ok(val) && strlen(val) < sizeof(s->blat))
				set_str(s->blat, sizeof(s->blat), val);
			else
				err(&r, "bound_latency: as latency, not '%s'", val);
		} else if (!strcmp(k, "bound_name")) {
			set_str(s->blat_name, sizeof(s->blat_name), val);
		} else if (!strcmp(k, "target_ms")) {
			if (uint_in(val, 1, 3600000, &v))
				s->target_ms = v;
			else
				err(&r, "target_ms: ms 1..3600000, not '%s'", val);
		} else if (!strcmp(k, "observer")) {
			if (strcmp(val, "lunqbench-max"))
				err(&r, "observer: lunqbench-max, not '%s'", val);
			else
				set_str(s->observer, sizeof(s->observer), val);
		}
	}
	fclose(f);
	/* what is missing, and what does not hold together */
	snprintf(r.line, sizeof(r.line), "end");
	{
		static const char *const req[] = {
			"name", "lower", "lun", "start", "load", "phase_s",
			"goal", "latency",
		};
		size_t q, ki;

		for (q = 0; q < sizeof(req) / sizeof(req[0]); q++) {
			for (ki = 0; strcmp(keys[ki], req[q]); ki++)
				;
			if (!seen[ki])
				err(&r, "no '%s'", req[q]);
		}
	}
	if (!s->nph)
		err(&r, "no phase");
	if (!s->lat_name[0])
		set_str(s->lat_name, sizeof(s->lat_name), s->lat);
	if (!s->objective[0])
		set_str(s->objective, sizeof(s->objective), "most IOPS");
	if (!s->blat[0])
		set_str(s->blat, sizeof(s->blat), s->lat);
	if (!s->blat_name[0])
		set_str(s->blat_name, sizeof(s->blat_name),
			strcmp(s->blat, s->lat) ? s->blat : s->lat_name);
	if (s->luns > 1 && strcmp(s->lower, "own"))
		err(&r, "luns=%u needs lower=own (a null_blk each)", s->luns);
	if (s->nb[0] && !s->nb_load[0])
		err(&r, "neighbour without neighbour_load");
	if (!s->nb[0] && s->nb_load[0])
		err(&r, "neighbour_load without neighbour");
	if (s->nb[0] && !strncmp(s->nb, s->lower, strlen(s->lower)) &&
	    (s->nb[strlen(s->lower)] == ' ' || !s->nb[strlen(s->lower)]))
		err(&r, "the neighbour on the LUN's own lower device (%s)", s->lower);
	if (s->nb[0] && s->luns > 1)
		err(&r, "a neighbour beside luns=%u", s->luns);
	if ((seen[19] || seen[20]) && !s->bound_ms)	/* bound_latency, bound_name */
		err(&r, "bound_latency or bound_name without bound_ms");
	if (s->observer[0]) {
		const char *c = strchr(s->blat, ':');

		if (!s->bound_ms || !c || strcmp(c + 1, "max") || s->luns != 1)
			err(&r, "observer=lunqbench-max needs bound_ms, a bound on a max (bound_latency or latency KEY max) and one LUN");
	}
	if ((s->luns > 1 || s->changes == SCN_RATE) && strncmp(s->lat, "resp:", 5) && s->luns != 1)
		err(&r, "luns=%u: latency resp:KEY (each LUN's load, the worst)", s->luns);
	if (s->load2[0] && s->luns != 1)
		err(&r, "load2 with luns=%u", s->luns);
	if (!s->phase_s || !s->nph)
		return r.errors ? r.errors : 1;
	if (s->changes == SCN_SET) {
		char k1[SCN_LINE], kk[SCN_LINE];

		if (s->fperiod_ms)
			err(&r, "foreign_period_ms without changes=foreign");
		wkeys(s->phase[0], k1, sizeof(k1));
		for (i = 1; i < s->nph; i++) {
			wkeys(s->phase[i], kk, sizeof(kk));
			if (strcmp(k1, kk))
				err(&r, "changes=set: phase %u ('%s') does not set the same keys as phase 1 ('%s'): the run would keep what the sweep drops",
				    i + 1, s->phase[i], s->phase[0]);
		}
	} else if (s->changes == SCN_FOREIGN) {
		if (!s->fperiod_ms)
			err(&r, "changes=foreign needs foreign_period_ms");
		if (!(s->nph == 2 && foreign_on(s->phase[0]) &&
		      !strcmp(s->phase[1], "foreign=0")))
			err(&r, "changes=foreign: two phases, foreign=N (N > 0) then foreign=0, not '%s' and '%s'",
			    s->phase[0], s->nph > 1 ? s->phase[1] : "");
		if (s->fperiod_ms && (s->phase_s * 1000) % s->fperiod_ms)
			err(&r, "changes=foreign: phase_s x 1000 (%u ms, the run at --quick) is not whole periods of %u ms: the phases would not get equal time",
			    s->phase_s * 1000, s->fperiod_ms);
	} else {
		if (s->fperiod_ms)
			err(&r, "foreign_period_ms without changes=foreign");
		if (s->luns != 1 || s->nb[0] || s->load2[0])
			err(&r, "changes=rate: one LUN, one load");
		if (has_word(s->load, " --iorate "))
			err(&r, "changes=rate: the load has its own --iorate");
		for (i = 0; i < s->nph; i++)
			if (!rate_ok(s->phase[i]))
				err(&r, "changes=rate: phase %u is '%s', not rate=N (IOs a second, N > 0)",
				    i + 1, s->phase[i]);
	}
	if (!r.errors && s->changes != SCN_RATE)
		for (i = 0; i < s->nph; i++)
			if (has_word(s->phase[i], " rate="))
				err(&r, "phase %u: rate= only with changes=rate", i + 1);
	return r.errors;
}

int scn_write(FILE *f, const struct scenario *s, const char *comment)
{
	static const char *const changes[] = { "set", "foreign", "rate" };
	unsigned int i;

	if (comment && *comment)
		fputs(comment, f);
	fprintf(f, "name=%s\n", s->name);
	if (s->about[0])
		fprintf(f, "about=%s\n", s->about);
	fprintf(f, "lower=%s\nlun=%s\n", s->lower, s->lun);
	if (s->luns != 1)
		fprintf(f, "luns=%u\n", s->luns);
	fprintf(f, "start=%u\nload=%s\n", s->start, s->load);
	if (s->load2[0])
		fprintf(f, "load2=%s\n", s->load2);
	if (s->nb[0])
		fprintf(f, "neighbour=%s\nneighbour_load=%s\n", s->nb, s->nb_load);
	fprintf(f, "phase_s=%u\nchanges=%s\n", s->phase_s, changes[s->changes]);
	if (s->fperiod_ms)
		fprintf(f, "foreign_period_ms=%u\n", s->fperiod_ms);
	for (i = 0; i < s->nph; i++)
		fprintf(f, "phase=%s\n", s->phase[i]);
	fprintf(f, "goal=%s\nobjective=%s\nlatency=%s\nlatency_name=%s\n",
		s->goal == SCN_LATENCY ? "latency" : "iops", s->objective,
		s->lat, s->lat_name);
	if (s->bound_ms) {
		fprintf(f, "bound_ms=%u\n", s->bound_ms);
		if (strcmp(s->blat, s->lat))
			fprintf(f, "bound_latency=%s\n", s->blat);
		fprintf(f, "bound_name=%s\n", s->blat_name);
	}
	if (s->target_ms)
		fprintf(f, "target_ms=%u\n", s->target_ms);
	if (s->observer[0])
		fprintf(f, "observer=%s\n", s->observer);
	return ferror(f) ? -1 : 0;
}
