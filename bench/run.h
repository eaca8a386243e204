/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqbench plumbing: what lunqbench.c (command line, targets, run loop),
 * engine_uring.c, engine_sync.c and report.c share.  The pure parts are
 * in lb.h; the histogram layout is kmod/lunq_hist.h, printed with
 * liblunq's histview.h (lib/).
 *
 * Threads: one worker thread per io_uring ring (engine uring) or per
 * synchronous IO (engine sync); the main thread starts them, prints the
 * interval lines and, after they have all finished, the summary.  A
 * worker's summary statistics (struct lb_stats) are its own until it has
 * been joined; its interval counters (struct lb_live) are read by the
 * main thread while it runs, with relaxed atomics.
 */
#ifndef LUNQBENCH_RUN_H
#define LUNQBENCH_RUN_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include "lb.h"
#include "lq.h"		/* liblunq: struct lq_hist */
#include "util.h"	/* liblunq: lq_prog, lq_die, lq_xcalloc */

#define LB_VERSION	"0.1.0"
#define LB_VBLOCK	4096U	/* verify block */
#define LB_SEQ_UNKNOWN	(~0ULL)	/* verify: a write to the block failed */
/* Low-jitter waits: sleep until a spin window before a deadline, then
 * spin.  The window is at least LB_SPIN_MIN_NS; a timer that wakes late
 * widens it to that lateness (at most LB_SPIN_MAX_NS), and it halves
 * back every second after.  It never exceeds --spin PCT % of the mean
 * time between the arrivals the worker waits for (its spin_cap), so
 * spinning takes at most that share of a CPU. */
#define LB_SPIN_MIN_NS	50000ULL
#define LB_SPIN_MAX_NS	5000000ULL

/* Exit status (lunqbench(1), EXIT STATUS). */
enum lb_exit {
	LB_OK = 0,
	LB_EUSAGE = 1,		/* bad option or value, workload not fitting */
	LB_ETARGET = 2,		/* a target is missing or cannot be opened */
	LB_EVERIFY = 3,		/* verify mismatches */
	LB_EIO = 4,		/* IO errors (and engine failures) */
};

enum lb_engine { LB_ENG_URING, LB_ENG_SYNC };

enum lb_preset {
	LB_PRESET_NONE, LB_PRESET_BUBBLE, LB_PRESET_ALIGN, LB_PRESET_SEQ,
	LB_PRESET_RAND, LB_PRESET_BS,
};

enum lb_dir { LB_RD, LB_WR, LB_NDIR };
enum lb_lat { LB_RESP, LB_SVC, LB_LAG, LB_NLAT };

/* The command line, after presets and defaults. */
struct lb_opts {
	enum lb_engine engine;
	u32 iodepth, threads, batch;
	bool iodepth_set, threads_set, batch_set;
	struct lb_workload w;	/* range_lo/hi resolved per target */
	char bs_spec[128];
	/* --range: bytes, or percent of the target (range_pct) */
	bool range_set, range_pct;
	double range_lo_pct, range_hi_pct;
	u64 range_lo, range_hi;
	bool offset_set;
	u64 seed;
	double iorate;		/* IOs/s in total; 0 = max (closed loop) */
	enum lb_arrival arrival;	/* open loop */
	double elapsed, interval, warmup;	/* s; elapsed 0: --ios only */
	u32 spin_pct;		/* --spin: share of the gap a wait may spin */
	bool elapsed_set, interval_set;
	u64 ios;		/* 0: no limit */
	u64 size;		/* --size, 0 none */
	bool verify, buffered, json, kv;
	bool force;		/* --force: write to a busy block device */
	bool dsync;		/* --sync: O_DSYNC */
	u32 fsync_every;	/* --fsync N: an fdatasync after N writes */
	u32 burst;		/* --burst N: IOs at once (0: no bursts) */
	double burst_ms;	/* --burst-every MS */
	enum lb_preset preset;
	char **targets;
	int ntargets;
};

struct lb_target {
	const char *path;
	int fd;
	u64 size;		/* bytes of the target lunqbench may use */
	u32 lbs;		/* logical block size: the O_DIRECT unit */
	bool blk;		/* block device (else a regular file) */
	/* verify: blocks [vfirst, vfirst + vblocks) of LB_VBLOCK bytes */
	u64 vfirst, vblocks;
	u64 *vseq;		/* last completed write (0 none this run) */
	unsigned char *vbusy;	/* an IO is in flight on the block */
	u64 vnext;		/* last write sequence handed out (atomic) */
};

/* Summary statistics of a worker, a job, a run. */
struct lb_stats {
	struct lq_hist h[LB_NLAT][LB_NDIR];	/* IOs completed without error */
	u64 bytes[LB_NDIR];
	u64 errors, verify_errors, unverified;
	u64 fsyncs;		/* --fsync: fdatasyncs done */
	u64 sleeps, late_sum, late_max;	/* timed sleeps, wake-up lateness */
	u64 spin_ns;		/* open loop: time spent spinning (--spin) */
	u64 backlog_max;	/* open loop: arrivals due, not yet submitted */
	u64 dropped;		/* open loop: arrivals never submitted */
};

