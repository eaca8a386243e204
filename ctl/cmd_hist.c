// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl hist: the latency, size and alignment histograms of a device,
 * fetched whole over netlink (every bucket) and rendered by liblunq's histview.c.
 */
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "histview.h"
#include "lunq_hist.h"
#include "lunq_names.h"

enum { PH_WAIT = 1, PH_SVC = 2, PH_TOTAL = 4 };
enum { DIR_READ = 1, DIR_WRITE = 2 };
enum { V_QUANT = 1, V_LQUANT = 2, V_PCT = 4 };

static const char *const phase_title[] = { "wait", "service", "total" };

int cmd_hist(int argc, char **argv)
{
	struct lq_getopt g;
	int phases = 0, dirs = 0, views = 0, kinds[LUNQ_NR_HISTS], nk = 0;
	bool json = false, size = false, align = false;
	u64 lo = 0, hi = 0, step = 0, unit = 1;
	const char *larg = NULL, *uname = "", *tunit;
	struct lq_hist h;
	struct lq_nl *nl;
	struct lq_dev d;
	char err[256];
	int c, rc, i, p, k;

	lq_getopt_init(&g, "hist", argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_WAIT: phases |= PH_WAIT; break;
		case LQO_SERVICE: phases |= PH_SVC; break;
		case LQO_TOTAL: phases |= PH_TOTAL; break;
		case LQO_READ: dirs |= DIR_READ; break;
		case LQO_WRITE: dirs |= DIR_WRITE; break;
		case LQO_SIZE: size = true; break;
		case LQO_ALIGN: align = true; break;
		case LQO_QUANTIZE: views |= V_QUANT; break;
		case LQO_LQUANTIZE: views |= V_LQUANT; larg = g.arg; break;
		case LQO_PERCENTILES: views |= V_PCT; break;
		case LQO_JSON: json = true; break;
		case LQO_HELP: return lq_cmd_help("hist");
		default: return lq_getopt_fail(&g, c);
		}
	}
	if (optind + 1 != argc)
		return lq_usage("hist", "needs one NAME");
	if ((size || align) && (phases || dirs))
		return lq_usage("hist", "--size and --align take no --wait/--service/--total/--read/--write");
	if (size && align)
		return lq_usage("hist", "--size or --align, not both");
	if (json && views)
		return lq_usage("hist", "--json prints every view; drop -q/-l/-P");
	if (size || align) {
		kinds[nk++] = size ? LUNQ_HIST_SIZE : LUNQ_HIST_ALIGN;
	} else {
		if (!phases)
			phases = PH_TOTAL;
		if (!dirs)
			dirs = DIR_READ | DIR_WRITE;
		for (p = 0; p < 3; p++) {
			if (!(phases & (1 << p)))
				continue;
			if (dirs & DIR_READ)
				kinds[nk++] = LUNQ_HIST_WAIT_READ + 2 * p;
			if (dirs & DIR_WRITE)
				kinds[nk++] = LUNQ_HIST_WAIT_WRITE + 2 * p;
		}
	}
	if (larg && lq_parse_lquantize(larg, !(size || align), &lo, &hi, &step,
				       &unit, &uname, err, sizeof(err)))
		return lq_usage("hist", "--lquantize %s: %s", larg, err);
	if (!views)
		views = V_QUANT | V_PCT;

	h.counts = lq_xcalloc(LUNQ_HIST_BUCKETS, sizeof(*h.counts));
	rc = lq_connect(&nl);
	if (rc)
		goto out_free;
	rc = lq_find_dev(nl, argv[optind], &d);
	if (rc)
		goto out;
	if (json)
		printf("[");
	for (i = 0; i < nk; i++) {
		bool time;

		k = kinds[i];
		time = k < LUNQ_HIST_SIZE;
		rc = lq_nl_get_hist(nl, d.name, k, &h);
		if (rc) {
			lq_error(rc, "%s", lq_nl_err(nl));
			goto out;
		}
		if (json) {
			printf("%s", i ? "," : "");
			lq_hist_json(stdout, d.name, lunq_hist_names[k], &h, time);
			continue;
		}
		/* the rows' unit: base unit, or STEP's with only --lquantize */
		tunit = views == V_LQUANT ? uname : time ? "ns" : "bytes";
		if (time)
			printf("%s%s: %s latency of %s (%s)\n", i ? "\n" : "", d.name,
			       phase_title[(k - LUNQ_HIST_WAIT_READ) / 2],
			       (k & 1) ? "writes" : "reads", tunit);
		else if (k == LUNQ_HIST_SIZE)
			printf("%s: IO size (%s)\n", d.name, tunit);
		else
			printf("%s: IO alignment, largest power of two dividing the start offset (%s; offset 0 counts as 2^%d)\n",
			       d.name, tunit, LUNQ_HIST_MAX_BITS);
		if (!h.count) {
			printf("  no IOs recorded\n");
			continue;
		}
		if (views & V_QUANT)
			lq_hist_print_quantize(stdout, &h);
		if ((views & V_LQUANT) && views != V_LQUANT)
			printf("\n  lquantize (%s):\n", uname);
		if (views & V_LQUANT)
			lq_hist_print_lquantize(stdout, &h, lo, hi, step, unit);
		if (views & V_PCT)
			lq_hist_print_percentiles(stdout, &h, time);
	}
	if (json)
		printf("]\n");
	rc = LQ_OK;
out:
	lq_nl_close(nl);
out_free:
	free(h.counts);
	return rc;
}
