// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench verify mode: a 32-byte header and a pattern in every 512-byte
 * sector of a write, checked on read.  All fields are stored little-endian
 * whatever the host, so a target written on one machine checks on another:
 *   0  u32 magic "LQB1"     4  u32 crc32c (sector with this field zero)
 *   8  u64 sector          16  u64 seq         24  u64 seed
 *   32 480 bytes of pattern from (seed, sector, seq)
 * The pattern differs per write, so a sector whose header is new and whose
 * body is stale (a torn write) fails its crc.
 */
#include <string.h>
#include "lb.h"

#define SECTOR	512
#define HDR	32

/* ---- crc32c, slicing-by-8 ------------------------------------------------ */

static u32 crc_tab[8][256];

__attribute__((constructor)) static void crc_init(void)
{
	u32 i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78U : c >> 1;
		crc_tab[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_tab[k][i] = (crc_tab[k - 1][i] >> 8) ^
					crc_tab[0][crc_tab[k - 1][i] & 0xff];
}

u32 lb_crc32c(u32 crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	u32 lo, hi;

	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		lo = crc ^ (p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
		hi = p[4] | (u32)p[5] << 8 | (u32)p[6] << 16 | (u32)p[7] << 24;
		crc = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		      crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		      crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		      crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
	}
	while (len--)
		crc = crc_tab[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* ---- sectors ------------------------------------------------------------- */

static void put32(unsigned char *p, u32 v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, u64 v)
{
	put32(p, (u32)v);
	put32(p + 4, (u32)(v >> 32));
}

static u32 get32(const unsigned char *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static u64 get64(const unsigned char *p)
{
	return get32(p) | (u64)get32(p + 4) << 32;
}

static u64 mix64(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The pattern after the header: splitmix64 from (seed, sector, seq). */
static void pattern(unsigned char *p, u64 seed, u64 sector, u64 seq)
{
	u64 s = mix64(seed ^ mix64(sector ^ mix64(seq + 0x9e3779b97f4a7c15ULL)));
	int i;

	for (i = HDR; i < SECTOR; i += 8) {
		s += 0x9e3779b97f4a7c15ULL;
		put64(p + i, mix64(s));
	}
}

void lb_verify_fill(void *buf, u32 len, u64 off, u64 seq, u64 seed)
{
	unsigned char *p = buf;
	u64 sector = off / SECTOR;
	u32 i;

	for (i = 0; i + SECTOR <= len; i += SECTOR, p += SECTOR, sector++) {
		put32(p, LB_VERIFY_MAGIC);
		put32(p + 4, 0);
		put64(p + 8, sector);
		put64(p + 16, seq);
		put64(p + 24, seed);
		pattern(p, seed, sector, seq);
		put32(p + 4, lb_crc32c(0, p, SECTOR));
	}
}

enum lb_verify_err lb_verify_check(const void *buf, u32 len, u64 off,
				   u64 seed, const u64 *want_seq,
				   u64 *bad_sector, u64 *got_seq)
{
	static const unsigned char zero[4];
	const unsigned char *p = buf;
	u64 sector = off / SECTOR, seq;
	enum lb_verify_err e;
	u32 i, crc;

	for (i = 0; i + SECTOR <= len; i += SECTOR, p += SECTOR, sector++) {
		seq = get64(p + 16);
		if (get32(p) != LB_VERIFY_MAGIC) {
			e = LB_VERIFY_MAGIC_BAD;
			seq = 0;
			goto bad;
		}
		crc = lb_crc32c(0, p, 4);
		crc = lb_crc32c(crc, zero, 4);
		crc = lb_crc32c(crc, p + 8, SECTOR - 8);
		if (crc != get32(p + 4)) {
			e = LB_VERIFY_CRC_BAD;
		} else if (get64(p + 8) != sector) {
			e = LB_VERIFY_SECTOR_BAD;
		} else if (get64(p + 24) != seed) {
			e = LB_VERIFY_SEED_BAD;
		} else if (want_seq && want_seq[i / SECTOR] &&
			   seq != want_seq[i / SECTOR]) {
			e = LB_VERIFY_SEQ_BAD;
		} else {
			continue;
		}
bad:
		if (bad_sector)
			*bad_sector = sector;
		if (got_seq)
			*got_seq = seq;
		return e;
	}
	return LB_VERIFY_OK;
}

const char *lb_verify_strerror(enum lb_verify_err e)
{
	switch (e) {
	case LB_VERIFY_OK:
		return "ok";
	case LB_VERIFY_MAGIC_BAD:
		return "no lunqbench header (never written, or garbage)";
	case LB_VERIFY_CRC_BAD:
		return "crc mismatch (torn or corrupted sector)";
	case LB_VERIFY_SECTOR_BAD:
		return "data of another sector (misdirected IO)";
	case LB_VERIFY_SEED_BAD:
		return "written by another run (seed differs)";
	case LB_VERIFY_SEQ_BAD:
		return "not the expected write (lost or unexpected version)";
	}
	return "unknown verify error";
}
