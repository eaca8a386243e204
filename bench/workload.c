// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench: the next IO of a stream.  Size from a weighted list or a
 * stepped range, direction by rdpct, position by vdbench's seekpct
 * (sequential, random, or a mix, in parts per million; or seekpct=eof:
 * sequential once through), random positions aligned and skewed
 * (uniform, zipf over aligned slots, or a hot band), and the vdbench
 * offset= shift added last.  And the --seekpct value's parser.
 */
#include <stdio.h>
#include <string.h>
#include "lb.h"

#define MAX_RANGE_SIZES	(1U << 20)	/* sizes a --bs range may hold */

static _Thread_local char msg[256];

#define FAIL(...) do {						\
	snprintf(msg, sizeof(msg), __VA_ARGS__);			\
	return msg;							\
} while (0)

typedef unsigned long long ull;

static u64 round_up(u64 x, u64 a)
{
	return (x + a - 1) / a * a;
}

static u64 round_down(u64 x, u64 a)
{
	return x / a * a;
}

/* End of the range used: range_hi, or the target's end less the offset. */
static u64 range_end(const struct lb_workload *w, u64 size)
{
	if (w->range_hi)
		return w->range_hi;
	return size > w->offset ? size - w->offset : 0;
}

/* Number of sizes of a --bs range (bs_min + k * bs_step <= bs_max). */
static u64 range_count(const struct lb_workload *w)
{
	if (w->bs_min == w->bs_max || !w->bs_step)
		return 1;
	return (u64)(w->bs_max - w->bs_min) / w->bs_step + 1;
}

/* The largest and the smallest size that can be drawn. */
static void size_bounds(const struct lb_workload *w, u32 *min, u32 *max)
{
	int i;

	if (w->nbs <= 0) {
		*min = w->bs_min;
		*max = w->bs_min + (u32)(range_count(w) - 1) * w->bs_step;
		return;
	}
	*min = ~0U;
	*max = 0;
	for (i = 0; i < w->nbs; i++) {
		if (!w->bs_weight[i])
			continue;
		if (w->bs[i] < *min)
			*min = w->bs[i];
		if (w->bs[i] > *max)
			*max = w->bs[i];
	}
}

/* The aligned positions of a @len-byte IO: first and count (0: none). */
static u64 slots(u64 lo, u64 hi, u32 len, u32 a, u64 *first)
{
	u64 last;

	*first = round_up(lo, a);
	if (hi < len || *first > hi - len)
		return 0;
	last = round_down(hi - len, a);
	return (last - *first) / a + 1;
}

static const char *check_size(const struct lb_workload *w, u32 len, u64 lo,
			      u64 hi, u32 lbs, bool direct)
{
	u32 a = w->align ? w->align : len;
	u64 first;

	if (!len)
		FAIL("--bs: size 0");
	if (direct && len % lbs)
		FAIL("--bs: %u is not a multiple of the device's %u-byte sectors",
		     len, lbs);
	if (len > hi - lo)
		FAIL("--bs: %u-byte IOs do not fit in the %llu-byte range [%llu, %llu)",
		     len, (ull)(hi - lo), (ull)lo, (ull)hi);
	if (!slots(lo, hi, len, a, &first)) {
		if (w->align)
			FAIL("--align: no %u-aligned position for a %u-byte IO in the range [%llu, %llu)",
			     a, len, (ull)lo, (ull)hi);
		FAIL("--range: no %u-aligned position for a %u-byte IO in [%llu, %llu) (random IOs are aligned to their size unless --align is given)",
		     a, len, (ull)lo, (ull)hi);
	}
	return NULL;
}

