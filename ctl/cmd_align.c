// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl align: align.d's report (seed 000) from lunq's counters and its
 * size and alignment histograms: per device reads, writes, misaligned and
 * non-4k IOs split READ / WRITE / ALL and the percent non-4k, a total row
 * per pool (the emulated target port) and one for all the devices shown;
 * then the size and alignment tables of those devices together, READ /
 * WRITE / ALL.  Devices are chosen by name, pool, or the lower device's
 * vendor and model (globs, as lunq.conf(5) matches them).
 *
 * Reads are all minus writes: the kernel counts reads + writes and the
 * writes apart (misaligned_4k / write_misaligned_4k, hist size /
 * size_write, ...).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "ident.h"
#include "json.h"
#include "lunq_hist.h"
#include "lunq_names.h"

/* One summary row: a device or a total. */
struct arow {
	u64 reads, writes;
	u64 mis, mis_w;		/* not starting on 4 KiB: all, writes */
	u64 n4k, n4k_w;		/* not a multiple of 4 KiB */
	unsigned int ndev;
};

/* The size and alignment histograms, all and writes. */
enum { H_SIZE, H_SIZE_W, H_ALIGN, H_ALIGN_W, H_NR };
static const u32 hkind[H_NR] = {
	LUNQ_HIST_SIZE, LUNQ_HIST_SIZE_WRITE, LUNQ_HIST_ALIGN,
	LUNQ_HIST_ALIGN_WRITE,
};

static u64 sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

static void row_add(struct arow *t, const struct arow *r)
{
	t->reads += r->reads;
	t->writes += r->writes;
	t->mis += r->mis;
	t->mis_w += r->mis_w;
	t->n4k += r->n4k;
	t->n4k_w += r->n4k_w;
	t->ndev += r->ndev;
}

static double pct(u64 n, u64 d)
{
	return d ? 100.0 * (double)n / (double)d : 0;
}

static void row_text(const char *name, const struct arow *r)
{
	u64 ios = r->reads + r->writes;

	printf("%-16s %9llu %9llu %9llu %7llu %7llu %7llu %7llu %7llu %7llu %7.1f\n",
	       name, (unsigned long long)ios, (unsigned long long)r->reads,
	       (unsigned long long)r->writes,
	       (unsigned long long)sub0(r->mis, r->mis_w),
	       (unsigned long long)r->mis_w, (unsigned long long)r->mis,
	       (unsigned long long)sub0(r->n4k, r->n4k_w),
	       (unsigned long long)r->n4k_w, (unsigned long long)r->n4k,
	       pct(r->n4k, ios));
}

static void split_json(const char *key, u64 all, u64 w)
{
	printf(",\"%s\":{\"read\":%llu,\"write\":%llu,\"all\":%llu}", key,
	       (unsigned long long)sub0(all, w), (unsigned long long)w,
	       (unsigned long long)all);
}

static void row_json(const struct arow *r)
{
	u64 ios = r->reads + r->writes;

	printf(",\"ios\":%llu,\"reads\":%llu,\"writes\":%llu",
	       (unsigned long long)ios, (unsigned long long)r->reads,
	       (unsigned long long)r->writes);
	split_json("misaligned", r->mis, r->mis_w);
	split_json("non_4k", r->n4k, r->n4k_w);
	fputs(",\"pct_non_4k\":", stdout);
	lq_json_num(stdout, pct(r->n4k, ios));
	fputs(",\"pct_misaligned\":", stdout);
	lq_json_num(stdout, pct(r->mis, ios));
}

/* The READ / WRITE / ALL table of histogram pair @all, @w (non-empty rows). */
static void table_text(const char *title, const u64 *all, const u64 *w)
{
	u32 i;

	printf("\n%s\n%16s %10s %10s %10s\n", title, "bytes", "READ", "WRITE", "ALL");
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		if (!all[i])
			continue;
		printf("%16llu %10llu %10llu %10llu\n",
		       (unsigned long long)lunq_hist_lower(i),
		       (unsigned long long)sub0(all[i], w[i]),
		       (unsigned long long)w[i], (unsigned long long)all[i]);
	}
}

