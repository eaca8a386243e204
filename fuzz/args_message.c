// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: live policy changes, the "set" message path of
 * kmod/lunq_args.c.  The first line of the input is a table line (words
 * split at blanks, parsed as the constructor does; a refused table leaves
 * the defaults); every further line is a "set" line as sysfs "table" and
 * netlink SET get it: lunq_split_words(), then every word parsed into a
 * copy of the policy, table-only keys refused, the rules between keys
 * checked, and the copy kept only when all of that passed
 * (lunq_set_words() in kmod/lunq_core.c).
 */
#include "args_common.h"

static bool fuzz_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * lunq_split_words() on a copy of @line, against a plain reference
 * tokenizer: the same words, in order, or -E2BIG when there are more
 * than @max.  Returns the word count (or -E2BIG) and fills @argv with
 * pointers into @line, split in place.
 */
static int fuzz_split(char *line, char **argv, unsigned int max)
{
	char *orig = strdup(line), *s;
	unsigned int ref = 0, i;
	size_t len = strlen(line);
	int n;

	if (!orig)
		abort();
	n = lunq_split_words(line, argv, max);
	for (s = orig; *s; ) {
		size_t w;

		while (fuzz_blank(*s))
			s++;
		if (!*s)
			break;
		w = strcspn(s, " \t\n");
		if (ref < max && n >= 0) {
			FUZZ_CHECK(ref < (unsigned int)n);
			FUZZ_CHECK(argv[ref] == line + (s - orig));
			FUZZ_CHECK(strlen(argv[ref]) == w &&
				   !memcmp(argv[ref], s, w));
		}
		ref++;
		s += w;
	}
	if (ref > max)
		FUZZ_CHECK(n == -E2BIG);
	else
		FUZZ_CHECK(n == (int)ref);
	for (i = 0; n > 0 && i < (unsigned int)n; i++)
		FUZZ_CHECK(argv[i] >= line && argv[i] < line + len);
	free(orig);
	return n;
}

/* One "set" line applied to *@p as lunq_set_words() does; true if kept. */
static bool fuzz_set(struct lunq_keys *p, char *line)
{
	char *argv[FUZZ_MAX_WORDS];
	struct lunq_keys np = *p;
	u64 seen = 0;
	int argc, i;

	argc = fuzz_split(line, argv, FUZZ_MAX_WORDS);
	if (argc <= 0)
		return false;	/* too many words / no key:value given */
	for (i = 0; i < argc; i++) {
		enum lunq_key key;

		if (fuzz_parse_word(&np, argv[i], &seen, &key))
			return false;
		fuzz_check_policy(&np);
		if (lunq_key_table_only(key)) {
			const char *msg = lunq_table_only_error(key);

			FUZZ_CHECK(msg && !strncmp(msg, lunq_key_name(key),
						   strlen(lunq_key_name(key))));
			return false;
		}
	}
	if (fuzz_policy_check(&np))
		return false;
	*p = np;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_strndup(data, size), *line, *next;
	struct lunq_keys p, table;
	unsigned int k;

	lunq_keys_init(&p);
	for (line = buf; line; line = next) {
		next = memchr(line, '\n', size - (line - buf));
		if (next)
			*next++ = '\0';
		if (line == buf) {
			/* the table line: all or nothing, rules checked */
			struct lunq_keys np = p;
			char *argv[FUZZ_MAX_WORDS];
			u64 seen = 0;
			int argc = fuzz_split(line, argv, FUZZ_MAX_WORDS);
			int i;

			for (i = 0; i < argc; i++) {
				enum lunq_key key;

				if (fuzz_parse_word(&np, argv[i], &seen, &key))
					break;
			}
			if (argc >= 0 && i == argc && !fuzz_policy_check(&np))
				p = np;
			table = p;
			continue;
		}
		fuzz_set(&p, line);
		fuzz_check_policy(&p);
		FUZZ_CHECK(!lunq_policy_check(&p));
		/* a message never changes a table-only key nor forgets one */
		FUZZ_CHECK((p.given & table.given) == table.given);
		for (k = 0; k < LUNQ_NR_KEYS; k++) {
			if (!lunq_key_table_only(k))
				continue;
			FUZZ_CHECK(p.val[k] == table.val[k]);
			FUZZ_CHECK((p.given ^ table.given) & (1ULL << k) ? 0 : 1);
		}
		FUZZ_CHECK(!strcmp(p.pool, table.pool));
	}
	fuzz_check_format(&p, size ? data[size - 1] : 0);
	free(buf);
	return 0;
}
