// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: a fuzzer of dm-lunq's generic netlink family "lunq"
 * (kmod/uapi/lunq.h), on raw netlink sockets and plain libc, for the VM
 * test tests/vm/t-fuzz-netlink.sh.  It sends --count requests: random
 * payloads behind a genl header with a random command and version, and
 * mutations of valid requests (GET, dump, HIST, SET, RESET): bit flips,
 * truncation, duplicated, reordered and nested attributes, wrong lengths
 * and types, strings without NUL or too long, bad nlmsg_len, random flags,
 * several messages in one datagram.  Every reply is read (dumps to their
 * end) without ever blocking for long, and counted by errno.
 *
 * Every message of every datagram goes to the lunq family (never to
 * another one).  With CAP_NET_ADMIN (root), a "guard" refuses to send a
 * SET naming a --keep device that carries any key but qdepth, sched,
 * max_wait_ms or bubble_ms, and a RESET naming a --keep device: fuzzing
 * as root must not stall that device's IO or zero its counters.
 * Unprivileged, everything is sent: SET and RESET must answer EPERM; one
 * flagged as a dump (NLM_F_DUMP) may answer EOPNOTSUPP instead: from 6.2
 * (split ops) genetlink looks the command up as a dump, which SET and
 * RESET do not have, before it checks permissions; 6.1 checks first.
 * See --help.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include "../../kmod/uapi/lunq.h"

#define TOOL_NAME "nlfuzz"
#include "die.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define BUF_MAX		(16 * 1024)	/* one datagram we send */
#define RBUF_SIZE	(256 * 1024)
#define MAX_NAMES	16
#define MAX_MSGS	8		/* messages per datagram */

static const char usage[] =
"usage: nlfuzz [--seed N] [--count N] [--dev NAME]... [--keep NAME]...\n"
"              [--guard | --no-guard] [--expect-eperm] [-v]\n"
"  --seed N       random seed (default: time); the same seed and the same\n"
"                 devices send the same messages\n"
"  --count N      messages to send (default 1000)\n"
"  --dev NAME     a device the valid requests name (default: every device\n"
"                 of a dump)\n"
"  --keep NAME    a device to name too, protected by the guard\n"
"  --guard        never send a SET that could change a --keep device to\n"
"                 more than qdepth, sched, max_wait_ms, bubble_ms, nor a\n"
"                 RESET that could reach it (default with CAP_NET_ADMIN)\n"
"  --expect-eperm every SET and RESET must answer EPERM (unprivileged);\n"
"                 one flagged as a dump may answer EOPNOTSUPP (from 6.2\n"
"                 genetlink finds no dump op before checking permission)\n"
"  -v             print every datagram's outcome\n"
"Prints one summary line: \"nlfuzz: seed=S sent=N datagrams=D guarded=G\n"
"replies: ok=N EINVAL=N ... data=N silent=N priv=N priv_eperm=N\n"
"priv_dump_eopnotsupp=N priv_ok=N valid=N valid_bad=N sync_bad=N\".  Exit 0; 1 when a valid read\n"
"request (GET, dump, HIST) or a periodic GET failed, or with --expect-eperm\n"
"a SET or RESET was answered otherwise than EPERM; 2 on a setup error.\n";

static int sock = -1;
static uint16_t family_id;
static uint32_t seq = 1000;
static unsigned char *rbuf;
static int verbose;

/* ---- random numbers (xorshift64*, reproducible by --seed) ------------- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* uniform in [0, n) */
static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() >> 32) % n : 0;
}

static void rnd_bytes(unsigned char *p, size_t n)
{
	while (n--)
		*p++ = (unsigned char)rnd64();
}

/* ---- names, words ------------------------------------------------------ */

static const char *names[MAX_NAMES];
static int nnames;
static const char *keep[MAX_NAMES];
static int nkeep;

/* Keys the guard lets reach a --keep device: no value of them stalls IO. */
static const char *const safe_words[] = {
	"qdepth:0", "qdepth:1", "qdepth:4", "qdepth:8", "qdepth:16",
	"qdepth:65535", "sched:fifo", "sched:disksort", "max_wait_ms:0",
	"max_wait_ms:50", "max_wait_ms:3600000", "bubble_ms:0",
	"bubble_ms:1000",
};

/* Every other key: refused by the guard for a --keep device. */
static const char *const risky_keys[] = {
	"lun_depth", "pool", "qfull_delay", "reaction", "model", "svc_us",
	"channels", "mbps", "seek_ms", "rpm", "pblk", "foreign", "reset",
	"ramp_up", "restore", "step_ms", "min_throttle", "rmw_x",
};

