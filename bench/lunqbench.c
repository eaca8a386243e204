// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench: the load generator of the lunq project.  Targets, jobs,
 * workers, the run loop and main.  The command line is the option table
 * in options.c, the presets are presets.c, what the engines share (run.h)
 * is engine.c.
 * Reference: bench/lunqbench.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "options.h"
#include "busy.h"
#include "lunq_hist.h"

/* its name in messages (liblunq's util.h) */
const char *lq_prog = "lunqbench";

#define LB_VMAP_MAX	(1ULL << 26)	/* verify blocks: 256 GiB */

/* ---- targets ----------------------------------------------------------------- */

static u32 file_dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
#else
	(void)fd;
#endif
	return 512;
}

/*
 * A load that writes to a block device the kernel will not open
 * exclusively (mounted, held by dm or md, a swap area...) would corrupt
 * what uses it: refuse it, naming the reason, unless --force.  The probe
 * is closed at once; a failure other than EBUSY is left to the open.
 */
static void check_not_busy(const struct lb_opts *o, const char *path,
			   const struct stat *st)
{
	char why[512];
	int fd;

	if (o->force)
		return;
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return;
	}
	if (errno != EBUSY)
		return;
	lq_busy_reason("", major(st->st_rdev), minor(st->st_rdev), path, why,
		       sizeof(why));
	lq_die(LB_ETARGET, "%s: refusing to write: %s; --force writes anyway",
	       path, why);
}

static void open_target(const struct lb_opts *o, struct lb_target *t,
			const char *path)
{
	bool writes = o->w.rdpct < 100;
	int flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC |
		(o->buffered ? 0 : O_DIRECT) | (o->dsync ? O_DSYNC : 0);
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->path = path;
	if (stat(path, &st)) {
		if (errno != ENOENT)
			lq_die(LB_ETARGET, "%s: %s", path, strerror(errno));
		if (!o->size)
			lq_die(LB_ETARGET, "%s: no such file or device (a file needs --size to be made)",
			    path);
		t->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (t->fd < 0)
			lq_die(LB_ETARGET, "%s: cannot create: %s", path, strerror(errno));
		close(t->fd);
		if (stat(path, &st))
			lq_die(LB_ETARGET, "%s: %s", path, strerror(errno));
	}
	t->blk = S_ISBLK(st.st_mode);
	if (!t->blk && !S_ISREG(st.st_mode))
		lq_die(LB_ETARGET, "%s: not a block device or regular file", path);
	if (t->blk && writes)
		check_not_busy(o, path, &st);
	if (!t->blk && o->size && (u64)st.st_size < o->size) {
		/* make the file as large as --size */
		int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd < 0 || ftruncate(fd, (off_t)o->size))
			lq_die(LB_ETARGET, "%s: cannot extend to %llu bytes: %s", path,
			    (unsigned long long)o->size, strerror(errno));
		/* best effort: without it the file is sparse */
		(void)posix_fallocate(fd, st.st_size, (off_t)(o->size - (u64)st.st_size));
		close(fd);
	}
	t->fd = open(path, flags);
	if (t->fd < 0) {
		int e = errno;

		if (e == EINVAL && !o->buffered)
			lq_die(LB_ETARGET, "%s: cannot open with O_DIRECT (%s): use --buffered",
			    path, strerror(e));
		lq_die(LB_ETARGET, "%s: cannot open%s: %s", path,
		    writes ? " for writing" : "", strerror(e));
	}
	if (t->blk) {
		u64 sz;
		int lbs;

		if (ioctl(t->fd, BLKGETSIZE64, &sz) || ioctl(t->fd, BLKSSZGET, &lbs))
			lq_die(LB_ETARGET, "%s: cannot get its size: %s", path, strerror(errno));
		t->lbs = (u32)lbs;
		if (o->size > sz)
			lb_usage_error("--size: %llu bytes is more than %s has (%llu)",
				    (unsigned long long)o->size, path,
				    (unsigned long long)sz);
		t->size = o->size ? o->size : sz;
	} else {
		if (fstat(t->fd, &st))
			lq_die(LB_ETARGET, "%s: %s", path, strerror(errno));
		t->lbs = o->buffered ? 512 : file_dio_align(t->fd);
		t->size = o->size ? o->size : (u64)st.st_size;
		if (!t->size)
			lb_usage_error("%s: empty file: give --size", path);
	}
	t->size -= t->size % t->lbs;
	if (!t->size)
		lb_usage_error("%s: smaller than one %u-byte sector", path, t->lbs);
}

