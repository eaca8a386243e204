/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: lunqbench's result record, described once.  lunqbench writes
 * it as its --kv summary line and takes its report's totals (the text
 * summary, the JSON's "totals") from it; lunqctl sweep and tune read
 * that line back and write each point's record as CSV columns and JSON
 * members.
 * LQ_RESULT_FIELDS lists the fields, and struct lq_result, the table
 * lq_result_fields[] and every reader and writer below follow from it:
 * a new metric is one line there (and lunqbench's filling of it).
 *
 * The summary line: space-separated key=value words, starting with "ios=":
 *   ios= reads= writes= errors= verify_errors= elapsed_s= iops= mbps=
 *   resp_p50_ns= resp_p90_ns= resp_p99_ns= resp_p999_ns= resp_max_ns=
 *   svc_p50_ns= svc_p99_ns= lag_p99_ns= saturated=0|1 loop=open|closed qd=N
 */
#ifndef LIBLUNQ_RESULT_H
#define LIBLUNQ_RESULT_H

#include "lq.h"

/*
 * X(member, key, type, decimals, flags): the fields in the order of the
 * summary line, the CSV columns and the JSON members.
 *   key       the word on the summary line, the CSV column, the JSON key
 *   type      U64, U32, DBL (a rate or seconds), BOOL (0|1; JSON
 *             true|false), LOOP (open|closed, into a bool)
 *   decimals  of a DBL on the summary line (CSV and JSON: always 3)
 *   flags     LQ_RES_REQUIRED: a summary line without it is refused;
 *             LQ_RES_KV_ONLY: on the summary line only (a sweep point
 *             writes its own loop)
 */
#define LQ_RESULT_FIELDS(X)						\
	X(ios,		"ios",		U64,	0, LQ_RES_REQUIRED)	\
	X(reads,	"reads",	U64,	0, 0)			\
	X(writes,	"writes",	U64,	0, 0)			\
	X(errors,	"errors",	U64,	0, LQ_RES_REQUIRED)	\
	X(verify_errors, "verify_errors", U64,	0, 0)			\
	X(elapsed_s,	"elapsed_s",	DBL,	3, LQ_RES_REQUIRED)	\
	X(iops,		"iops",		DBL,	1, LQ_RES_REQUIRED)	\
	X(mbps,		"mbps",		DBL,	2, LQ_RES_REQUIRED)	\
	X(resp_p50_ns,	"resp_p50_ns",	U64,	0, LQ_RES_REQUIRED)	\
	X(resp_p90_ns,	"resp_p90_ns",	U64,	0, 0)			\
	X(resp_p99_ns,	"resp_p99_ns",	U64,	0, LQ_RES_REQUIRED)	\
	X(resp_p999_ns,	"resp_p999_ns",	U64,	0, LQ_RES_REQUIRED)	\
	X(resp_max_ns,	"resp_max_ns",	U64,	0, LQ_RES_REQUIRED)	\
	X(svc_p50_ns,	"svc_p50_ns",	U64,	0, 0)			\
	X(svc_p99_ns,	"svc_p99_ns",	U64,	0, 0)			\
	X(lag_p99_ns,	"lag_p99_ns",	U64,	0, 0)			\
	X(saturated,	"saturated",	BOOL,	0, 0)			\
	X(open,		"loop",		LOOP,	0, LQ_RES_REQUIRED | LQ_RES_KV_ONLY) \
	X(qd,		"qd",		U32,	0, 0)

#define LQ_RES_REQUIRED	1
#define LQ_RES_KV_ONLY	2

/* the C type of each field type */
typedef u64 lq_res_U64;
typedef u32 lq_res_U32;
typedef double lq_res_DBL;
typedef bool lq_res_BOOL;
typedef bool lq_res_LOOP;

struct lq_result {
#define LQ_RES_MEMBER(m, key, type, dec, flags) lq_res_##type m;
	LQ_RESULT_FIELDS(LQ_RES_MEMBER)
#undef LQ_RES_MEMBER
};

enum lq_res_type { LQ_RES_U64, LQ_RES_U32, LQ_RES_DBL, LQ_RES_BOOL, LQ_RES_LOOP };

/* One field of the record, as LQ_RESULT_FIELDS describes it. */
struct lq_res_field {
	const char *key;
	enum lq_res_type type;
	size_t off;		/* in struct lq_result */
	int decimals;
	unsigned int flags;
};

extern const struct lq_res_field lq_result_fields[];
extern const size_t lq_result_nfields;

/*
 * The last line of @out (lunqbench's whole output) that starts with
 * "ios=", as a pointer into @out (up to its newline); NULL when none.
 */
const char *lq_result_find(const char *out);

/*
 * Parse one summary line (up to a newline or the NUL) into @r.  Unknown
 * keys are skipped (a newer lunqbench); the LQ_RES_REQUIRED fields must
 * be there, the others default to 0.  Returns 0, or -1 with a message in
 * @err naming the bad or missing word.
 */
int lq_result_parse(const char *line, struct lq_result *r, char *err,
		    size_t errlen);

/* @r as the summary line, with its newline. */
void lq_result_kv(FILE *f, const struct lq_result *r);

/* The CSV columns of the record (no KV_ONLY field): "ios,...,qd". */
void lq_result_csv_head(FILE *f);

/* @r's CSV columns, comma-separated; @r NULL: as many empty columns. */
void lq_result_csv(FILE *f, const struct lq_result *r);

/* @r's JSON members, comma-separated, without braces: "ios":N,... */
void lq_result_json(FILE *f, const struct lq_result *r);

/* The field whose key is @key; NULL when the record has none. */
const struct lq_res_field *lq_result_field(const char *key);

/*
 * @r's field @fd as a JSON value: a whole number, true|false, "open" or
 * "closed", a DBL by @dbl (NULL: with 3 decimals, as lq_result_json).
 */
void lq_result_json_value(FILE *f, const struct lq_res_field *fd,
			  const struct lq_result *r,
			  void (*dbl)(FILE *f, double v));

#endif /* LIBLUNQ_RESULT_H */
