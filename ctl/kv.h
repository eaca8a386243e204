/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: policy arguments "key=value" or "key:value" -> the kernel's
 * "key:value" words, checked with the module's own parser
 * (kmod/lunq_args.c) so a bad word is refused before anything is sent;
 * and the other way, the kernel's policy string -> a struct lunq_keys.
 */
#ifndef LUNQCTL_KV_H
#define LUNQCTL_KV_H

#include "lq.h"		/* liblunq: types */
#include "lunq_args.h"

enum lq_kv_mode {
	LQ_KV_TABLE,	/* create: every key, rules between keys checked */
	LQ_KV_LIVE,	/* set, apply: table-only keys refused */
};

/*
 * Normalize @argc words of @argv into @out ("key:value key:value", at most
 * @outlen bytes with NUL).  0, or -1 with a message naming the bad word
 * and what is valid in @err.
 */
int lq_kv_words(int argc, char *const *argv, enum lq_kv_mode mode,
		char *out, size_t outlen, char *err, size_t errlen);

/* One word: "key=value" -> "key:value" in @out; -1 when neither form. */
int lq_kv_normalize(const char *arg, char *out, size_t outlen);

/*
 * The kernel's policy string ("key:value ..." as TABLE status, sysfs'
 * "table" and netlink's POLICY print it: the keys given on the table
 * line or set since) into @p, every key it leaves out at its default.
 * 0, or -1 with *@why (when @why is not NULL) saying what did not parse.
 *
 * One behaviour for every reader (show, set, the pool of stat, show and
 * align, stat's auto line, sweep's and tune's restore, tune --online,
 * apply): a key this build does not know is skipped.  The kernel checked
 * every word it prints, so an unknown key is a newer module's, and the
 * keys this build knows still read right: refusing the whole string
 * would lose a device's pool, stat's auto line and tune's restore to a
 * key lunqctl cannot set anyway.  Any other word that does not parse (no
 * key:value, a bad value, a key given twice), more words than the string
 * can hold or a string too long means lunqctl and the module disagree
 * about a key both know: -1.
 */
int lq_policy_read(const char *policy, struct lunq_keys *p, const char **why);

static inline int lq_policy_parse(const char *policy, struct lunq_keys *p)
{
	return lq_policy_read(policy, p, NULL);
}

#endif /* LUNQCTL_KV_H */
