/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqbench: types and the pure parts' interfaces.
 *
 * Pure parts (libc only, unit-tested in tests/unit/bench_*_test.c):
 *   rng.c       xoshiro256** PRNG, uniform/exponential/zipf draws
 *   workload.c  the next IO of a stream: size, direction, position
 *               (seekpct, range, offset, align, zipf / hot band)
 *   arrival.c   open-loop arrival schedules (Poisson, uniform, fixed)
 *   verify.c    verify headers: fill a write buffer, check a read buffer
 * Plumbing:
 *   options.c       the option table: parser, defaults, --help
 *   presets.c       the presets, as option settings
 *   lunqbench.c     targets, jobs, workers, run loop, main
 *   engine.c        what the engines share (waits, IO accounting)
 *   engine_uring.c  io_uring engine (liburing), batched submit/reap
 *   engine_sync.c   synchronous threads (pread/pwrite), vdbench style
 *   report.c        interval lines, summary, histograms, JSON, key=value
 *
 * Time is integer ns of CLOCK_MONOTONIC everywhere.  Latency (design
 * notes, "Load generator latency"): t_sched (arrival schedule in open
 * loop; slot free time in closed loop), t_sub (just before the submit
 * call), t_done (completion reaped): service = t_done - t_sub, lag =
 * t_sub - t_sched, response = t_done - t_sched.
 */
#ifndef LUNQBENCH_LB_H
#define LUNQBENCH_LB_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef uint32_t u32;
typedef uint64_t u64;

/* ---- rng.c --------------------------------------------------------------- */

struct lb_rng {
	u64 s[4];
};

/* Seed from one number (splitmix64 expansion); the same seed, the same run. */
void lb_rng_seed(struct lb_rng *r, u64 seed);
u64 lb_rng_next(struct lb_rng *r);
/* Uniform in [0, n) (n > 0), without modulo bias. */
u64 lb_rng_below(struct lb_rng *r, u64 n);
/* Uniform double in [0, 1). */
double lb_rng_unit(struct lb_rng *r);
/* Exponential with mean @mean (inverse transform; no libm: own log()). */
double lb_rng_exp(struct lb_rng *r, double mean);

/* libm stand-ins (relative error about 1e-15): natural log (x > 0), e^x,
 * x^y (x >= 0), and the generalized harmonic number
 * zeta(n, theta) = sum_{i=1..n} i^-theta (Euler-Maclaurin tail beyond
 * 1024 terms, so large n cost no more than n = 1024). */
double lb_log(double x);
double lb_exp(double x);
double lb_pow(double x, double y);
double lb_zeta(u64 n, double theta);

/* Zipf over [0, n) with exponent theta (0 < theta, theta != 1): rank 0 most
 * popular, P(0) = 1/zeta(n, theta), P(1) = 2^-theta/zeta(n, theta), the
 * other ranks by Gray's approximation.  theta == 1 is taken as 1 - 1e-6
 * (lb_workload_check rejects it).  Precomputes constants (Gray et al.,
 * "Quickly generating billion-record synthetic databases"). */
struct lb_zipf {
	u64 n;
	double theta, alpha, zetan, eta, zeta2;
};
void lb_zipf_init(struct lb_zipf *z, u64 n, double theta);
u64 lb_zipf_next(const struct lb_zipf *z, struct lb_rng *r);

/* ---- workload.c ---------------------------------------------------------- */

#define LB_MAX_BS	16
#define LB_SEEK_ALL	1000000U	/* seek_ppm of seekpct 100 */

/* Skew of random positions (sequential IOs are not skewed). */
enum lb_skew {
	LB_SKEW_NONE,		/* uniform over the range */
	LB_SKEW_ZIPF,		/* zipf over aligned slots, theta: rank r is the
				 * r-th slot from the range's start (no
				 * scramble: the popular data is at the start) */
	LB_SKEW_HOT,		/* hot band: hot_io_pct % of random IOs land in
				 * the first hot_pct % of the range, the others
				 * in the rest of it */
};

