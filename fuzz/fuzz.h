/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the libFuzzer targets in fuzz/ (see fuzz/README).
 * FUZZ_CHECK() is an invariant of the code under test: when it does not
 * hold the target prints it and traps, which libFuzzer reports as a crash.
 */
#ifndef LUNQ_FUZZ_H
#define LUNQ_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant broken: %s\n", \
				__FILE__, __LINE__, #cond);		\
			__builtin_trap();				\
		}							\
	} while (0)

/* A malloc'ed NUL-terminated copy of the input (NUL bytes kept inside). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Split @buf (@size bytes, a writable copy with a NUL after them) in place
 * at NUL and '\n' into at most @max words (empty words dropped): the argv
 * device-mapper or a shell would hand over, every other byte allowed.
 */
static inline int fuzz_words(char *buf, size_t size, char **argv, int max)
{
	size_t i, start = 0;
	int n = 0;

	for (i = 0; i <= size && n < max; i++) {
		if (i < size && buf[i] != '\0' && buf[i] != '\n')
			continue;
		buf[i] = '\0';
		if (i > start)
			argv[n++] = buf + start;
		start = i + 1;
	}
	return n;
}

#endif /* LUNQ_FUZZ_H */