/* Words for devices the guard does not protect: valid and invalid. */
static const char *const any_words[] = {
	"lun_depth:4", "lun_depth:0", "qfull_delay_us:100", "reaction:linux",
	"reaction:sd", "reaction:sd-fc", "reaction:none", "model:fixed",
	"model:flash", "model:hdd", "model:none", "svc_us:100", "channels:4",
	"mbps:100", "seek_ms:5", "rpm:7200", "pblk:4096", "pool:p1",
	"pool_depth:4", "foreign:1", "foreign_period_ms:100",
	"reset_after:5", "reset_ms:10", "ramp_up_ms:100", "restore_ms:100",
	"step_ms:100", "min_throttle:2", "rmw_x:3", "qdepth:70000",
	"qdepth:-1", "qdepth:", ":", "qdepth", "nokey:1", "sched:elevator",
	"qdepth:4294967296", "qdepth:99999999999999999999", "qdepth:0x10",
	"qdepth:+4", "max_wait_ms:3600001",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *pick_name(void)
{
	int n = nnames + nkeep;
	int i = rnd(n + 1);

	if (i < nnames)
		return names[i];
	if (i < n)
		return keep[i - nnames];
	return rnd(2) ? "nosuchdev" : "";
}

/* A policy string of 1..4 words into @s (safe words only when @safe). */
static void pick_policy(char *s, size_t size, int safe)
{
	int i, n = 1 + rnd(4);

	s[0] = 0;
	for (i = 0; i < n; i++) {
		const char *w;

		if (safe || rnd(2))
			w = safe_words[rnd(NELEM(safe_words))];
		else
			w = any_words[rnd(NELEM(any_words))];
		if (i)
			strncat(s, rnd(4) ? " " : (rnd(2) ? "\t" : "\n"),
				size - strlen(s) - 1);
		strncat(s, w, size - strlen(s) - 1);
	}
}

/* ---- building messages ------------------------------------------------- */

struct dgram {
	unsigned char buf[BUF_MAX];
	size_t len;		/* bytes sent */
};

/* Start a message at the end of @d; returns its offset. */
static size_t msg_start(struct dgram *d, uint16_t flags, uint8_t cmd,
			uint8_t version)
{
	size_t off = NLMSG_ALIGN(d->len);
	struct nlmsghdr *nh = (void *)(d->buf + off);
	struct genlmsghdr *g = (void *)(d->buf + off + NLMSG_HDRLEN);

	memset(d->buf + d->len, 0, off + NLMSG_HDRLEN + GENL_HDRLEN - d->len);
	nh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	nh->nlmsg_type = family_id;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	nh->nlmsg_seq = ++seq;
	g->cmd = cmd;
	g->version = version;
	d->len = off + nh->nlmsg_len;
	return off;
}

static void msg_put(struct dgram *d, size_t off, uint16_t type,
		    const void *data, size_t len)
{
	struct nlmsghdr *nh = (void *)(d->buf + off);
	size_t at = NLMSG_ALIGN(d->len), total = NLA_HDRLEN + len;
	struct nlattr *a = (void *)(d->buf + at);

	if (at + NLA_ALIGN(total) > sizeof(d->buf) || total > 0xffff)
		return;
	memset(d->buf + d->len, 0, at - d->len);
	a->nla_type = type;
	a->nla_len = total;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + total, 0, NLA_ALIGN(total) - total);
	d->len = at + NLA_ALIGN(total);
	nh->nlmsg_len = d->len - off;
}

static void msg_str(struct dgram *d, size_t off, uint16_t type, const char *s)
{
	msg_put(d, off, type, s, strlen(s) + 1);
}

enum { V_GET, V_DUMP, V_HIST, V_SET, V_RESET, V_NR };

/*
 * A valid request of kind @k appended to @d, naming a device (*@namep);
 * a SET naming a --keep device has safe words only.  Returns the
 * message's offset.
 */
