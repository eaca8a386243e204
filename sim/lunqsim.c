// SPDX-License-Identifier: GPL-2.0
/*
 * lunqsim: the arena on the host.  Reads the arena's scenario files
 * (scenario.c), runs each policy and the oracle's sweep of static depths
 * through a discrete-event IO path -- a load (lunqbench's closed or open
 * loop), lunq's wait queue (kmod/lunq_sched.c's, in the order of `sched`:
 * fifo or disksort, with max_wait_ms's aging), the depth the policy sets,
 * the emulated LUN (fixed, flash, hdd or array, with their caches) -- and
 * prints the arena's table: IOPS and the scenario's latency against the
 * oracle of the same run.
 *
 * The LUN is dm-lunq's own service models (kmod/lunq_model*.c), the
 * controller auto's own code (kmod/lunq_auto.c), the percentiles lunq's
 * histogram (kmod/lunq_hist.c), compiled for the host unchanged
 * (sim/shim/linux/: the kernel headers they include).  The window that
 * feeds auto follows kmod/lunq_window.c: every LUNQ_WIN_TICK_MS a tick;
 * a window while auto settles is rebased, a ready one cut into the
 * figures auto reads, a move of the depth starts a new run.
 * A BPF policy's .bpf.c runs natively (bpf_policy.c, bpf/): a window
 * every 100 ms as lunq_window.c gives a policy from outside, its answers
 * clamped to 1..64 and counted.
 *
 * The drive's own sort (lun_order:sptf) goes through lunq_model_pick()
 * when the head frees (lunq_model_next()), as kmod/lunq_io.c drives it.
 * What it does not simulate yet is said and skipped, scenario by
 * scenario: pools, other initiators and QUEUE FULL (hostile, pool4),
 * presets of lunqbench (bubble), a second load or LUN (mixed).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <math.h>
#include <linux/minmax.h>

#include "scenario.h"
#include "random.h"
#include "lunq_model.h"
#include "lunq_auto.h"
#include "lunq_auto_cfg.h"
#include "lunq_hist.h"
#include "lunq_sched.h"
#include "bpf_policy.h"

/* the module's window and auto configuration (kmod/lunq_auto_cfg.h) */
#define WIN_TICK_NS	(LUNQ_WIN_TICK_MS * NSEC_PER_MSEC)
#define WIN_RUN_IOS	LUNQ_WIN_RUN_IOS
#define AUTO_WIN_NS	LUNQ_AUTO_WIN_NS
#define AUTO_WIN_IOS	LUNQ_AUTO_WIN_IOS
#define AUTO_PROBE_EVERY LUNQ_AUTO_PROBE_EVERY
#define AUTO_RATE_NS	LUNQ_AUTO_RATE_NS
#define AUTO_SVC_NS	LUNQ_AUTO_SVC_NS
#define AUTO_MAX	LUNQ_AUTO_MAX_DEFAULT
/* a BPF policy's limits: tests/demo/arena.sh attaches it with auto_max=64 */
#define BPF_MIN		1
#define BPF_MAX		64
/* the arena's null_blks: nb completes after 8 ms, 512 MB each */
#define NB_DELAY_NS	(8 * NSEC_PER_MSEC)
#define LOWER_SECTORS	(512ULL * 1024 * 1024 / 512)
#define BS_SECTORS	8	/* lunqbench's 4 KiB */
#define MAX_IOS		65536	/* IOs out at once: lunq's queue and below */
#define QF_MAX		2	/* arena.sh's QUEUE FULLs a second */

enum pol { P_STATIC, P_KNEE, P_TARGET, P_BPF };

struct io {
	u64 arrive, dispatch, finish;
	u64 sector;
	bool write;
	struct lunq_waiter w;	/* in lunq's wait queue */
};

struct sim {
	const struct scenario *sc;
	struct lunq_model m;
	bool nb_delay;
	/* the load */
	u32 iodepth;		/* lunqbench --iodepth: most out at once */
	u64 rate;		/* --iorate (IOs a second); 0: closed loop */
	u32 rdpct;		/* --rdpct: reads in 100 IOs */
	u32 seekpct;		/* --seekpct: random IOs in 100, the rest follow */
	u64 next_seq;		/* the sector after the load's last IO */
	u64 next_arrival;
	u32 out;		/* the load's IOs out (waiting or below) */
	/* lunq */
	enum pol pol;
	u32 depth;
	struct lunq_auto a;
	struct bpol_run b;	/* P_BPF: the policy's run (bpf_policy.c) */
	struct io io[MAX_IOS];
	u32 freelist[MAX_IOS], nfree;
	struct lunq_queue q;	/* lunq's wait queue (kmod/lunq_sched.c) */
	u32 heap[MAX_IOS], hn;		/* below: by finish */
	u32 inflight;
	/* integrals (kmod/lunq_integ.c's wtime, rlentime) */
	u64 last, wtime, rlen;
	/* the window (kmod/lunq_window.c) */
	u64 w_t, w_ios, w_wtime, w_rlen, w_svc_sum, w_wsum;
	u64 ios, svc_sum, wsum;
	bool rebase;
	u64 win[LUNQ_HIST_BUCKETS], wwin[LUNQ_HIST_BUCKETS];
	u64 run[LUNQ_HIST_BUCKETS], run_ios;
	/* what the run measures: [0] reads, [1] writes, [2] both */
	u64 done, resp_max[3], svc_max[3];
	u64 resp[3][LUNQ_HIST_BUCKETS], svc[3][LUNQ_HIST_BUCKETS];
	u64 rng;
};

static u64 rnd(struct sim *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

/* an exponential gap, mean 1e9 / rate ns */
static u64 expo(struct sim *s, u64 rate)
{
	double u = ((rnd(s) >> 11) + 1) * (1.0 / 9007199254740993.0);

	return (u64)(-log(u) * 1e9 / (double)rate);
}

static void hpush(struct sim *s, u32 k)
{
	u32 i = s->hn++;

	while (i) {
		u32 p = (i - 1) / 2;

		if (s->io[s->heap[p]].finish <= s->io[k].finish)
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = k;
}

static u32 hpop(struct sim *s)
{
	u32 top = s->heap[0], last = s->heap[--s->hn], i = 0;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= s->hn)
			break;
		if (c + 1 < s->hn && s->io[s->heap[c + 1]].finish < s->io[s->heap[c]].finish)
			c++;
		if (s->io[last].finish <= s->io[s->heap[c]].finish)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->hn)
		s->heap[i] = last;
	return top;
}

static void advance(struct sim *s, u64 now)
{
	u64 dt = now - s->last;

	if (s->q.nr)
		s->wtime += dt;
	s->rlen += (u64)s->inflight * dt;
	s->last = now;
}

/* the LUN takes IO @k at @now */
static void below(struct sim *s, u32 k, u64 now)
{
	struct io *io = &s->io[k];
	u64 t = lunq_model_io(&s->m, now, io->sector, BS_SECTORS,
			      io->write ? LUNQ_MD_WRITE : LUNQ_MD_READ, io);

	io->dispatch = now;
	s->inflight++;
	if (t == LUNQ_FINISH_PENDING)
		return;		/* in the drive's queue: its pick decides */
	if (s->nb_delay)
		t = max(t, now + NB_DELAY_NS);
	io->finish = t;
	hpush(s, k);
}

/* the drive's queue (lun_order:sptf): what its free head starts by @now */
static u32 drive_pick(struct sim *s, u64 now)
{
	struct io *io;
	u32 n = 0;
	u64 t;

	while ((io = lunq_model_pick(&s->m, now, &t))) {
		if (s->nb_delay)
			t = max(t, io->dispatch + NB_DELAY_NS);
		io->finish = t;
		hpush(s, io - s->io);
		n++;
	}
	return n;
}

/* lunq dispatches what the depth lets through */
static void kick(struct sim *s, u64 now)
{
	while (s->q.nr && s->inflight < s->depth) {
		struct io *io = container_of(lunq_queue_next(&s->q, now), struct io, w);
		u32 k = io - s->io;
		u64 w = now - io->arrive;

		s->wwin[lunq_hist_index(w)]++;
		s->wsum += w;
		below(s, k, now);
	}
}