/* Interval counters: written by one worker, read by the main thread. */
struct lb_live {
	u64 ios, reads, bytes, resp_sum, svc_sum, resp_max, errors;
	u64 *lag;		/* LUNQ_HIST_BUCKETS, all IOs */
	u64 *resp;		/* LUNQ_HIST_BUCKETS, all IOs */
};

/*
 * Open-loop arrivals: the schedule (lb_sched) and the backlog of
 * arrivals that are due but not submitted yet (a FIFO of their t_sched).
 */
struct lb_arrq {
	struct lb_sched s;
	u64 next;		/* the next arrival not yet in the backlog */
	u64 *ring;
	size_t cap, head, n;
	u64 backlog_max, dropped;
	bool closed;		/* no more arrivals will be issued */
};

/* One workload on one target, run by one or more workers. */
struct lb_job {
	char name[48];		/* "stream", "far"; "" for the only job */
	struct lb_target *tgt;
	struct lb_workload w;
	enum lb_arrival arrival;	/* LB_ARR_CLOSED: closed loop */
	double rate;		/* open loop: IOs/s of the whole job */
	u32 burst;		/* LB_ARR_BURST: IOs per burst */
	u32 iodepth, threads, batch;	/* threads: workers of the job */
	u32 max_bs;
	u64 seed;		/* generator seed */
	/* engine sync: the job's workers share one stream and schedule */
	pthread_mutex_t lock;
	struct lb_gen gen;
	struct lb_arrq q;
	struct lb_stats st;	/* merged after the run */
	u64 cpu_ns;		/* its workers' CPU time */
};

/* One IO slot: a buffer and the IO in it. */
struct lb_slot {
	struct lb_io io;
	u64 t_sched, t_sub, seq;	/* seq: verify write sequence */
	u64 t_free;		/* closed loop: when the slot became free */
	void *buf;
	u64 *want;		/* verify: the sequence each sector must hold */
	u32 idx;
};

struct lb_run;

struct lb_worker {
	struct lb_run *run;
	struct lb_job *job;
	u32 idx;		/* stream number within the job */
	struct lb_gen gen;	/* engine uring: the worker's own stream */
	struct lb_arrq q;	/* engine uring: the worker's own arrivals */
	struct lb_gen *g;	/* the stream it draws from */
	pthread_mutex_t *glock;	/* NULL, or the job's lock around *g */
	struct lb_arrq *aq;	/* open loop: its arrivals (own or the job's) */
	struct lb_io held;	/* verify: an IO waiting for its blocks */
	bool have_held;
	struct lb_slot *slots;
	u32 nslots;
	struct lb_stats st;
	struct lb_live live;
	u64 t_last;		/* last completion */
	u64 spin_peak, spin_t;	/* spin window: widest lately, and when */
	u64 spin_cap;		/* and its bound (open loop) */
	u64 cpu_ns;		/* its thread's CPU time during the run */
	u64 writes;		/* --fsync: its writes so far */
	pthread_t tid;
	const char *fatal;	/* an engine failure, said once */
};

/* One interval line. */
struct lb_ival {
	u32 n;			/* 1, 2, ... */
	double t;		/* end, s since the start */
	double len;		/* s */
	long wall;		/* wall clock at the end (time_t) */
	u64 ios, reads, bytes, resp_sum, svc_sum, resp_max, lag_p99, errors;
	u64 resp_p99;
	bool warmup;
};

struct lb_run {
	const struct lb_opts *o;
	struct lb_target *tgts;
	int ntgts;
	struct lb_job *jobs;
	int njobs;
	struct lb_worker *workers;
	int nworkers;
	u64 offset;		/* --preset align: this run's offset */
	u32 bs;			/* --preset bs: this run's IO size (else 0) */
	u64 t0, t_warm, t_end, t_grace;	/* ns; t_end ~0 without --elapsed */
	u64 ios_limit, tickets;
	int stop;		/* atomic: stop issuing */
	int ndone;		/* workers finished (under mu) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_barrier_t go;
	/* results */
	struct lb_stats st;
	u64 t_last;		/* last completion */
	double elapsed_s;	/* measured span: warmup end to last completion */
	double cpu_user_s, cpu_sys_s;	/* the whole process */
	double cpu_main_s;		/* the main thread (interval lines) */
	/*
	 * The rest: threads the kernel runs for the process, io_uring's
	 * io-wq workers (an IO the device refused to queue without waiting,
	 * REQ_NOWAIT, is issued again from one of them).
	 */
	double cpu_kernel_s;
	u64 clock_ns;		/* cost of one clock read */
	bool interrupted;
	struct lb_ival *iv;
	size_t niv, ivcap;
	struct lb_ival ivcum;	/* interval counters summed at the last line */
};

