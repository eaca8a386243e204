// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of tests/tools/logwrites.c, the dm-log-writes reader and
 * replayer behind replaylog: logs it writes itself in the kernel's
 * format (drivers/md/dm-log-writes.c), at sectorsize 512 and 4096, are
 * listed and replayed onto a file up to each flush point; damaged and
 * truncated logs are refused with a message naming the entry.
 * One "ok N name" / "not ok N name" line per check.
 *
 * LINK: tests/tools/logwrites.c
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../tools/logwrites.h"

#define TAP_PREFIX "replaylog-"
#include "tap.h"

static void put64(unsigned char *b, uint64_t v)
{
	v = htole64(v);
	memcpy(b, &v, 8);
}

/* The test log: the next block is off; data follows its entry's block. */
struct tlog {
	FILE *f;
	uint32_t ss;
	uint64_t entries, off;	/* off: next block */
};

static void t_entry(struct tlog *t, uint64_t sector, uint64_t nr,
		    uint64_t flags, const char *name, unsigned char fill)
{
	unsigned char *b = calloc(1, t->ss);
	size_t nl = name ? strlen(name) : 0;

	put64(b, sector);
	put64(b + 8, nr);
	put64(b + 16, flags);
	put64(b + 24, nl);
	memcpy(b + 32, name ? name : "", nl);
	fseek(t->f, (long)(t->off * t->ss), SEEK_SET);
	fwrite(b, 1, t->ss, t->f);
	t->off++;
	t->entries++;
	if (nr && !(flags & (LW_DISCARD | LW_MARK))) {
		unsigned char *d = malloc(nr * t->ss);

		memset(d, fill, nr * t->ss);
		fwrite(d, 1, nr * t->ss, t->f);
		free(d);
		t->off += nr;
	}
	free(b);
}

static void t_super(struct tlog *t, uint64_t magic, uint64_t entries)
{
	unsigned char b[32] = { 0 };
	uint32_t ss = htole32(t->ss);

	put64(b, magic);
	put64(b + 8, LW_VERSION);
	put64(b + 16, entries);
	memcpy(b + 24, &ss, 4);
	fseek(t->f, 0, SEEK_SET);
	fwrite(b, 1, sizeof(b), t->f);
	fflush(t->f);
}

/*
 * The standard log: 0 write s0..1 'A'; 1 write s4 'B'; 2 mark "m1";
 * 3 flush (no data); 4 discard s0..1; 5 write s2 'C' FLUSH|FUA|META;
 * 6 write s5 'D'.  Flush points: entries 3 and 5.
 */
static FILE *std_log(uint32_t ss)
{
	struct tlog t = { .f = tmpfile(), .ss = ss, .off = 1 };

	t_entry(&t, 0, 2, 0, NULL, 'A');
	t_entry(&t, 4, 1, 0, NULL, 'B');
	t_entry(&t, 0, 0, LW_MARK, "m1", 0);
	t_entry(&t, 0, 0, LW_FLUSH, NULL, 0);
	t_entry(&t, 0, 2, LW_DISCARD, NULL, 0);
	t_entry(&t, 2, 1, LW_FLUSH | LW_FUA | LW_METADATA, NULL, 'C');
	t_entry(&t, 5, 1, 0, NULL, 'D');
	t_super(&t, LW_MAGIC, t.entries);
	return t.f;
}

/* replay entries until the @k-th flush point onto a fresh 8-sector file */
static int replay_to(FILE *logf, int k, unsigned char *img, uint32_t ss,
		     char *err, size_t errlen)
{
	struct lw_log log;
	struct lw_entry e;
	FILE *dst = tmpfile();
	int r, points = 0;

	memset(img, 'x', 8 * ss);
	fwrite(img, 1, 8 * ss, dst);
	fflush(dst);
	if (lw_open(&log, fileno(logf))) {
		snprintf(err, errlen, "%s", log.err);
		fclose(dst);
		return -1;
	}
	while ((r = lw_next(&log, &e)) > 0) {
		if (lw_apply(&log, &e, fileno(dst))) {
			r = -1;
			break;
		}
		if (lw_is_flush_point(&e) && ++points == k)
			break;
	}
	if (r < 0)
		snprintf(err, errlen, "%s", log.err);
	pread(fileno(dst), img, 8 * ss, 0);
	fclose(dst);
	return r < 0 ? -1 : points;
}

/* sector @s of @img is all @c */
static int sec_is(const unsigned char *img, uint32_t ss, int s, unsigned char c)
{
	uint32_t i;

	for (i = 0; i < ss; i++)
		if (img[(size_t)s * ss + i] != c)
			return 0;
	return 1;
}