/* ---- jobs ---------------------------------------------------------------------- */

static u32 max_bs(const struct lb_workload *w)
{
	u32 m = w->bs_max;

	for (int i = 0; i < w->nbs; i++)
		if (w->bs[i] > m)
			m = w->bs[i];
	return m;
}

static u64 pct_of(u64 size, double pct)
{
	u64 v;

	if (pct >= 100)
		return size;
	v = (u64)((long double)size * pct / 100.0L);
	return v - v % LB_VBLOCK;
}

/* Range of @j on its target: the options', or @lo_pct..@hi_pct when the
 * options have no --range and @preset_range. */
static void resolve_range(const struct lb_opts *o, struct lb_job *j,
			  bool own_pct, double lo_pct, double hi_pct)
{
	struct lb_target *t = j->tgt;
	struct lb_workload *w = &j->w;
	bool pct = own_pct || o->range_pct;

	if (!own_pct) {
		lo_pct = o->range_lo_pct;
		hi_pct = o->range_hi_pct;
	}
	if (pct) {
		w->range_lo = pct_of(t->size, lo_pct);
		w->range_hi = pct_of(t->size, hi_pct);
		/* room for the offset shift at the end */
		if (w->range_hi + w->offset > t->size) {
			w->range_hi = t->size > w->offset ? t->size - w->offset : 0;
			w->range_hi -= w->range_hi % LB_VBLOCK;
		}
	} else {
		w->range_lo = o->range_lo;
		w->range_hi = o->range_hi;
		if (w->range_hi + w->offset > t->size)
			lb_usage_error("--range: %llu-%llu%s is beyond the end of %s (%llu bytes)",
				    (unsigned long long)w->range_lo,
				    (unsigned long long)w->range_hi,
				    w->offset ? " plus --offset" : "", t->path,
				    (unsigned long long)t->size);
	}
	if (w->range_hi <= w->range_lo || w->range_hi - w->range_lo < j->max_bs)
		lb_usage_error("--range: %s leaves %llu bytes of %s, less than one %u-byte IO",
			    own_pct ? "the preset's range" : "the range",
			    (unsigned long long)(w->range_hi > w->range_lo ?
						 w->range_hi - w->range_lo : 0),
			    t->path, j->max_bs);
}

static void check_job(const struct lb_opts *o, const struct lb_job *j)
{
	const char *msg = lb_workload_check(&j->w, j->tgt->size, j->tgt->lbs,
					    !o->buffered);

	if (msg)
		lb_usage_error("%s: %s", j->tgt->path, msg);
}

/* The jobs of a run: the options', at the run's offset (--preset align)
 * or with its one IO size (--preset bs). */
static void make_jobs(struct lb_run *r)
{
	const struct lb_opts *o = r->o;
	int per = o->preset == LB_PRESET_BUBBLE ? 2 : 1;

	r->njobs = r->ntgts * per;
	r->jobs = lq_xcalloc((size_t)r->njobs, sizeof(*r->jobs));
	for (int ti = 0; ti < r->ntgts; ti++) {
		struct lb_job *j = &r->jobs[ti * per];

		j->tgt = &r->tgts[ti];
		j->w = o->w;
		if (o->preset == LB_PRESET_ALIGN)
			j->w.offset = r->offset;
		if (r->bs) {
			j->w.nbs = 1;
			j->w.bs[0] = r->bs;
			j->w.bs_weight[0] = 1;
		}
		j->max_bs = max_bs(&j->w);
		j->arrival = o->iorate > 0 ? o->arrival : LB_ARR_CLOSED;
		/* bursts: N every MS ms on each target */
		j->rate = o->burst ? o->iorate : o->iorate / r->ntgts;
		j->burst = o->burst;
		j->iodepth = o->iodepth;
		j->threads = o->threads;
		j->batch = o->batch;
		j->seed = o->seed + (u64)ti * 1000003ULL * per;
		if (per == 2)
			snprintf(j->name, sizeof(j->name), "stream");
		else if (r->ntgts > 1)
			snprintf(j->name, sizeof(j->name), "%s", j->tgt->path);
		resolve_range(o, j, false, 0, 0);
		check_job(o, j);
		if (per == 2) {
			/* the bubble's far reads: 10/s at random in the first 10% */
			struct lb_job *f = j + 1;
			unsigned int room;

			*f = *j;
			snprintf(f->name, sizeof(f->name), "far");
			f->w.seek_ppm = LB_SEEK_ALL;
			f->w.seek_eof = false;
			f->w.rdpct = 100;
			f->w.skew = LB_SKEW_NONE;
			f->arrival = LB_ARR_FIXED;
			f->rate = 10;
			/*
			 * Room for every far read of the run at once: each
			 * must reach the device's queue on schedule, however
			 * long the ones before it starve there (seed 004: the
			 * bubble is in the driver's queue, not the host's).
			 */
			room = o->elapsed > 0 ? (unsigned int)(f->rate * o->elapsed) + 2 : 64;
			room = room < 16 ? 16 : room > 1024 ? 1024 : room;
			if (o->engine == LB_ENG_URING) {
				f->iodepth = room;
				f->threads = 1;
				f->batch = 1;
			} else {
				f->threads = room < 256 ? room : 256;
			}
			f->seed = j->seed + 1000003ULL;
			resolve_range(o, f, true, 0, 10);
			check_job(o, f);
		}
		if (r->ntgts > 1 && per == 2) {
			char n[48];

			snprintf(n, sizeof(n), "stream %s", j->tgt->path);
			memcpy(j->name, n, sizeof(n));
			snprintf(n, sizeof(n), "far %s", j->tgt->path);
			memcpy(j[1].name, n, sizeof(n));
		}
	}
}

