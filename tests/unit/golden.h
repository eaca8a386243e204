/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Golden-output helpers of the userspace unit tests: capture what a print
 * function writes, compare it with tests/unit/golden/NAME.
 * LUNQ_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing.
 */
#ifndef LUNQ_TEST_GOLDEN_H
#define LUNQ_TEST_GOLDEN_H

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Output of a print call, as a malloc'ed string. */
#define CAPTURE(buf, call) do {					\
	size_t __len;							\
	FILE *f = open_memstream(&(buf), &__len);			\
	call;								\
	fclose(f);							\
} while (0)

static char *golden_path(const char *name)
{
	const char *src = __FILE__	/* this header, in tests/unit/ */, *slash = strrchr(src, '/');
	int dl = slash ? (int)(slash - src) : 1;
	char *p;

	if (asprintf(&p, "%.*s/golden/%s", dl, slash ? src : ".", name) < 0)
		exit(2);
	return p;
}

/* Compare @out with golden file @name (or rewrite it). */
static int __attribute__((unused)) golden(const char *name, const char *out)
{
	char *path = golden_path(name), *want = NULL;
	const char *upd = getenv("LUNQ_UPDATE_GOLDEN");
	size_t len = 0;
	FILE *f;
	int same;

	if (upd && !strcmp(upd, "1")) {
		f = fopen(path, "w");
		if (!f || fputs(out, f) < 0 || fclose(f)) {
			fprintf(stderr, "# cannot write %s\n", path);
			free(path);
			return 0;
		}
		printf("# rewrote %s\n", path);
		free(path);
		return 1;
	}
	f = fopen(path, "r");
	if (!f) {
		printf("# cannot read %s\n", path);
		free(path);
		return 0;
	}
	if (getdelim(&want, &len, '\0', f) < 0) {
		free(want);
		want = strdup("");
	}
	fclose(f);
	same = !strcmp(want, out);
	if (!same)
		printf("# %s differs; got:\n%s\n", path, out);
	free(want);
	free(path);
	return same;
}

#endif /* LUNQ_TEST_GOLDEN_H */
