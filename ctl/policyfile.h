/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: policy files (lunq.conf(5)), the parser and the matching.
 *
 * A policy file is a list of sections; a section header names devices by
 * FIELD=GLOB terms over their identity (struct lq_ident), the lines under
 * it are policy words "key = value".  Every word is checked with the
 * module's own parser (kmod/lunq_args.c), so a file that parses can only
 * be refused by the kernel for a rule between keys on a given device (see
 * lq_pf_changes()) or for a rule about the device itself.
 *
 * Use:
 *	struct lq_pf pf;
 *	char *errs;
 *
 *	if (lq_pf_parse(&pf, path, f, &errs)) {
 *		fputs(errs, stderr);		(nothing may be applied)
 *		free(errs);
 *		return LQ_EUSAGE;
 *	}
 *	for each device: fill a struct lq_ident (name, dm by the caller,
 *		the rest by lq_ident_read()), n = lq_pf_resolve(&pf, &id, w,
 *		LUNQ_NR_KEYS), then lq_pf_changes(d->policy, w, n, ch, &why)
 *		says which words to send and what they change;
 *	lq_pf_free(&pf);
 *
 * Pure code (libc only); unit-tested in tests/unit/ctl_policy_test.c.
 */
#ifndef LUNQCTL_POLICYFILE_H
#define LUNQCTL_POLICYFILE_H

#include <stdio.h>
#include "lunq_args.h"
#include "ident.h"

/* Longest "key:value" word a policy file can yield, with the NUL. */
#define LQ_PF_WORD_MAX		64
/* lq_pf_parse() reports at most this many errors, then gives up. */
#define LQ_PF_MAX_ERRORS	20

/* One policy word of the file as it applies to a device. */
struct lq_pf_word {
	enum lunq_key key;
	/* "key:value" as the kernel prints it ("qdepth = 016": "qdepth:16") */
	char word[LQ_PF_WORD_MAX];
	int line;			/* line of the file that set it */
	/* its section header as written, brackets included:
	 * "[vendor=NETAPP]"; valid until lq_pf_free()
	 */
	const char *section;
};

/* A word that changes a device's policy (lq_pf_changes()). */
struct lq_pf_change {
	enum lunq_key key;
	char word[LQ_PF_WORD_MAX];	/* "key:new", the word to send */
	/* value in force now (the default when the key was never given) */
	char old[LQ_PF_WORD_MAX];
	char new[LQ_PF_WORD_MAX];	/* value the word sets */
	int line;			/* from the struct lq_pf_word */
	const char *section;
};

struct lq_pf_section;

/* A parsed file.  Fields are private to policyfile.c. */
struct lq_pf {
	struct lq_pf_section *sec;	/* in file order */
	int nsec;
};

/*
 * Parse the policy file @f (called @path in messages) into @pf.  Returns 0
 * with *@errs = NULL; or -1 with @pf empty and *@errs a malloc'ed string of
 * "path:line: message\n" lines, one per error (at most LQ_PF_MAX_ERRORS,
 * then "path: too many errors"), which the caller frees.  Any error means
 * the file must not be applied at all.  Syntax: lunq.conf(5).
 */
int lq_pf_parse(struct lq_pf *pf, const char *path, FILE *f, char **errs);

/* Release what lq_pf_parse() allocated; @pf is empty afterwards. */
void lq_pf_free(struct lq_pf *pf);

/*
 * The words of @pf for the device @id: every section whose header matches
 * contributes its words, a later section overriding an earlier one key by
 * key.  Fills @out with at most @max words (LUNQ_NR_KEYS is always
 * enough), one per key, in key order (the order of lunq_policy_format());
 * returns their number, 0 when nothing matches.
 */
int lq_pf_resolve(const struct lq_pf *pf, const struct lq_ident *id,
		  struct lq_pf_word *out, int max);

/*
 * Which of the @n words @w change the policy @current_policy ("key:value
 * ..." as TABLE status, sysfs "table" and netlink POLICY print it: only
 * keys given on the table or set since).  A word changes nothing when the
 * value in force -- given, or the key's default -- is the same, so
 * "sched:fifo" on a device that never named sched is no change.
 *
 * Fills @out (room for @n) with the changes in the order of @w and returns
 * their number.  *@why is NULL, or the rule between keys (the text of
 * lunq_policy_check()) that the policy after these changes breaks: the
 * kernel would refuse the "set", so apply should report @why and skip
 * the device.  Returns -EINVAL with *@why set when @current_policy does
 * not parse (lq_policy_read(): keys this build does not know are skipped,
 * a newer module's) or a word of @w is not a valid live word (not from
 * lq_pf_resolve()).
 */
int lq_pf_changes(const char *current_policy, const struct lq_pf_word *w,
		  int n, struct lq_pf_change *out, const char **why);

#endif /* LUNQCTL_POLICYFILE_H */
