// SPDX-License-Identifier: GPL-2.0
/*
 * lunqsim's native BPF policies (bpf_policy.h): a .bpf.c built by
 * sim/bpf/build-policy.sh into a shared object, dlopen()ed afresh for
 * every run.  The views are the .bpf.h's structs, filled from the
 * simulator's window as kmod/lunq_window.c fills the kernel's; each
 * answer is clamped to min..max and counted as kmod/lunq_pol.c does.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bpf/lunqsim_bpf.h"
#include "lunq_policy.bpf.h"
#include "bpf_policy.h"

#define BPOL_MAX	8	/* policies in one --policies */

static struct {
	char so[PATH_MAX];
	char name[LUNQ_POL_NAME];
} pols[BPOL_MAX];
static int npols;
/* the device a callback is about: lunqsim's one */
static const struct lunq_pol_dev dev = { .id = 1, .name = "lunqsim" };
static char tmpdir[] = "/tmp/lunqsim-bpf.XXXXXX";
/* a callback running (trap()): where SIGFPE returns to */
static sigjmp_buf in_call;
static volatile sig_atomic_t calling;
static bool have_tmp;

static void rm_tmp(void)
{
	int i;

	for (i = 0; i < npols; i++)
		if (!strncmp(pols[i].so, tmpdir, strlen(tmpdir)))
			unlink(pols[i].so);
	rmdir(tmpdir);
}

static bool ends(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && !strcmp(s + n - m, suf);
}