const char *lb_workload_check(const struct lb_workload *w, u64 size, u32 lbs,
			      bool direct)
{
	u64 lo = w->range_lo, hi, sum = 0, k, n;
	const char *e;
	int i;

	if (!lbs)
		lbs = 512;

	/* --bs */
	if (w->nbs < 0 || w->nbs > LB_MAX_BS)
		FAIL("--bs: %d sizes (at most %d)", w->nbs, LB_MAX_BS);
	for (i = 0; i < w->nbs; i++) {
		if (!w->bs[i])
			FAIL("--bs: size 0");
		if (direct && w->bs[i] % lbs)
			FAIL("--bs: %u is not a multiple of the device's %u-byte sectors",
			     w->bs[i], lbs);
		sum += w->bs_weight[i];
	}
	if (w->nbs > 0 && !sum)
		FAIL("--bs: all weights are 0");
	if (sum > 0xffffffffULL)
		FAIL("--bs: the weights add up to %llu (at most 4294967295)", (ull)sum);
	if (w->nbs == 0) {
		if (!w->bs_min)
			FAIL("--bs: size 0");
		if (w->bs_min > w->bs_max)
			FAIL("--bs: range %u-%u: the minimum is above the maximum",
			     w->bs_min, w->bs_max);
		if (w->bs_min != w->bs_max && !w->bs_step)
			FAIL("--bs: range %u-%u needs a step above 0",
			     w->bs_min, w->bs_max);
		if (direct && (w->bs_min % lbs || w->bs_step % lbs))
			FAIL("--bs: range %u-%u step %u: sizes are not multiples of the device's %u-byte sectors",
			     w->bs_min, w->bs_max, w->bs_step, lbs);
		if (range_count(w) > MAX_RANGE_SIZES)
			FAIL("--bs: range %u-%u step %u holds %llu sizes (at most %u)",
			     w->bs_min, w->bs_max, w->bs_step,
			     (ull)range_count(w), MAX_RANGE_SIZES);
	}

	/* --rdpct, --seekpct */
	if (w->rdpct > 100)
		FAIL("--rdpct: %u is not a percentage (0..100)", w->rdpct);
	if (w->seek_ppm > LB_SEEK_ALL) {
		char pct[32];

		lb_fmt_seekpct(pct, sizeof(pct), w->seek_ppm);
		FAIL("--seekpct: %s is not a percentage (0..100)", pct);
	}
	if (w->seek_eof && w->seek_ppm)
		FAIL("--seekpct: eof is sequential (seek_ppm %u)", w->seek_ppm);

	/* --offset, --align */
	if (w->offset % 512)
		FAIL("--offset: %llu is not a multiple of 512", (ull)w->offset);
	if (direct && w->offset % lbs)
		FAIL("--offset: %llu is not a multiple of the device's %u-byte sectors",
		     (ull)w->offset, lbs);
	if (w->align % 512)
		FAIL("--align: %u is not a multiple of 512", w->align);
	if (direct && w->align % lbs)
		FAIL("--align: %u is not a multiple of the device's %u-byte sectors",
		     w->align, lbs);

	/* --range (and --offset against the target's size) */
	if (!size)
		FAIL("--range: the target has 0 bytes");
	if (w->offset >= size)
		FAIL("--offset: %llu is not below the target's %llu bytes",
		     (ull)w->offset, (ull)size);
	hi = range_end(w, size);
	if (direct && (lo % lbs || hi % lbs))
		FAIL("--range: [%llu, %llu) is not on the device's %u-byte sectors",
		     (ull)lo, (ull)hi, lbs);
	if (hi > size - w->offset) {
		if (w->offset)
			FAIL("--range: the end %llu plus --offset %llu is beyond the target's %llu bytes",
			     (ull)hi, (ull)w->offset, (ull)size);
		FAIL("--range: the end %llu is beyond the target's %llu bytes",
		     (ull)hi, (ull)size);
	}
	if (lo >= hi)
		FAIL("--range: [%llu, %llu) is empty", (ull)lo, (ull)hi);

	/* every size fits, with an aligned random position */
	if (w->nbs > 0) {
		for (i = 0; i < w->nbs; i++) {
			if (!w->bs_weight[i])
				continue;
			e = check_size(w, w->bs[i], lo, hi, lbs, direct);
			if (e)
				return e;
		}
	} else {
		n = range_count(w);
		for (k = 0; k < n; k++) {
			e = check_size(w, w->bs_min + (u32)k * w->bs_step, lo, hi,
				       lbs, direct);
			if (e)
				return e;
		}
	}

	/* --zipf, --hot */
	switch (w->skew) {
	case LB_SKEW_NONE:
		break;
	case LB_SKEW_ZIPF:
		if (!(w->zipf_theta > 0 && w->zipf_theta <= 100) ||
		    w->zipf_theta == 1)
			FAIL("--zipf: theta %g must be above 0, at most 100, and not 1",
			     w->zipf_theta);
		break;
	case LB_SKEW_HOT:
		if (w->hot_pct < 1 || w->hot_pct > 100)
			FAIL("--hot: the band, %u %% of the range, is not in 1..100",
			     w->hot_pct);
		if (w->hot_io_pct > 100)
			FAIL("--hot: the IO share %u %% is not in 0..100",
			     w->hot_io_pct);
		break;
	default:
		FAIL("--zipf/--hot: unknown skew %d", (int)w->skew);
	}
	return NULL;
}

void lb_gen_init(struct lb_gen *g, const struct lb_workload *w, u64 size,
		 u32 stream, u32 streams, u64 seed)
{
	u32 min, max, a;
	u64 span, start, first;
	int i;

	memset(g, 0, sizeof(*g));
	g->w = w;
	g->size = size;
	lb_rng_seed(&g->rng, seed + stream);
	for (i = 0; i < w->nbs; i++)
		g->bs_total_weight += w->bs_weight[i];
	size_bounds(w, &min, &max);
	g->lo = w->range_lo;
	g->hi = range_end(w, size);
	g->grain = a = w->align ? w->align : min;
	if (w->skew == LB_SKEW_ZIPF)
		lb_zipf_init(&g->zipf, slots(g->lo, g->hi, min, a, &first),
			     w->zipf_theta);

	/* stream k starts at k/streams of the range, on the grain */
	span = g->hi - g->lo;
	if (!streams)
		streams = 1;
	stream %= streams;
	start = span / streams * stream + span % streams * stream / streams;
	g->next_seq = round_down(start, a);
	g->seq_end = span;
	if (stream + 1 < streams) {
		u64 k = stream + 1;

		g->seq_end = round_down(span / streams * k + span % streams * k / streams, a);
	}
}

