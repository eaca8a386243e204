// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench: what the engines (engine_uring.c, engine_sync.c) share, all
 * declared in run.h: the clock and low-jitter waits, taking and preparing
 * an IO (the --ios tickets, verify's block claims), completing it (the
 * statistics, verify checks), and the open-loop backlog.  The run itself
 * (targets, jobs, workers, the main loop) is lunqbench.c.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include "run.h"
#include "lunq_hist.h"

#define LB_ARRQ_MAX	(1U << 22)	/* backlog entries kept per queue */
#define LB_SHOW_ERRORS	20

volatile sig_atomic_t lb_sigstop;

/* ---- time ------------------------------------------------------------------ */

u64 lb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

bool lb_stopped(struct lb_run *r)
{
	return lb_sigstop || __atomic_load_n(&r->stop, __ATOMIC_RELAXED);
}

u64 lb_spin_window(struct lb_worker *w, u64 now)
{
	u64 halvings = (now - w->spin_t) / 1000000000ULL, win = LB_SPIN_MIN_NS;

	if (w->spin_peak > LB_SPIN_MIN_NS && halvings < 64)
		win += (w->spin_peak - LB_SPIN_MIN_NS) >> halvings;
	return win < w->spin_cap ? win : w->spin_cap;
}

void lb_timer_note(struct lb_worker *w, u64 target, u64 woke)
{
	u64 late = woke > target ? woke - target : 0, want = late + LB_SPIN_MIN_NS;

	w->st.sleeps++;
	w->st.late_sum += late;
	if (late > w->st.late_max)
		w->st.late_max = late;
	if (want > LB_SPIN_MAX_NS)
		want = LB_SPIN_MAX_NS;
	if (want > w->spin_cap)
		want = w->spin_cap;
	if (want > lb_spin_window(w, woke)) {
		w->spin_peak = want;
		w->spin_t = woke;
	}
}

bool lb_wait_until(struct lb_worker *w, u64 t)
{
	for (;;) {
		u64 now = lb_now(), win = lb_spin_window(w, now);

		if (lb_stopped(w->run))
			return false;
		if (now >= t)
			return true;
		if (t - now > win) {
			/* at most 100 ms at a time, to see a stop */
			u64 until = t - win;
			bool whole = until - now <= 100000000ULL;
			struct timespec ts;

			if (!whole)
				until = now + 100000000ULL;
			ts.tv_sec = (time_t)(until / 1000000000ULL);
			ts.tv_nsec = (long)(until % 1000000000ULL);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			if (whole)
				lb_timer_note(w, until, lb_now());
		} else {
			sched_yield();
			w->st.spin_ns += lb_now() - now;
		}
	}
}

void lb_nap(void)
{
	struct timespec ts = { 0, 20000 };

	nanosleep(&ts, NULL);
}

/* ---- what the engines share ---------------------------------------------------- */

static bool lb_ticket(struct lb_run *r)
{
	if (!r->ios_limit)
		return true;
	if (__atomic_load_n(&r->tickets, __ATOMIC_RELAXED) >= r->ios_limit)
		return false;
	return __atomic_fetch_add(&r->tickets, 1, __ATOMIC_RELAXED) < r->ios_limit;
}

static bool lb_tickets_left(struct lb_run *r)
{
	return !r->ios_limit ||
		__atomic_load_n(&r->tickets, __ATOMIC_RELAXED) < r->ios_limit;
}

bool lb_may_issue(struct lb_worker *w, u64 now)
{
	struct lb_run *r = w->run;

	/* a held IO (verify: its blocks were busy) already has its ticket */
	return !lb_stopped(r) && now < r->t_end &&
	       (w->have_held || lb_tickets_left(r));
}

void lb_fail(struct lb_worker *w, const char *what, int err)
{
	if (!w->fatal) {
		w->fatal = what;
		fprintf(stderr, "%s: %s: %s: %s\n", lq_prog, w->job->tgt->path,
			what, strerror(err));
	}
	__atomic_store_n(&w->run->stop, 1, __ATOMIC_RELAXED);
}

/* The stream's next IO; false: it has ended (--seekpct eof). */
static bool lb_draw(struct lb_worker *w, struct lb_io *io)
{
	bool more;

	if (w->glock)
		pthread_mutex_lock(w->glock);
	more = lb_gen_next(w->g, io);
	if (w->glock)
		pthread_mutex_unlock(w->glock);
	return more;
}

static bool vclaim(struct lb_target *t, const struct lb_io *io)
{
	u64 b0 = io->off / LB_VBLOCK - t->vfirst, n = io->len / LB_VBLOCK;

	for (u64 i = 0; i < n; i++) {
		if (__atomic_exchange_n(&t->vbusy[b0 + i], 1, __ATOMIC_ACQUIRE)) {
			while (i--)
				__atomic_store_n(&t->vbusy[b0 + i], 0, __ATOMIC_RELEASE);
			return false;
		}
	}
	return true;
}

