/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the policy-file parser (ctl/policyfile.c) makes of a text, for
 * the unit tests whose output is a lunq.conf(5) section (tune, the
 * online tuner): pf_resolves(TEXT, LABEL, ID, WANT) is 1 when TEXT, read
 * as a policy file named LABEL, gives the device ID exactly one word,
 * WANT; a parse error is printed as a diagnostic.
 */
#ifndef LUNQ_TEST_PF_CHECK_H
#define LUNQ_TEST_PF_CHECK_H

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policyfile.h"

static int pf_resolves(const char *text, const char *label,
		       const struct lq_ident *id, const char *want)
{
	struct lq_pf_word w[LUNQ_NR_KEYS];
	char *errs = NULL;
	struct lq_pf pf;
	FILE *f;
	int k;

	f = fmemopen((void *)text, strlen(text), "r");
	if (!f)
		return 0;
	if (lq_pf_parse(&pf, label, f, &errs)) {
		printf("# %s", errs);
		free(errs);
		fclose(f);
		return 0;
	}
	fclose(f);
	k = lq_pf_resolve(&pf, id, w, LUNQ_NR_KEYS);
	lq_pf_free(&pf);
	return k == 1 && !strcmp(w[0].word, want);
}

#endif /* LUNQ_TEST_PF_CHECK_H */
