// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl create, remove, list, show, set, reset.
 */
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "kv.h"
#include "dmops.h"
#include "ident.h"
#include "iostat.h"
#include "json.h"
#include "units.h"
#include "lunq_args.h"
#include "lunq_names.h"

/*
 * The options of create, remove, list, show, set, reset (options.c: -j
 * of list and show).  LQ_OK, -1 after --help, or an exit code.
 */
static int simple_opts(int argc, char **argv, bool *json)
{
	struct lq_getopt g;
	int c;

	*json = false;
	lq_getopt_init(&g, argv[0], argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		if (c == LQO_JSON)
			*json = true;
		else if (c == LQO_HELP)
			return lq_cmd_help(argv[0]) ? LQ_EUSAGE : -1;
		else
			return lq_getopt_fail(&g, c);
	}
	return LQ_OK;
}

/*
 * Depth of the pool device @name joined without giving pool_depth: the
 * kernel reads it back in sysfs (the table line, and so netlink's policy
 * words, only has what the table gave).  0 when unreadable.
 */
static unsigned int pool_depth_of(const char *name)
{
	char path[256], line[32];
	unsigned int v;

	snprintf(path, sizeof(path), "/sys/kernel/lunq/%s/policy/pool_depth",
		 name);
	if (!lq_read_line(path, line, sizeof(line)) ||
	    sscanf(line, "%u", &v) != 1)
		return 0;
	return v;
}

/* ---- create / remove --------------------------------------------------- */

int cmd_create(int argc, char **argv)
{
	char words[LUNQ_POLICY_MAX], err[512], *w[LUNQ_NR_KEYS + 1];
	bool json;
	int rc, n;

	rc = simple_opts(argc, argv, &json);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	argc -= optind;
	argv += optind;
	if (argc < 2)
		return lq_usage("create", "needs NAME and DEV");
	if (lq_kv_words(argc - 2, argv + 2, LQ_KV_TABLE, words, sizeof(words),
			err, sizeof(err)))
		return lq_error(LQ_EUSAGE, "%s", err);
	n = lunq_split_words(words, w, ARRAY_SIZE(w));
	if (n < 0)
		return lq_error(LQ_EUSAGE, "too many policy words");
	rc = lq_dm_create(argv[0], argv[1], w, n, err, sizeof(err));
	if (rc)
		return lq_error(rc, "%s", err);
	printf("created %s: /dev/mapper/%s over %s\n", argv[0], argv[0], argv[1]);
	return LQ_OK;
}

int cmd_remove(int argc, char **argv)
{
	char err[512];
	bool json;
	int rc, i;

	rc = simple_opts(argc, argv, &json);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	if (optind >= argc)
		return lq_usage("remove", "needs NAME");
	for (i = optind; i < argc; i++) {
		rc = lq_dm_remove(argv[i], err, sizeof(err));
		if (rc)
			return lq_error(rc, "%s", err);
		if (lq_policy_forget(strncmp(argv[i], "/dev/mapper/", 12) ?
				     argv[i] : argv[i] + 12))
			printf("removed %s and its BPF policy's link\n", argv[i]);
		else
			printf("removed %s\n", argv[i]);
	}
	return LQ_OK;
}

/* ---- list / show ------------------------------------------------------- */

static void json_kv_str(FILE *f, const char *k, const char *v, bool comma)
{
	fprintf(f, "%s\"%s\":", comma ? "," : "", k);
	lq_json_str(f, v);
}

static void json_dev_head(FILE *f, const struct lq_dev *d)
{
	char lower[64];

	lq_lower_name(d->lower, lower, sizeof(lower));
	fprintf(f, "\"schema\":%d,", LQ_JSON_SCHEMA);
	json_kv_str(f, "name", d->name, false);
	json_kv_str(f, "dm_name", d->dm_name, true);
	json_kv_str(f, "disk", d->disk, true);
	json_kv_str(f, "lower", lower, true);
	json_kv_str(f, "lower_dev", d->lower, true);
	fprintf(f, ",\"begin\":%llu,\"sectors\":%llu",
		(unsigned long long)d->begin, (unsigned long long)d->len);
	json_kv_str(f, "state", lq_dev_state(d), true);
	json_kv_str(f, "policy", d->policy, true);
}

