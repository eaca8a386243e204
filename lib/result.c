// SPDX-License-Identifier: GPL-2.0
/*
 * liblunq: lunqbench's result record (result.h): the table of its
 * fields, the summary line read and written, the CSV and JSON writers.
 * Pure: libc only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

const struct lq_res_field lq_result_fields[] = {
#define LQ_RES_ROW(m, key, type, dec, flags) \
	{ key, LQ_RES_##type, offsetof(struct lq_result, m), dec, flags },
	LQ_RESULT_FIELDS(LQ_RES_ROW)
#undef LQ_RES_ROW
};
const size_t lq_result_nfields = ARRAY_SIZE(lq_result_fields);

#define FIELD(r, f, type) (*(const type *)((const char *)(r) + (f)->off))

const char *lq_result_find(const char *out)
{
	const char *p = out, *last = NULL;

	while (p && *p) {
		if (!strncmp(p, "ios=", 4))
			last = p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return last;
}

static int parse_value(const struct lq_res_field *f, const char *v, size_t vlen,
		       struct lq_result *r)
{
	char buf[64], *end;
	void *dst = (char *)r + f->off;

	if (!vlen || vlen >= sizeof(buf))
		return -1;
	memcpy(buf, v, vlen);
	buf[vlen] = '\0';
	errno = 0;
	switch (f->type) {
	case LQ_RES_U64:
	case LQ_RES_U32: {
		unsigned long long x;

		if (buf[0] < '0' || buf[0] > '9')
			return -1;
		x = strtoull(buf, &end, 10);
		if (errno || *end)
			return -1;
		if (f->type == LQ_RES_U32) {
			if (x > 0xffffffffULL)
				return -1;
			*(u32 *)dst = (u32)x;
		} else {
			*(u64 *)dst = x;
		}
		return 0;
	}
	case LQ_RES_DBL: {
		double x;

		if ((buf[0] < '0' || buf[0] > '9') && buf[0] != '.')
			return -1;
		x = strtod(buf, &end);
		if (errno || *end || !(x >= 0) || x > 1e18)
			return -1;
		*(double *)dst = x;
		return 0;
	}
	case LQ_RES_BOOL:
		if (!strcmp(buf, "0") || !strcmp(buf, "1")) {
			*(bool *)dst = buf[0] == '1';
			return 0;
		}
		return -1;
	case LQ_RES_LOOP:
		if (!strcmp(buf, "open") || !strcmp(buf, "closed")) {
			*(bool *)dst = !strcmp(buf, "open");
			return 0;
		}
		return -1;
	}
	return -1;
}

int lq_result_parse(const char *line, struct lq_result *r, char *err,
		    size_t errlen)
{
	bool seen[ARRAY_SIZE(lq_result_fields)] = { false };
	const char *p = line;
	size_t i;

	memset(r, 0, sizeof(*r));
	for (;;) {
		const char *w, *eq;
		size_t wl;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '\n')
			break;
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		wl = (size_t)(p - w);
		eq = memchr(w, '=', wl);
		if (!eq || eq == w) {
			snprintf(err, errlen, "lunqbench summary: '%.*s' is not key=value",
				 (int)(wl > 40 ? 40 : wl), w);
			return -1;
		}
		for (i = 0; i < lq_result_nfields; i++) {
			const struct lq_res_field *f = &lq_result_fields[i];

			if (strlen(f->key) != (size_t)(eq - w) ||
			    strncmp(f->key, w, (size_t)(eq - w)))
				continue;
			if (parse_value(f, eq + 1, (size_t)(w + wl - eq - 1), r)) {
				snprintf(err, errlen, "lunqbench summary: bad value in '%.*s'",
					 (int)(wl > 60 ? 60 : wl), w);
				return -1;
			}
			seen[i] = true;
			break;
		}
	}
	for (i = 0; i < lq_result_nfields; i++)
		if ((lq_result_fields[i].flags & LQ_RES_REQUIRED) && !seen[i]) {
			snprintf(err, errlen, "lunqbench summary: no %s= word",
				 lq_result_fields[i].key);
			return -1;
		}
	return 0;
}

/* The value of field @f of @r; @dec decimals for a DBL, @json its spelling. */
static void put_value(FILE *f, const struct lq_res_field *fd,
		      const struct lq_result *r, int dec, bool json)
{
	switch (fd->type) {
	case LQ_RES_U64:
		fprintf(f, "%llu", (unsigned long long)FIELD(r, fd, u64));
		break;
	case LQ_RES_U32:
		fprintf(f, "%u", FIELD(r, fd, u32));
		break;
	case LQ_RES_DBL:
		fprintf(f, "%.*f", dec, FIELD(r, fd, double));
		break;
	case LQ_RES_BOOL:
		if (json)
			fputs(FIELD(r, fd, bool) ? "true" : "false", f);
		else
			fprintf(f, "%d", FIELD(r, fd, bool));
		break;
	case LQ_RES_LOOP:
		fputs(FIELD(r, fd, bool) ? "open" : "closed", f);
		break;
	}
}

const struct lq_res_field *lq_result_field(const char *key)
{
	size_t i;

	for (i = 0; i < lq_result_nfields; i++)
		if (!strcmp(lq_result_fields[i].key, key))
			return &lq_result_fields[i];
	return NULL;
}

void lq_result_json_value(FILE *f, const struct lq_res_field *fd,
			  const struct lq_result *r,
			  void (*dbl)(FILE *f, double v))
{
	if (fd->type == LQ_RES_DBL && dbl)
		dbl(f, FIELD(r, fd, double));
	else if (fd->type == LQ_RES_LOOP)
		fprintf(f, "\"%s\"", FIELD(r, fd, bool) ? "open" : "closed");
	else
		put_value(f, fd, r, 3, true);
}

void lq_result_kv(FILE *f, const struct lq_result *r)
{
	size_t i;

	for (i = 0; i < lq_result_nfields; i++) {
		const struct lq_res_field *fd = &lq_result_fields[i];

		fprintf(f, "%s%s=", i ? " " : "", fd->key);
		put_value(f, fd, r, fd->decimals, false);
	}
	fputc('\n', f);
}

enum form { HEAD, CSV, JSON };

/* The record's fields but the KV_ONLY ones, comma-separated, in @form. */
static void put_record(FILE *f, const struct lq_result *r, enum form form)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < lq_result_nfields; i++) {
		const struct lq_res_field *fd = &lq_result_fields[i];

		if (fd->flags & LQ_RES_KV_ONLY)
			continue;
		fputs(sep, f);
		sep = ",";
		if (form == HEAD)
			fputs(fd->key, f);
		else if (form == JSON)
			fprintf(f, "\"%s\":", fd->key);
		if (form == JSON && r)
			lq_result_json_value(f, fd, r, NULL);
		else if (form == CSV && r)
			put_value(f, fd, r, 3, false);
	}
}

void lq_result_csv_head(FILE *f)
{
	put_record(f, NULL, HEAD);
}

void lq_result_csv(FILE *f, const struct lq_result *r)
{
	put_record(f, r, CSV);
}

void lq_result_json(FILE *f, const struct lq_result *r)
{
	put_record(f, r, JSON);
}