int lb_prepare(struct lb_worker *w, struct lb_slot *s)
{
	struct lb_run *r = w->run;
	struct lb_job *j = w->job;
	struct lb_target *t = j->tgt;
	struct lb_io io;
	int tries = 0;

	if (w->have_held) {
		io = w->held;
	} else {
		/* drawn first: a stream that ended takes no --ios ticket */
		if (!lb_draw(w, &io) || !lb_ticket(r))
			return 0;
	}
	if (r->o->verify) {
		for (;;) {
			if (io.off % LB_VBLOCK || io.len % LB_VBLOCK ||
			    io.off / LB_VBLOCK < t->vfirst ||
			    (io.off + io.len + LB_VBLOCK - 1) / LB_VBLOCK >
			    t->vfirst + t->vblocks) {
				w->have_held = false;
				if (!w->fatal) {
					w->fatal = "verify";
					fprintf(stderr, "%s: --verify: an IO of %u bytes at byte %llu of %s is not in whole 4 KiB blocks of the range (use --align 4k)\n",
						lq_prog, io.len,
						(unsigned long long)io.off, t->path);
				}
				__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
				return 0;
			}
			if (vclaim(t, &io))
				break;
			/* in flight elsewhere: another position, or wait */
			if (!j->w.seek_ppm || ++tries > 8 || !lb_draw(w, &io)) {
				w->held = io;
				w->have_held = true;
				return -1;
			}
		}
		w->have_held = false;
		if (io.write) {
			s->seq = __atomic_add_fetch(&t->vnext, 1, __ATOMIC_RELAXED);
			lb_verify_fill(s->buf, io.len, io.off, s->seq, r->o->seed);
		}
	}
	s->io = io;
	return 1;
}

static int lb_shown_io, lb_shown_verify;

static void lb_verify_done(struct lb_worker *w, struct lb_slot *s, bool ok)
{
	struct lb_run *r = w->run;
	struct lb_target *t = w->job->tgt;
	u64 b0 = s->io.off / LB_VBLOCK - t->vfirst, n = s->io.len / LB_VBLOCK;
	const u32 spb = LB_VBLOCK / 512;

	if (s->io.write) {
		for (u64 i = 0; i < n; i++)
			__atomic_store_n(&t->vseq[b0 + i], ok ? s->seq : LB_SEQ_UNKNOWN,
					 __ATOMIC_RELAXED);
	} else if (ok) {
		bool known = true;
		enum lb_verify_err e;
		u64 bad = 0, got = 0;

		for (u64 i = 0; i < n && known; i++) {
			u64 q = __atomic_load_n(&t->vseq[b0 + i], __ATOMIC_RELAXED);

			known = q != LB_SEQ_UNKNOWN;
			for (u32 k = 0; k < spb; k++)
				s->want[i * spb + k] = q;
		}
		if (!known) {
			w->st.unverified++;
		} else {
			e = lb_verify_check(s->buf, s->io.len, s->io.off, r->o->seed,
					    s->want, &bad, &got);
			if (e != LB_VERIFY_OK) {
				u64 want = 0;

				if (bad >= s->io.off / 512 &&
				    bad < (s->io.off + s->io.len) / 512)
					want = s->want[bad - s->io.off / 512];
				w->st.verify_errors++;
				if (__atomic_fetch_add(&lb_shown_verify, 1, __ATOMIC_RELAXED) <
				    LB_SHOW_ERRORS)
					fprintf(stderr, "%s: verify error at sector %llu (byte %llu) of %s: %s (seq got %llu, want %llu)\n",
						lq_prog, (unsigned long long)bad,
						(unsigned long long)bad * 512, t->path,
						lb_verify_strerror(e),
						(unsigned long long)got,
						(unsigned long long)want);
			}
		}
	}
	for (u64 i = 0; i < n; i++)
		__atomic_store_n(&t->vbusy[b0 + i], 0, __ATOMIC_RELEASE);
}

#define LIVE_ADD(f, v) __atomic_store_n(&(f), __atomic_load_n(&(f), __ATOMIC_RELAXED) + (v), \
				       __ATOMIC_RELAXED)

