// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the optional arguments of the dm-lunq table line
 * (kmod/lunq_args.c, as lunq_parse_opts() in kmod/lunq_target.c and
 * lunq_parse_words() in kmod/lunq_core.c use it).  The input is split at NUL and newline into
 * the argv device-mapper hands over (any other byte, blanks included, may
 * be in a word); the first byte sets the length of a short buffer for
 * lunq_policy_format().
 */
#include "args_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[FUZZ_MAX_WORDS];
	struct lunq_keys p;
	size_t shortlen = size ? data[0] : 0;
	u64 seen = 0;
	int argc, i;

	buf = fuzz_strndup(data, size);
	argc = fuzz_words(buf, size, argv, FUZZ_MAX_WORDS);
	lunq_keys_init(&p);
	fuzz_check_policy(&p);
	/*
	 * The kernel stops at the first refused word; going on checks that a
	 * refusal really left nothing behind for the next word to trip on.
	 */
	for (i = 0; i < argc; i++) {
		enum lunq_key key;

		fuzz_parse_word(&p, argv[i], &seen, &key);
		fuzz_check_policy(&p);
	}
	FUZZ_CHECK(seen == p.given);
	fuzz_policy_check(&p);
	fuzz_check_format(&p, shortlen);
	free(buf);
	return 0;
}