static size_t valid_msg(struct dgram *d, int k, const char **namep)
{
	const char *name = pick_name();
	char pol[LUNQ_POLICY_MAX];
	uint32_t kind;
	size_t off;

	if (!nnames && !nkeep)
		name = "nosuchdev";
	else
		while (!*name || !strcmp(name, "nosuchdev"))
			name = pick_name();
	*namep = name;
	switch (k) {
	case V_GET:
		off = msg_start(d, NLM_F_ACK, LUNQ_CMD_GET_DEV, 1);
		msg_str(d, off, LUNQ_A_NAME, name);
		break;
	case V_DUMP:
		off = msg_start(d, NLM_F_DUMP, LUNQ_CMD_GET_DEV, 1);
		break;
	case V_HIST:
		off = msg_start(d, NLM_F_ACK, LUNQ_CMD_GET_HIST, 1);
		msg_str(d, off, LUNQ_A_NAME, name);
		kind = rnd(LUNQ_NR_HISTS);
		msg_put(d, off, LUNQ_A_HIST, &kind, 4);
		break;
	case V_SET: {
		int i, safe = 0;

		for (i = 0; i < nkeep; i++)
			if (!strcmp(name, keep[i]))
				safe = 1;
		pick_policy(pol, sizeof(pol), safe);
		off = msg_start(d, NLM_F_ACK, LUNQ_CMD_SET, 1);
		msg_str(d, off, LUNQ_A_NAME, name);
		msg_str(d, off, LUNQ_A_POLICY, pol);
		break;
	}
	default:
		off = msg_start(d, NLM_F_ACK, LUNQ_CMD_RESET, 1);
		msg_str(d, off, LUNQ_A_NAME, name);
		break;
	}
	return off;
}

/* ---- mutations --------------------------------------------------------- */

/* The attributes of the message at @off: offsets, up to @max. */
static int attr_offsets(struct dgram *d, size_t off, size_t *at, int max)
{
	struct nlmsghdr *nh = (void *)(d->buf + off);
	size_t p = off + NLMSG_HDRLEN + GENL_HDRLEN;
	size_t end = off + nh->nlmsg_len;
	int n = 0;

	if (end > d->len)
		end = d->len;
	while (p + NLA_HDRLEN <= end && n < max) {
		struct nlattr *a = (void *)(d->buf + p);

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		at[n++] = p;
		p += NLA_ALIGN(a->nla_len);
	}
	return n;
}

static void fix_len(struct dgram *d, size_t off)
{
	((struct nlmsghdr *)(d->buf + off))->nlmsg_len = d->len - off;
}

/* Insert @n bytes at @at (shifting the rest), if they fit. */
static int make_room(struct dgram *d, size_t at, size_t n)
{
	if (d->len + n > sizeof(d->buf))
		return 0;
	memmove(d->buf + at + n, d->buf + at, d->len - at);
	d->len += n;
	return 1;
}

static void put_nested_garbage(struct dgram *d, size_t off, int depth)
{
	unsigned char tmp[512];
	size_t n = 0;
	int i, k = 1 + rnd(4);

	for (i = 0; i < k && n + 64 < sizeof(tmp); i++) {
		struct nlattr *a = (void *)(tmp + n);
		size_t len = rnd(24);

		a->nla_type = rnd(3) ? rnd(LUNQ_A_MAX + 3) : (uint16_t)rnd64();
		if (rnd(2))
			a->nla_type |= NLA_F_NESTED;
		a->nla_len = NLA_HDRLEN + len;
		rnd_bytes(tmp + n + NLA_HDRLEN, len);
		if (!rnd(4))
			a->nla_len = rnd(0x10000);	/* lies */
		n += NLA_ALIGN(NLA_HDRLEN + len);
	}
	msg_put(d, off, (rnd(2) ? rnd(LUNQ_A_MAX + 3) : LUNQ_A_STATS) |
		(rnd(4) ? NLA_F_NESTED : 0), tmp, n);
	if (depth < 3 && !rnd(3))
		put_nested_garbage(d, off, depth + 1);
}

static const uint16_t flag_choices[] = {
	0, NLM_F_ACK, NLM_F_DUMP, NLM_F_DUMP | NLM_F_ACK, NLM_F_ECHO,
	NLM_F_ROOT, NLM_F_MATCH, NLM_F_ATOMIC, NLM_F_MULTI, NLM_F_DUMP_INTR,
	NLM_F_ACK | NLM_F_ECHO, NLM_F_REPLACE, NLM_F_EXCL | NLM_F_CREATE,
};