static void hist_add(struct lq_hist *h, u64 v)
{
	h->counts[lunq_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

void lb_complete(struct lb_worker *w, struct lb_slot *s, long res, u64 t_done)
{
	struct lb_run *r = w->run;
	struct lb_live *l = &w->live;
	int d = s->io.write ? LB_WR : LB_RD;
	bool ok = res == (long)s->io.len;
	u64 resp, svc, lag;

	if (!ok) {
		w->st.errors++;
		LIVE_ADD(l->errors, 1);
		if (__atomic_fetch_add(&lb_shown_io, 1, __ATOMIC_RELAXED) < LB_SHOW_ERRORS) {
			if (res < 0)
				fprintf(stderr, "%s: %s error at byte %llu (%u bytes) of %s: %s\n",
					lq_prog, s->io.write ? "write" : "read",
					(unsigned long long)s->io.off, s->io.len,
					w->job->tgt->path, strerror((int)-res));
			else
				fprintf(stderr, "%s: short %s at byte %llu of %s: %ld of %u bytes\n",
					lq_prog, s->io.write ? "write" : "read",
					(unsigned long long)s->io.off, w->job->tgt->path,
					res, s->io.len);
		}
	}
	if (r->o->verify)
		lb_verify_done(w, s, ok);
	if (!ok)
		return;
	resp = t_done - s->t_sched;
	svc = t_done - s->t_sub;
	lag = s->t_sub - s->t_sched;
	LIVE_ADD(l->ios, 1);
	LIVE_ADD(l->reads, d == LB_RD);
	LIVE_ADD(l->bytes, s->io.len);
	LIVE_ADD(l->resp_sum, resp);
	LIVE_ADD(l->svc_sum, svc);
	if (resp > __atomic_load_n(&l->resp_max, __ATOMIC_RELAXED))
		__atomic_store_n(&l->resp_max, resp, __ATOMIC_RELAXED);
	LIVE_ADD(l->lag[lunq_hist_index(lag)], 1);
	LIVE_ADD(l->resp[lunq_hist_index(resp)], 1);
	if (t_done > w->t_last)
		w->t_last = t_done;
	if (t_done >= r->t_warm) {
		hist_add(&w->st.h[LB_RESP][d], resp);
		hist_add(&w->st.h[LB_SVC][d], svc);
		hist_add(&w->st.h[LB_LAG][d], lag);
		w->st.bytes[d] += s->io.len;
	}
}

u64 lb_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void lb_worker_start(struct lb_worker *w)
{
	/*
	 * Timers end when asked, not up to 50 us later (the default slack
	 * of a normal thread): the schedule is kept by sleeping, not by
	 * spinning.  Best effort.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_barrier_wait(&w->run->go);	/* set up */
	pthread_barrier_wait(&w->run->go);	/* go: t0 is set */
	w->cpu_ns = lb_thread_cpu();
}

void lb_worker_done(struct lb_worker *w)
{
	struct lb_run *r = w->run;

	w->cpu_ns = lb_thread_cpu() - w->cpu_ns;

	pthread_mutex_lock(&r->mu);
	r->ndone++;
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

/* ---- open-loop arrivals ---------------------------------------------------------- */

void lb_arrq_init(struct lb_arrq *q, enum lb_arrival kind, double rate,
		  u32 burst, u64 t0, u64 seed)
{
	memset(q, 0, sizeof(*q));
	lb_sched_init(&q->s, kind, rate, t0, seed);
	lb_sched_burst(&q->s, burst);
	q->next = lb_sched_next(&q->s);
	q->cap = 1024;
	q->ring = lq_xcalloc(q->cap, sizeof(u64));
}

void lb_arrq_fill(struct lb_run *r, struct lb_arrq *q, u64 now)
{
	while (!q->closed && q->next <= now && q->next < r->t_end) {
		if (q->n == q->cap) {
			u64 *ring;

			if (q->cap >= LB_ARRQ_MAX)
				break;	/* stays in the schedule: late, not lost */
			ring = lq_xcalloc(q->cap * 2, sizeof(u64));
			for (size_t i = 0; i < q->n; i++)
				ring[i] = q->ring[(q->head + i) % q->cap];
			free(q->ring);
			q->ring = ring;
			q->head = 0;
			q->cap *= 2;
		}
		q->ring[(q->head + q->n) % q->cap] = q->next;
		q->n++;
		q->next = lb_sched_next(&q->s);
	}
}

bool lb_arrq_pop(struct lb_arrq *q, u64 *t)
{
	if (!q->n)
		return false;
	*t = q->ring[q->head];
	q->head = (q->head + 1) % q->cap;
	q->n--;
	return true;
}

bool lb_arrq_over(struct lb_run *r, struct lb_arrq *q, u64 now, bool *count_rest)
{
	*count_rest = false;
	if (q->closed || lb_stopped(r) || !lb_tickets_left(r))
		return true;
	if (!q->n && q->next >= r->t_end)
		return true;		/* the schedule is done */
	if (now >= r->t_grace) {
		*count_rest = true;	/* the backlog did not drain in time */
		return true;
	}
	return false;
}

void lb_arrq_close(struct lb_run *r, struct lb_arrq *q, bool count_rest)
{
	if (q->closed)
		return;
	q->closed = true;
	if (!count_rest)
		return;
	q->dropped += q->n;
	q->n = 0;
	while (q->next < r->t_end) {
		q->dropped++;
		q->next = lb_sched_next(&q->s);
	}
}