/* the load issues an IO at @now */
static void issue(struct sim *s, u64 now)
{
	u32 k = s->freelist[--s->nfree];
	struct io *io = &s->io[k];

	io->arrive = now;
	/* lunqbench's generator: --seekpct's jump, else the next block */
	if (s->seekpct >= 100 || rnd(s) % 100 < s->seekpct)
		io->sector = (rnd(s) % (LOWER_SECTORS / BS_SECTORS)) * BS_SECTORS;
	else
		io->sector = s->next_seq < LOWER_SECTORS ? s->next_seq : 0;
	s->next_seq = io->sector + BS_SECTORS;
	io->write = rnd(s) % 100 >= s->rdpct;
	s->out++;
	if (!s->q.nr && s->inflight < s->depth) {
		/* lunq_host_try_send(): the sort's cursor moves to it */
		s->q.cursor = io->sector;
		s->wwin[lunq_hist_index(0)]++;
		below(s, k, now);
		return;
	}
	io->w.read = !io->write;
	lunq_queue_add(&s->q, &io->w, io->sector, false, now);
}

static void complete(struct sim *s, u64 now)
{
	u32 k = hpop(s);
	struct io *io = &s->io[k];
	u64 svc = now - io->dispatch, resp = now - io->arrive;
	u32 d;

	s->inflight--;
	s->out--;
	s->done++;
	s->ios++;
	s->svc_sum += svc;
	s->win[lunq_hist_index(svc)]++;
	for (d = io->write; d <= 2; d += 2 - io->write) {
		s->svc[d][lunq_hist_index(svc)]++;
		s->resp[d][lunq_hist_index(resp)]++;
		s->resp_max[d] = max(s->resp_max[d], resp);
		s->svc_max[d] = max(s->svc_max[d], svc);
		if (d == 2)
			break;
	}
	s->freelist[s->nfree++] = k;
	kick(s, now);
	if (!s->rate && s->out < s->iodepth)
		issue(s, now);
}

static void win_base(struct sim *s, u64 now)
{
	memset(s->win, 0, sizeof(s->win));
	memset(s->wwin, 0, sizeof(s->wwin));
	s->w_t = now;
	s->w_ios = s->ios;
	s->w_wtime = s->wtime;
	s->w_rlen = s->rlen;
	s->w_svc_sum = s->svc_sum;
	s->w_wsum = s->wsum;
}

static void run_reset(struct sim *s)
{
	memset(s->run, 0, sizeof(s->run));
	s->run_ios = 0;
}

static void set_depth(struct sim *s, u32 d, u64 now)
{
	s->depth = d;
	kick(s, now);
}

/*
 * the window's tick for a BPF policy (kmod/lunq_window.c's lunq_win_work,
 * for a policy from outside, and lunq_pol_dev.c's lunq_policy_ext_tick):
 * a window once LUNQ_WIN_NS has passed since its start, cut as
 * lunq_win_cut() cuts it (percentiles as bucket upper bounds, the least
 * service time as its bucket's lower bound); after an answer that moves
 * the depth, the next tick starts a new window and a new run at the new
 * depth (win_rebase, lunq_win_base()) and gives the policy nothing; the
 * answer clamped and counted (bpf_policy.c)
 */
#define BPF_WIN_NS	(100 * NSEC_PER_MSEC)	/* lunq_window.c's LUNQ_WIN_NS */
static void bpf_tick(struct sim *s, u64 now)
{
	struct bpol_window w = { 0 };
	u64 waited;
	u32 d;

	advance(s, now);
	if (s->rebase) {
		s->rebase = false;
		win_base(s, now);
		run_reset(s);
		return;
	}
	if (now - s->w_t < BPF_WIN_NS)
		return;
	w.v.now = now;
	w.v.depth = s->depth;
	w.v.min = s->b.min;
	w.v.max = s->b.max;
	w.v.in_transport = s->inflight;
	w.ns = now - s->w_t;
	w.ios = lunq_hist_total(s->win);
	w.iops = w.ns ? w.ios * NSEC_PER_SEC / w.ns : 0;
	w.svc_sum_ns = s->svc_sum - s->w_svc_sum;
	w.svc_mean_ns = w.ios ? w.svc_sum_ns / w.ios : 0;
	w.svc_p99_ns = lunq_hist_percentile_upper(s->win, U64_MAX, 990000);
	w.svc_p50_ns = lunq_hist_percentile_upper(s->win, U64_MAX, 500000);
	w.svc_min_ns = lunq_hist_min(s->win);
	if (s->run_ios >= WIN_RUN_IOS)
		run_reset(s);
	s->run_ios = lunq_hist_add(s->run, s->win);
	w.run_ios = s->run_ios;
	w.run_svc_p99_ns = lunq_hist_percentile_upper(s->run, U64_MAX, 990000);
	w.wait_ns = s->wtime - s->w_wtime;
	w.inflight_x1000 = (s->rlen - s->w_rlen) * 1000 / w.ns;
	waited = lunq_hist_total(s->wwin);
	w.lunq_wait_mean_ns = waited ? (s->wsum - s->w_wsum) / waited : 0;
	w.lunq_wait_p99_ns = lunq_hist_percentile_upper(s->wwin, U64_MAX, 990000);
	w.lunq_waiting = s->q.nr;
	if (s->q.nr)
		w.lunq_wait_oldest_ns = now - min(now, lunq_queue_oldest(&s->q));
	win_base(s, now);
	if (!bpol_has_window(&s->b))
		return;
	d = bpol_window(&s->b, &w);
	if (d != s->depth) {
		s->a.moves++;
		set_depth(s, d, now);
		s->rebase = true;	/* a later tick */
	}
}

/* the window's tick (kmod/lunq_window.c's lunq_win_work, for auto) */
static void tick(struct sim *s, u64 now)
{
	struct lunq_auto_sample w = { 0 };
	bool idle = false, ready = false;
	u32 d, was;

	if (s->pol == P_STATIC)
		return;
	if (s->pol == P_BPF) {
		bpf_tick(s, now);
		return;
	}
	advance(s, now);
	if (now < s->a.settle_until) {
		s->rebase = true;
	} else if (s->rebase) {
		s->rebase = false;
		win_base(s, now);
		return;
	} else {
		ready = lunq_auto_window_ready(&s->a, now - s->w_t, s->ios - s->w_ios,
					       s->wtime - s->w_wtime, s->rlen - s->w_rlen,
					       &idle);
		if (idle) {
			d = lunq_auto_idle(&s->a, now);
			if (d != s->depth)
				set_depth(s, d, now);
			win_base(s, now);
			return;
		}
	}
	if (!ready)
		return;
	w.ns = now - s->w_t;
	w.ios = lunq_hist_total(s->win);
	w.svc_sum_ns = s->svc_sum - s->w_svc_sum;
	w.p99_ns = lunq_hist_percentile_upper(s->win, U64_MAX, 990000);
	if (s->run_ios >= WIN_RUN_IOS)
		run_reset(s);
	s->run_ios = lunq_hist_add(s->run, s->win);
	w.run_ios = s->run_ios;
	w.run_p99_ns = lunq_hist_percentile_upper(s->run, U64_MAX, 990000);
	w.wait_ns = s->wtime - s->w_wtime;
	w.inflight_x1000 = w.ns ? (s->rlen - s->w_rlen) * 1000 / w.ns : 0;
	{
		u64 waited = lunq_hist_total(s->wwin);

		w.lwait_mean_ns = waited ? (s->wsum - s->w_wsum) / waited : 0;
	}
	w.lwait_p99_ns = lunq_hist_percentile_upper(s->wwin, U64_MAX, 990000);
	w.waiting = s->q.nr;
	if (s->q.nr)
		w.oldest_ns = now - min(now, lunq_queue_oldest(&s->q));
	win_base(s, now);
	was = s->depth;
	d = lunq_auto_window(&s->a, &w, now);
	if (d != was) {
		set_depth(s, d, now);
		if (now >= s->a.settle_until)
			run_reset(s);
		else
			s->rebase = true;
	}
}