/* Verify maps: each target's blocks its jobs touch. */
static void make_vmaps(struct lb_run *r)
{
	for (int ti = 0; ti < r->ntgts; ti++) {
		struct lb_target *t = &r->tgts[ti];
		u64 lo = ~0ULL, hi = 0;

		for (int k = 0; k < r->njobs; k++) {
			const struct lb_job *j = &r->jobs[k];

			if (j->tgt != t)
				continue;
			if (j->w.range_lo + j->w.offset < lo)
				lo = j->w.range_lo + j->w.offset;
			if (j->w.range_hi + j->w.offset > hi)
				hi = j->w.range_hi + j->w.offset;
		}
		t->vfirst = lo / LB_VBLOCK;
		t->vblocks = (hi + LB_VBLOCK - 1) / LB_VBLOCK - t->vfirst;
		if (t->vblocks > LB_VMAP_MAX)
			lb_usage_error("--verify: %s: the range spans %llu GiB; at most 256 GiB (narrow it with --range)",
				    t->path, (unsigned long long)(hi - lo) >> 30);
		free(t->vseq);
		free(t->vbusy);
		t->vseq = lq_xcalloc(t->vblocks, sizeof(u64));
		t->vbusy = lq_xcalloc(t->vblocks, 1);
		t->vnext = 0;
	}
}

/* ---- a run ------------------------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	lb_sigstop = 1;
	signal(SIGINT, SIG_DFL);	/* a second ^C kills */
	signal(SIGTERM, SIG_DFL);
}

/* ns per clock read, over 1000 reads */
static u64 clock_cost(void)
{
	u64 t0 = lb_now();

	for (int i = 0; i < 999; i++)
		(void)lb_now();
	return (lb_now() - t0) / 1000;
}