int cmd_list(int argc, char **argv)
{
	struct lq_nl *nl;
	struct lq_dev *devs;
	bool json;
	int rc, n, i;

	rc = simple_opts(argc, argv, &json);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	if (optind < argc)
		return lq_usage("list", "takes no arguments");
	rc = lq_connect(&nl);
	if (rc)
		return rc;
	rc = lq_nl_dump(nl, &devs, &n);
	if (rc) {
		lq_error(rc, "%s", lq_nl_err(nl));
		lq_nl_close(nl);
		return rc;
	}
	if (json) {
		printf("[");
		for (i = 0; i < n; i++) {
			printf("%s{", i ? "," : "");
			json_dev_head(stdout, &devs[i]);
			printf(",\"throttle\":%llu,\"inflight\":%llu,\"waiting\":%llu}",
			       (unsigned long long)devs[i].st[LUNQ_ST_THROTTLE],
			       (unsigned long long)devs[i].st[LUNQ_ST_INFLIGHT],
			       (unsigned long long)devs[i].st[LUNQ_ST_WAITING]);
		}
		printf("]\n");
	} else if (n) {
		printf("%-16s %-10s %10s %-9s %s\n", "NAME", "LOWER", "SIZE",
		       "STATE", "POLICY");
		for (i = 0; i < n; i++) {
			char lower[64], size[32];

			lq_lower_name(devs[i].lower, lower, sizeof(lower));
			lq_fmt_bytes(size, sizeof(size), devs[i].len * 512);
			printf("%-16s %-10s %10s %-9s %s\n", devs[i].name, lower,
			       size, lq_dev_state(&devs[i]),
			       devs[i].policy[0] ? devs[i].policy : "-");
		}
	}
	free(devs);
	lq_nl_close(nl);
	return LQ_OK;
}

static void show_text(const struct lq_dev *d, const struct lq_ident *id,
		      const struct lunq_keys *p, const char *pool,
		      const struct lq_dev *all, int n)
{
	char lower[64], size[32], v[64];
	int k, i, col = 0;

	lq_lower_name(d->lower, lower, sizeof(lower));
	lq_fmt_bytes(size, sizeof(size), d->len * 512);
	printf("%s: /dev/mapper/%s (%s), %s, %s\n", d->name, d->dm_name,
	       d->disk, size, lq_dev_state(d));
	printf("  lower %s (%s)", lower, d->lower);
	if (d->begin)
		printf(", target at sector %llu", (unsigned long long)d->begin);
	printf("\n");
	if (id->vendor[0] || id->model[0])
		printf("  vendor \"%s\" model \"%s\"\n", id->vendor, id->model);
	if (id->serial[0])
		printf("  serial %s\n", id->serial);
	if (id->wwn[0])
		printf("  wwn %s\n", id->wwn);
	printf("  policy:\n");
	for (k = 0; k < LUNQ_NR_KEYS; k++) {
		if (!lunq_key_supported(k))
			continue;
		lunq_policy_value(p, k, v, sizeof(v));
		printf("    %-18s %-12s%s%s\n", lunq_key_name(k), v,
		       (p->given & (1ULL << k)) ? "" :
		       k == LUNQ_POOL_DEPTH && pool[0] ? " (the pool's)" :
		       " (default)",
		       lunq_key_table_only(k) ? " [table]" : "");
	}
	if (pool[0]) {
		printf("  pool %s: members", pool);
		for (i = 0; i < n; i++) {
			char q[LUNQ_POOL_NAME_MAX + 1];

			lq_pool_of(all[i].policy, q, sizeof(q));
			if (!strcmp(q, pool))
				printf(" %s", all[i].name);
		}
		printf("; %llu commands in the pool now\n",
		       (unsigned long long)d->st[LUNQ_ST_POOL_INFLIGHT]);
	}
	printf("  counters:\n");
	for (k = 1; k < __LUNQ_ST_MAX; k++) {
		if (!d->have[k] || !lunq_stat_names[k])
			continue;
		printf("%s    %-18s %14llu", col ? "" : "", lunq_stat_names[k],
		       (unsigned long long)d->st[k]);
		col = !col;
		if (!col)
			printf("\n");
	}
	if (col)
		printf("\n");
}

static void show_json(const struct lq_dev *d, const struct lq_ident *id,
		      const struct lunq_keys *p, const char *pool,
		      const struct lq_dev *all, int n)
{
	char v[64];
	int k, i, first = 1;

	printf("{");
	json_dev_head(stdout, d);
	printf(",\"identity\":{");
	json_kv_str(stdout, "vendor", id->vendor, false);
	json_kv_str(stdout, "model", id->model, true);
	json_kv_str(stdout, "serial", id->serial, true);
	json_kv_str(stdout, "wwn", id->wwn, true);
	printf("},\"settings\":{");
	for (k = 0; k < LUNQ_NR_KEYS; k++) {
		if (!lunq_key_supported(k))
			continue;
		lunq_policy_value(p, k, v, sizeof(v));
		printf("%s\"%s\":{\"value\":", first ? "" : ",", lunq_key_name(k));
		if (lunq_key_numeric(k))
			fputs(v, stdout);	/* "%u" */
		else
			lq_json_str(stdout, v);
		printf(",\"given\":%s,\"table_only\":%s}",
		       (p->given & (1ULL << k)) ? "true" : "false",
		       lunq_key_table_only(k) ? "true" : "false");
		first = 0;
	}
	printf("},\"pool\":");
	if (pool[0]) {
		printf("{");
		json_kv_str(stdout, "name", pool, false);
		printf(",\"members\":[");
		first = 1;
		for (i = 0; i < n; i++) {
			char q[LUNQ_POOL_NAME_MAX + 1];

			lq_pool_of(all[i].policy, q, sizeof(q));
			if (strcmp(q, pool))
				continue;
			printf("%s", first ? "" : ",");
			lq_json_str(stdout, all[i].name);
			first = 0;
		}
		printf("]}");
	} else {
		printf("null");
	}
	printf(",\"stats\":{");
	first = 1;
	for (k = 1; k < __LUNQ_ST_MAX; k++) {
		if (!d->have[k] || !lunq_stat_names[k])
			continue;
		printf("%s\"%s\":%llu", first ? "" : ",", lunq_stat_names[k],
		       (unsigned long long)d->st[k]);
		first = 0;
	}
	printf("}}\n");
}

