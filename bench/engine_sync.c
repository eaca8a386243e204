// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench sync engine: --threads threads, each with one IO at a time
 * done with pread/pwrite (vdbench's model: queue depth = threads).
 *
 * The threads of a job share one stream (a sequential workload stays
 * one sequential stream at queue depth = threads) and, in open loop, one
 * arrival schedule: a free thread takes the oldest due arrival from the
 * backlog, or claims the next future one and sleeps until it.  An
 * arrival due while every thread is busy waits in the backlog with its
 * t_sched kept, so its response time includes the wait (vdbench leaves
 * that wait out; lunqbench does not).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>
#include "run.h"

static void do_io(struct lb_worker *w, struct lb_slot *s)
{
	int fd = w->job->tgt->fd;
	ssize_t n;
	u64 t;

	s->t_sub = lb_now();
	do {
		n = s->io.write ? pwrite(fd, s->buf, s->io.len, (off_t)s->io.off) :
			pread(fd, s->buf, s->io.len, (off_t)s->io.off);
	} while (n < 0 && errno == EINTR);
	/* --fsync N: the N-th write waits for its fdatasync */
	if (n >= 0 && s->io.write && w->run->o->fsync_every &&
	    ++w->writes % w->run->o->fsync_every == 0) {
		int e;

		while ((e = fdatasync(fd)) < 0 && errno == EINTR)
			;
		if (e < 0)
			n = -1;
		else
			w->st.fsyncs++;
	}
	t = lb_now();
	lb_complete(w, s, n < 0 ? -errno : (long)n, t);
	s->t_free = t;
}

/* lb_prepare, waiting while verify blocks are busy; false: no more IOs */
static bool prepare(struct lb_worker *w, struct lb_slot *s)
{
	int p;

	while ((p = lb_prepare(w, s)) < 0) {
		if (lb_stopped(w->run))
			return false;
		lb_nap();
	}
	return p > 0;
}

static void run_closed(struct lb_worker *w, struct lb_slot *s)
{
	while (lb_may_issue(w, lb_now())) {
		if (!prepare(w, s))
			break;
		s->t_sched = s->t_free;
		do_io(w, s);
	}
	w->have_held = false;
}

static void run_open(struct lb_worker *w, struct lb_slot *s)
{
	struct lb_run *r = w->run;
	struct lb_job *j = w->job;
	struct lb_arrq *q = &j->q;

	for (;;) {
		bool due, rest;
		u64 t, now;

		pthread_mutex_lock(&j->lock);
		now = lb_now();
		lb_arrq_fill(r, q, now);
		if (lb_arrq_over(r, q, now, &rest)) {
			lb_arrq_close(r, q, rest);
			pthread_mutex_unlock(&j->lock);
			break;
		}
		due = lb_arrq_pop(q, &t);
		if (!due) {
			/* claim the next arrival (before t_end: not over) */
			t = q->next;
			q->next = lb_sched_next(&q->s);
		}
		if (q->n > q->backlog_max)
			q->backlog_max = q->n;
		pthread_mutex_unlock(&j->lock);
		if (!due && !lb_wait_until(w, t))
			break;
		if (!prepare(w, s))
			break;
		s->t_sched = t;
		do_io(w, s);
	}
	w->have_held = false;
}

void *lb_sync_worker(void *arg)
{
	struct lb_worker *w = arg;
	struct lb_slot *s = &w->slots[0];

	lb_worker_start(w);
	s->t_free = lb_now();
	if (!lb_stopped(w->run)) {
		if (w->job->arrival == LB_ARR_CLOSED)
			run_closed(w, s);
		else
			run_open(w, s);
	}
	lb_worker_done(w);
	return NULL;
}