struct lb_workload {
	/* sizes: a list with weights (nbs >= 1), or a range bs_min..bs_max
	 * in steps of bs_step (nbs == 0) */
	u32 bs[LB_MAX_BS], bs_weight[LB_MAX_BS];
	int nbs;
	u32 bs_min, bs_max, bs_step;
	u32 rdpct;		/* 0..100: share of reads */
	/* vdbench seekpct in parts per million of the IOs (LB_SEEK_ALL =
	 * 100 %): 0 sequential, LB_SEEK_ALL every IO at a new random
	 * position, n: each IO jumps with probability n / LB_SEEK_ALL, else
	 * continues where the stream's previous IO ended (wrapping at the
	 * range end).  A whole percentage takes one draw below 100, so a
	 * seed's IOs at a whole percentage do not depend on the ppm grain. */
	u32 seek_ppm;
	/* vdbench seekpct=eof: sequential (seek_ppm 0), and the stream ends
	 * at the end of its part of the range instead of wrapping */
	bool seek_eof;
	u64 range_lo, range_hi;	/* bytes of the target used: [lo, hi);
				 * range_hi 0: the target's size - offset */
	u64 offset;		/* bytes added to every position (512-multiple):
				 * the vdbench alignment shift; the range plus
				 * the offset must stay inside the target */
	u32 align;		/* random positions are multiples (0: the IO size);
				 * a 512-multiple.  Slots for zipf: the range's
				 * align-multiples (align 0: multiples of the
				 * smallest size) */
	enum lb_skew skew;
	double zipf_theta;
	u32 hot_pct, hot_io_pct;
};

/* One IO as the generator makes it. */
struct lb_io {
	u64 off;		/* bytes from the target's start, offset included */
	u32 len;
	bool write;
};

/* A stream's generator (one per thread / per io_uring submitter). */
struct lb_gen {
	const struct lb_workload *w;
	struct lb_rng rng;
	struct lb_zipf zipf;
	u64 next_seq;		/* where a sequential IO continues, bytes from
				 * lo; one that would pass hi starts at lo */
	u64 size;		/* target bytes */
	u32 bs_total_weight;
	u64 lo, hi;		/* the range in use (range_hi 0 resolved) */
	u32 grain;		/* align, or the smallest size when align is 0 */
	u64 seq_end;		/* seek_eof: the end of the stream's slice,
				 * bytes from lo */
	bool ended;		/* seek_eof: the slice is done */
};

/*
 * Check @w against a target of @size bytes and a sector size of @lbs
 * (0: 512; O_DIRECT needs sizes, offsets, range and align multiple of it
 * when @direct).  NULL when consistent, else a message naming the option
 * ("--bs: 1000 is not a multiple of the device's 512-byte sectors"), in a
 * per-thread static buffer: do not free, valid until the next call.
 * Every size must fit in the range with at least one aligned position.
 */
const char *lb_workload_check(const struct lb_workload *w, u64 size, u32 lbs,
			      bool direct);

/*
 * Start stream @stream (0..) of @w on a target of @size bytes; streams
 * of one run start their sequential position spread over the range
 * (stream k at k/streams of it, rounded down to the grain) and draw from
 * seed + stream.  With seek_eof, stream k's slice ends where stream k + 1
 * starts (the last at the range's end): the streams of a job together
 * cover the range once.  @w must have passed lb_workload_check and must
 * outlive @g (it is not copied).
 */
void lb_gen_init(struct lb_gen *g, const struct lb_workload *w, u64 size,
		 u32 stream, u32 streams, u64 seed);

/* The next IO of the stream; false (and @io not set) when a seek_eof
 * stream has ended: the next IO would pass the end of its slice. */
bool lb_gen_next(struct lb_gen *g, struct lb_io *io);

/*
 * Parse a --seekpct value: "eof", or a percentage 0..100 with at most 4
 * decimals (more are allowed when they are zeros): the resolution is
 * 1 ppm, 0.0001 %.  0: ok, *@ppm and *@eof set; -1: not a number or eof;
 * -2: out of 0..100; -3: finer than 0.0001 %.
 */
int lb_parse_seekpct(const char *s, u32 *ppm, bool *eof);

/* @ppm as a percentage with no trailing zeros ("0.01", "100", "12.5"). */
void lb_fmt_seekpct(char *buf, size_t n, u32 ppm);

/* ---- arrival.c ----------------------------------------------------------- */