/* a word KEY=VALUE of @words, its value; NULL when absent */
static const char *word(const char *words, const char *key, char *buf, size_t size)
{
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = words; (p = strstr(p, pat)); p++) {
		if (p != words && p[-1] != ' ')
			continue;
		p += strlen(pat);
		n = strcspn(p, " ");
		snprintf(buf, size, "%.*s", (int)min(n, size - 1), p);
		return buf;
	}
	return NULL;
}

static u32 uword(const char *words, const char *key, u32 dflt)
{
	char b[64];

	return word(words, key, b, sizeof(b)) ? strtoul(b, NULL, 10) : dflt;
}

/*
 * The LUN's model from the scenario's words and a phase's (the words of
 * lunqctl create, lunq_args.c's defaults); NULL, or why not simulated
 */
static const char *model_cfg(const char *words, struct lunq_model_cfg *c)
{
	static const char *const unsupported[] = {
		"pool", "foreign", "reset_after", "pblk", "bus_mbps",
	};
	char b[64];
	size_t i;

	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (word(words, unsupported[i], b, sizeof(b)))
			return unsupported[i];
	memset(c, 0, sizeof(*c));
	if (word(words, "sched", b, sizeof(b)) && strcmp(b, "fifo") &&
	    strcmp(b, "disksort"))
		return "sched";
	if (word(words, "lun_order", b, sizeof(b))) {
		if (!strcmp(b, "sptf"))
			c->order = LUNQ_ORDER_SPTF;
		else if (strcmp(b, "fifo"))
			return "lun_order";
	}
	if (!word(words, "model", b, sizeof(b)) || !strcmp(b, "none"))
		return "model none";
	if (!strcmp(b, "flash"))
		c->kind = LUNQ_MODEL_FLASH;
	else if (!strcmp(b, "fixed"))
		c->kind = LUNQ_MODEL_FIXED;
	else if (!strcmp(b, "hdd"))
		c->kind = LUNQ_MODEL_HDD;
	else if (!strcmp(b, "array"))
		c->kind = LUNQ_MODEL_ARRAY;
	else
		return "model";
	if (word(words, "seek_curve", b, sizeof(b))) {
		if (!strcmp(b, "sqrt"))
			c->seek_curve = LUNQ_SEEK_SQRT;
		else if (strcmp(b, "linear"))
			return "seek_curve";
	}
	if (word(words, "destage", b, sizeof(b))) {
		if (!strcmp(b, "cscan"))
			c->destage = LUNQ_DESTAGE_CSCAN;
		else if (strcmp(b, "fifo"))
			return "destage";
	}
	c->spindles = uword(words, "spindles", 8);
	c->stripe_kb = uword(words, "stripe_kb", 64);
	c->spindle_depth = uword(words, "spindle_depth", 32);
	c->wc_high = uword(words, "wc_high", 0);
	c->wc_low = uword(words, "wc_low", 0);
	c->rcache_mb = uword(words, "rcache_mb", 0);
	if (c->spindles < 1 || c->spindles > LUNQ_MAX_SPINDLES || c->stripe_kb < 4 ||
	    c->spindle_depth < 1 || c->spindle_depth > LUNQ_SPINDLE_Q_MAX ||
	    c->wc_low > c->wc_high || c->wc_high > 100 || c->rcache_mb > LUNQ_RC_MAX_MB)
		return "array or cache keys out of range";
	c->svc_us = uword(words, "svc_us", 0);
	c->channels = uword(words, "channels", 1);
	c->mbps = uword(words, "mbps", 0);
	c->seek_ms = uword(words, "seek_ms", 0);
	c->rpm = uword(words, "rpm", 0);
	c->wce = uword(words, "wce", 0);
	c->cache_mb = uword(words, "cache_mb", 0);
	c->pblk = 512;
	c->rmw_x = 1;
	c->capacity = LOWER_SECTORS;
	return NULL;
}

/* the load: lunqbench's --iodepth N and --iorate R; NULL, or why not */
static const char *load_cfg(const char *load, u32 *iodepth, u64 *rate,
			    u32 *rdpct, u32 *seekpct)
{
	char buf[SCN_LINE], *w, *save = NULL;
	bool depth_set = false;

	*iodepth = 1;
	*rate = 0;
	*rdpct = 100;
	*seekpct = 100;
	snprintf(buf, sizeof(buf), "%s", load);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *v = strtok_r(NULL, " ", &save);

		if (!v)
			return w;
		if (!strcmp(w, "--iodepth"))
			*iodepth = strtoul(v, NULL, 10), depth_set = true;
		else if (!strcmp(w, "--rdpct") && strtoul(v, NULL, 10) <= 100)
			*rdpct = strtoul(v, NULL, 10);
		else if (!strcmp(w, "--seekpct") && v[strspn(v, "0123456789")] == 0 &&
			 strtoul(v, NULL, 10) <= 100)
			*seekpct = strtoul(v, NULL, 10);
		else if (!strcmp(w, "--iorate"))
			*rate = strtoull(v, NULL, 10);
		else if (!strcmp(w, "--warmup") && !strcmp(v, "0"))
			;
		else
			return w;
	}
	/* lunqbench: an open loop's most outstanding is 64 by default */
	if (*rate && !depth_set)
		*iodepth = 64;
	if (!*iodepth || *iodepth > MAX_IOS / 2)
		return "--iodepth";
	return NULL;
}

/* why scenario @sc is not simulated yet, or NULL */
static const char *unsupported(const struct scenario *sc)
{
	static char why[128];
	struct lunq_model_cfg c;
	const char *r;
	char words[2 * SCN_LINE];
	u32 i, qd, rdpct, seekpct;
	u64 rate;

	if (sc->luns > 1 || sc->nb[0] || sc->load2[0] || !strcmp(sc->lower, "own"))
		return "more than one LUN or load";
	if (sc->changes == SCN_FOREIGN)
		return "other initiators (changes=foreign)";
	if (strncmp(sc->lat, "resp:", 5) && strncmp(sc->lat, "total", 5) &&
	    strncmp(sc->lat, "service", 7))
		return "a latency of lunq's wait";
	if (strcmp(sc->blat, sc->lat))
		return "a bound on another latency";
	r = load_cfg(sc->load, &qd, &rate, &rdpct, &seekpct);
	if (r) {
		snprintf(why, sizeof(why), "lunqbench's %s", r);
		return why;
	}
	for (i = 0; i < sc->nph; i++) {
		snprintf(words, sizeof(words), "%s %s", sc->lun,
			 sc->changes == SCN_RATE ? "" : sc->phase[i]);
		r = model_cfg(words, &c);
		if (r) {
			snprintf(why, sizeof(why), "the LUN's %s", r);
			return why;
		}
		/* the LUN's slots: no QUEUE FULL while the load cannot fill them */
		if (uword(words, "lun_depth", 0) && uword(words, "lun_depth", 0) < qd)
			return "QUEUE FULL (lun_depth under the load's depth)";
	}
	return NULL;
}

struct result {
	double iops, lat, blat;	/* lat, blat: ns */
	u64 moves;
	u64 answers, zero, below, above;	/* P_BPF: its answers, clamped */
};

/*
 * latency @lat of the run (resp:, total*: arrival to completion, lunq's
 * wait included; service*: lunq's dispatch to completion)
 */
static u64 measure(const struct sim *s, const char *lat)
{
	const char *k = strchr(lat, ':') + 1;
	int d = strstr(lat, "_read:") ? 0 : strstr(lat, "_write:") ? 1 : 2;
	bool svc = !strncmp(lat, "service", 7);
	const u64 *h = svc ? s->svc[d] : s->resp[d];
	u64 mx = svc ? s->svc_max[d] : s->resp_max[d];
	u32 ppm;

	if (!strcmp(k, "max"))
		return mx;
	ppm = (u32)(strtod(k + 1, NULL) * 10000 + 0.5);
	return lunq_hist_percentile(h, mx, ppm);
}