/* ---- lunqbench.c, engine.c: shared by the engines ------------------------ */

/* SIGINT, SIGTERM (engine.c; lunqbench.c's handler sets it) */
extern volatile sig_atomic_t lb_sigstop;

u64 lb_now(void);
/* Sleep until @t (CLOCK_MONOTONIC ns): nanosleep to the spin window
 * before it, then spin; returns false early when the run is stopped. */
bool lb_wait_until(struct lb_worker *w, u64 t);
/* The worker's spin window at @now. */
u64 lb_spin_window(struct lb_worker *w, u64 now);
/* A timed sleep meant to end at @target ended at @woke. */
void lb_timer_note(struct lb_worker *w, u64 target, u64 woke);
/* The calling thread's CPU time (ns). */
u64 lb_thread_cpu(void);
/* About 20 us (verify: blocks busy in another worker). */
void lb_nap(void);
bool lb_stopped(struct lb_run *r);
/* Closed loop: may another IO be issued at @now (time, stop)? */
bool lb_may_issue(struct lb_worker *w, u64 now);
/*
 * The worker's next IO into @s: takes an --ios ticket, draws the IO,
 * claims its verify blocks, fills a write's buffer.  1: ready; 0: no more
 * IOs (--ios reached); -1: verify blocks busy, try again after a
 * completion (the IO is kept).
 */
int lb_prepare(struct lb_worker *w, struct lb_slot *s);
/* @s completed with @res (bytes, or -errno) at @t_done. */
void lb_complete(struct lb_worker *w, struct lb_slot *s, long res, u64 t_done);
/* An engine failure: print it once, stop the run. */
void lb_fail(struct lb_worker *w, const char *what, int err);
/* The worker's thread is about to return. */
void lb_worker_done(struct lb_worker *w);
/* Both start barriers (set up, then go); the run's t0 is set after. */
void lb_worker_start(struct lb_worker *w);

/* Open-loop arrivals (the caller holds the lock of a shared queue). */
void lb_arrq_init(struct lb_arrq *q, enum lb_arrival kind, double rate,
		  u32 burst, u64 t0, u64 seed);
/* Pull arrivals due at @now (and before t_end) into the backlog. */
void lb_arrq_fill(struct lb_run *r, struct lb_arrq *q, u64 now);
/* Oldest due arrival; false when the backlog is empty. */
bool lb_arrq_pop(struct lb_arrq *q, u64 *t);
/* No more arrivals: count the ones never issued (@count_rest: the rest of
 * the schedule before t_end too) as dropped. */
void lb_arrq_close(struct lb_run *r, struct lb_arrq *q, bool count_rest);
/* Has the open-loop run ended for this queue at @now? */
bool lb_arrq_over(struct lb_run *r, struct lb_arrq *q, u64 now,
		  bool *count_rest);

/* ---- engines --------------------------------------------------------------- */

void *lb_uring_worker(void *arg);
void *lb_sync_worker(void *arg);

/* ---- report.c -------------------------------------------------------------- */

/* Interval counters of all workers since the last call (@prev_lag: their
 * lag then response histograms then, 2 x LUNQ_HIST_BUCKETS, updated;
 * @cur_lag scratch of the same size); t and len not set. */
void lb_ival_take(struct lb_run *r, struct lb_ival *iv, u64 *prev_lag,
		  u64 *cur_lag);
void lb_report_header(FILE *f, const struct lb_run *r);
void lb_report_ival_header(FILE *f);
void lb_report_ival(FILE *f, const struct lb_ival *iv);
void lb_report_summary(FILE *f, const struct lb_run *r);
void lb_report_json(FILE *f, const struct lb_run *r);
void lb_report_kv(FILE *f, const struct lb_run *r);
/* --preset align and bs, the scans: one line per offset or IO size */
void lb_report_scan_header(FILE *f, const struct lb_run *r);
void lb_report_scan_line(FILE *f, const struct lb_run *r);
void lb_report_scan_json(FILE *f, struct lb_run *const *runs, int n);

/* Derived figures of a run, as every report shows them. */
struct lb_figures {
	u64 ios, reads, writes, bytes;
	double iops, mbps;
	bool open;		/* every job open loop */
	u32 qd;			/* outstanding IOs allowed (closed loop: its QD) */
	bool saturated;
	u64 lag_p99, lag_limit;
};
void lb_figures(const struct lb_run *r, const struct lb_stats *st,
		struct lb_figures *fg);

/* Histogram helpers. */
int lb_stats_init(struct lb_stats *st);
void lb_stats_free(struct lb_stats *st);
void lb_stats_add(struct lb_stats *dst, const struct lb_stats *src);
/* @dst (counts allocated) = sum over directions of @st's @lat */
void lb_hist_both(struct lq_hist *dst, const struct lb_stats *st, int lat);

#endif /* LUNQBENCH_RUN_H */