static void test_replay(uint32_t ss)
{
	unsigned char *img = malloc(8 * ss);
	char name[64], err[256];
	FILE *f = std_log(ss);
	struct lw_log log;
	struct lw_entry e;
	int r, count = 0, marks = 0, points = 0;
	char fl[64];

	/* listing: 7 entries, the mark's name, the flags */
	r = lw_open(&log, fileno(f));
	ok(!r && log.nr_entries == 7 && log.sectorsize == ss,
	   ss == 512 ? "super-512" : "super-4096");
	while ((r = lw_next(&log, &e)) > 0) {
		count++;
		marks += (e.flags & LW_MARK) && !strcmp(e.mark, "m1") && e.index == 2;
		points += lw_is_flush_point(&e);
		if (e.index == 5)
			lw_flag_names(e.flags, fl, sizeof(fl));
	}
	snprintf(name, sizeof(name), "list-%u", ss);
	ok(r == 0 && count == 7 && marks == 1 && points == 2 &&
	   !strcmp(fl, "FLUSH|FUA|META"), name);

	/* to flush point 1: A A x x B x x x (the discard comes after) */
	r = replay_to(f, 1, img, ss, err, sizeof(err));
	snprintf(name, sizeof(name), "replay-flush1-%u", ss);
	ok(r == 1 && sec_is(img, ss, 0, 'A') && sec_is(img, ss, 1, 'A') &&
	   sec_is(img, ss, 2, 'x') && sec_is(img, ss, 4, 'B') &&
	   sec_is(img, ss, 5, 'x'), name);

	/* to flush point 2: 0 0 C x B x x x (discard zeroed, D not yet) */
	r = replay_to(f, 2, img, ss, err, sizeof(err));
	snprintf(name, sizeof(name), "replay-flush2-%u", ss);
	ok(r == 2 && sec_is(img, ss, 0, 0) && sec_is(img, ss, 1, 0) &&
	   sec_is(img, ss, 2, 'C') && sec_is(img, ss, 4, 'B') &&
	   sec_is(img, ss, 5, 'x'), name);

	/* the whole log: D at sector 5 */
	r = replay_to(f, 99, img, ss, err, sizeof(err));
	snprintf(name, sizeof(name), "replay-all-%u", ss);
	ok(r == 2 && sec_is(img, ss, 5, 'D') && sec_is(img, ss, 6, 'x'), name);
	fclose(f);
	free(img);
}

/* a damaged log: lw_open or lw_next fails and the message says @want */
static void expect_err(FILE *f, const char *want, const char *name)
{
	struct lw_log log;
	struct lw_entry e;
	int r = lw_open(&log, fileno(f));

	if (!r)
		while ((r = lw_next(&log, &e)) > 0)
			;
	if (r >= 0 || !strstr(log.err, want))
		diag("%s: r=%d err \"%s\", want \"%s\"", name, r, log.err, want);
	ok(r < 0 && strstr(log.err, want), name);
	fclose(f);
}

static void test_damaged(void)
{
	struct tlog t;
	FILE *f;
	long len;

	/* truncated in the data of the last entry */
	f = std_log(512);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	ftruncate(fileno(f), len - 100);
	expect_err(f, "entry 6: truncated log", "truncated-data");

	/* the super counts more entries than there are */
	t = (struct tlog){ .f = tmpfile(), .ss = 512, .off = 1 };
	t_entry(&t, 0, 1, 0, NULL, 'A');
	t_super(&t, LW_MAGIC, 3);
	expect_err(t.f, "entry 1: truncated log", "truncated-entries");

	/* not a log */
	t = (struct tlog){ .f = tmpfile(), .ss = 512, .off = 1 };
	t_entry(&t, 0, 1, 0, NULL, 'A');
	t_super(&t, 0x1234, 1);
	expect_err(t.f, "not a dm-log-writes log", "bad-magic");

	/* empty file */
	expect_err(tmpfile(), "cannot read the super", "empty");

	/* unknown flags */
	t = (struct tlog){ .f = tmpfile(), .ss = 512, .off = 1 };
	t_entry(&t, 0, 1, 1 << 9, NULL, 'A');
	t_super(&t, LW_MAGIC, 1);
	expect_err(t.f, "entry 0: unknown flags", "unknown-flags");

	/* bad sectorsize */
	t = (struct tlog){ .f = tmpfile(), .ss = 1000, .off = 1 };
	t_entry(&t, 0, 1, 0, NULL, 'A');
	t_super(&t, LW_MAGIC, 1);
	expect_err(t.f, "bad sectorsize 1000", "bad-sectorsize");

	/* a mark longer than its block allows */
	t = (struct tlog){ .f = tmpfile(), .ss = 512, .off = 1 };
	{
		char big[300];

		memset(big, 'm', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		t_entry(&t, 0, 0, LW_MARK, big, 0);
	}
	t_super(&t, LW_MAGIC, 1);
	expect_err(t.f, "entry 0: mark of 299 bytes", "mark-too-long");

	/* a discard that says it flushes */
	t = (struct tlog){ .f = tmpfile(), .ss = 512, .off = 1 };
	t_entry(&t, 0, 1, LW_DISCARD | LW_FLUSH, NULL, 0);
	t_super(&t, LW_MAGIC, 1);
	expect_err(t.f, "entry 0: a discard with a flush", "discard-flush");
}

int main(void)
{
	test_replay(512);
	test_replay(4096);
	test_damaged();
	return tap_exit();
}