static struct sim S;
/* P_BPF: the policy run() runs (bpf_policy.c's index), its log or NULL */
static int run_bpf = -1;
static FILE *run_bpf_log;

/* the wait queue's order and aging bound from @words (lunq_host_set()) */
static void sched_cfg(struct sim *s, const char *words)
{
	char b[64];

	s->q.mode = word(words, "sched", b, sizeof(b)) && !strcmp(b, "disksort") ?
		    LUNQ_SCHED_DISKSORT : LUNQ_SCHED_FIFO;
	s->q.max_wait_ns = (u64)uword(words, "max_wait_ms", 0) * NSEC_PER_MSEC;
}

/* the read cache's table (lunq_pol_dev.c allocates it with rcache_mb) */
static struct lunq_model_rc_entry rc_table[LUNQ_RC_ENTRIES];

/*
 * One run of @sc: phase @only (0..nph-1) held alone, or (-1) the whole
 * scenario, the policy @pol at depth @depth (the start for auto), each
 * phase @plen_ns long
 */
static struct result run(const struct scenario *sc, int only, enum pol pol,
			 u32 depth, u64 plen_ns, u64 seed)
{
	struct sim *s = &S;
	struct lunq_model_cfg c;
	struct result r = { 0 };
	char words[2 * SCN_LINE];
	u32 nph = only >= 0 ? 1 : sc->nph, ph = 0, i;
	u64 now = 0, end = nph * plen_ns, next_tick = WIN_TICK_NS;
	u64 next_phase = plen_ns, step_done = 0, worst = 0, worst_b = 0;
	double iops_sum = 0;
	bool stalled = false;
	u32 first = only >= 0 ? (u32)only : 0;

	memset(s, 0, sizeof(*s));
	s->sc = sc;
	s->rng = seed * 2654435761ULL + 1;
	s->nb_delay = !strcmp(sc->lower, "nb");
	load_cfg(sc->load, &s->iodepth, &s->rate, &s->rdpct, &s->seekpct);
	snprintf(words, sizeof(words), "%s %s", sc->lun,
		 sc->changes == SCN_RATE ? "" : sc->phase[first]);
	model_cfg(words, &c);
	memset(rc_table, 0, sizeof(rc_table));
	s->m.rc.e = rc_table;
	lunq_model_config(&s->m, &c);
	lunq_queue_init(&s->q);
	sched_cfg(s, words);
	if (sc->changes == SCN_RATE)
		s->rate = strtoull(sc->phase[first] + 5, NULL, 10);
	for (i = 0; i < MAX_IOS; i++)
		s->freelist[s->nfree++] = MAX_IOS - 1 - i;
	s->pol = pol;
	s->depth = depth;
	if (pol == P_BPF) {
		struct bpol_view v = { .now = now, .depth = depth, .min = BPF_MIN, .max = BPF_MAX };

		if (bpol_open(&s->b, run_bpf, seed, run_bpf_log, BPF_MIN, BPF_MAX)) {
			fprintf(stderr, "lunqsim: policy %d: dlopen failed: %s\n", run_bpf, dlerror());
			exit(3);
		}
		s->depth = bpol_start(&s->b, &v);
		win_base(s, now);
	} else if (pol != P_STATIC) {
		struct lunq_auto_cfg ac = {
			.mode = pol == P_KNEE ? LUNQ_AUTO_KNEE : LUNQ_AUTO_TARGET,
			.min = 1, .max = AUTO_MAX, .start = depth,
			.target_ns = (u64)sc->target_ms * NSEC_PER_MSEC,
			.win_ns = AUTO_WIN_NS, .win_ios = AUTO_WIN_IOS,
			.probe_every = AUTO_PROBE_EVERY,
			.rate_ns = AUTO_RATE_NS, .svc_ns = AUTO_SVC_NS,
			.hold_ns = LUNQ_AUTO_HOLD_NS,
			.qhold_ns = LUNQ_AUTO_QHOLD_NS,
			.qhold_max_ns = LUNQ_AUTO_QHOLD_MAX_NS,
			.hold_max_ns = LUNQ_AUTO_HOLD_MAX_NS,
		};

		lunq_auto_init(&s->a, &ac, now);
		s->depth = s->a.depth;
		win_base(s, now);
	}
	if (s->rate)
		s->next_arrival = expo(s, s->rate);
	else
		while (s->out < s->iodepth)
			issue(s, now);
	for (;;) {
		u64 tp = stalled ? U64_MAX : lunq_model_next(&s->m) ?: U64_MAX;
		u64 tc = s->hn ? s->io[s->heap[0]].finish : U64_MAX;
		u64 ta = s->rate ? s->next_arrival : U64_MAX;
		u64 t = min(min(min(tc, ta), min(next_tick, next_phase)), tp);

		if (t >= end && next_phase >= end)
			t = min(t, end);
		if (t >= end)
			break;
		advance(s, t);
		now = t;
		if (tp < now)
			tp = now;
		t = min(t, tp);
		stalled = false;
		if (t == tp) {
			/* a head free with nothing it can start: wait for news */
			stalled = !drive_pick(s, now);
		} else if (t == tc) {
			complete(s, now);
		} else if (t == ta) {
			if (s->out < s->iodepth)
				issue(s, now);
			s->next_arrival = now + expo(s, s->rate);
		} else if (t == next_tick) {
			tick(s, now);
			next_tick += WIN_TICK_NS;
		} else {
			/* the next phase: its words set, or its rate */
			if (sc->changes == SCN_RATE) {
				u64 l = measure(s, sc->lat);

				worst = max(worst, l);
				iops_sum += (double)(s->done - step_done) * NSEC_PER_SEC / plen_ns;
				step_done = s->done;
				memset(s->resp, 0, sizeof(s->resp));
				memset(s->svc, 0, sizeof(s->svc));
				memset(s->resp_max, 0, sizeof(s->resp_max));
				memset(s->svc_max, 0, sizeof(s->svc_max));
			}
			ph++;
			next_phase += plen_ns;
			if (ph < nph) {
				if (sc->changes == SCN_RATE) {
					s->rate = strtoull(sc->phase[ph] + 5, NULL, 10);
				} else {
					snprintf(words, sizeof(words), "%s %s", sc->lun, sc->phase[ph]);
					model_cfg(words, &c);
					lunq_model_config(&s->m, &c);
					sched_cfg(s, words);
					kick(s, now);
				}
			}
		}
	}
	if (sc->changes == SCN_RATE) {
		if (ph < nph) {
			worst = max(worst, measure(s, sc->lat));
			iops_sum += (double)(s->done - step_done) * NSEC_PER_SEC / plen_ns;
		}
		r.iops = iops_sum / nph;
		r.lat = worst;
		worst_b = worst;
		r.blat = worst_b;
	} else {
		r.iops = (double)s->done * NSEC_PER_SEC / end;
		r.lat = measure(s, sc->lat);
		r.blat = measure(s, sc->blat);
	}
	r.moves = s->a.moves;
	if (pol == P_BPF) {
		r.answers = s->b.answers;
		r.zero = s->b.zero;
		r.below = s->b.below;
		r.above = s->b.above;
		bpol_close(&s->b);
	}
	return r;
}

/* arena.sh's better(): no QUEUE FULLs here, so: the bound, then IOPS */
static bool better(const struct result *x, const struct result *b, bool have,
		   double bound)
{
	bool ok, bok;

	if (!have)
		return true;
	ok = !bound || x->blat <= bound;
	bok = !bound || b->blat <= bound;
	if (ok != bok)
		return ok;
	if (!ok)
		return x->blat < b->blat;
	return x->iops > 1.01 * b->iops ||
	       (x->iops >= 0.99 * b->iops && x->lat < 0.95 * b->lat);
}

static u64 sim_ns;	/* simulated time, all runs */

static bool quiet;	/* --random: the distributions only */
#define say(...) do { if (!quiet) printf(__VA_ARGS__); } while (0)

