// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench io_uring engine (liburing): one ring per worker thread,
 * --iodepth slots, batched submit and reap.
 *
 * Closed loop: a slot that frees is refilled at once; its IO's t_sched is
 * the time the slot's previous IO was reaped.  Each pass submits what is
 * ready (at most --batch per io_uring_enter) and waits for at least one
 * completion in the same call, then reaps up to --batch CQEs.
 *
 * Open loop: arrivals come from the schedule whatever is in flight;
 * due ones are submitted together (overdue ones batched); when all
 * --iodepth slots are busy, arrivals wait in the backlog with their
 * t_sched kept, so their response time includes the wait.  Between
 * arrivals the worker submits what is ready and waits for completions in
 * one io_uring_submit_and_wait_timeout, until the spin window before the
 * next arrival, then spins, peeking at the CQ ring.
 *
 * The ring asks for COOP_TASKRUN (no interrupt per completion: the CQ is
 * peeked or waited for all the time) where the kernel has it.
 *
 * t_sub is read just before io_uring_enter, one stamp for the batch;
 * t_done just after a batch of CQEs is peeked, one stamp for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <liburing.h>
#include "run.h"

struct uctx {
	struct io_uring ring;
	bool ring_ok, fixed_file, fixed_bufs;
	u32 *free;		/* free slot indices (a stack) */
	u32 nfree, inflight;
	struct lb_slot **prep;	/* prepared, not yet submitted */
	u32 nprep, batch;
	struct io_uring_cqe **cqes;
};

static void prep_sqe(struct uctx *c, struct lb_worker *w, struct lb_slot *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);
	int fd = c->fixed_file ? 0 : w->job->tgt->fd;

	/* never NULL: the SQ has >= iodepth entries, all submitted each pass */
	if (c->fixed_bufs) {
		if (s->io.write)
			io_uring_prep_write_fixed(sqe, fd, s->buf, s->io.len,
						  s->io.off, (int)s->idx);
		else
			io_uring_prep_read_fixed(sqe, fd, s->buf, s->io.len,
						 s->io.off, (int)s->idx);
	} else {
		if (s->io.write)
			io_uring_prep_write(sqe, fd, s->buf, s->io.len, s->io.off);
		else
			io_uring_prep_read(sqe, fd, s->buf, s->io.len, s->io.off);
	}
	if (c->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, s->idx);
	c->prep[c->nprep++] = s;
}

/* Submit the prepared SQEs (t_sub stamped now); wait for @wait_nr CQEs. */
static bool submit(struct uctx *c, struct lb_worker *w, unsigned int wait_nr)
{
	u64 t = lb_now();
	int ret;

	for (u32 i = 0; i < c->nprep; i++)
		c->prep[i]->t_sub = t;
	c->inflight += c->nprep;
	c->nprep = 0;
	do {
		ret = wait_nr ? io_uring_submit_and_wait(&c->ring, wait_nr) :
			io_uring_submit(&c->ring);
	} while (ret == -EINTR);
	if (ret < 0) {
		lb_fail(w, "io_uring_enter", -ret);
		return false;
	}
	return true;
}

/* Submit what is prepared (t_sub stamped now) and wait up to @ns for a
 * completion, in one io_uring_enter; -ETIME: none came. */
static int submit_wait(struct uctx *c, struct lb_worker *w, u64 ns)
{
	struct __kernel_timespec ts = {
		.tv_sec = (long long)(ns / 1000000000ULL),
		.tv_nsec = (long long)(ns % 1000000000ULL),
	};
	struct io_uring_cqe *cqe;
	u64 t = lb_now();
	int ret;

	for (u32 i = 0; i < c->nprep; i++)
		c->prep[i]->t_sub = t;
	c->inflight += c->nprep;
	c->nprep = 0;
	ret = io_uring_submit_and_wait_timeout(&c->ring, &cqe, 1, &ts, NULL);
	if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN)
		lb_fail(w, "io_uring_enter", -ret);
	return ret;
}