static void make_workers(struct lb_run *r)
{
	const struct lb_opts *o = r->o;
	int n = 0;

	for (int k = 0; k < r->njobs; k++)
		n += (int)r->jobs[k].threads;
	r->nworkers = n;
	r->workers = lq_xcalloc((size_t)n, sizeof(*r->workers));
	n = 0;
	for (int k = 0; k < r->njobs; k++) {
		struct lb_job *j = &r->jobs[k];

		pthread_mutex_init(&j->lock, NULL);
		if (lb_stats_init(&j->st))
			lq_die(LB_EIO, "out of memory");
		if (o->engine == LB_ENG_SYNC)
			lb_gen_init(&j->gen, &j->w, j->tgt->size, 0, 1, j->seed);
		for (u32 i = 0; i < j->threads; i++) {
			struct lb_worker *w = &r->workers[n++];
			u32 bufsz = (j->max_bs + 4095) & ~4095U;

			w->run = r;
			w->job = j;
			w->idx = i;
			if (o->engine == LB_ENG_SYNC) {
				w->g = &j->gen;
				w->glock = &j->lock;
				w->aq = &j->q;
			} else {
				lb_gen_init(&w->gen, &j->w, j->tgt->size, i, j->threads,
					    j->seed);
				w->g = &w->gen;
				w->aq = &w->q;
			}
			if (j->arrival != LB_ARR_CLOSED) {
				/* mean gap between the arrivals it waits for: a
				 * ring's own share, or the sync job's schedule */
				double gap = 1e9 / j->rate *
					(o->engine == LB_ENG_URING ? j->threads : 1);

				w->spin_cap = o->spin_pct >= 100 ? LB_SPIN_MAX_NS :
					(u64)(gap * o->spin_pct / 100.0);
			}
			if (lb_stats_init(&w->st))
				lq_die(LB_EIO, "out of memory");
			w->live.lag = lq_xcalloc(LUNQ_HIST_BUCKETS, sizeof(u64));
			w->live.resp = lq_xcalloc(LUNQ_HIST_BUCKETS, sizeof(u64));
			w->nslots = j->iodepth;
			w->slots = lq_xcalloc(w->nslots, sizeof(*w->slots));
			for (u32 si = 0; si < w->nslots; si++) {
				struct lb_slot *s = &w->slots[si];
				struct lb_rng rng;

				s->idx = si;
				if (posix_memalign(&s->buf, 4096, bufsz))
					lq_die(LB_EIO, "out of memory for IO buffers");
				/* write data that is not all zeros */
				lb_rng_seed(&rng, j->seed ^ ((u64)n << 32) ^ si);
				for (u32 b = 0; b < bufsz; b += 8) {
					u64 v = lb_rng_next(&rng);

					memcpy((char *)s->buf + b, &v, 8);
				}
				if (o->verify)
					s->want = lq_xcalloc(bufsz / 512, sizeof(u64));
			}
		}
	}
}

static void free_run(struct lb_run *r)
{
	for (int i = 0; i < r->nworkers; i++) {
		struct lb_worker *w = &r->workers[i];

		for (u32 si = 0; si < w->nslots; si++) {
			free(w->slots[si].buf);
			free(w->slots[si].want);
		}
		free(w->slots);
		free(w->live.lag);
		free(w->live.resp);
		free(w->q.ring);
		lb_stats_free(&w->st);
	}
	for (int k = 0; k < r->njobs; k++) {
		free(r->jobs[k].q.ring);
		lb_stats_free(&r->jobs[k].st);
		pthread_mutex_destroy(&r->jobs[k].lock);
	}
	lb_stats_free(&r->st);
	pthread_barrier_destroy(&r->go);
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
	free(r->workers);
	free(r->jobs);
	free(r->iv);
	free(r);
}

