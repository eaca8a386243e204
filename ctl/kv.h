/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: policy arguments "key=value" or "key:value" -> the kernel's
 * "key:value" words, checked with the module's own parser
 * (kmod/lunq_args.c) so a bad word is refused before anything is sent.
 */
#ifndef LUNQCTL_KV_H
#define LUNQCTL_KV_H

#include "lunqctl.h"

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

#endif /* LUNQCTL_KV_H */