/* One mutation of the message at @off (the last one of @d). */
static void mutate(struct dgram *d, size_t off)
{
	struct nlmsghdr *nh = (void *)(d->buf + off);
	struct genlmsghdr *g = (void *)(d->buf + off + NLMSG_HDRLEN);
	size_t at[64];
	int n = attr_offsets(d, off, at, 64);
	struct nlattr *a = n ? (void *)(d->buf + at[rnd(n)]) : NULL;
	size_t body = off + NLMSG_HDRLEN;

	switch (rnd(16)) {
	case 0:		/* flip bits after the nlmsghdr */
	case 1: {
		int i, k = 1 + rnd(4);

		for (i = 0; i < k && d->len > body; i++)
			d->buf[body + rnd(d->len - body)] ^= 1 << rnd(8);
		break;
	}
	case 2:		/* truncate */
		if (d->len > off + NLMSG_HDRLEN)
			d->len = off + NLMSG_HDRLEN + rnd(d->len - off - NLMSG_HDRLEN);
		if (rnd(2))
			fix_len(d, off);
		break;
	case 3:		/* duplicate an attribute */
		if (a) {
			size_t len = NLA_ALIGN(a->nla_len), from = (unsigned char *)a - d->buf;

			if (d->len + len <= sizeof(d->buf)) {
				memcpy(d->buf + d->len, d->buf + from, len);
				d->len += len;
				fix_len(d, off);
			}
		}
		break;
	case 4:		/* reverse the attribute order */
		if (n > 1) {
			unsigned char tmp[BUF_MAX];
			size_t p = 0, start = at[0], end = off + nh->nlmsg_len;
			int i;

			if (end > d->len)
				end = d->len;
			for (i = n - 1; i >= 0; i--) {
				struct nlattr *x = (void *)(d->buf + at[i]);
				size_t len = NLA_ALIGN(x->nla_len);

				if (at[i] + len > end)
					len = end - at[i];
				memcpy(tmp + p, x, len);
				p += len;
			}
			if (p <= end - start)
				memcpy(d->buf + start, tmp, p);
		}
		break;
	case 5:		/* wrong attribute length */
		if (a) {
			static const int deltas[] = { -4, -1, 1, 4, 8, 100 };

			switch (rnd(4)) {
			case 0: a->nla_len = rnd(NLA_HDRLEN + 1); break;
			case 1: a->nla_len = 0xffff - rnd(8); break;
			case 2: a->nla_len = rnd(0x10000); break;
			default: a->nla_len += deltas[rnd(NELEM(deltas))]; break;
			}
		}
		break;
	case 6:		/* wrong attribute type */
		if (a) {
			switch (rnd(4)) {
			case 0: a->nla_type = rnd(LUNQ_A_MAX + 4); break;
			case 1: a->nla_type = (uint16_t)rnd64(); break;
			case 2: a->nla_type |= NLA_F_NESTED; break;
			default: a->nla_type |= NLA_F_NET_BYTEORDER; break;
			}
		}
		break;
	case 7:		/* a string without its NUL, or the NUL moved */
		if (a && a->nla_len > NLA_HDRLEN) {
			unsigned char *s = (unsigned char *)a + NLA_HDRLEN;
			size_t len = a->nla_len - NLA_HDRLEN;

			if (rnd(2))
				s[len - 1] = 'X';
			else
				s[rnd(len)] = 0;
		}
		break;
	case 8:		/* nested garbage */
		put_nested_garbage(d, off, 0);
		break;
	case 9:		/* random flags */
		nh->nlmsg_flags = rnd(3) ? NLM_F_REQUEST |
			flag_choices[rnd(NELEM(flag_choices))] : (uint16_t)rnd64();
		break;
	case 10:	/* random command, version, reserved */
		switch (rnd(3)) {
		case 0: g->cmd = rnd(4) ? rnd(LUNQ_CMD_MAX + 3) : rnd(256); break;
		case 1: g->version = rnd(256); break;
		default: g->reserved = (uint16_t)rnd64(); break;
		}
		break;
	case 11:	/* lying nlmsg_len */
		switch (rnd(4)) {
		case 0: nh->nlmsg_len = rnd(NLMSG_HDRLEN + GENL_HDRLEN + 1); break;
		case 1: nh->nlmsg_len = d->len - off + 1 + rnd(64); break;
		case 2: nh->nlmsg_len = 0xffffffffU - rnd(16); break;
		default:
			if (d->len - off > NLMSG_HDRLEN)
				nh->nlmsg_len -= 1 + rnd(d->len - off - NLMSG_HDRLEN);
			break;
		}
		break;
	case 12:	/* random bytes inserted somewhere in the body */
		if (d->len >= body) {
			size_t k = 1 + rnd(16), p = body + rnd(d->len - body + 1);

			if (make_room(d, p, k)) {
				rnd_bytes(d->buf + p, k);
				fix_len(d, off);
			}
		}
		break;
	case 13: {	/* an over-long string attribute */
		static char s[LUNQ_POLICY_MAX + 200];
		size_t len = rnd(3) ? LUNQ_NAME_MAX - 2 + rnd(5) :
			LUNQ_POLICY_MAX - 2 + rnd(5);

		if (rnd(2))
			len = rnd(sizeof(s) - 1);
		memset(s, rnd(2) ? 'a' : ' ', len);
		if (len > 8 && rnd(2))
			memcpy(s, "qdepth:8", 8);
		s[len] = 0;
		msg_put(d, off, rnd(2) ? LUNQ_A_NAME : LUNQ_A_POLICY, s,
			len + rnd(2));
		break;
	}
	case 14: {	/* an extra attribute of a random kind */
		uint64_t v = rnd64();
		static const unsigned char sizes[] = { 0, 1, 2, 4, 8, 3, 12 };

		msg_put(d, off, rnd(LUNQ_A_MAX + 3), &v,
			sizes[rnd(NELEM(sizes))]);
		break;
	}
	default:	/* overwrite random bytes of the body */
		if (d->len > body) {
			size_t p = body + rnd(d->len - body);
			size_t k = 1 + rnd(8);

			if (p + k > d->len)
				k = d->len - p;
			rnd_bytes(d->buf + p, k);
		}
		break;
	}
}