static u32 next_size(struct lb_gen *g)
{
	const struct lb_workload *w = g->w;
	u64 x;
	int i;

	if (w->nbs <= 0)
		return w->bs_min + (u32)lb_rng_below(&g->rng, range_count(w)) *
				   w->bs_step;
	if (w->nbs == 1)
		return w->bs[0];
	x = lb_rng_below(&g->rng, g->bs_total_weight);
	for (i = 0; i < w->nbs - 1; i++) {
		if (x < w->bs_weight[i])
			return w->bs[i];
		x -= w->bs_weight[i];
	}
	return w->bs[w->nbs - 1];
}

/* A random position for a @len-byte IO (range coordinates, no offset). */
static u64 random_pos(struct lb_gen *g, u32 len)
{
	const struct lb_workload *w = g->w;
	u32 a = w->align ? w->align : len;
	u64 first, n = slots(g->lo, g->hi, len, a, &first), hot, pos, zfirst;

	if (!n)		/* lb_workload_check rejects this */
		return g->lo;
	switch (w->skew) {
	case LB_SKEW_ZIPF:
		/* rank r is the r-th grain slot of the range, snapped down
		 * to this IO's alignment and kept inside its positions */
		zfirst = round_up(g->lo, g->grain);
		pos = zfirst + lb_zipf_next(&g->zipf, &g->rng) * g->grain;
		pos = round_down(pos, a);
		if (pos < first)
			pos = first;
		if (pos > first + (n - 1) * a)
			pos = first + (n - 1) * a;
		return pos;
	case LB_SKEW_HOT:
		hot = n * w->hot_pct / 100;
		if (!hot)
			hot = 1;
		if (hot < n && lb_rng_below(&g->rng, 100) >= w->hot_io_pct)
			return first + (hot + lb_rng_below(&g->rng, n - hot)) * a;
		return first + lb_rng_below(&g->rng, hot < n ? hot : n) * a;
	default:
		return first + lb_rng_below(&g->rng, n) * a;
	}
}

/* Does this IO jump (vdbench seekpct)?  A whole percentage draws below
 * 100 (the draws of the versions before seek_ppm), any other below 10^6. */
static bool seek_jump(struct lb_gen *g)
{
	u32 ppm = g->w->seek_ppm;

	if (ppm >= LB_SEEK_ALL)
		return true;
	if (!ppm)
		return false;
	if (!(ppm % (LB_SEEK_ALL / 100)))
		return lb_rng_below(&g->rng, 100) < ppm / (LB_SEEK_ALL / 100);
	return lb_rng_below(&g->rng, LB_SEEK_ALL) < ppm;
}

bool lb_gen_next(struct lb_gen *g, struct lb_io *io)
{
	const struct lb_workload *w = g->w;
	u32 len;
	u64 pos;

	if (g->ended)
		return false;
	len = next_size(g);
	io->write = w->rdpct >= 100 ? false :
		    w->rdpct == 0 ? true :
		    lb_rng_below(&g->rng, 100) >= w->rdpct;
	if (seek_jump(g)) {
		pos = random_pos(g, len);
	} else if (w->seek_eof) {
		if (g->next_seq + len > g->seq_end) {
			g->ended = true;
			return false;
		}
		pos = g->lo + g->next_seq;
	} else {
		pos = g->lo + g->next_seq;
		if (pos + len > g->hi)
			pos = g->lo;
	}
	g->next_seq = pos + len - g->lo;
	io->off = pos + w->offset;
	io->len = len;
	return true;
}

/* ---- --seekpct ----------------------------------------------------------- */

int lb_parse_seekpct(const char *s, u32 *ppm, bool *eof)
{
	u64 whole = 0, frac = 0;
	int nint = 0, nfrac = 0;
	const char *p = s;

	if (!strcmp(s, "eof")) {
		*ppm = 0;
		*eof = true;
		return 0;
	}
	for (; *p >= '0' && *p <= '9'; p++, nint++)
		if (whole <= 1000)
			whole = whole * 10 + (u64)(*p - '0');
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, nfrac++) {
			if (nfrac < 4)
				frac = frac * 10 + (u64)(*p - '0');
			else if (*p != '0')
				return -3;
		}
		if (!nfrac)
			return -1;
	}
	if (*p || (!nint && !nfrac))
		return -1;
	for (int i = nfrac; i < 4; i++)
		frac *= 10;
	if (whole > 100 || (whole == 100 && frac))
		return -2;
	*ppm = (u32)(whole * (LB_SEEK_ALL / 100) + frac);
	*eof = false;
	return 0;
}

void lb_fmt_seekpct(char *buf, size_t n, u32 ppm)
{
	u32 frac = ppm % (LB_SEEK_ALL / 100);
	int len = snprintf(buf, n, "%u.%04u", ppm / (LB_SEEK_ALL / 100), frac);

	/* drop trailing zeros, and the point when nothing is left after it */
	while (len > 0 && (size_t)len < n && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len > 0 && (size_t)len < n && buf[len - 1] == '.')
		buf[--len] = '\0';
}