static void push_ival(struct lb_run *r, const struct lb_ival *iv)
{
	if (r->niv == r->ivcap) {
		r->ivcap = r->ivcap ? r->ivcap * 2 : 64;
		r->iv = realloc(r->iv, r->ivcap * sizeof(*r->iv));
		if (!r->iv)
			lq_die(LB_EIO, "out of memory");
	}
	r->iv[r->niv++] = *iv;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static struct lb_run *run_once(const struct lb_opts *o, struct lb_target *tgts,
			       int ntgts, u64 offset, u32 bs, bool print_ivals)
{
	struct lb_run *r = lq_xcalloc(1, sizeof(*r));
	void *(*fn)(void *) = o->engine == LB_ENG_SYNC ? lb_sync_worker : lb_uring_worker;
	pthread_condattr_t ca;
	sigset_t sigs, oldsigs;
	struct rusage ru0, ru1;
	u64 ival_ns = (u64)(o->interval * 1e9), next, main_cpu;
	bool header = false;

	r->o = o;
	r->tgts = tgts;
	r->ntgts = ntgts;
	r->offset = offset;
	r->bs = bs;
	r->ios_limit = o->ios;
	r->clock_ns = clock_cost();
	make_jobs(r);
	if (o->verify)
		make_vmaps(r);
	make_workers(r);
	if (lb_stats_init(&r->st))
		lq_die(LB_EIO, "out of memory");
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_barrier_init(&r->go, NULL, (unsigned int)r->nworkers + 1);

	/* signals go to the main thread only */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &oldsigs);
	for (int i = 0; i < r->nworkers; i++) {
		int e = pthread_create(&r->workers[i].tid, NULL, fn, &r->workers[i]);

		if (e)
			lq_die(LB_EIO, "cannot start a thread: %s", strerror(e));
	}
	pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
	pthread_barrier_wait(&r->go);		/* all set up */
	getrusage(RUSAGE_SELF, &ru0);
	main_cpu = lb_thread_cpu();
	r->t0 = lb_now();
	r->t_warm = r->t0 + (u64)(o->warmup * 1e9);
	if (o->elapsed > 0) {
		u64 el = (u64)(o->elapsed * 1e9), grace = el / 10;

		r->t_end = r->t0 + el;
		r->t_grace = r->t_end + (grace > 1000000000ULL ? grace : 1000000000ULL);
	} else {
		r->t_end = r->t_grace = ~0ULL;
	}
	for (int k = 0; k < r->njobs; k++) {
		struct lb_job *j = &r->jobs[k];

		if (o->engine == LB_ENG_SYNC && j->arrival != LB_ARR_CLOSED)
			lb_arrq_init(&j->q, j->arrival, j->rate, j->burst, r->t0,
				     j->seed ^ 0x6172726976616cULL);
	}
	pthread_barrier_wait(&r->go);		/* go */

	/* interval lines until every worker is done */
	{
		/* lag, then response time (lb_ival_take) */
		u64 *prev = lq_xcalloc(2 * LUNQ_HIST_BUCKETS, sizeof(u64));
		u64 *cur = lq_xcalloc(2 * LUNQ_HIST_BUCKETS, sizeof(u64));
		u64 t_prev = r->t0;

		next = r->t0 + ival_ns;
		for (;;) {
			struct timespec ts;
			u64 now = lb_now(), until = now + 100000000ULL;
			bool done;

			if (ival_ns && next < until)
				until = next;
			ts.tv_sec = until / 1000000000ULL;
			ts.tv_nsec = until % 1000000000ULL;
			pthread_mutex_lock(&r->mu);
			if (r->ndone < r->nworkers)
				pthread_cond_timedwait(&r->cv, &r->mu, &ts);
			done = r->ndone == r->nworkers;
			pthread_mutex_unlock(&r->mu);
			now = lb_now();
			if (ival_ns && (now >= next || done)) {
				struct lb_ival iv;

				lb_ival_take(r, &iv, prev, cur);
				iv.n = (u32)r->niv + 1;
				iv.t = (double)(now - r->t0) / 1e9;
				iv.len = (double)(now - t_prev) / 1e9;
				iv.warmup = t_prev < r->t_warm;	/* began in it */
				/* the last, partial interval only when it saw IOs */
				if (!done || now >= next || iv.ios || iv.errors) {
					push_ival(r, &iv);
					if (print_ivals) {
						if (!header)
							lb_report_ival_header(stdout);
						header = true;
						lb_report_ival(stdout, &iv);
						fflush(stdout);
					}
				}
				t_prev = now;
				while (next <= now)
					next += ival_ns;
			}
			if (done)
				break;
		}
		free(prev);
		free(cur);
	}
	for (int i = 0; i < r->nworkers; i++)
		pthread_join(r->workers[i].tid, NULL);
	getrusage(RUSAGE_SELF, &ru1);
	r->cpu_main_s = (double)(lb_thread_cpu() - main_cpu) / 1e9;
	r->cpu_user_s = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime);
	r->cpu_sys_s = tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
	r->cpu_kernel_s = r->cpu_user_s + r->cpu_sys_s - r->cpu_main_s;
	r->interrupted = lb_sigstop;

	/* merge: workers into jobs, jobs into the run */
	for (int i = 0; i < r->nworkers; i++) {
		struct lb_worker *w = &r->workers[i];

		if (o->engine == LB_ENG_URING) {
			w->st.backlog_max = w->q.backlog_max;
			w->st.dropped = w->q.dropped;
		}
		lb_stats_add(&w->job->st, &w->st);
		w->job->cpu_ns += w->cpu_ns;
		r->cpu_kernel_s -= (double)w->cpu_ns / 1e9;
	}
	/* rusage ticks and thread clocks differ by a tick or so */
	if (r->cpu_kernel_s < 0.01)
		r->cpu_kernel_s = 0;
	r->t_last = r->t_warm;
	for (int k = 0; k < r->njobs; k++) {
		struct lb_job *j = &r->jobs[k];

		if (o->engine == LB_ENG_SYNC) {
			j->st.backlog_max = j->q.backlog_max;
			j->st.dropped = j->q.dropped;
		}
		lb_stats_add(&r->st, &j->st);
	}
	/* the measured span: warmup end to the last completion */
	for (int i = 0; i < r->nworkers; i++)
		if (r->workers[i].t_last > r->t_last)
			r->t_last = r->workers[i].t_last;
	r->elapsed_s = (double)(r->t_last - r->t_warm) / 1e9;
	return r;
}

