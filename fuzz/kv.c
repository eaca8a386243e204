// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: lunqctl's policy arguments, "key=value" or
 * "key:value" (ctl/kv.c: lq_kv_normalize(), lq_kv_words()).  Input: byte
 * 0 picks the mode (create or set) and byte 1 a short output length; the
 * rest, split at NUL and newline, is the argv.
 * LINK: ctl/kv.c kmod/lunq_args.c
 */
#include "fuzz.h"
#include "kv.h"
#include "lunq_args.h"

#define MAX_ARGS	64

/* lq_kv_normalize() against its spec: the first '=' or ':' becomes ':'. */
static void check_normalize(const char *arg, size_t outlen)
{
	char *out = malloc(outlen);
	size_t n = strcspn(arg, "=:"), len = strlen(arg);
	int rc;

	if (!out)
		abort();
	rc = lq_kv_normalize(arg, out, outlen);
	if (!n || !arg[n] || len >= outlen) {
		FUZZ_CHECK(rc == -1);
	} else {
		FUZZ_CHECK(rc == 0);
		FUZZ_CHECK(strlen(out) == len && out[n] == ':');
		FUZZ_CHECK(!memcmp(out, arg, n) &&
			   !strcmp(out + n + 1, arg + n + 1));
	}
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS], *out, *err, *copy, *w, *save = NULL;
	enum lq_kv_mode mode;
	size_t outlen, errlen;
	struct lunq_keys p;
	u64 seen = 0;
	int argc, rc, i;

	if (size < 2)
		return 0;
	mode = data[0] & 1 ? LQ_KV_LIVE : LQ_KV_TABLE;
	/* the callers' LUNQ_POLICY_MAX, or a short one (1..255) */
	outlen = data[1] ? data[1] : LUNQ_POLICY_MAX;
	errlen = data[0] & 2 ? 1 + (data[0] >> 2) : 256;
	buf = fuzz_strndup(data + 2, size - 2);
	argc = fuzz_words(buf, size - 2, argv, MAX_ARGS);

	for (i = 0; i < argc; i++) {
		check_normalize(argv[i], outlen);
		check_normalize(argv[i], LUNQ_POLICY_MAX);
	}

	/* exact sizes, so ASan sees any write past them */
	out = malloc(outlen);
	err = malloc(errlen);
	if (!out || !err)
		abort();
	memset(err, 0, errlen);
	rc = lq_kv_words(argc, argv, mode, out, outlen, err, errlen);
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc) {
		FUZZ_CHECK(strnlen(err, errlen) < errlen);
		FUZZ_CHECK(errlen == 1 || *err);
		goto done;
	}
	FUZZ_CHECK(strnlen(out, outlen) < outlen);
	/* the output: one valid kernel word per argument, in order */
	copy = strdup(out);
	if (!copy)
		abort();
	lunq_keys_init(&p);
	i = 0;
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char norm[LUNQ_POLICY_MAX];
		enum lunq_key k;

		FUZZ_CHECK(i < argc);
		FUZZ_CHECK(!lq_kv_normalize(argv[i], norm, sizeof(norm)));
		FUZZ_CHECK(!strcmp(w, norm));
		FUZZ_CHECK(lunq_parse_word(&p, w, &seen, &k) == LUNQ_ARG_OK);
		if (mode == LQ_KV_LIVE)
			FUZZ_CHECK(!lunq_key_table_only(k));
		i++;
	}
	FUZZ_CHECK(i == argc);
	if (mode == LQ_KV_TABLE)
		FUZZ_CHECK(!lunq_policy_check(&p));
	free(copy);
done:
	free(out);
	free(err);
	free(buf);
	return 0;
}