int cmd_show(int argc, char **argv)
{
	struct lq_nl *nl;
	struct lq_dev d, *all = NULL;
	struct lq_ident id;
	struct lunq_keys p;
	char pool[LUNQ_POOL_NAME_MAX + 1];
	bool json;
	int rc, n = 0;

	rc = simple_opts(argc, argv, &json);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	if (optind + 1 != argc)
		return lq_usage("show", "needs one NAME");
	rc = lq_connect(&nl);
	if (rc)
		return rc;
	rc = lq_find_dev(nl, argv[optind], &d);
	if (rc)
		goto out;
	memset(&id, 0, sizeof(id));
	lq_ident_read("", d.lower, &id);
	if (lq_policy_parse(d.policy, &p)) {
		rc = lq_error(LQ_EFAIL, "%s: cannot parse the kernel's policy \"%s\"; lunqctl and dm-lunq differ?",
			      d.name, d.policy);
		goto out;
	}
	lq_pool_of(d.policy, pool, sizeof(pool));
	if (pool[0] && !(p.given & (1U << LUNQ_POOL_DEPTH)))
		p.val[LUNQ_POOL_DEPTH] = pool_depth_of(d.name);
	if (pool[0] && lq_nl_dump(nl, &all, &n))
		n = 0;
	if (json)
		show_json(&d, &id, &p, pool, all, n);
	else
		show_text(&d, &id, &p, pool, all, n);
	free(all);
out:
	lq_nl_close(nl);
	return rc;
}

/* ---- set / reset ------------------------------------------------------- */

int cmd_set(int argc, char **argv)
{
	char words[LUNQ_POLICY_MAX], err[512], name[LUNQ_NAME_MAX];
	struct lunq_keys before, after;
	struct lq_nl *nl;
	struct lq_dev d;
	int rc, k, changed = 0;
	bool json;

	rc = simple_opts(argc, argv, &json);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	argc -= optind;
	argv += optind;
	if (argc < 2)
		return lq_usage("set", "needs NAME and at least one KEY=VALUE");
	if (lq_kv_words(argc - 1, argv + 1, LQ_KV_LIVE, words, sizeof(words),
			err, sizeof(err)))
		return lq_error(LQ_EUSAGE, "%s", err);
	rc = lq_connect(&nl);
	if (rc)
		return rc;
	rc = lq_find_dev(nl, argv[0], &d);
	if (rc)
		goto out;
	rc = lq_nl_set(nl, d.name, words);
	if (rc) {
		lq_error(rc, "%s", lq_nl_err(nl));
		goto out;
	}
	snprintf(name, sizeof(name), "%s", d.name);
	if (lq_policy_parse(d.policy, &before) ||
	    lq_nl_get_dev(nl, name, &d) || lq_policy_parse(d.policy, &after)) {
		printf("%s: set %s\n", name, words);
		goto out;
	}
	for (k = 0; k < LUNQ_NR_KEYS; k++) {
		char a[64], b[64];

		lunq_policy_value(&before, k, a, sizeof(a));
		lunq_policy_value(&after, k, b, sizeof(b));
		if (strcmp(a, b)) {
			printf("%s: %s %s -> %s\n", d.name, lunq_key_name(k), a, b);
			changed++;
		}
	}
	if (!changed)
		printf("%s: no change\n", d.name);
out:
	lq_nl_close(nl);
	return rc;
}

int cmd_reset(int argc, char **argv)
{
	struct lq_nl *nl;
	struct lq_dev d;
	bool json;
	int rc;

	rc = simple_opts(argc, argv, &json);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	if (optind + 1 != argc)
		return lq_usage("reset", "needs one NAME");
	rc = lq_connect(&nl);
	if (rc)
		return rc;
	rc = lq_find_dev(nl, argv[optind], &d);
	if (!rc) {
		rc = lq_nl_reset(nl, d.name);
		if (rc)
			lq_error(rc, "%s", lq_nl_err(nl));
		else
			printf("%s: counters and histograms zeroed\n", d.name);
	}
	lq_nl_close(nl);
	return rc;
}
