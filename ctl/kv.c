// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: "key=value" / "key:value" arguments to policy words, and the
 * kernel's policy string to a policy (kv.h).  Pure.
 */
#include "kv.h"
#include "lunq_args.h"

int lq_kv_normalize(const char *arg, char *out, size_t outlen)
{
	size_t n = strcspn(arg, "=:");

	if (!n || !arg[n] || strlen(arg) >= outlen)
		return -1;
	memcpy(out, arg, n);
	out[n] = ':';
	strcpy(out + n + 1, arg + n + 1);
	return 0;
}

int lq_kv_words(int argc, char *const *argv, enum lq_kv_mode mode,
		char *out, size_t outlen, char *err, size_t errlen)
{
	struct lunq_keys p;
	size_t pos = 0;
	u64 seen = 0;
	int i;

	lunq_keys_init(&p);
	out[0] = '\0';
	for (i = 0; i < argc; i++) {
		char word[LUNQ_POLICY_MAX];
		enum lunq_key key;
		enum lunq_arg_err e;
		size_t n;

		if (lq_kv_normalize(argv[i], word, sizeof(word))) {
			snprintf(err, errlen,
				 "%s: not a policy word; write key=value (or key:value), e.g. qdepth=8",
				 argv[i]);
			return -1;
		}
		e = lunq_parse_word(&p, word, &seen, &key);
		if (e) {
			snprintf(err, errlen, "%s: %s", argv[i],
				 lunq_arg_error(e, key));
			return -1;
		}
		if (mode == LQ_KV_LIVE && lunq_key_table_only(key)) {
			snprintf(err, errlen, "%s: %s", argv[i],
				 lunq_table_only_error(key));
			return -1;
		}
		n = strlen(word);
		if (pos + n + 2 > outlen) {
			snprintf(err, errlen, "policy longer than %zu bytes", outlen - 1);
			return -1;
		}
		if (pos)
			out[pos++] = ' ';
		memcpy(out + pos, word, n + 1);
		pos += n;
	}
	if (mode == LQ_KV_TABLE) {
		const char *msg = lunq_policy_resolve(&p, seen);

		if (!msg)
			msg = lunq_policy_check(&p);

		if (msg) {
			snprintf(err, errlen, "%s", msg);
			return -1;
		}
	}
	return 0;
}

int lq_policy_read(const char *policy, struct lunq_keys *p, const char **why)
{
	/* a word is at least "k:v" and a blank: room for every word */
	char buf[LUNQ_POLICY_MAX], *w[LUNQ_POLICY_MAX / 4 + 1];
	const char *dummy;
	u64 seen = 0;
	int n, i;

	if (!why)
		why = &dummy;
	*why = NULL;
	lunq_keys_init(p);
	if (snprintf(buf, sizeof(buf), "%s", policy) >= (int)sizeof(buf)) {
		*why = "policy too long";
		return -1;
	}
	n = lunq_split_words(buf, w, ARRAY_SIZE(w));
	if (n < 0) {
		*why = "policy of too many words";
		return -1;
	}
	for (i = 0; i < n; i++) {
		enum lunq_arg_err e;
		enum lunq_key key;

		e = lunq_parse_word(p, w[i], &seen, &key);
		if (e == LUNQ_ARG_UNKNOWN_KEY)
			continue;	/* a newer module's key */
		if (e) {
			*why = lunq_arg_error(e, key);
			return -1;
		}
	}
	return 0;
}