/* Reap up to --batch completions that are there now. */
static void reap(struct uctx *c, struct lb_worker *w)
{
	unsigned int n = io_uring_peek_batch_cqe(&c->ring, c->cqes, c->batch);
	u64 t;

	if (!n)
		return;
	t = lb_now();
	for (unsigned int i = 0; i < n; i++) {
		u64 idx = io_uring_cqe_get_data64(c->cqes[i]);
		struct lb_slot *s = &w->slots[idx];

		lb_complete(w, s, c->cqes[i]->res, t);
		s->t_free = t;
		c->free[c->nfree++] = (u32)idx;
		c->inflight--;
	}
	io_uring_cq_advance(&c->ring, n);
}

/* Wait up to @ns for a completion (not reaped here); -ETIME: none. */
static int wait_cqe_ns(struct uctx *c, struct lb_worker *w, u64 ns)
{
	struct __kernel_timespec ts = {
		.tv_sec = (long long)(ns / 1000000000ULL),
		.tv_nsec = (long long)(ns % 1000000000ULL),
	};
	struct io_uring_cqe *cqe;
	int ret = io_uring_wait_cqe_timeout(&c->ring, &cqe, &ts);

	if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN)
		lb_fail(w, "io_uring_wait_cqe", -ret);
	return ret;
}

static void run_closed(struct uctx *c, struct lb_worker *w)
{
	struct lb_run *r = w->run;
	bool stopping = false;

	for (;;) {
		u64 now = lb_now();

		while (c->nfree && !stopping) {
			struct lb_slot *s = &w->slots[c->free[c->nfree - 1]];
			int p;

			if (!lb_may_issue(w, now)) {
				stopping = true;
				break;
			}
			p = lb_prepare(w, s);
			if (p == 0) {
				stopping = true;
				break;
			}
			if (p < 0)
				break;	/* verify: wait for a completion */
			c->nfree--;
			s->t_sched = s->t_free;
			prep_sqe(c, w, s);
			if (c->nprep == c->batch && c->nfree && !submit(c, w, 0))
				stopping = true;
		}
		if (stopping)
			w->have_held = false;
		if (!c->inflight && !c->nprep) {
			if (stopping || w->fatal)
				break;
			/* verify: the blocks are another worker's for now */
			if (lb_stopped(r))
				break;
			lb_nap();
			continue;
		}
		if (!submit(c, w, 1)) {
			stopping = true;
			if (!c->inflight)
				break;
			wait_cqe_ns(c, w, 100000000ULL);
		}
		reap(c, w);
	}
}

static void run_open(struct uctx *c, struct lb_worker *w)
{
	struct lb_run *r = w->run;
	struct lb_arrq *q = w->aq;
	bool closed = false, rest = false;

	for (;;) {
		u64 now = lb_now(), due, win;

		/* prepare what is due; full batches go at once, the rest
		 * with the wait below (one io_uring_enter for both) */
		if (!closed) {
			lb_arrq_fill(r, q, now);
			while (q->n && c->nfree) {
				struct lb_slot *s = &w->slots[c->free[c->nfree - 1]];
				int p = lb_prepare(w, s);

				if (p <= 0)
					break;	/* --ios or eof reached, or verify waits */
				lb_arrq_pop(q, &s->t_sched);
				c->nfree--;
				prep_sqe(c, w, s);
				if (c->nprep == c->batch)
					submit(c, w, 0);
			}
			if (q->n > q->backlog_max)
				q->backlog_max = q->n;
			/* a stream that ended (--seekpct eof) issues no more */
			if (w->g->ended || lb_arrq_over(r, q, now, &rest)) {
				lb_arrq_close(r, q, !w->g->ended && rest);
				closed = true;
				w->have_held = false;
			}
		}
		if (closed) {
			if (!c->inflight && !c->nprep)
				break;
			submit_wait(c, w, 100000000ULL);
			reap(c, w);
			continue;
		}
		if (q->n || w->have_held) {
			/* the backlog waits for a slot (or verify blocks) */
			if (c->inflight || c->nprep)
				submit_wait(c, w, 10000000ULL);
			else
				lb_nap();
			reap(c, w);
			continue;
		}
		due = q->next;
		now = lb_now();
		win = lb_spin_window(w, now);
		if (due > now + win) {
			u64 ns = due - win - now;
			bool whole = ns <= 100000000ULL;

			if (!whole)
				ns = 100000000ULL;	/* see a stop */
			if (!c->inflight && !c->nprep)
				lb_wait_until(w, due);
			else if (submit_wait(c, w, ns) == -ETIME && whole)
				lb_timer_note(w, now + ns, lb_now());
		} else {
			if (c->nprep)
				submit(c, w, 0);
			if (due > now) {
				sched_yield();	/* spin, peeking at the CQ */
				w->st.spin_ns += lb_now() - now;
			}
		}
		reap(c, w);
	}
}