/* sim/bpf/build-policy.sh SRC OUT, next to this executable */
static int build(const char *src, const char *out)
{
	char exe[PATH_MAX], script[PATH_MAX + 32], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int st;
	pid_t pid;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	*slash = 0;
	snprintf(script, sizeof(script), "%s/bpf/build-policy.sh", exe);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", script, src, out, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static void *open_so(const char *so, const struct lunq_policy_ops **ops)
{
	void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	const void *(*get)(void);

	if (!dl)
		return NULL;
	get = (const void *(*)(void))dlsym(dl, "lunqsim_bpf_ops");
	*ops = get ? get() : NULL;
	if (!*ops) {
		dlclose(dl);
		return NULL;
	}
	return dl;
}

int bpol_load(const char *arg, const char **name)
{
	const struct lunq_policy_ops *ops;
	char *so;
	void *dl;
	int i = npols;

	if (npols == BPOL_MAX) {
		fprintf(stderr, "lunqsim: %s: at most %d BPF policies\n", arg, BPOL_MAX);
		return -1;
	}
	so = pols[i].so;
	if (ends(arg, ".so")) {
		if (!realpath(arg, so)) {
			fprintf(stderr, "lunqsim: %s: %s\n", arg, strerror(errno));
			return -1;
		}
	} else {
		if (access(arg, R_OK)) {
			fprintf(stderr, "lunqsim: %s: %s\n", arg, strerror(errno));
			return -1;
		}
		if (!have_tmp) {
			if (!mkdtemp(tmpdir)) {
				fprintf(stderr, "lunqsim: no temporary directory: %s\n", strerror(errno));
				return -1;
			}
			have_tmp = true;
			atexit(rm_tmp);
		}
		snprintf(so, PATH_MAX, "%s/%d.so", tmpdir, i);
		if (build(arg, so)) {
			fprintf(stderr, "lunqsim: %s: the native build failed (the compiler's words above; doc/lunqsim.md, \"Your own policy\", says what the shim covers)\n",
				arg);
			return -1;
		}
	}
	dl = open_so(so, &ops);
	if (!dl) {
		fprintf(stderr, "lunqsim: %s: not a policy built by sim/bpf/build-policy.sh (%s)\n",
			arg, dlerror() ?: "no LUNQ_POLICY()");
		return -1;
	}
	snprintf(pols[i].name, sizeof(pols[i].name), "%s", ops->name);
	dlclose(dl);
	npols++;
	*name = pols[i].name;
	return i;
}

int bpol_find(const char *name)
{
	int i;

	for (i = 0; i < npols; i++)
		if (!strcmp(pols[i].name, name))
			return i;
	return -1;
}

static void env_printk(void *ctx, const char *fmt, va_list ap)
{
	struct bpol_run *r = ctx;
	size_t n = strlen(fmt);

	if (!r->log)
		return;
	fprintf(r->log, "%.3f printk: ", r->now / 1e9);
	vfprintf(r->log, fmt, ap);
	if (!n || fmt[n - 1] != '\n')
		fputc('\n', r->log);
}

/* splitmix64 of the run's seed: the same run, the same numbers */
static uint32_t env_prandom(void *ctx)
{
	struct bpol_run *r = ctx;
	uint64_t z = (r->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static uint64_t env_ktime(void *ctx)
{
	return ((struct bpol_run *)ctx)->now;
}

/*
 * A BPF program's integer division by zero gives 0 (and its modulo the
 * dividend): the verifier lets it, the kernel runs on.  Natively it traps
 * (SIGFPE), and the run cannot go on as the kernel's would: the
 * simulator stops with what happened and where, exit 3.
 */
static void on_fpe(int sig)
{
	if (calling)
		siglongjmp(in_call, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void trapped(const struct bpol_run *r, const char *hook)
{
	const struct lunq_policy_ops *ops = r->ops;

	calling = 0;
	fprintf(stderr, "lunqsim: policy %s: integer division by zero in its %s callback at %.3f s: "
		"in BPF it gives 0 (x %% 0 gives x) and the policy goes on, natively it traps; "
		"test the divisor to run it here (doc/lunqsim.md, \"Your own policy\")\n",
		ops->name, hook, r->now / 1e9);
	exit(3);
}

int bpol_open(struct bpol_run *r, int i, uint64_t seed, FILE *log,
	      uint32_t min, uint32_t max)
{
	struct lunqsim_bpf_env *env = (struct lunqsim_bpf_env *)r->env, **slot;
	const struct lunq_policy_ops *ops;

	_Static_assert(sizeof(r->env) >= sizeof(*env), "bpol_run.env");
	memset(r, 0, sizeof(*r));
	r->dl = open_so(pols[i].so, &ops);
	if (!r->dl)
		return -1;
	slot = dlsym(r->dl, "lunqsim_bpf_env");
	if (!slot) {
		bpol_close(r);
		return -1;
	}
	r->ops = ops;
	r->log = log;
	r->rng = seed;
	r->min = min;
	r->max = max;
	env->ctx = r;
	env->printk = env_printk;
	env->prandom = env_prandom;
	env->ktime = env_ktime;
	*slot = env;
	signal(SIGFPE, on_fpe);
	return 0;
}

/* kmod/lunq_pol.c's lunq_pol_answer_as() */
static uint32_t answer(struct bpol_run *r, const char *hook, uint32_t depth, uint32_t d,
		       const struct bpol_window *w)
{
	uint32_t c = d < r->min ? r->min : d > r->max ? r->max : d;

	r->answers++;
	if (c != d) {
		if (!d)
			r->zero++;
		else if (c > d)
			r->below++;
		else
			r->above++;
	}
	/* the window's figures as the trace event lunq_auto_window has them */
	if (r->log && w)
		fprintf(r->log, "%.3f lunqsim: %s ns %llu ios %llu p99 %llu mean %llu wait %llu qfull %llu depth %u answer %u applied %u\n",
			r->now / 1e9, hook, (unsigned long long)w->ns,
			(unsigned long long)w->ios, (unsigned long long)w->svc_p99_ns,
			(unsigned long long)w->svc_mean_ns, (unsigned long long)w->wait_ns,
			(unsigned long long)w->qfull, depth, d, c);
	else if (r->log)
		fprintf(r->log, "%.3f lunqsim: %s depth %u answer %u applied %u\n",
			r->now / 1e9, hook, depth, d, c);
	return c;
}

static void view(struct lunq_pol_view *o, const struct bpol_view *v)
{
	o->now = v->now;
	o->depth = v->depth;
	o->min = v->min;
	o->max = v->max;
	o->in_transport = v->in_transport;
	o->qfull = v->qfull;
}

uint32_t bpol_start(struct bpol_run *r, const struct bpol_view *v)
{
	const struct lunq_policy_ops *ops = r->ops;
	struct lunq_pol_view o;
	uint32_t d;

	r->now = v->now;
	if (!ops->start)	/* no start: the depth stays, nothing counted */
		return v->depth < r->min ? r->min : v->depth > r->max ? r->max : v->depth;
	view(&o, v);
	if (sigsetjmp(in_call, 1))
		trapped(r, "start");
	calling = 1;
	d = ops->start(&dev, &o);
	calling = 0;
	return answer(r, "start", v->depth, d, NULL);
}

bool bpol_has_window(const struct bpol_run *r)
{
	return ((const struct lunq_policy_ops *)r->ops)->window;
}

uint32_t bpol_window(struct bpol_run *r, const struct bpol_window *w)
{
	const struct lunq_policy_ops *ops = r->ops;
	struct lunq_pol_window o;
	uint32_t d;

	r->now = w->v.now;
	view(&o.v, &w->v);
	o.ns = w->ns;
	o.ios = w->ios;
	o.iops = w->iops;
	o.svc_mean_ns = w->svc_mean_ns;
	o.svc_p99_ns = w->svc_p99_ns;
	o.svc_sum_ns = w->svc_sum_ns;
	o.wait_ns = w->wait_ns;
	o.qfull = w->qfull;
	o.svc_min_ns = w->svc_min_ns;
	o.svc_p50_ns = w->svc_p50_ns;
	o.inflight_x1000 = w->inflight_x1000;
	o.lunq_wait_mean_ns = w->lunq_wait_mean_ns;
	o.lunq_wait_p99_ns = w->lunq_wait_p99_ns;
	o.pool_depth = w->pool_depth;
	o.pool_busy = w->pool_busy;
	o.pool_share = w->pool_share;
	o.lunq_waiting = w->lunq_waiting;
	o.lunq_wait_oldest_ns = w->lunq_wait_oldest_ns;
	o.run_ios = w->run_ios;
	o.run_svc_p99_ns = w->run_svc_p99_ns;
	if (sigsetjmp(in_call, 1))
		trapped(r, "window");
	calling = 1;
	d = ops->window(&dev, &o);
	calling = 0;
	return answer(r, "window", w->v.depth, d, w);
}

void bpol_close(struct bpol_run *r)
{
	if (r->dl)
		dlclose(r->dl);	/* the next run's dlopen() starts it afresh */
	r->dl = NULL;
	r->ops = NULL;
}