/* A genl header with a random command and version, then random bytes. */
static void random_msg(struct dgram *d)
{
	size_t off = msg_start(d, rnd(2) ? NLM_F_ACK : (uint16_t)rnd64() | NLM_F_REQUEST,
			       rnd(3) ? rnd(LUNQ_CMD_MAX + 3) : rnd(256), rnd(256));
	size_t len = rnd(3) ? rnd(64) : rnd(2048);

	if (d->len + len > sizeof(d->buf))
		len = sizeof(d->buf) - d->len;
	rnd_bytes(d->buf + d->len, len);
	/* random bytes that look like attributes now and then */
	if (len >= NLA_HDRLEN && rnd(2)) {
		struct nlattr *a = (void *)(d->buf + d->len);

		a->nla_type = rnd(LUNQ_A_MAX + 2);
		a->nla_len = NLA_HDRLEN + rnd(len - NLA_HDRLEN + 1);
	}
	d->len += len;
	fix_len(d, off);
}

/* ---- the guard --------------------------------------------------------- */

static int has(const unsigned char *p, size_t n, const void *s, size_t k)
{
	return k <= n && memmem(p, n, s, k) != NULL;
}

struct walk {
	int n;
	size_t off[MAX_MSGS * 4];
	uint32_t seq[MAX_MSGS * 4];
	int priv[MAX_MSGS * 4];	/* a SET or RESET the kernel will see:
				 * 1, or 2 if flagged as a dump */
};

/*
 * Walk @d as netlink_rcv_skb() will: every message long enough to be
 * processed gets the lunq family as its type (a control type < 0x10 is
 * only acked) and a sequence number of its own.  Returns 0 when the guard
 * refuses the datagram.
 */
