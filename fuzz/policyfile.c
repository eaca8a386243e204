// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: policy files, lunq.conf(5) (ctl/policyfile.c).  The
 * input is the file's contents, read through fmemopen(); a file that
 * parses is then matched against a few device identities, resolved and
 * diffed (lq_pf_resolve(), lq_pf_changes()) as "lunqctl apply" does.  A
 * comment line "#current WORDS" (a comment to the parser) gives the
 * current policy of the device for lq_pf_changes(), as the kernel would
 * report it -- or not: it is parsed too, so any text goes.
 * LINK: ctl/policyfile.c ctl/kv.c kmod/lunq_args.c
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include "policyfile.h"

#define PATH "fuzz.conf"

static const struct lq_ident idents[] = {
	{ .name = "lq0", .dm = "lq0", .lower = "dm-0", .vendor = "NETAPP",
	  .model = "LUN C-Mode", .serial = "80SEtF0ErzkQ",
	  .wwn = "naa.600a098038303053453f463045727a6b" },
	{ .name = "slow1", .dm = "slow1", .lower = "sdb",
	  .vendor = "  ATA     ", .model = "ST4000NM0035-1V4107",
	  .serial = "ZC1234", .wwn = "naa.5000c500a1b2c3d4" },
	{ .name = "q@8", .dm = "q", .lower = "nullb0" },
	{ .name = "[*?]\\", .dm = "*", .lower = "?", .vendor = "[",
	  .model = "]", .serial = "\\", .wwn = "\"#" },
	{ .name = "" },		/* nothing known */
};

/* The "path:line: message" lines of a refused file. */
static void check_errs(const char *errs)
{
	const char *s = errs, *nl;
	int lines = 0;

	FUZZ_CHECK(errs && *errs);
	FUZZ_CHECK(errs[strlen(errs) - 1] == '\n');
	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		FUZZ_CHECK(nl);
		FUZZ_CHECK(!strncmp(s, PATH ":", strlen(PATH ":")));
		lines++;
	}
	FUZZ_CHECK(lines >= 1 && lines <= LQ_PF_MAX_ERRORS + 1);
}

/* Words of lq_pf_resolve(): valid live words, one per key, key order. */
static void check_words(const struct lq_pf_word *w, int n, int max)
{
	struct lunq_keys p;
	u64 seen = 0;
	int i;

	FUZZ_CHECK(n >= 0 && n <= max && n <= LUNQ_NR_KEYS);
	lunq_keys_init(&p);
	for (i = 0; i < n; i++) {
		enum lunq_key k;
		char val[LQ_PF_WORD_MAX];
		const char *colon;

		FUZZ_CHECK(strnlen(w[i].word, LQ_PF_WORD_MAX) < LQ_PF_WORD_MAX);
		FUZZ_CHECK(lunq_parse_word(&p, w[i].word, &seen, &k) ==
			   LUNQ_ARG_OK);
		FUZZ_CHECK(k == w[i].key && !lunq_key_table_only(k));
		FUZZ_CHECK(i == 0 || w[i - 1].key < w[i].key);
		FUZZ_CHECK(w[i].line > 0);
		FUZZ_CHECK(w[i].section && w[i].section[0] == '[' &&
			   w[i].section[strlen(w[i].section) - 1] == ']');
		/* canonical: the value as the kernel prints it */
		lunq_policy_value(&p, k, val, sizeof(val));
		colon = strchr(w[i].word, ':');
		FUZZ_CHECK(colon && !strcmp(colon + 1, val));
	}
}

/* lq_pf_changes(); @valid: @cur is known to parse */
static void check_changes(const char *cur, const struct lq_pf_word *w, int n,
			  bool valid)
{
	struct lq_pf_change ch[LUNQ_NR_KEYS];
	const char *why = "unset";
	int c, i;

	c = lq_pf_changes(cur, w, n, ch, &why);
	FUZZ_CHECK(!why || *why);
	if (!valid && c < 0) {
		FUZZ_CHECK(c == -EINVAL && why);
		return;
	}
	FUZZ_CHECK(c >= 0 && c <= n);	/* @w are valid words */
	for (i = 0; i < c; i++) {
		struct lunq_keys p;
		enum lunq_key k;
		u64 seen = 0;

		FUZZ_CHECK(strcmp(ch[i].old, ch[i].new));
		lunq_keys_init(&p);
		FUZZ_CHECK(lunq_parse_word(&p, ch[i].word, &seen, &k) ==
			   LUNQ_ARG_OK && k == ch[i].key);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lq_pf_word w[LUNQ_NR_KEYS];
	char cur[LUNQ_POLICY_MAX];
	struct lq_pf pf;
	char *errs = (char *)"unset", *copy, *given;
	size_t i, pos;
	FILE *f;
	int rc, n, j;

	/* fmemopen() needs a size of at least 1: an empty file is "\n"-less "" */
	f = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	if (!f)
		return 0;
	rc = lq_pf_parse(&pf, PATH, f, &errs);
	fclose(f);
	copy = fuzz_strndup(data, size);
	given = strstr(copy, "#current ");
	if (given) {
		given += strlen("#current ");
		given[strcspn(given, "\n")] = '\0';
	}
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc) {
		check_errs(errs);
		FUZZ_CHECK(pf.nsec == 0 && pf.sec == NULL);
		free(errs);
		free(copy);
		return 0;
	}
	FUZZ_CHECK(errs == NULL);
	FUZZ_CHECK(pf.nsec >= 0);

	for (i = 0; i < sizeof(idents) / sizeof(idents[0]); i++) {
		n = lq_pf_resolve(&pf, &idents[i], w, LUNQ_NR_KEYS);
		check_words(w, n, LUNQ_NR_KEYS);
		/* what a device with no policy yet would change */
		check_changes("", w, n, true);
		if (given)
			check_changes(given, w, n, false);
		/* a device that has every word already changes nothing */
		cur[0] = '\0';
		for (j = 0, pos = 0; j < n; j++)
			pos += snprintf(cur + pos, sizeof(cur) - pos, "%s%s",
					j ? " " : "", w[j].word);
		FUZZ_CHECK(pos < sizeof(cur));
		{
			struct lq_pf_change ch[LUNQ_NR_KEYS];
			const char *why;

			FUZZ_CHECK(lq_pf_changes(cur, w, n, ch, &why) == 0);
		}
		/* a short output array is respected */
		n = lq_pf_resolve(&pf, &idents[i], w, 1);
		check_words(w, n, 1);
	}
	lq_pf_free(&pf);
	FUZZ_CHECK(pf.nsec == 0 && pf.sec == NULL);
	free(copy);
	return 0;
}
