// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl apply: a policy file (lunq.conf(5)) onto the existing lunq
 * devices.  The whole file is parsed and checked first; any error applies
 * nothing.  Then for each device: identity of the lower device, the words
 * of every matching section (later ones win per key), only those that
 * change something are sent, in one all-or-nothing SET per device.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "ident.h"
#include "policyfile.h"

struct apply_opts {
	bool dry, quiet;
	const char *device;
};

/* Apply to one device; returns an exit code (LQ_OK when nothing to do). */
static int apply_one(struct lq_nl *nl, const struct lq_pf *pf,
		     const char *file, const struct lq_dev *d,
		     const struct apply_opts *o, int *nchanged)
{
	struct lq_pf_word w[LUNQ_NR_KEYS];
	struct lq_pf_change ch[LUNQ_NR_KEYS];
	char words[LUNQ_POLICY_MAX];
	struct lq_ident id;
	const char *why = NULL;
	size_t pos = 0;
	int n, nc, i, rc;

	memset(&id, 0, sizeof(id));
	snprintf(id.name, sizeof(id.name), "%s", d->name);
	snprintf(id.dm, sizeof(id.dm), "%s", d->dm_name);
	lq_ident_read("", d->lower, &id);
	if (o->dry && !o->quiet)
		printf("%s: lower %s vendor \"%s\" model \"%s\" serial \"%s\" wwn \"%s\"\n",
		       d->name, id.lower, id.vendor, id.model, id.serial, id.wwn);
	n = lq_pf_resolve(pf, &id, w, ARRAY_SIZE(w));
	if (!n) {
		if (!o->quiet)
			printf("%s: no section of %s matches\n", d->name, file);
		return LQ_OK;
	}
	nc = lq_pf_changes(d->policy, w, n, ch, &why);
	if (nc < 0)
		return lq_error(LQ_EFAIL, "%s: not applied: %s (policy now \"%s\")",
				d->name, why ? why : "cannot compare", d->policy);
	if (why)
		return lq_error(LQ_EUSAGE, "%s: not applied: %s", d->name, why);
	if (!nc) {
		if (!o->quiet)
			printf("%s: no change\n", d->name);
		return LQ_OK;
	}
	words[0] = '\0';
	for (i = 0; i < nc; i++)
		pos += snprintf(words + pos, sizeof(words) - pos, "%s%s",
				i ? " " : "", ch[i].word);
	if (!o->dry) {
		rc = lq_nl_set(nl, d->name, words);
		if (rc)
			return lq_error(rc, "%s", lq_nl_err(nl));
	}
	for (i = 0; i < nc && !o->quiet; i++)
		printf("%s: %s%s %s -> %s (%s:%d %s)\n", d->name,
		       o->dry ? "would set " : "", lunq_key_name(ch[i].key),
		       ch[i].old, ch[i].new, file, ch[i].line, ch[i].section);
	(*nchanged)++;
	return LQ_OK;
}

int cmd_apply(int argc, char **argv)
{
	struct apply_opts o = { 0 };
	struct lq_getopt g;
	struct lq_dev *devs = NULL;
	struct lq_nl *nl = NULL;
	struct lq_pf pf;
	const char *file;
	char *errs = NULL;
	int c, rc, n = 0, i, matched = 0, changed = 0, first_err = LQ_OK;
	FILE *f;

	lq_getopt_init(&g, "apply", argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_DRY_RUN: o.dry = true; break;
		case LQO_QUIET: o.quiet = true; break;
		case LQO_DEVICE: o.device = g.arg; break;
		case LQO_HELP: return lq_cmd_help("apply");
		default: return lq_getopt_fail(&g, c);
		}
	}
	if (optind + 1 != argc)
		return lq_usage("apply", "needs one FILE");
	file = argv[optind];
	f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f)
		return lq_error(errno == ENOENT ? LQ_ENOTFOUND :
				errno == EACCES ? LQ_EPERM : LQ_EFAIL,
				"%s: %s", file, strerror(errno));
	rc = lq_pf_parse(&pf, file, f, &errs);
	if (f != stdin)
		fclose(f);
	if (rc) {
		fputs(errs ? errs : "parse error\n", stderr);
		free(errs);
		return lq_error(LQ_EUSAGE, "%s: not applied (fix the errors above)", file);
	}
	rc = lq_connect(&nl);
	if (rc)
		goto out;
	rc = lq_nl_dump(nl, &devs, &n);
	if (rc) {
		lq_error(rc, "%s", lq_nl_err(nl));
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (o.device && strcmp(o.device, devs[i].name) &&
		    strcmp(o.device, devs[i].dm_name))
			continue;
		matched++;
		rc = apply_one(nl, &pf, file, &devs[i], &o, &changed);
		if (rc && first_err == LQ_OK)	/* the exit status */
			first_err = rc;
	}
	rc = first_err;
	if (o.device && !matched) {
		/* the udev rule calls us for every dm device: not lunq is fine */
		if (!o.quiet)
			rc = lq_error(LQ_ENOTFOUND, "no lunq device '%s'", o.device);
	} else if (!o.quiet && !o.device && !n) {
		printf("no lunq devices\n");
	}
out:
	free(devs);
	lq_nl_close(nl);
	lq_pf_free(&pf);
	return rc;
}