/* a policy's figures in one scenario against the oracle's */
struct score {
	bool ran;
	double iops_r, lat_r;	/* IOPS / the oracle's, latency / the oracle's */
	double score;		/* the arena's: IOPS ratio, or oracle's latency / its */
	u64 answers, zero, above;	/* a BPF policy's answers; of 0, above max */
};

static const char *bpf_log_dir;	/* --bpf-log: a BPF policy's log per run */

/* P_BPF: policy @b's log of its run in @sc (--bpf-log), or NULL */
static FILE *bpf_log(const struct scenario *sc, const char *name)
{
	char path[4096];
	FILE *f;

	if (!bpf_log_dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s.%s.log", bpf_log_dir, sc->name, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "lunqsim: %s: %s\n", path, strerror(errno));
	return f;
}

/*
 * Scenario @sc: the oracle's sweep, then each policy; their figures
 * against the oracle's into @out[policy] (when not NULL).  Returns why it
 * is not simulated yet, or NULL.
 */
static const char *scenario(const struct scenario *sc, const u32 *sweep, u32 nsweep,
			    char **pols, u32 npol, bool quick, u64 seed, struct score *out)
{
	u64 plen = (u64)(quick ? sc->phase_s / 2 : sc->phase_s) * NSEC_PER_SEC;
	double bound = sc->bound_ms * 1e6, o_iops = 0, o_lat = 0;
	bool latobj = sc->goal == SCN_LATENCY;
	u32 i, k, od[SCN_MAX_PHASES];
	const char *why = unsupported(sc);

	say("\n--- %s (", sc->name);
	for (i = 0; i < sc->nph; i++)
		say("%s%s", i ? " -> " : "", sc->phase[i]);
	say(", the policies start at depth %u; objective: %s)\n", sc->start, sc->objective);
	if (why) {
		say("  not simulated yet: %s\n", why);
		return why;
	}
	for (i = 0; i < sc->nph; i++) {
		struct result best = { 0 }, x;
		bool have = false;

		od[i] = 0;
		for (k = 0; k < nsweep; k++) {
			x = run(sc, i, P_STATIC, sweep[k], plen, seed);
			sim_ns += plen;
			if (better(&x, &best, have, bound)) {
				best = x;
				od[i] = sweep[k];
				have = true;
			}
		}
		say("  sweep, %s held: best static depth %u, %.0f IOPS, %s %.2f ms\n",
		       sc->phase[i], od[i], best.iops, sc->lat_name, best.lat / 1e6);
		o_iops += best.iops / sc->nph;
		o_lat = max(o_lat, best.lat);
	}
	say("  %-9s %9s %8s %12s %8s %6s\n", "policy", "IOPS", "/oracle",
	       sc->lat_name, "/oracle", "moves");
	for (k = 0; k < npol; k++) {
		struct result x;
		enum pol p;
		u32 d = sc->start;

		if (!strcmp(pols[k], "knee")) {
			p = P_KNEE;
		} else if (!strcmp(pols[k], "target")) {
			if (!sc->target_ms)
				continue;
			p = P_TARGET;
		} else if ((run_bpf = bpol_find(pols[k])) >= 0) {
			p = P_BPF;
			run_bpf_log = bpf_log(sc, pols[k]);
		} else {
			p = P_STATIC;
			d = strtoul(pols[k] + (pols[k][0] == 'q' ? 1 : 6), NULL, 10);
		}
		x = run(sc, -1, p, d, plen, seed);
		if (p == P_BPF && run_bpf_log) {
			fclose(run_bpf_log);
			run_bpf_log = NULL;
		}
		sim_ns += plen * sc->nph;
		say("  %-9s %9.0f %8.3f %9.2f ms %8.2f %6llu\n", pols[k], x.iops,
		       x.iops / o_iops, x.lat / 1e6, x.lat / o_lat,
		       (unsigned long long)x.moves);
		if (p == P_BPF)
			say("  %-9s %llu answers: %llu of 0, %llu above %u, %llu below 1 (clamped)\n",
			    "", (unsigned long long)x.answers, (unsigned long long)x.zero,
			    (unsigned long long)x.above, BPF_MAX, (unsigned long long)x.below);
		say("score %s %s %.4f\n", sc->name, pols[k],
		       latobj ? o_lat / x.lat : x.iops / o_iops);
		if (out) {
			out[k].ran = true;
			out[k].answers = x.answers;
			out[k].zero = x.zero + x.below;
			out[k].above = x.above;
			out[k].iops_r = o_iops > 0 ? x.iops / o_iops : 1;
			/* against what the objective allows: a bound, or the oracle's */
			double allowed = bound ? max(o_lat, bound) : o_lat;

			out[k].lat_r = allowed > 0 ? x.lat / allowed : x.lat > 0 ? 1e9 : 1;
			out[k].score = latobj ? (x.lat > 0 ? o_lat / x.lat : 1) : out[k].iops_r;
		}
	}
	say("  %-9s %9.0f %8.3f %9.2f ms %8.2f %6s\n", "oracle", o_iops, 1.0,
	       o_lat / 1e6, 1.0, "-");
	say("  (oracle: sweep; its depths per phase:");
	for (i = 0; i < sc->nph; i++)
		say(" %u", od[i]);
	say(")\n");
	return NULL;
}

/*
 * --random: the issue's thresholds for auto (the arena's: auto:target
 * where the scenario has target_ms, auto:knee elsewhere): >= 0.95 of the
 * oracle's IOPS in >= 95% of the scenarios and >= 0.85 in all, its
 * latency <= 1.25 x the oracle's in >= 95%
 */
#define J_IOPS_MOST	0.95
#define J_IOPS_ALL	0.85
#define J_LAT		1.25
#define J_SHARE		0.95
#define J_MAXPOL	16

struct rec {
	u32 index;		/* the scenario's index in the seed */
	struct score p[J_MAXPOL];
	struct score judged;
	const char *kind;
};

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct dist {
	u32 n;
	double med, p10, worst;		/* IOPS: p10 low; latency: p90 high */
	double share;			/* IOPS >= 0.95, latency <= 1.25 */
	double share2;			/* IOPS >= 0.85 */
};

/* @v[@n] sorted: the distribution, @high: bad is high (latency) */
static struct dist distrib(double *v, u32 n, bool high)
{
	struct dist d = { .n = n };
	u32 i, ok = 0, ok2 = 0;

	if (!n)
		return d;
	qsort(v, n, sizeof(*v), dcmp);
	d.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	d.p10 = high ? v[(u32)((n - 1) * 0.9 + 0.5)] : v[(u32)((n - 1) * 0.1 + 0.5)];
	d.worst = high ? v[n - 1] : v[0];
	for (i = 0; i < n; i++) {
		ok += high ? v[i] <= J_LAT : v[i] >= J_IOPS_MOST;
		ok2 += !high && v[i] >= J_IOPS_ALL;
	}
	d.share = (double)ok / n;
	d.share2 = (double)ok2 / n;
	return d;
}

static const struct rec *sort_recs;

/* by auto's IOPS ratio, the lowest first; then by index */
static int by_iops(const void *a, const void *b)
{
	const struct rec *x = &sort_recs[*(const u32 *)a], *y = &sort_recs[*(const u32 *)b];

	if (x->judged.iops_r != y->judged.iops_r)
		return x->judged.iops_r < y->judged.iops_r ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* by auto's latency ratio, the highest first; then by index */
static int by_lat(const void *a, const void *b)
{
	const struct rec *x = &sort_recs[*(const u32 *)a], *y = &sort_recs[*(const u32 *)b];

	if (x->judged.lat_r != y->judged.lat_r)
		return x->judged.lat_r > y->judged.lat_r ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* @kind one of the comma-separated @list */
static bool has_kind(const char *list, const char *kind)
{
	size_t n = strlen(kind);
	const char *p;

	for (p = list; (p = strstr(p, kind)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

/* scenario @i of @seed as a file's text (malloc'd), through scn_write */
static char *gen_text(struct scenario *g, u64 seed, u32 i, const char **kind,
		      const char *extra)
{
	char hdr[1024], *buf = NULL;
	size_t len = 0;
	FILE *m;

	scn_random(g, seed, i, kind);
	snprintf(hdr, sizeof(hdr),
		 "# lunqsim --random N --seed %llu, scenario %u (%s): the format is\n"
		 "# arena/scenarios/README.md; doc/lunqsim.md, \"Random scenarios\"\n%s",
		 (unsigned long long)seed, i, *kind, extra ?: "");
	m = open_memstream(&buf, &len);
	if (!m || scn_write(m, g, hdr) || fclose(m)) {
		fprintf(stderr, "lunqsim: cannot write a scenario in memory\n");
		exit(3);
	}
	return buf;
}

static int put_path(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "lunqsim: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

static int put_file(const char *dir, const char *name, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.scn", dir, name);
	return put_path(path, text);
}

/* @s written again after @a's comment lines: @a itself when it reads back the same */
static bool rewrites(const char *a, const struct scenario *s)
{
	const char *e = strstr(a, "\nname=");
	char *h = strndup(a, e ? (size_t)(e - a + 1) : 0), *b = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&b, &len);
	bool same;

	scn_write(m, s, h);
	fclose(m);
	same = b && !strcmp(a, b);
	free(h);
	free(b);
	return same;
}

/* The most scenarios --random draws (and --worst writes): about a day of CPU. */
#define RANDOM_MAX 100000

/* A decimal number in [lo, hi] for option @opt, or an error on stderr. */
static int num_arg(const char *opt, const char *s, unsigned long long lo,
		   unsigned long long hi, unsigned long long *out)
{
	char *e;

	errno = 0;
	*out = strtoull(s, &e, 10);
	if (*s < '0' || *s > '9' || *e || errno || *out < lo || *out > hi) {
		fprintf(stderr, "lunqsim: %s takes a number %llu..%llu, not '%s'\n",
			opt, lo, hi, s);
		return -1;
	}
	return 0;
}

/* @dir exists (made if missing) and is a writable directory. */
static int out_dir(const char *opt, const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "lunqsim: %s: cannot make %s: %s\n", opt, dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK)) {
		fprintf(stderr, "lunqsim: %s: %s is not a writable directory\n", opt, dir);
		return -1;
	}
	return 0;
}

static int random_judge(u32 n, u64 seed, const u32 *sweep, u32 nsw,
			const char *sweep_txt, char **pols, u32 npol, bool quick,
			const char *save_dir, const char *worst_dir, u32 nworst,
			bool json, const char *kinds)
{
	static struct scenario g, sc;
	struct rec *recs = calloc(n, sizeof(*recs));
	double *v = calloc(n, sizeof(*v));
	u32 *idx = calloc(n, sizeof(*idx));
	char tmp[] = "/tmp/lunqsim-random.XXXXXX";
	u32 i, k, every = n >= 100 ? n / 10 : 0, ix = 0;
	int fd, judge = -1, tk = -1;
	bool pass;
	struct dist ji = { 0 }, jl = { 0 };

	if ((save_dir && out_dir("--save-dir", save_dir)) ||
	    (worst_dir && out_dir("--worst-dir", worst_dir)))
		return 2;
	for (k = 0; k < npol; k++) {
		if (!strcmp(pols[k], "knee"))
			judge = k;
		if (!strcmp(pols[k], "target"))
			tk = k;
	}
	if (judge < 0) {
		fprintf(stderr, "lunqsim: --random judges auto:knee: give knee in --policies\n");
		return 2;
	}
	if (tk < 0)
		fprintf(stderr, "lunqsim: no target in --policies: scenarios with a target_ms (kind bounded) are judged by knee\n");
	if (!recs || !v || !idx) {
		fprintf(stderr, "lunqsim: out of memory\n");
		return 3;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "lunqsim: no temporary file %s: %s\n", tmp, strerror(errno));
		return 3;
	}
	close(fd);
	quiet = true;
	for (i = 0; i < n; i++, ix++) {
		const char *kind, *why;
		char *a = gen_text(&g, seed, ix, &kind, NULL);

		/* --kinds: the others are drawn and passed over */
		if (kinds && !has_kind(kinds, kind)) {
			free(a);
			i--;
			if (ix > 1000 * n) {
				fprintf(stderr, "lunqsim: --kinds %s: none drawn\n", kinds);
				unlink(tmp);
				return 2;
			}
			continue;
		}

		/* the file, read back: what runs is what the file says */
		if (put_path(tmp, a) || scn_read(tmp, &sc, stderr)) {
			fprintf(stderr, "lunqsim: generated scenario %u of seed %llu refused (a generator's bug)\n",
				ix, (unsigned long long)seed);
			unlink(tmp);
			return 3;
		}
		if (!rewrites(a, &sc)) {
			fprintf(stderr, "lunqsim: generated scenario %u of seed %llu reads back differently (a writer's bug)\n",
				ix, (unsigned long long)seed);
			unlink(tmp);
			return 3;
		}
		why = unsupported(&sc);
		if (why) {
			fprintf(stderr, "lunqsim: generated scenario %u of seed %llu not simulated: %s (a generator's bug)\n",
				ix, (unsigned long long)seed, why);
			unlink(tmp);
			return 3;
		}
		if (save_dir && put_file(save_dir, sc.name, a)) {
			unlink(tmp);
			return 3;
		}
		free(a);
		recs[i].kind = kind;
		recs[i].index = ix;
		scenario(&sc, sweep, nsw, pols, npol, quick, seed + ix, recs[i].p);
		recs[i].judged = recs[i].p[sc.target_ms && tk >= 0 ? tk : judge];
		if (every && (i + 1) % every == 0)
			fprintf(stderr, "lunqsim: %u/%u scenarios\n", i + 1, n);
	}
	unlink(tmp);
	quiet = false;
	/* the distributions */
	if (!json) {
		printf("lunqsim --random %u --seed %llu: %u scenarios; phases of %s phase_s; the oracle: the best static depth per phase from a sweep of %s\n",
		       n, (unsigned long long)seed, n, quick ? "half the files'" : "the files'", sweep_txt);
		printf("%-10s %5s | %-34s | %s\n", "", "", "IOPS / the oracle's",
		       "latency / the oracle's");
		printf("%-10s %5s | %7s %7s %7s %5s %5s | %7s %7s %7s %6s\n", "policy", "n",
		       "median", "p10", "worst", ">=.95", ">=.85", "median", "p90", "worst", "<=1.25");
	} else {
		printf("{\"seed\": %llu, \"n\": %u, \"sweep\": \"%s\", \"policies\": {",
		       (unsigned long long)seed, n, sweep_txt);
	}
	for (k = 0; k <= npol; k++) {
		const char *name = k < npol ? pols[k] : "auto";
		struct dist di, dl;
		u32 m = 0;

		for (i = 0; i < n; i++)
			if (k < npol ? recs[i].p[k].ran : recs[i].judged.ran)
				v[m++] = k < npol ? recs[i].p[k].iops_r : recs[i].judged.iops_r;
		di = distrib(v, m, false);
		for (i = m = 0; i < n; i++)
			if (k < npol ? recs[i].p[k].ran : recs[i].judged.ran)
				v[m++] = k < npol ? recs[i].p[k].lat_r : recs[i].judged.lat_r;
		dl = distrib(v, m, true);
		if (k == npol)
			ji = di, jl = dl;
		if (json && !di.n) {
			printf("%s\"%s\": {\"n\": 0}", k ? ", " : "", name);
		} else if (json) {
			printf("%s\"%s\": {\"n\": %u, \"iops_ratio\": {\"median\": %.4f, \"p10\": %.4f, \"worst\": %.4f, \"share_ge_0.95\": %.4f, \"share_ge_0.85\": %.4f}, \"latency_ratio\": {\"median\": %.4f, \"p90\": %.4f, \"worst\": %.4f, \"share_le_1.25\": %.4f}",
			       k ? ", " : "", name, di.n, di.med, di.p10, di.worst, di.share, di.share2,
			       dl.med, dl.p10, dl.worst, dl.share);
			if (k < npol && bpol_find(pols[k]) >= 0) {
				/* a BPF policy's answers, clamped to 1..64 */
				u64 an = 0, z = 0, a = 0;

				for (i = 0; i < n; i++) {
					an += recs[i].p[k].answers;
					z += recs[i].p[k].zero;
					a += recs[i].p[k].above;
				}
				printf(", \"answers\": %llu, \"zero_or_below\": %llu, \"above\": %llu",
				       (unsigned long long)an, (unsigned long long)z,
				       (unsigned long long)a);
			}
			printf("}");
		} else if (!di.n) {
			printf("%-10s %5u | (it runs only where a scenario has target_ms)\n", name, 0);
		} else {
			printf("%-10s %5u | %7.3f %7.3f %7.3f %4.0f%% %4.0f%% | %7.2f %7.2f %7.2f %5.0f%%\n",
			       name, di.n, di.med, di.p10, di.worst, 100 * di.share, 100 * di.share2,
			       dl.med, dl.p10, dl.worst, 100 * dl.share);
		}
	}
	for (k = 0; k < npol && !json; k++) {
		u64 an = 0, z = 0, a = 0;

		if (bpol_find(pols[k]) < 0)
			continue;
		for (i = 0; i < n; i++) {
			an += recs[i].p[k].answers;
			z += recs[i].p[k].zero;
			a += recs[i].p[k].above;
		}
		printf("%-10s answers %llu: %llu of 0 (or below 1), %llu above %u (clamped, as the kernel counts pol_zero, pol_above)\n",
		       pols[k], (unsigned long long)an, (unsigned long long)z,
		       (unsigned long long)a, BPF_MAX);
	}
	pass = ji.share >= J_SHARE && ji.worst >= J_IOPS_ALL && jl.share >= J_SHARE;
	if (json) {
		printf("}, \"judged\": \"auto\", \"pass\": {\"iops_0.95_in_95pct\": %s, \"iops_0.85_in_all\": %s, \"latency_1.25_in_95pct\": %s}}\n",
		       ji.share >= J_SHARE ? "true" : "false", ji.worst >= J_IOPS_ALL ? "true" : "false",
		       jl.share >= J_SHARE ? "true" : "false");
	} else {
		/* auto by kind of scenario: where it misses */
		static const char *kinds[16];
		u32 nk = 0, j;

		for (i = 0; i < n; i++) {
			for (j = 0; j < nk && strcmp(kinds[j], recs[i].kind); j++)
				;
			if (j == nk && nk < 16)
				kinds[nk++] = recs[i].kind;
		}
		printf("auto (the arena's: auto:target where the scenario has target_ms, auto:knee elsewhere), by kind:\n");
		for (j = 0; j < nk; j++) {
			u32 m = 0, ok = 0, okl = 0;
			double w = 1e9, wl = 0;

			for (i = 0; i < n; i++) {
				if (strcmp(recs[i].kind, kinds[j]))
					continue;
				m++;
				ok += recs[i].judged.iops_r >= J_IOPS_MOST;
				okl += recs[i].judged.lat_r <= J_LAT;
				w = min(w, recs[i].judged.iops_r);
				wl = max(wl, recs[i].judged.lat_r);
			}
			printf("  %-28s %5u  IOPS >= 0.95 in %5.1f%%, worst %.3f; latency <= 1.25 in %5.1f%%, worst %.2f\n",
			       kinds[j], m, 100.0 * ok / m, w, 100.0 * okl / m, wl);
		}
		printf("thresholds (auto): IOPS >= %.2f x the oracle's in %.1f%% (>= %.0f%%: %s), >= %.2f in all (worst %.3f: %s), latency <= %.2f x in %.1f%% (>= %.0f%%: %s)\n",
		       J_IOPS_MOST, 100 * ji.share, 100 * J_SHARE, ji.share >= J_SHARE ? "pass" : "FAIL",
		       J_IOPS_ALL, ji.worst, ji.worst >= J_IOPS_ALL ? "pass" : "FAIL",
		       J_LAT, 100 * jl.share, 100 * J_SHARE, jl.share >= J_SHARE ? "pass" : "FAIL");
		printf("judge: %s\n", pass ? "pass" : "FAIL");
	}
	/*
	 * the worst K by auto's IOPS ratio, then the worst K by its latency
	 * ratio (one file for a scenario in both), as files the arena replays
	 */
	if (worst_dir) {
		bool *written = calloc(n, sizeof(*written));
		u32 pass_no, w = 0;

		sort_recs = recs;
		for (pass_no = 0; written && pass_no < 2; pass_no++) {
			for (i = 0; i < n; i++)
				idx[i] = i;
			qsort(idx, n, sizeof(*idx), pass_no ? by_lat : by_iops);
			for (i = 0; i < min(nworst, n); i++) {
				const struct rec *r = &recs[idx[i]];
				char extra[1024], *a;
				const char *kind;

				if (written[idx[i]])
					continue;
				written[idx[i]] = true;
				snprintf(extra, sizeof(extra),
					 "# auto: IOPS %.3f x the oracle's, latency %.2f x (sweep %s, lunqsim seed %llu)\n"
					 "# replay: sim/lunqsim %s--sweep %s --seed %llu FILE\n"
					 "#         make arena ARGS=\"%s--scenario FILE --sweep %s\"\n",
					 r->judged.iops_r, r->judged.lat_r, sweep_txt,
					 (unsigned long long)(seed + r->index), quick ? "--quick " : "",
					 sweep_txt, (unsigned long long)(seed + r->index),
					 quick ? "--quick " : "", sweep_txt);
				a = gen_text(&g, seed, r->index, &kind, extra);
				if (put_file(worst_dir, g.name, a))
					return 3;
				if (!json)
					printf("worst %s %u: %s/%s.scn (%s): IOPS %.3f, latency %.2f\n",
					       pass_no ? "latency" : "IOPS", ++w, worst_dir, g.name,
					       kind, r->judged.iops_r, r->judged.lat_r);
				free(a);
			}
		}
		free(written);
	}
	free(recs);
	free(v);
	free(idx);
	return pass ? 0 : 1;
}

static void usage(FILE *f)
{
	const char *const *k;

	fprintf(f,
		"usage: lunqsim [--quick] [--check] [--policies P,P] [--sweep D,D] [--seed N] [FILE.scn...]\n"
		"       lunqsim --random N [--seed S] [--kinds K,K] [--policies P,P] [--sweep D,D]\n"
		"               [--worst-dir DIR] [--worst K] [--save-dir DIR] [--json]\n"
		"  the arena's scenarios (default arena/scenarios/*.scn) on the host: each\n"
		"  policy (knee, target, static16, qN) and the oracle's sweep of static\n"
		"  depths (4,8,12,16,24,32); --quick: half the phases' length; --check:\n"
		"  only read the files (exit 2 when one is refused)\n"
		"  --random N: N scenarios drawn from seed S (default 1; doc/lunqsim.md,\n"
		"  \"Random scenarios\"), each policy's distribution of IOPS and latency\n"
		"  against the oracle's (sweep default 1,2,4,8,12,16,24,32,48,64,96,128),\n"
		"  auto judged by issue 63's thresholds (exit 1 when it misses one);\n"
		"  --kinds: only these kinds (below); --worst-dir: the worst K\n"
		"  (default 10) by IOPS and the worst K by latency as scenario files;\n"
		"  --save-dir: every scenario as a file;\n"
		"  --json: the distributions as JSON\n"
		"  a policy may be a BPF policy's .bpf.c (built natively, sim/bpf/) or\n"
		"  the .so `make -C sim policy` built: its answers clamped to 1..64 and\n"
		"  counted; --bpf-log DIR: its bpf_printk lines and answers per run\n"
		"  kinds:");
	for (k = scn_random_kinds; *k; k++)
		fprintf(f, " %s", *k);
	fputc('\n', f);
}

static u32 split(char *list, char **out, u32 max)
{
	u32 n = 0;
	char *w, *save = NULL;

	for (w = strtok_r(list, ",", &save); w && n < max; w = strtok_r(NULL, ",", &save))
		out[n++] = w;
	return n;
}

int main(int argc, char **argv)
{
	static struct scenario sc;
	char *pols[16], *sw[16], pdef[] = "knee,target,static16", sdef[] = "4,8,12,16,24,32";
	/* --random: a sweep up to twice the deepest knee drawn (64 channels) */
	char rdef[] = "1,2,4,8,12,16,24,32,48,64,96,128";
	char *plist = pdef, *slist = sdef, *files[64], sweep_txt[256];
	u32 npol, nsw, sweep[16], nfiles = 0, i, bad = 0;
	u64 seed = 1;
	bool quick = false, check = false, json = false, sweep_given = false;
	u32 nrandom = 0, nworst = 10;
	unsigned long long num;
	const char *save_dir = NULL, *worst_dir = NULL, *kinds = NULL;
	struct timespec t0, t1;
	double wall;

	for (i = 1; i < (u32)argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--policies") && i + 1 < (u32)argc)
			plist = argv[++i];
		else if (!strcmp(argv[i], "--sweep") && i + 1 < (u32)argc)
			slist = argv[++i], sweep_given = true;
		else if (!strcmp(argv[i], "--random") && i + 1 < (u32)argc) {
			if (num_arg("--random", argv[++i], 1, RANDOM_MAX, &num))
				return 2;
			nrandom = num;
		} else if (!strcmp(argv[i], "--worst") && i + 1 < (u32)argc) {
			if (num_arg("--worst", argv[++i], 0, RANDOM_MAX, &num))
				return 2;
			nworst = num;
		}
		else if (!strcmp(argv[i], "--worst-dir") && i + 1 < (u32)argc)
			worst_dir = argv[++i];
		else if (!strcmp(argv[i], "--save-dir") && i + 1 < (u32)argc)
			save_dir = argv[++i];
		else if (!strcmp(argv[i], "--bpf-log") && i + 1 < (u32)argc)
			bpf_log_dir = argv[++i];
		else if (!strcmp(argv[i], "--kinds") && i + 1 < (u32)argc)
			kinds = argv[++i];
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--seed") && i + 1 < (u32)argc) {
			if (num_arg("--seed", argv[++i], 0, UINT64_MAX, &num))
				return 2;
			seed = num;
		}
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return usage(stdout), 0;
		else if (argv[i][0] == '-')
			return usage(stderr), 2;
		else if (nfiles < 64)
			files[nfiles++] = argv[i];
	}
	if (nrandom && !sweep_given)
		slist = rdef;
	snprintf(sweep_txt, sizeof(sweep_txt), "%s", slist);
	npol = split(plist, pols, 16);
	for (i = 0; i < npol; i++) {
		size_t len = strlen(pols[i]);
		char *e;

		if (!strcmp(pols[i], "knee") || !strcmp(pols[i], "target"))
			continue;
		if ((len > 6 && !strcmp(pols[i] + len - 6, ".bpf.c")) ||
		    (len > 3 && !strcmp(pols[i] + len - 3, ".so"))) {
			const char *name;
			u32 j;

			/* a BPF policy, run natively (bpf_policy.c); its name */
			if (bpol_load(pols[i], &name) < 0)
				return 2;
			for (j = 0; j < npol; j++)
				if (!strcmp(pols[j], name))
					break;
			if (j < npol || !strcmp(name, "knee") || !strcmp(name, "target") ||
			    ((name[0] == 'q' || !strncmp(name, "static", 6)) &&
			     strspn(name + (name[0] == 'q' ? 1 : 6), "0123456789"))) {
				fprintf(stderr, "lunqsim: %s: its name '%s' is another policy's\n",
					pols[i], name);
				return 2;
			}
			pols[i] = (char *)name;
			continue;
		}
		if ((pols[i][0] == 'q' && strtoul(pols[i] + 1, &e, 10) && !*e) ||
		    (!strncmp(pols[i], "static", 6) && strtoul(pols[i] + 6, &e, 10) && !*e))
			continue;
		if (len > 6 && !strcmp(pols[i] + len - 6, ".bpf.o")) {
			fprintf(stderr, "lunqsim: %s: BPF bytecode, which the VM loads; lunqsim builds the .bpf.c natively: give it that\n",
				pols[i]);
			return 2;
		}
		fprintf(stderr, "lunqsim: unknown policy '%s' (knee, target, staticN, qN, FILE.bpf.c, FILE.so)\n", pols[i]);
		return 2;
	}
	nsw = split(slist, sw, 16);
	for (i = 0; i < nsw; i++) {
		char *e;

		sweep[i] = strtoul(sw[i], &e, 10);
		if (*e || !sweep[i] || sweep[i] > 1024) {
			fprintf(stderr, "lunqsim: --sweep takes depths 1..1024, not '%s'\n", sw[i]);
			return 2;
		}
	}
	if (bpf_log_dir && out_dir("--bpf-log", bpf_log_dir))
		return 2;
	if (kinds) {
		char kl[256], *w, *save = NULL;

		snprintf(kl, sizeof(kl), "%s", kinds);
		for (w = strtok_r(kl, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			const char *const *k;

			for (k = scn_random_kinds; *k && strcmp(*k, w); k++)
				;
			if (!*k) {
				fprintf(stderr, "lunqsim: --kinds: unknown kind '%s' (", w);
				for (k = scn_random_kinds; *k; k++)
					fprintf(stderr, "%s%s", *k, k[1] ? ", " : ")\n");
				return 2;
			}
		}
	}
	if (nrandom || save_dir || worst_dir || json || kinds) {
		struct timespec r0, r1;
		int rc;

		if (!nrandom || nfiles || check) {
			fprintf(stderr, "lunqsim: --save-dir, --worst-dir, --kinds and --json go with --random N (N > 0), without files or --check\n");
			return 2;
		}
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &r0);
		rc = random_judge(nrandom, seed, sweep, nsw, sweep_txt, pols, npol, quick,
				  save_dir, worst_dir, nworst, json, kinds);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &r1);
		if (rc == 2)	/* refused before it ran */
			return rc;
		fprintf(json ? stderr : stdout,
			"lunqsim: %.0f s simulated in %.2f s of CPU\n", sim_ns / 1e9,
			(r1.tv_sec - r0.tv_sec) + (r1.tv_nsec - r0.tv_nsec) / 1e9);
		return rc;
	}
	if (!nfiles) {
		static char names[64][512];
		FILE *ls = popen("ls arena/scenarios/*.scn 2>/dev/null", "r");

		while (ls && nfiles < 64 && fgets(names[nfiles], sizeof(names[0]), ls)) {
			names[nfiles][strcspn(names[nfiles], "\n")] = 0;
			files[nfiles] = names[nfiles];
			nfiles++;
		}
		if (ls)
			pclose(ls);
		if (!nfiles) {
			fprintf(stderr, "lunqsim: no scenario files (give them, or run from the top of the tree)\n");
			return 2;
		}
	}
	for (i = 0; i < nfiles; i++) {
		if (scn_read(files[i], &sc, stderr))
			bad++;
		else if (check)
			printf("%s: %s, %u phase(s)%s%s\n", files[i], sc.name, sc.nph,
			       unsupported(&sc) ? ", not simulated yet: " : "",
			       unsupported(&sc) ?: "");
	}
	if (check)
		return bad ? 2 : 0;
	if (bad) {
		fprintf(stderr, "lunqsim: %u scenario file(s) refused (arena/scenarios/README.md)\n", bad);
		return 2;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	printf("lunqsim: phases of %s phase_s, seed %llu; the oracle: the best static depth per phase from a sweep of %s\n",
	       quick ? "half the files'" : "the files'", (unsigned long long)seed, sweep_txt);
	for (i = 0; i < nfiles; i++) {
		scn_read(files[i], &sc, stderr);
		scenario(&sc, sweep, nsw, pols, npol, quick, seed, NULL);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("\nlunqsim: %.0f s simulated in %.2f s of CPU (%.0fx real time on one core)\n",
	       sim_ns / 1e9, wall, wall > 0 ? sim_ns / 1e9 / wall : 0);
	return 0;
}