enum lb_arrival {
	LB_ARR_CLOSED,		/* --iorate max: next IO when a slot frees */
	LB_ARR_POISSON,		/* exponential gaps, mean 1/rate */
	LB_ARR_UNIFORM,		/* gaps uniform in [0, 2/rate) */
	LB_ARR_FIXED,		/* gaps exactly 1/rate */
	LB_ARR_BURST,		/* "burst" arrivals at once, every burst/rate */
};

struct lb_sched {
	enum lb_arrival kind;
	double gap_ns;		/* mean gap */
	double t;		/* next arrival, ns (fractional, no drift) */
	struct lb_rng rng;
	u64 t0;			/* the start */
	double rel;		/* next arrival - t0, ns: the exact schedule */
	u64 n;			/* arrivals handed out */
	u32 burst;		/* LB_ARR_BURST: arrivals per burst (>= 1) */
};

/* Arrivals at @rate IOs per second from @t0 (ns); LB_ARR_BURST: in
 * bursts of @burst (arrival n at t0 + floor(n / burst) * burst / rate). */
void lb_sched_init(struct lb_sched *s, enum lb_arrival kind, double rate,
		   u64 t0, u64 seed);
void lb_sched_burst(struct lb_sched *s, u32 burst);
/* The next arrival time (ns, rounded to nearest), increasing or equal.
 * The first is t0 itself, then t0 plus the sum of the gaps (fixed: arrival
 * n at t0 + n * 1e9/rate to 1 ns, a product, not a running sum).
 * LB_ARR_CLOSED or a rate <= 0: always t0. */
u64 lb_sched_next(struct lb_sched *s);

/* ---- verify.c ------------------------------------------------------------ */

/*
 * Verify mode: every 512-byte sector a write carries begins with a
 * header, the rest is a pattern drawn from (seed, sector, seq):
 *   u32 magic "LQB1", u32 crc32c of the sector with this field zero,
 *   u64 sector (absolute, 512-byte units, of this sector on the target),
 *   u64 seq (write sequence number, >= 1), u64 seed
 * A read sector checks: magic, crc, sector == its own position, seed ==
 * the run's seed; and when the caller knows which write it must see,
 * seq == that one.
 */
#define LB_VERIFY_MAGIC	0x3142514cU	/* "LQB1" little-endian */

enum lb_verify_err {
	LB_VERIFY_OK,
	LB_VERIFY_MAGIC_BAD,	/* never written by lunqbench, or garbage */
	LB_VERIFY_CRC_BAD,	/* torn or corrupted */
	LB_VERIFY_SECTOR_BAD,	/* data of another sector: misdirected IO */
	LB_VERIFY_SEED_BAD,	/* written by another run */
	LB_VERIFY_SEQ_BAD,	/* an older (lost write) or unexpected version */
};

/* Fill @len bytes (a 512-multiple) of a write at byte @off (a
 * 512-multiple; sector numbers are @off / 512 onwards).  Fields are stored
 * little-endian on every host. */
void lb_verify_fill(void *buf, u32 len, u64 off, u64 seq, u64 seed);

/*
 * Check @len bytes read at @off.  @want_seq: NULL (any seq), or an array
 * of @len / 512 entries, want_seq[i] the write sequence the i-th sector
 * must carry (an entry 0: any).  Checks per sector in this order: magic,
 * crc, sector, seed, seq.  Returns LB_VERIFY_OK or the first error, with
 * the failing sector (absolute, 512-byte units) in *@bad_sector and the
 * seq its header holds in *@got_seq (0 for MAGIC_BAD; for CRC_BAD the
 * unverified header's value).  Either pointer may be NULL.
 */
enum lb_verify_err lb_verify_check(const void *buf, u32 len, u64 off,
				   u64 seed, const u64 *want_seq,
				   u64 *bad_sector, u64 *got_seq);

const char *lb_verify_strerror(enum lb_verify_err e);

/* crc32c (Castagnoli), software (slicing-by-8).  @crc: 0 to start, or a
 * previous result to continue (pre- and post-inverted inside, so
 * lb_crc32c(0, "123456789", 9) == 0xE3069283). */
u32 lb_crc32c(u32 crc, const void *buf, size_t len);

#endif /* LUNQBENCH_LB_H */