static int walk_fix(struct dgram *d, struct walk *w, int guard)
{
	size_t p = 0;

	w->n = 0;
	while (d->len - p >= NLMSG_HDRLEN && w->n < (int)NELEM(w->off)) {
		struct nlmsghdr *nh = (void *)(d->buf + p);
		size_t len = nh->nlmsg_len, step;
		const unsigned char *m = d->buf + p;
		int priv = 0;

		if (len < NLMSG_HDRLEN || d->len - p < len)
			break;
		if (nh->nlmsg_type >= NLMSG_MIN_TYPE)
			nh->nlmsg_type = family_id;
		nh->nlmsg_seq = ++seq;
		if (nh->nlmsg_type == family_id &&
		    (nh->nlmsg_flags & NLM_F_REQUEST) &&
		    len >= NLMSG_HDRLEN + GENL_HDRLEN) {
			uint8_t cmd = m[NLMSG_HDRLEN];
			int i;

			priv = cmd == LUNQ_CMD_SET || cmd == LUNQ_CMD_RESET;
			if (priv && (nh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
				priv = 2;
			for (i = 0; guard && priv && i < nkeep; i++) {
				size_t k = strlen(keep[i]) + 1;
				size_t j;

				if (!has(m, len, keep[i], k))
					continue;
				if (cmd == LUNQ_CMD_RESET)
					return 0;
				for (j = 0; j < NELEM(risky_keys); j++)
					if (has(m, len, risky_keys[j],
						strlen(risky_keys[j])))
						return 0;
			}
		}
		w->off[w->n] = p;
		w->seq[w->n] = nh->nlmsg_seq;
		w->priv[w->n] = priv;
		w->n++;
		step = NLMSG_ALIGN(len);
		if (step > d->len - p)
			step = d->len - p;
		p += step;
	}
	return 1;
}

/* ---- sending, receiving ------------------------------------------------ */

#define NERR 135
static unsigned long err_count[NERR + 1];	/* [0]: acks; [NERR]: other */
static unsigned long n_data, n_done, n_silent, n_sent, n_dgrams, n_guarded;
static unsigned long n_priv, n_priv_eperm, n_priv_ok, n_priv_other;
static unsigned long n_priv_dump_notsupp;
static unsigned long n_valid, n_valid_bad, n_sync_bad, n_overrun;

struct outcome {
	int done;	/* an NLMSG_ERROR or NLMSG_DONE arrived */
	int err;	/* its error (0: ack or DONE) */
	int data;	/* data messages */
	int multi;	/* a multipart (dump) message arrived */
};

static void send_dgram(struct dgram *d)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(sock, d->buf, d->len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		/* the kernel refuses some outright (e.g. too short): count */
		int e = errno;

		if (e == ECONNREFUSED || e == ENOBUFS || e == EINVAL ||
		    e == EMSGSIZE || e == EPERM || e == ENOMEM) {
			err_count[e < NERR ? e : NERR]++;
			return;
		}
		die("sendto: %s", strerror(e));
	}
}

/*
 * Read what is queued for the messages of @w into @o; wait up to
 * @wait_ms for more when @need says an answer must still come (a dump in
 * progress, a request with an ACK).  Returns after EAGAIN.
 */
static void drain(struct walk *w, struct outcome *o, int wait_ms,
		  int (*need)(struct walk *, struct outcome *))
{
	for (;;) {
		ssize_t n = recv(sock, rbuf, RBUF_SIZE, MSG_DONTWAIT);
		struct nlmsghdr *nh;
		size_t left;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			n_overrun++;
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = sock, .events = POLLIN };

			if (!need || !need(w, o) || wait_ms <= 0)
				return;
			if (poll(&pfd, 1, wait_ms) <= 0)
				return;
			continue;
		}
		if (n < 0)
			die("recv: %s", strerror(errno));
		left = (size_t)n;
		for (nh = (void *)rbuf; NLMSG_OK(nh, left);
		     nh = NLMSG_NEXT(nh, left)) {
			int i;

			for (i = 0; i < w->n; i++)
				if (w->seq[i] == nh->nlmsg_seq)
					break;
			if (i == w->n)
				continue;	/* stale: an earlier datagram's */
			if (nh->nlmsg_flags & NLM_F_MULTI)
				o[i].multi = 1;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);

				if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
					continue;
				o[i].done = 1;
				o[i].err = -e->error;
			} else if (nh->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (nh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&err, NLMSG_DATA(nh), sizeof(err));
				o[i].done = 1;
				o[i].err = err < 0 ? -err : err;
			} else if (nh->nlmsg_type >= NLMSG_MIN_TYPE) {
				o[i].data++;
			}
		}
	}
}

/* More must come: an unfinished dump, or an ACK not yet seen. */
static int need_more(struct walk *w, struct outcome *o)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (o[i].multi && !o[i].done)
			return 1;
	return 0;
}

static int need_ack(struct walk *w, struct outcome *o)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (!o[i].done)
			return 1;
	return 0;
}

static const char *errname(int e)
{
	const char *s = e ? strerrorname_np(e) : "ok";

	return s ? s : "E?";
}

/* Send @d and count its answers; @valid: the kind of an unmutated request. */
static void transact(struct dgram *d, int valid, int guard, int expect_eperm)
{
	struct outcome o[MAX_MSGS * 4];
	struct walk w;
	int i;

	if (!walk_fix(d, &w, guard)) {
		n_guarded++;
		return;
	}
	memset(o, 0, sizeof(o));
	n_dgrams++;
	n_sent += w.n ? w.n : 1;
	send_dgram(d);
	drain(&w, o, valid >= 0 ? 2000 : 500,
	      valid >= 0 ? need_ack : need_more);
	for (i = 0; i < w.n; i++) {
		if (o[i].done)
			err_count[o[i].err < NERR ? o[i].err : NERR]++;
		else if (!o[i].data)
			n_silent++;
		n_data += o[i].data;
		if (o[i].multi && o[i].done)
			n_done++;
		if (w.priv[i]) {
			n_priv++;
			if (o[i].done && o[i].err == EPERM)
				n_priv_eperm++;
			else if (o[i].done && o[i].err == EOPNOTSUPP &&
				 w.priv[i] == 2)
				n_priv_dump_notsupp++;
			else if (o[i].done && !o[i].err)
				n_priv_ok++;
			else
				n_priv_other++;
			if (expect_eperm && !(o[i].done && o[i].err == EPERM) &&
			    !(o[i].done && o[i].err == EOPNOTSUPP &&
			      w.priv[i] == 2))
				fprintf(stderr, "nlfuzz: SET/RESET (seq %u) answered %s, not EPERM\n",
					w.seq[i], o[i].done ? errname(o[i].err) : "nothing");
		}
		if (verbose)
			printf("seq=%u len=%zu valid=%d priv=%d done=%d err=%s data=%d\n",
			       w.seq[i], d->len, valid, w.priv[i], o[i].done,
			       o[i].done ? errname(o[i].err) : "-", o[i].data);
	}
	if (!w.n && verbose)
		printf("len=%zu: no message the kernel processes\n", d->len);
	if (valid == V_GET || valid == V_DUMP || valid == V_HIST) {
		n_valid++;
		if (w.n != 1 || !o[0].done || o[0].err || !o[0].data) {
			n_valid_bad++;
			fprintf(stderr, "nlfuzz: valid request %d (seq %u): done=%d err=%s data=%d\n",
				valid, w.n ? w.seq[0] : 0, o[0].done,
				errname(o[0].err), o[0].data);
		}
	}
}