static void table_json(const char *key, const u64 *all, const u64 *w)
{
	bool first = true;
	u32 i;

	printf(",\"%s\":[", key);
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		if (!all[i])
			continue;
		printf("%s{\"bytes\":%llu,\"read\":%llu,\"write\":%llu,\"all\":%llu}",
		       first ? "" : ",", (unsigned long long)lunq_hist_lower(i),
		       (unsigned long long)sub0(all[i], w[i]),
		       (unsigned long long)w[i], (unsigned long long)all[i]);
		first = false;
	}
	printf("]");
}

static void str_or_null(const char *s)
{
	if (s)
		lq_json_str(stdout, s);
	else
		fputs("null", stdout);
}

static bool glob_ok(const char *glob, const char *v)
{
	return !glob || !fnmatch(glob, v, FNM_CASEFOLD);
}

static bool named(const struct lq_dev *d, char **names, int n)
{
	int i;

	if (!n)
		return true;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], d->name) || !strcmp(names[i], d->dm_name))
			return true;
	return false;
}

int cmd_align(int argc, char **argv)
{
	struct lq_getopt g;
	const char *vendor = NULL, *model = NULL, *pool_sel = NULL;
	char (*pools)[LUNQ_POOL_NAME_MAX + 1] = NULL;
	struct arow *prow = NULL, all = { 0 };
	u64 *h[H_NR] = { NULL };
	struct lq_dev *devs = NULL;
	struct lq_hist hh = { 0 };
	struct lq_nl *nl = NULL;
	int c, rc, n = 0, i, j, k, np = 0, shown = 0, nnames;
	bool json = false;
	char **names;

	lq_getopt_init(&g, "align", argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_VENDOR: vendor = g.arg; break;
		case LQO_MODEL: model = g.arg; break;
		case LQO_POOL: pool_sel = g.arg; break;
		case LQO_JSON: json = true; break;
		case LQO_HELP: return lq_cmd_help("align");
		default: return lq_getopt_fail(&g, c);
		}
	}
	names = argv + optind;
	nnames = argc - optind;
	for (k = 0; k < H_NR; k++)
		h[k] = lq_xcalloc(LUNQ_HIST_BUCKETS, sizeof(u64));
	hh.counts = lq_xcalloc(LUNQ_HIST_BUCKETS, sizeof(u64));
	rc = lq_connect(&nl);
	if (rc)
		goto out_free;
	rc = lq_nl_dump(nl, &devs, &n);
	if (rc) {
		lq_error(rc, "%s", lq_nl_err(nl));
		goto out;
	}
	for (i = 0; i < nnames; i++) {
		for (j = 0; j < n && strcmp(devs[j].name, names[i]) &&
			    strcmp(devs[j].dm_name, names[i]); j++)
			;
		if (j == n) {
			rc = lq_error(LQ_ENOTFOUND, "no lunq device '%s' ('%s list' shows them)",
				      names[i], lq_prog);
			goto out;
		}
	}
	prow = lq_xcalloc(n, sizeof(*prow));
	pools = lq_xcalloc(n, sizeof(*pools));
	if (json) {
		printf("{\"schema\":%d,\"select\":{\"vendor\":", LQ_JSON_SCHEMA);
		str_or_null(vendor);
		fputs(",\"model\":", stdout);
		str_or_null(model);
		fputs(",\"pool\":", stdout);
		str_or_null(pool_sel);
		printf("},\"devices\":[");
	} else {
		printf("%-16s %9s %9s %9s %7s %7s %7s %7s %7s %7s %7s\n", "",
		       "", "", "", "misaligned start", "", "",
		       "non-4k size", "", "", "");
		printf("%-16s %9s %9s %9s %7s %7s %7s %7s %7s %7s %7s\n",
		       "device", "ios", "reads", "writes", "READ", "WRITE", "ALL",
		       "READ", "WRITE", "ALL", "%non4k");
	}
	for (i = 0; i < n; i++) {
		const struct lq_dev *d = &devs[i];
		struct lq_ident id = { 0 };
		char pool[LUNQ_POOL_NAME_MAX + 1];
		struct arow r = { 0 };

		if (!named(d, names, nnames))
			continue;
		lq_pool_of(d->policy, pool, sizeof(pool));
		if (pool_sel && strcmp(pool, pool_sel))
			continue;
		if (vendor || model)
			lq_ident_read("", d->lower, &id);
		if (!glob_ok(vendor, id.vendor) || !glob_ok(model, id.model))
			continue;
		r.reads = d->st[LUNQ_ST_READS];
		r.writes = d->st[LUNQ_ST_WRITES];
		r.mis = d->st[LUNQ_ST_MISALIGNED_4K];
		r.mis_w = d->st[LUNQ_ST_WRITE_MISALIGNED_4K];
		r.n4k = d->st[LUNQ_ST_SIZE_NOT_4K];
		r.n4k_w = d->st[LUNQ_ST_WRITE_SIZE_NOT_4K];
		r.ndev = 1;
		/* writes first: all, fetched after, holds at least them */
		for (k = H_NR - 1; k >= 0; k--) {
			u32 b;

			rc = lq_nl_get_hist(nl, d->name, hkind[k], &hh);
			if (rc) {
				lq_error(rc, "%s: %s", d->name, lq_nl_err(nl));
				goto out;
			}
			for (b = 0; b < LUNQ_HIST_BUCKETS; b++)
				h[k][b] += hh.counts[b];
		}
		if (json) {
			printf("%s{\"device\":", shown ? "," : "");
			lq_json_str(stdout, d->name);
			fputs(",\"pool\":", stdout);
			str_or_null(pool[0] ? pool : NULL);
			row_json(&r);
			fputc('}', stdout);
		} else {
			row_text(d->name, &r);
		}
		shown++;
		row_add(&all, &r);
		if (!pool[0])
			continue;
		for (j = 0; j < np && strcmp(pools[j], pool); j++)
			;
		if (j == np)
			snprintf(pools[np++], sizeof(pools[0]), "%s", pool);
		row_add(&prow[j], &r);
	}
	if (json) {
		printf("],\"totals\":[");
		for (j = 0; j <= np; j++) {
			printf("%s{\"pool\":", j ? "," : "");
			str_or_null(j < np ? pools[j] : NULL);
			printf(",\"devices\":%u", j < np ? prow[j].ndev : all.ndev);
			row_json(j < np ? &prow[j] : &all);
			fputc('}', stdout);
		}
		printf("]");
		table_json("size", h[H_SIZE], h[H_SIZE_W]);
		table_json("align", h[H_ALIGN], h[H_ALIGN_W]);
		printf("}\n");
	} else {
		for (j = 0; j < np; j++) {
			char name[LUNQ_POOL_NAME_MAX + 8];

			snprintf(name, sizeof(name), "pool:%s", pools[j]);
			row_text(name, &prow[j]);
		}
		row_text("all", &all);
		if (!shown)
			printf("(no lunq device matches)\n");
		table_text("IO size of the devices above", h[H_SIZE], h[H_SIZE_W]);
		table_text("IO alignment: largest power of two dividing the start offset (offset 0: 2^41)",
			   h[H_ALIGN], h[H_ALIGN_W]);
	}
	rc = LQ_OK;
out:
	lq_nl_close(nl);
out_free:
	free(devs);
	free(prow);
	free(pools);
	free(hh.counts);
	for (k = 0; k < H_NR; k++)
		free(h[k]);
	return rc;
}
