// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl and the lunqbench program (bench.h): finding it, running it as
 * a child (a sweep's points, its --list-options), and the options of its
 * table that sweep and tune take before "--".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "bench.h"
#include "exit.h"

#define OUT_MAX		(1 << 20)	/* output kept (the tail) */
#define LIST_TIMEOUT_S	10		/* lunqbench --list-options */

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- running it ------------------------------------------------------------ */

static void keep(struct lq_run *r, const char *buf, size_t n)
{
	if (r->len + n > OUT_MAX) {
		size_t drop = r->len + n - OUT_MAX;

		if (drop > r->len)
			drop = r->len;
		memmove(r->out, r->out + drop, r->len - drop);
		r->len -= drop;
		if (n > OUT_MAX) {
			buf += n - OUT_MAX;
			n = OUT_MAX;
		}
	}
	memcpy(r->out + r->len, buf, n);
	r->len += n;
	r->out[r->len] = '\0';
}

int lq_bench_run(char *const *argv, bool verbose, double timeout_s,
		 volatile sig_atomic_t *stop, struct lq_run *r)
{
	pid_t pid, parent = getpid();
	int pfd[2], killed = 0;
	double t0 = now_mono(), kill_at = 0;
	char buf[4096];
	bool eof = false;

	memset(r, 0, sizeof(*r));
	r->out = malloc(OUT_MAX + 1);
	if (!r->out)
		return -1;
	r->out[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		int null = open("/dev/null", O_RDONLY);

		signal(SIGPIPE, SIG_DFL);
		if (null >= 0)
			dup2(null, STDIN_FILENO);	/* not in the terminal's group */
		dup2(pfd[1], STDOUT_FILENO);
		if (!verbose)
			dup2(pfd[1], STDERR_FILENO);
		execv(argv[0], argv);
		dprintf(pfd[1], "lunqctl: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides, whichever runs first */
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		double now = now_mono();
		int rc;

		if (stop && *stop && !killed) {
			r->interrupted = true;
			kill(-pid, SIGTERM);
			killed = 1;
			kill_at = now + 5;
		} else if (!killed && timeout_s > 0 && now - t0 > timeout_s) {
			r->timed_out = true;
			kill(-pid, SIGTERM);
			killed = 1;
			kill_at = now + 5;
		} else if (killed == 1 && now > kill_at) {
			kill(-pid, SIGKILL);
			killed = 2;
		}
		if (eof) {
			pid_t w = waitpid(pid, &r->status, killed ? WNOHANG : 0);

			if (w == pid)
				break;
			if (w < 0 && errno != EINTR) {
				r->status = 0;
				break;
			}
			if (w == 0)
				usleep(100000);
			continue;
		}
		rc = poll(&p, 1, 200);
		if (rc < 0 && errno != EINTR)
			eof = true;
		if (rc > 0) {
			ssize_t k = read(pfd[0], buf, sizeof(buf));

			if (k > 0)
				keep(r, buf, (size_t)k);
			else if (k == 0 || (errno != EINTR && errno != EAGAIN))
				eof = true;
		}
	}
	close(pfd[0]);
	r->exec_failed = WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127 &&
			 strstr(r->out, "lunqctl: cannot run ");
	return 0;
}

/* ---- finding it ------------------------------------------------------------- */

/* lq_bench() failed: @rc and the message */
static int nobench(struct lq_bench *b, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, sizeof(b->err), fmt, ap);
	va_end(ap);
	b->rc = rc;
	return rc;
}

static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* lq_bench()'s search: LQ_OK, or an exit code and @b->err */
static int find_bench(struct lq_bench *b)
{
	char *buf = b->path;
	size_t len = sizeof(b->path);
	const char *env = getenv("LUNQBENCH"), *path = getenv("PATH");
	char self[PATH_MAX - 32], *slash;
	ssize_t n;

	if (env && env[0]) {
		if (!executable(env))
			return nobench(b, LQ_ENOTFOUND, "LUNQBENCH=%s is not an executable file",
				       env);
		snprintf(buf, len, "%s", env);
		return LQ_OK;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/../bench/lunqbench", self);
			if (executable(buf))
				return LQ_OK;
			snprintf(buf, len, "%s/lunqbench", self);
			if (executable(buf))
				return LQ_OK;
		}
	}
	while (path && *path) {
		size_t l = strcspn(path, ":");

		snprintf(buf, len, "%.*s/lunqbench", (int)l, l ? path : ".");
		if (executable(buf))
			return LQ_OK;
		path += l;
		if (*path)
			path++;
	}
	return nobench(b, LQ_ENOTFOUND,
		       "lunqbench not found: not in $LUNQBENCH, next to lunqctl (../bench/lunqbench) or on PATH; build it with 'make -C bench'");
}

/* ---- its options ------------------------------------------------------------- */

/*
 * "--NAME\t-L\tMETAVAR\tSECTION\tsweep" lines (bench/options.c,
 * --list-options): keep the options marked "sweep".
 */
static int read_options(struct lq_bench *b)
{
	char *argv[] = { b->path, "--list-options", NULL };
	struct lq_run r;
	char *line, *save = NULL;

	if (lq_bench_run(argv, false, LIST_TIMEOUT_S, NULL, &r)) {
		free(r.out);
		return nobench(b, LQ_EFAIL, "cannot run %s: %s", b->path, strerror(errno));
	}
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		free(r.out);
		return nobench(b, LQ_EFAIL,
			       "%s --list-options failed: not lunqbench, or an old one?",
			       b->path);
	}
	for (line = strtok_r(r.out, "\n", &save); line && b->n < LQ_BENCH_OPTS_MAX;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *fs = NULL;
		int k;

		for (k = 0; k < 5; k++)
			f[k] = strtok_r(k ? NULL : line, "\t", &fs);
		if (!f[4] || strcmp(f[4], "sweep") || strncmp(f[0], "--", 2))
			continue;
		snprintf(b->dashed[b->n], sizeof(b->dashed[0]), "%s", f[0]);
		snprintf(b->metavar[b->n], sizeof(b->metavar[0]), "%s", f[2]);
		b->opt[b->n].name = b->dashed[b->n] + 2;
		b->opt[b->n].metavar = strcmp(f[2], "-") ? b->metavar[b->n] : NULL;
		b->n++;
	}
	free(r.out);
	return LQ_OK;
}

const struct lq_bench *lq_bench(void)
{
	static struct lq_bench b;
	static bool done;

	if (!done && !find_bench(&b))
		read_options(&b);
	done = true;
	return &b;
}
