/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Invariants of kmod/lunq_args.c, shared by the args_table and
 * args_message targets.  The parser's source is included (not linked) so
 * that the checks can read its key table -- the single place where each
 * key's range, default and names live -- and hold the parser to it.
 */
#ifndef LUNQ_FUZZ_ARGS_COMMON_H
#define LUNQ_FUZZ_ARGS_COMMON_H

#include "fuzz.h"
#include "lunq_args.c"
#include <linux/types.h>
#include "uapi/lunq.h"	/* LUNQ_POLICY_MAX */

/* Longest table/message line: dm_read_arg_group() allows 2 * NR_KEYS. */
#define FUZZ_MAX_WORDS	(2 * LUNQ_NR_KEYS)

static bool fuzz_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* @v is a value the key table allows for @k (what val[k] may hold). */
static void fuzz_check_value(enum lunq_key k, u32 v, const char *pool)
{
	const struct lunq_keydef *d = &lunq_keys[k];
	size_t i, n;

	switch (d->type) {
	case LUNQ_T_UINT:
		FUZZ_CHECK(v >= d->min && v <= d->max);
		break;
	case LUNQ_T_POW2:
		FUZZ_CHECK(v >= d->min && v <= d->max && !(v & (v - 1)));
		break;
	case LUNQ_T_ENUM:
		FUZZ_CHECK(v < d->nr_names);
		break;
	case LUNQ_T_NAME:
		n = strnlen(pool, LUNQ_POOL_NAME_MAX + 1);
		FUZZ_CHECK(n >= 1 && n <= LUNQ_POOL_NAME_MAX);
		for (i = 0; i < n; i++)
			FUZZ_CHECK(strchr("abcdefghijklmnopqrstuvwxyz"
					  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789_-", pool[i]));
		break;
	}
}

/* Every given key of @p holds a valid value; defaults are valid too. */
static void fuzz_check_policy(const struct lunq_keys *p)
{
	unsigned int k;

	FUZZ_CHECK(!(p->given >> LUNQ_NR_KEYS));
	for (k = 0; k < LUNQ_NR_KEYS; k++) {
		if (lunq_keys[k].type == LUNQ_T_NAME) {
			if (p->given & (1ULL << k))
				fuzz_check_value(k, 0, p->pool);
			else
				FUZZ_CHECK(p->pool[0] == '\0');
			continue;
		}
		if (p->given & (1ULL << k))
			fuzz_check_value(k, p->val[k], NULL);
		else
			FUZZ_CHECK(p->val[k] == lunq_keys[k].def);
	}
}

/*
 * lunq_parse_word() on @word, with every promise of lunq_args.h checked:
 * a refused word leaves @p and @seen alone and has a message; an accepted
 * one changes exactly its key, to the value the word spells.
 */
static enum lunq_arg_err fuzz_parse_word(struct lunq_keys *p,
					 const char *word, u64 *seen,
					 enum lunq_key *key)
{
	struct lunq_keys before = *p;
	u64 seen_before = *seen;
	const struct lunq_keydef *d;
	enum lunq_arg_err e;
	const char *colon = strchr(word, ':'), *msg, *val;
	char buf[64], w2[128];
	struct lunq_keys q;
	enum lunq_key k2;
	u64 s2 = 0;
	size_t klen;

	*key = (enum lunq_key)-1;
	e = lunq_parse_word(p, word, seen, key);
	FUZZ_CHECK(e >= LUNQ_ARG_OK && e <= LUNQ_ARG_UNSUPPORTED);
	msg = lunq_arg_error(e, *key);
	FUZZ_CHECK(msg && *msg);

	if (e != LUNQ_ARG_OK) {
		FUZZ_CHECK(!memcmp(p, &before, sizeof(before)));
		FUZZ_CHECK(*seen == seen_before);
		if (e == LUNQ_ARG_NO_COLON) {
			FUZZ_CHECK(*key == LUNQ_NR_KEYS);
			FUZZ_CHECK(!colon || colon == word);
			return e;
		}
		FUZZ_CHECK(colon && colon != word);
		if (e == LUNQ_ARG_UNKNOWN_KEY) {
			FUZZ_CHECK(*key == LUNQ_NR_KEYS);
			return e;
		}
		FUZZ_CHECK(*key < LUNQ_NR_KEYS);
		FUZZ_CHECK(!strncmp(word, lunq_key_name(*key), colon - word) &&
			   strlen(lunq_key_name(*key)) == (size_t)(colon - word));
		FUZZ_CHECK(!!(seen_before & (1ULL << *key)) ==
			   (e == LUNQ_ARG_DUPLICATE));
		if (e == LUNQ_ARG_UNSUPPORTED)
			FUZZ_CHECK(!lunq_key_supported(*key));
		/* the message names the key concerned */
		FUZZ_CHECK(!strncmp(msg, lunq_key_name(*key),
				    strlen(lunq_key_name(*key))));
		return e;
	}

	/* accepted: "name:value", value valid, only key *key changed */
	FUZZ_CHECK(*key < LUNQ_NR_KEYS && lunq_key_supported(*key));
	FUZZ_CHECK(!(seen_before & (1ULL << *key)));
	FUZZ_CHECK(*seen == (seen_before | (1ULL << *key)));
	FUZZ_CHECK(p->given == (before.given | (1ULL << *key)));
	d = &lunq_keys[*key];
	klen = strlen(d->name);
	FUZZ_CHECK(colon == word + klen && !strncmp(word, d->name, klen));
	val = colon + 1;
	before.val[*key] = p->val[*key];
	before.given = p->given;
	if (d->type == LUNQ_T_NAME) {
		FUZZ_CHECK(!strcmp(p->pool, val));
		memcpy(before.pool, p->pool, sizeof(before.pool));
	}
	FUZZ_CHECK(!memcmp(p, &before, sizeof(before)));
	fuzz_check_value(*key, p->val[*key], p->pool);
	switch (d->type) {
	case LUNQ_T_UINT:
	case LUNQ_T_POW2:
		FUZZ_CHECK(fuzz_all_digits(val));
		FUZZ_CHECK(strtoull(val, NULL, 10) == p->val[*key]);
		break;
	case LUNQ_T_ENUM:
		FUZZ_CHECK(!strcmp(val, d->names[p->val[*key]]));
		break;
	case LUNQ_T_NAME:
		break;
	}

	/* the value as status prints it parses back to the same value */
	FUZZ_CHECK(lunq_policy_value(p, *key, buf, sizeof(buf)) <
		   (int)sizeof(buf));
	snprintf(w2, sizeof(w2), "%s:%s", d->name, buf);
	lunq_keys_init(&q);
	FUZZ_CHECK(lunq_parse_word(&q, w2, &s2, &k2) == LUNQ_ARG_OK);
	FUZZ_CHECK(k2 == *key && q.val[k2] == p->val[k2]);
	return e;
}

/* lunq_policy_check() on @p: NULL, or a message; NULL only when the
 * rules of dm-lunq.rst hold.
 */
static const char *fuzz_policy_check(const struct lunq_keys *p)
{
	const char *msg = lunq_policy_check(p);
	const u32 *v = p->val;

	if (msg) {
		FUZZ_CHECK(*msg);
		return msg;
	}
	FUZZ_CHECK(!v[LUNQ_REACTION] || v[LUNQ_QDEPTH]);
	FUZZ_CHECK(!(p->given & (1U << LUNQ_POOL_DEPTH)) ||
		   (p->given & (1U << LUNQ_POOL)));
	FUZZ_CHECK(!v[LUNQ_FOREIGN] || v[LUNQ_LUN_DEPTH] ||
		   (p->given & (1U << LUNQ_POOL)));
	return NULL;
}

/*
 * lunq_policy_format() round trip: the words it prints (TABLE status, the
 * sysfs "table" file) parse back, through lunq_split_words(), into the
 * same policy; a short buffer gets whole words only, never an overflow.
 */
static void fuzz_check_format(const struct lunq_keys *p, size_t shortlen)
{
	char full[LUNQ_POLICY_MAX], *argv[FUZZ_MAX_WORDS], *small;
	struct lunq_keys q;
	unsigned int n, ns, i, k;
	enum lunq_key key;
	u64 seen = 0;
	int argc;

	n = lunq_policy_format(p, full, sizeof(full));
	FUZZ_CHECK(n == (unsigned int)__builtin_popcountll(p->given));
	FUZZ_CHECK(strlen(full) < sizeof(full));

	/* exactly @shortlen bytes, so ASan sees any write past them */
	small = malloc(shortlen ? shortlen : 1);
	if (!small)
		abort();
	ns = lunq_policy_format(p, small, shortlen);
	if (shortlen) {
		size_t sl = strlen(small);

		FUZZ_CHECK(sl < shortlen && ns <= n);
		FUZZ_CHECK(!strncmp(small, full, sl));
		/* whole words: @ns of them, cut at a separator */
		FUZZ_CHECK(sl ? full[sl] == '\0' || full[sl] == ' ' : !ns);
		for (i = 0; i < sl; i++)
			if (small[i] == ' ')
				ns--;
		FUZZ_CHECK(ns == (sl ? 1 : 0));
	} else {
		FUZZ_CHECK(ns == 0);
	}
	free(small);

	argc = lunq_split_words(full, argv, FUZZ_MAX_WORDS);
	FUZZ_CHECK(argc == (int)n);
	lunq_keys_init(&q);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(lunq_parse_word(&q, argv[i], &seen, &key) ==
			   LUNQ_ARG_OK);
	FUZZ_CHECK(q.given == p->given);
	for (k = 0; k < LUNQ_NR_KEYS; k++)
		if (p->given & (1ULL << k))
			FUZZ_CHECK(q.val[k] == p->val[k]);
	FUZZ_CHECK(!strcmp(q.pool, p->pool));
}

#endif /* LUNQ_FUZZ_ARGS_COMMON_H */
