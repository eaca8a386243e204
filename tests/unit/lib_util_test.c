// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of lib/util.c, the helpers lunqctl and lunqbench
 * share: lq_error's "PROG: message" and its return value, lq_die's exit
 * status, lq_xcalloc's memory (zeroed, never NULL, even for 0 bytes).
 * LINK: lib/util.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "util.h"

#define TAP_PREFIX "util-"
#include "tap.h"

const char *lq_prog = "lunqtest";

/* stderr of @fn(@arg) in @buf; its exit status when it exits, else -1 */
static int run(void (*fn)(int), int arg, char *buf, size_t len)
{
	int pfd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	buf[0] = '\0';
	if (pipe(pfd))
		return -2;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 2);
		fn(arg);
		fflush(stderr);
		_exit(100);
	}
	close(pfd[1]);
	while (got + 1 < len && (n = read(pfd[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(pfd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void error_5(int arg)
{
	_exit(lq_error(arg, "bad %s %d", "thing", 42) == arg ? 5 : 6);
}

static void die(int arg)
{
	lq_die(arg, "gone: %s", "now");
}

int main(void)
{
	char buf[256];
	unsigned char *p;
	int i, zero = 1;

	ok(run(error_5, 7, buf, sizeof(buf)) == 5 &&
	   !strcmp(buf, "lunqtest: bad thing 42\n"), "error-message-and-code");
	ok(run(die, 4, buf, sizeof(buf)) == 4 && !strcmp(buf, "lunqtest: gone: now\n"),
	   "die-exits-with-code");
	ok(run(die, 0, buf, sizeof(buf)) == 0, "die-exit-0");
	p = lq_xcalloc(1000, 3);
	for (i = 0; i < 3000; i++)
		zero &= !p[i];
	ok(p && zero, "xcalloc-zeroed");
	free(p);
	p = lq_xcalloc(0, 0);
	ok(p != NULL, "xcalloc-zero-bytes");
	free(p);
	ok(lq_nomem_status == 1, "nomem-status-default");
	return tap_exit();
}