/* ---- family ------------------------------------------------------------ */

static void resolve_family(void)
{
	static struct dgram d;
	struct nlmsghdr *nh = (void *)d.buf;
	struct genlmsghdr *g = (void *)(d.buf + NLMSG_HDRLEN);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlattr *a;
	ssize_t n;

	memset(&d, 0, sizeof(d));
	nh->nlmsg_type = GENL_ID_CTRL;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = ++seq;
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	a = (void *)(d.buf + NLMSG_HDRLEN + GENL_HDRLEN);
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(LUNQ_GENL_NAME);
	memcpy((char *)a + NLA_HDRLEN, LUNQ_GENL_NAME, sizeof(LUNQ_GENL_NAME));
	nh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + NLA_ALIGN(a->nla_len);
	if (sendto(sock, d.buf, nh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		die("sendto: %s", strerror(errno));
	while ((n = recv(sock, rbuf, RBUF_SIZE, 0)) > 0) {
		size_t left = n;
		struct nlmsghdr *r;

		for (r = (void *)rbuf; NLMSG_OK(r, left); r = NLMSG_NEXT(r, left)) {
			if (r->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(r);

				if (e->error)
					die("family %s: %s", LUNQ_GENL_NAME,
					    strerror(-e->error));
				if (!family_id)
					die("no family id in the answer");
				return;
			}
			if (r->nlmsg_type == GENL_ID_CTRL) {
				unsigned char *p = (unsigned char *)r + NLMSG_HDRLEN + GENL_HDRLEN;
				unsigned char *end = (unsigned char *)r + r->nlmsg_len;

				while (end - p >= NLA_HDRLEN) {
					struct nlattr *x = (void *)p;

					if (x->nla_len < NLA_HDRLEN || x->nla_len > end - p)
						break;
					if ((x->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
						memcpy(&family_id, p + NLA_HDRLEN, 2);
					p += NLA_ALIGN(x->nla_len);
				}
			}
		}
	}
	die("recv (family): %s", n < 0 ? strerror(errno) : "EOF");
}

/* The names of a dump, for --dev defaults. */
static void dump_names(void)
{
	static struct dgram d;
	static char store[MAX_NAMES][LUNQ_NAME_MAX];
	int done = 0;

	d.len = 0;
	msg_start(&d, NLM_F_DUMP, LUNQ_CMD_GET_DEV, 1);
	send_dgram(&d);
	while (!done) {
		ssize_t n = recv(sock, rbuf, RBUF_SIZE, 0);
		struct nlmsghdr *r;
		size_t left;

		if (n <= 0)
			die("recv (dump): %s", n < 0 ? strerror(errno) : "EOF");
		left = n;
		for (r = (void *)rbuf; NLMSG_OK(r, left); r = NLMSG_NEXT(r, left)) {
			unsigned char *p = (unsigned char *)r + NLMSG_HDRLEN + GENL_HDRLEN;
			unsigned char *end = (unsigned char *)r + r->nlmsg_len;

			if (r->nlmsg_type == NLMSG_DONE || r->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			while (end - p >= NLA_HDRLEN) {
				struct nlattr *x = (void *)p;

				if (x->nla_len < NLA_HDRLEN || x->nla_len > end - p)
					break;
				if ((x->nla_type & NLA_TYPE_MASK) == LUNQ_A_NAME &&
				    nnames < MAX_NAMES) {
					snprintf(store[nnames], LUNQ_NAME_MAX, "%.*s",
						 (int)(x->nla_len - NLA_HDRLEN),
						 (char *)p + NLA_HDRLEN);
					names[nnames] = store[nnames];
					nnames++;
				}
				p += NLA_ALIGN(x->nla_len);
			}
		}
	}
}

/* CAP_NET_ADMIN in the effective set */
static int net_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[2];

	if (syscall(SYS_capget, &h, c) < 0)
		return geteuid() == 0;
	return !!(c[CAP_NET_ADMIN / 32].effective & (1U << (CAP_NET_ADMIN % 32)));
}

int main(int argc, char **argv)
{
	unsigned long long seed = (unsigned long long)time(NULL);
	long count = 1000, i;
	int guard = -1, expect_eperm = 0, one = 1, rcvbuf = 1 << 20;
	struct timeval tv = { .tv_sec = 2 };
	static struct dgram d;
	int a;

	for (a = 1; a < argc; a++) {
		const char *o = argv[a];

		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(o, "--seed") && a + 1 < argc) {
			seed = strtoull(argv[++a], NULL, 0);
		} else if (!strcmp(o, "--count") && a + 1 < argc) {
			count = strtol(argv[++a], NULL, 0);
		} else if (!strcmp(o, "--dev") && a + 1 < argc && nnames < MAX_NAMES) {
			names[nnames++] = argv[++a];
		} else if (!strcmp(o, "--keep") && a + 1 < argc && nkeep < MAX_NAMES) {
			keep[nkeep++] = argv[++a];
		} else if (!strcmp(o, "--guard")) {
			guard = 1;
		} else if (!strcmp(o, "--no-guard")) {
			guard = 0;
		} else if (!strcmp(o, "--expect-eperm")) {
			expect_eperm = 1;
		} else if (!strcmp(o, "-v")) {
			verbose = 1;
		} else {
			fprintf(stderr, "nlfuzz: bad argument '%s'\n%s", o, usage);
			return 2;
		}
	}
	if (count < 0)
		die("bad --count");
	if (guard < 0)
		guard = net_admin();
	rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
	if (!rng_state)
		rng_state = 1;
	rbuf = malloc(RBUF_SIZE);
	if (!rbuf)
		die("out of memory");

	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock < 0)
		die("socket: %s", strerror(errno));
	setsockopt(sock, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		die("SO_RCVTIMEO: %s", strerror(errno));
	resolve_family();
	if (!nnames && !nkeep)
		dump_names();

	for (i = 0; i < count; i++) {
		int r = rnd(100), valid = -1;
		const char *name;
		size_t off;

		d.len = 0;
		if (i % 100 == 99 && (nnames || nkeep)) {
			/* the family still answers a plain GET */
			unsigned long bad = n_valid_bad;

			valid_msg(&d, V_GET, &name);
			transact(&d, V_GET, guard, expect_eperm);
			if (n_valid_bad != bad)
				n_sync_bad++;
			continue;
		}
		if (r < 20) {
			random_msg(&d);
		} else if (r < 30) {
			/* unmutated: reads must work for everyone */
			valid = rnd(V_NR);
			valid_msg(&d, valid, &name);
			if (valid == V_SET || valid == V_RESET)
				valid = -2;	/* outcome depends on privilege */
		} else {
			int k, nm = 1 + rnd(4);

			off = valid_msg(&d, rnd(V_NR), &name);
			for (k = 0; k < nm; k++)
				mutate(&d, off);
			/* now and then a second message in the datagram */
			if (!rnd(8) && d.len < BUF_MAX / 2) {
				size_t at = NLMSG_ALIGN(d.len);

				memset(d.buf + d.len, 0, at - d.len);
				d.len = at;
				off = valid_msg(&d, rnd(V_NR), &name);
				if (rnd(2))
					mutate(&d, off);
			}
		}
		transact(&d, valid, guard, expect_eperm);
	}

	printf("nlfuzz: seed=%llu sent=%lu datagrams=%lu guarded=%lu replies:",
	       seed, n_sent, n_dgrams, n_guarded);
	for (a = 0; a <= NERR; a++)
		if (err_count[a])
			printf(" %s=%lu", a == NERR ? "other" : errname(a),
			       err_count[a]);
	printf(" data=%lu dumps_done=%lu silent=%lu overrun=%lu priv=%lu priv_eperm=%lu priv_dump_eopnotsupp=%lu priv_ok=%lu priv_other=%lu valid=%lu valid_bad=%lu sync_bad=%lu guard=%d\n",
	       n_data, n_done, n_silent, n_overrun, n_priv, n_priv_eperm,
	       n_priv_dump_notsupp, n_priv_ok, n_priv_other, n_valid, n_valid_bad, n_sync_bad,
	       guard);
	if (n_valid_bad || n_sync_bad)
		return 1;
	if (expect_eperm && n_priv_eperm + n_priv_dump_notsupp != n_priv)
		return 1;
	return 0;
}