#ifndef IORING_SETUP_SUBMIT_ALL
#define IORING_SETUP_SUBMIT_ALL		(1U << 7)
#endif
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN	(1U << 8)
#endif
#ifndef IORING_SETUP_TASKRUN_FLAG
#define IORING_SETUP_TASKRUN_FLAG	(1U << 9)
#endif

static const unsigned int ring_flags[] = {
	IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN |
		IORING_SETUP_TASKRUN_FLAG,	/* 5.19 */
	IORING_SETUP_SUBMIT_ALL,		/* 5.18 */
	0,
};

static bool setup(struct uctx *c, struct lb_worker *w)
{
	struct lb_job *j = w->job;
	struct io_uring_params p;
	u32 bufsz = (j->max_bs + 4095) & ~4095U;
	struct iovec *iov;
	int ret;

	/* best first: no forced interrupt per completion (the CQ is peeked
	 * or waited for often enough), then older kernels' flags */
	for (size_t i = 0; i < sizeof(ring_flags) / sizeof(ring_flags[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = ring_flags[i];
		ret = io_uring_queue_init_params(w->nslots, &c->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret < 0) {
		lb_fail(w, "io_uring_queue_init", -ret);
		return false;
	}
	c->ring_ok = true;
	c->fixed_file = !io_uring_register_files(&c->ring, &j->tgt->fd, 1);
	iov = calloc(w->nslots, sizeof(*iov));
	if (iov) {
		for (u32 i = 0; i < w->nslots; i++) {
			iov[i].iov_base = w->slots[i].buf;
			iov[i].iov_len = bufsz;
		}
		/* fails harmlessly under a low RLIMIT_MEMLOCK */
		c->fixed_bufs = !io_uring_register_buffers(&c->ring, iov, w->nslots);
		free(iov);
	}
	c->batch = j->batch ? j->batch : 1;
	c->free = calloc(w->nslots, sizeof(u32));
	c->prep = calloc(w->nslots, sizeof(*c->prep));
	c->cqes = calloc(c->batch, sizeof(*c->cqes));
	if (!c->free || !c->prep || !c->cqes) {
		lb_fail(w, "setup", ENOMEM);
		return false;
	}
	for (u32 i = 0; i < w->nslots; i++)
		c->free[c->nfree++] = w->nslots - 1 - i;
	return true;
}

void *lb_uring_worker(void *arg)
{
	struct lb_worker *w = arg;
	struct lb_job *j = w->job;
	struct lb_run *r = w->run;
	struct uctx c;
	bool ok;

	memset(&c, 0, sizeof(c));
	ok = setup(&c, w);
	lb_worker_start(w);
	if (ok && !lb_stopped(r)) {
		u64 t = lb_now();

		for (u32 i = 0; i < w->nslots; i++)
			w->slots[i].t_free = t;
		if (j->arrival == LB_ARR_CLOSED) {
			run_closed(&c, w);
		} else {
			lb_arrq_init(&w->q, j->arrival, j->rate / j->threads, j->burst, r->t0,
				     j->seed ^ 0x6172726976616cULL ^ ((u64)w->idx << 48));
			run_open(&c, w);
		}
	}
	if (c.ring_ok)
		io_uring_queue_exit(&c.ring);
	free(c.free);
	free(c.prep);
	free(c.cqes);
	lb_worker_done(w);
	return NULL;
}