/* The exit status of runs: verify errors win over IO errors. */
static int runs_status(struct lb_run *const *runs, int n)
{
	bool verr = false, ioerr = false;

	for (int i = 0; i < n; i++) {
		if (runs[i]->st.verify_errors)
			verr = true;
		if (runs[i]->st.errors)
			ioerr = true;
		for (int k = 0; k < runs[i]->nworkers; k++)
			if (runs[i]->workers[k].fatal)
				ioerr = true;
	}
	return verr ? LB_EVERIFY : ioerr ? LB_EIO : LB_OK;
}

#define LB_SCAN_MAX	16	/* offsets 0..4096 by 512; up to LB_MAX_BS sizes */

/* The values a scan preset runs at: align's offsets, bs's IO sizes (the
 * preset's --bs list); into @v, returns how many. */
static int scan_values(const struct lb_opts *o, u64 *v)
{
	int n = 0;

	if (o->preset == LB_PRESET_ALIGN)
		for (u64 off = 0; off <= 4096; off += 512)
			v[n++] = off;
	else
		for (int i = 0; i < o->w.nbs && n < LB_SCAN_MAX; i++)
			v[n++] = o->w.bs[i];
	return n;
}

/* --preset align or bs: one run per offset or IO size, a line each. */
static int run_scan(const struct lb_opts *o, struct lb_target *tgts)
{
	struct lb_run *runs[LB_SCAN_MAX];
	u64 v[LB_SCAN_MAX];
	bool align = o->preset == LB_PRESET_ALIGN;
	int nv = scan_values(o, v), n = 0, rc;

	/* every run must fit before the first starts */
	for (int i = 0; i < nv; i++) {
		struct lb_run chk = { .o = o, .tgts = tgts, .ntgts = o->ntargets,
				      .offset = align ? v[i] : 0,
				      .bs = align ? 0 : (u32)v[i] };

		make_jobs(&chk);
		free(chk.jobs);
	}
	for (int i = 0; i < nv && !lb_sigstop; i++) {
		struct lb_run *r = run_once(o, tgts, o->ntargets, align ? v[i] : 0,
					    align ? 0 : (u32)v[i], false);

		if (!o->json) {
			if (!n) {
				lb_report_header(stdout, r);
				lb_report_scan_header(stdout, r);
			}
			lb_report_scan_line(stdout, r);
			fflush(stdout);
		}
		runs[n++] = r;
	}
	if (o->json)
		lb_report_scan_json(stdout, runs, n);
	else if (o->kv)
		for (int i = 0; i < n; i++)	/* one per run, in order */
			lb_report_kv(stdout, runs[i]);
	rc = runs_status(runs, n);
	for (int i = 0; i < n; i++)
		free_run(runs[i]);
	return rc;
}

int main(int argc, char **argv)
{
	struct lb_opts o;
	struct lb_target *tgts;
	struct sigaction sa;
	int rc;

	lq_nomem_status = LB_EIO;
	lb_parse_args(&o, argc, argv);
	tgts = lq_xcalloc((size_t)o.ntargets, sizeof(*tgts));
	for (int i = 0; i < o.ntargets; i++)
		open_target(&o, &tgts[i], o.targets[i]);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (o.preset == LB_PRESET_ALIGN || o.preset == LB_PRESET_BS) {
		rc = run_scan(&o, tgts);
	} else {
		struct lb_run *r;

		if (!o.json) {
			struct lb_run pre = { .o = &o, .tgts = tgts, .ntgts = o.ntargets };

			make_jobs(&pre);
			lb_report_header(stdout, &pre);
			free(pre.jobs);
			fflush(stdout);
		}
		r = run_once(&o, tgts, o.ntargets, 0, 0, !o.json);
		if (o.json) {
			lb_report_json(stdout, r);
		} else {
			lb_report_summary(stdout, r);
			if (o.kv)
				lb_report_kv(stdout, r);
		}
		rc = runs_status(&r, 1);
		free_run(r);
	}
	fflush(stdout);
	for (int i = 0; i < o.ntargets; i++) {
		close(tgts[i].fd);
		free(tgts[i].vseq);
		free(tgts[i].vbusy);
	}
	free(tgts);
	return rc;
}
