// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of bench/verify.c: lunqbench's verify headers (fill a
 * write, check a read) and its crc32c.
 * LINK: bench/verify.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../bench/lb.h"

#define TAP_PREFIX "bench-verify-"
#include "tap.h"

#define SEED 0x5eedULL

static unsigned char buf[65536], tmp[512];

/* check @len bytes at @off: the error, the sector and the seq it reports */
static int expect(u32 len, u64 off, const u64 *want_seq, enum lb_verify_err e,
		  u64 sector, u64 seq)
{
	u64 bad = ~0ULL, got = ~0ULL;
	enum lb_verify_err r = lb_verify_check(buf, len, off, SEED, want_seq,
					       &bad, &got);

	if (r != e)
		diag("got %d (%s), sector %llu, seq %llu", r,
		       lb_verify_strerror(r), (unsigned long long)bad,
		       (unsigned long long)got);
	if (e == LB_VERIFY_OK)
		return r == e && bad == ~0ULL && got == ~0ULL;
	return r == e && bad == sector && got == seq;
}

int main(void)
{
	static const struct { u32 len; u64 off; } io[] = {
		{ 512, 0 }, { 4096, 4096 }, { 4096, 512 }, { 65536, 1ULL << 40 },
		{ 1536, 3584 }, { 8192, 0xfffffffffe00ULL },
	};
	unsigned int i, k;
	u64 want[128], base = 1ULL << 30;
	unsigned char c;
	int ok = 1;

	/* crc32c check values (RFC 3720 B.4 and the catalogue's "123456789") */
	ok(lb_crc32c(0, "123456789", 9) == 0xE3069283U, "crc32c-check-value");
	memset(tmp, 0, 32);
	ok(lb_crc32c(0, tmp, 32) == 0x8A9136AAU, "crc32c-32-zeros");
	memset(tmp, 0xff, 32);
	ok(lb_crc32c(0, tmp, 32) == 0x62A8AB43U, "crc32c-32-ones");
	for (i = 0; i < 32; i++)
		tmp[i] = (unsigned char)i;
	ok(lb_crc32c(0, tmp, 32) == 0x46DD794EU, "crc32c-32-incrementing");
	for (i = 0; i < 512; i++)
		tmp[i] = (unsigned char)(i * 7 + 3);
	for (i = 0; i <= 512; i += 37)
		if (lb_crc32c(lb_crc32c(0, tmp, i), tmp + i, 512 - i) !=
		    lb_crc32c(0, tmp, 512))
			ok = 0;
	ok(ok, "crc32c-chaining");

	/* round trips */
	ok = 1;
	for (i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		lb_verify_fill(buf, io[i].len, io[i].off, 1000 + i, SEED);
		if (!expect(io[i].len, io[i].off, NULL, LB_VERIFY_OK, 0, 0))
			ok = 0;
		for (k = 0; k < io[i].len / 512; k++)
			want[k] = 1000 + i;
		if (!expect(io[i].len, io[i].off, want, LB_VERIFY_OK, 0, 0))
			ok = 0;
	}
	ok(ok, "fill-check-round-trip");

	/* the on-target layout: little-endian fields */
	lb_verify_fill(buf, 1024, 4096, 0x1122334455667788ULL, SEED);
	ok(!memcmp(buf, "LQB1", 4) && buf[8] == 8 && buf[512 + 8] == 9 &&
	   buf[16] == 0x88 && buf[23] == 0x11 && buf[24] == 0xed && buf[25] == 0x5e,
	   "header-layout");
	ok(memcmp(buf + 32, buf + 512 + 32, 480) != 0, "pattern-per-sector");
	memcpy(tmp, buf + 32, 480);
	lb_verify_fill(buf, 1024, 4096, 0x1122334455667789ULL, SEED);
	ok(memcmp(tmp, buf + 32, 480) != 0, "pattern-per-seq");

	/* a flipped byte in the body of the 3rd sector: CRC_BAD there */
	lb_verify_fill(buf, 8192, base, 5, SEED);
	buf[2 * 512 + 300] ^= 0x10;
	ok(expect(8192, base, NULL, LB_VERIFY_CRC_BAD, base / 512 + 2, 5),
	   "body-flip-crc-bad");
	/* a flipped byte in the header's seq field: CRC_BAD too */
	lb_verify_fill(buf, 8192, base, 5, SEED);
	buf[512 + 16] ^= 0x01;
	ok(expect(8192, base, NULL, LB_VERIFY_CRC_BAD, base / 512 + 1, 4),
	   "header-flip-crc-bad");
	/* a stale body under a new header (torn write): CRC_BAD */
	lb_verify_fill(buf, 512, base, 5, SEED);
	memcpy(tmp, buf, 512);
	lb_verify_fill(buf, 512, base, 6, SEED);
	memcpy(buf + 32, tmp + 32, 480);
	ok(expect(512, base, NULL, LB_VERIFY_CRC_BAD, base / 512, 6),
	   "stale-body-crc-bad");

	/* sector 1's data in sector 5's place: SECTOR_BAD at 5 */
	lb_verify_fill(buf, 8192, base, 5, SEED);
	memcpy(buf + 5 * 512, buf + 512, 512);
	ok(expect(8192, base, NULL, LB_VERIFY_SECTOR_BAD, base / 512 + 5, 5),
	   "misdirected-sector-bad");
	/* the right data read from the wrong place */
	lb_verify_fill(buf, 4096, base, 5, SEED);
	ok(expect(4096, base + 4096, NULL, LB_VERIFY_SECTOR_BAD,
		  (base + 4096) / 512, 5), "wrong-offset-sector-bad");

	/* another run's seed: SEED_BAD */
	lb_verify_fill(buf, 4096, base, 5, SEED + 1);
	ok(expect(4096, base, NULL, LB_VERIFY_SEED_BAD, base / 512, 5),
	   "other-seed-seed-bad");

	/* want_seq: sector 3 holds an older write (a lost write) */
	lb_verify_fill(buf, 4096, base, 7, SEED);
	lb_verify_fill(buf + 3 * 512, 512, base + 3 * 512, 6, SEED);
	for (k = 0; k < 8; k++)
		want[k] = 7;
	ok(expect(4096, base, want, LB_VERIFY_SEQ_BAD, base / 512 + 3, 6),
	   "lost-write-seq-bad");
	ok(expect(4096, base, NULL, LB_VERIFY_OK, 0, 0), "no-want-seq-any");
	want[3] = 0;
	ok(expect(4096, base, want, LB_VERIFY_OK, 0, 0), "want-seq-0-any");

	/* zeros (never written): MAGIC_BAD, seq 0 */
	lb_verify_fill(buf, 4096, base, 7, SEED);
	memset(buf + 4 * 512, 0, 512);
	ok(expect(4096, base, NULL, LB_VERIFY_MAGIC_BAD, base / 512 + 4, 0),
	   "zeros-magic-bad");

	/* the first bad sector is reported */
	lb_verify_fill(buf, 4096, base, 7, SEED);
	memset(buf + 6 * 512, 0, 512);
	buf[2 * 512 + 100] ^= 1;
	ok(expect(4096, base, NULL, LB_VERIFY_CRC_BAD, base / 512 + 2, 7),
	   "first-bad-sector");

	/* every single-bit flip of a sector is caught */
	lb_verify_fill(buf, 512, base, 9, SEED);
	ok = 1;
	for (i = 0; i < 512 * 8; i++) {
		c = buf[i / 8];
		buf[i / 8] ^= (unsigned char)(1 << (i % 8));
		if (lb_verify_check(buf, 512, base, SEED, NULL, NULL, NULL) ==
		    LB_VERIFY_OK)
			ok = 0;
		buf[i / 8] = c;
	}
	ok(ok && lb_verify_check(buf, 512, base, SEED, NULL, NULL, NULL) ==
		 LB_VERIFY_OK, "every-bit-flip-detected");

	ok(strcmp(lb_verify_strerror(LB_VERIFY_OK), "ok") == 0 &&
	   strstr(lb_verify_strerror(LB_VERIFY_SEQ_BAD), "lost") &&
	   strstr(lb_verify_strerror(LB_VERIFY_SECTOR_BAD), "misdirected"),
	   "strerror");

	diag("%d checks, %d failed", tap_n, tap_failed);
	return tap_exit();
}
