// SPDX-License-Identifier: GPL-2.0
/*
 * nlprobe: a test client of dm-lunq's generic netlink family "lunq"
 * (kmod/uapi/lunq.h), on raw netlink sockets and plain libc.  Not the
 * product controller (lunqctl): its output is machine-parseable
 * key=value lines for the VM tests (tests/vm/t-netlink.sh), and "raw"
 * sends arbitrary, also malformed, requests.  See --help.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
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
#include "../../kmod/uapi/lunq.h"

#define TOOL_NAME "nlprobe"
#include "die.h"
#include "../../kmod/lunq_names.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define RCVBUF_MIN	(128 * 1024)	/* a histogram reply fits easily */
#define REQ_MAX		(64 * 1024)

static const char usage[] =
"usage: nlprobe [-u UID] COMMAND [ARGS]\n"
"  family                    id=N version=V events_group=G\n"
"  dump                      one line per lunq device\n"
"  get NAME                  the line of one device\n"
"  hist NAME KIND            KIND: number or name (total_read, size, ...):\n"
"                            count= sum= max= buckets= bucket_total=\n"
"                            ordered=1 (bucket indexes ascending)\n"
"  set NAME \"key:value ...\"  change the live policy (admin)\n"
"  reset NAME                zero counters and histograms (admin)\n"
"  raw CMD [ATTR...]         CMD: number or get|hist|set|reset; ATTR:\n"
"                            TYPE:HEX (raw bytes), TYPE:s:STRING (with NUL),\n"
"                            TYPE:u8:N, TYPE:u32:N, TYPE:u64:N\n"
"  listen [-c COUNT] [-t SECONDS]\n"
"                            print events of the \"events\" group until\n"
"                            COUNT events, SECONDS or SIGTERM/SIGINT; exit 0\n"
"                            after one or more, 3 when none arrived\n"
"Device lines: name= dm_name= disk= lower= begin= len= policy=\"...\"\n"
"version= and every statistic as NAME=value.  Results: \"ok\", or on a\n"
"netlink error \"error=ENAME errno=N msg=<extack message or ->\", exit 1.\n"
"-u UID: setgid/setuid to UID before opening the socket.\n";

static int sock = -1;
static uint32_t seq;
static uint16_t family_id;
static uint32_t family_version, events_group;

static const char *errno_name(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

/* ---- messages ---------------------------------------------------------- */

struct msg {
	union {
		struct nlmsghdr nh;
		char buf[REQ_MAX];
	};
};

static void msg_init(struct msg *m, uint16_t type, uint16_t flags, uint8_t cmd,
		     uint8_t version)
{
	struct genlmsghdr *g;

	memset(m->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	m->nh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nh.nlmsg_type = type;
	m->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	m->nh.nlmsg_seq = ++seq;
	g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = version;
}

static void put_attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + NLMSG_ALIGN(m->nh.nlmsg_len));
	size_t total = NLA_HDRLEN + len;

	if (NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_ALIGN(total) > sizeof(m->buf) ||
	    total > 0xffff)
		die("request too large");
	a->nla_type = type;
	a->nla_len = total;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + total, 0, NLA_ALIGN(total) - total);
	m->nh.nlmsg_len = NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_ALIGN(total);
}

static void put_str(struct msg *m, uint16_t type, const char *s)
{
	put_attr(m, type, s, strlen(s) + 1);
}

static void msg_send(struct msg *m)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(sock, m->buf, m->nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		die("sendto: %s", strerror(errno));
}

/* Receive one datagram into a buffer sized for it (>= RCVBUF_MIN). */
static char *rbuf;
static size_t rbuf_size;

static ssize_t msg_recv(int flags)
{
	ssize_t n;

	n = recv(sock, NULL, 0, MSG_PEEK | MSG_TRUNC | flags);
	if (n < 0)
		return -errno;
	if ((size_t)n > rbuf_size || !rbuf) {
		size_t sz = (size_t)n > RCVBUF_MIN ? (size_t)n : RCVBUF_MIN;

		free(rbuf);
		rbuf = malloc(sz);
		if (!rbuf)
			die("out of memory");
		rbuf_size = sz;
	}
	n = recv(sock, rbuf, rbuf_size, 0);
	if (n < 0)
		return -errno;
	return n;
}

/* ---- attributes -------------------------------------------------------- */

#define TB_MAX 256

/* Index the attributes in [data, data+len) by type (last one wins). */
static void parse_attrs(const void *data, size_t len, const struct nlattr **tb,
			int max)
{
	const char *p = data, *end = p + len;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	while (end - p >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		int type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > end - p)
			break;
		if (type <= max)
			tb[type] = a;
		p += NLA_ALIGN(a->nla_len);
	}
}

static const void *attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static size_t attr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static uint64_t attr_uint(const struct nlattr *a)
{
	size_t n = attr_len(a);
	uint64_t v64 = 0;
	uint32_t v32 = 0;
	uint16_t v16 = 0;
	uint8_t v8 = 0;

	switch (n) {
	case 1: memcpy(&v8, attr_data(a), 1); return v8;
	case 2: memcpy(&v16, attr_data(a), 2); return v16;
	case 4: memcpy(&v32, attr_data(a), 4); return v32;
	case 8: memcpy(&v64, attr_data(a), 8); return v64;
	}
	return 0;
}

/* A string attribute as a C string (copied: it may lack its NUL). */
static const char *attr_str(const struct nlattr *a)
{
	static char s[8][LUNQ_POLICY_MAX + 1];
	static int i;
	size_t n;

	if (!a)
		return "";
	n = attr_len(a);
	i = (i + 1) % 8;
	if (n > LUNQ_POLICY_MAX)
		n = LUNQ_POLICY_MAX;
	memcpy(s[i], attr_data(a), n);
	s[i][n] = 0;
	return s[i];
}

static const void *genl_attrs(const struct nlmsghdr *nh, size_t *len)
{
	*len = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return (const char *)nh + NLMSG_HDRLEN + GENL_HDRLEN;
}

/* ---- replies ----------------------------------------------------------- */

/* An NLMSG_ERROR with a nonzero error: print the error line. */
static void print_error(const struct nlmsghdr *nh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nh);
	const char *msg = "-";
	size_t off, len = nh->nlmsg_len;
	int err = -e->error;

	if (nh->nlmsg_type == NLMSG_DONE) {
		err = -*(const int *)NLMSG_DATA(nh);
		off = NLMSG_HDRLEN + sizeof(int);
	} else if (nh->nlmsg_flags & NLM_F_CAPPED) {
		off = NLMSG_HDRLEN + sizeof(*e);
	} else {
		off = NLMSG_HDRLEN + sizeof(e->error) + NLMSG_ALIGN(e->msg.nlmsg_len);
	}
	if ((nh->nlmsg_flags & NLM_F_ACK_TLVS) && off < len) {
		const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

		parse_attrs((const char *)nh + off, len - off, tb,
			    NLMSGERR_ATTR_MAX);
		if (tb[NLMSGERR_ATTR_MSG])
			msg = attr_str(tb[NLMSGERR_ATTR_MSG]);
	}
	printf("error=%s errno=%d msg=%s\n", errno_name(err), err, msg);
	fflush(stdout);
}

/*
 * Read the answers to the request with sequence number @s, handing every
 * data message to @cb.  Returns 0 after the ACK (or NLMSG_DONE of a dump),
 * the negative errno after printing the error line.
 */
static int recv_answers(uint32_t s, void (*cb)(const struct nlmsghdr *, void *),
			void *arg)
{
	for (;;) {
		ssize_t n = msg_recv(0);
		const struct nlmsghdr *nh;
		size_t left;

		if (n < 0)
			die("recv: %s", strerror((int)-n));
		left = (size_t)n;
		for (nh = (const void *)rbuf; NLMSG_OK(nh, left);
		     nh = NLMSG_NEXT(nh, left)) {
			if (nh->nlmsg_seq != s)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);

				if (!e->error)
					return 0;
				print_error(nh);
				return e->error;
			}
			if (nh->nlmsg_type == NLMSG_DONE) {
				int err = *(const int *)NLMSG_DATA(nh);

				if (err) {
					print_error(nh);
					return err < 0 ? err : -err;
				}
				return 0;
			}
			if (nh->nlmsg_type == NLMSG_NOOP ||
			    nh->nlmsg_type == NLMSG_OVERRUN)
				continue;
			if (cb)
				cb(nh, arg);
		}
	}
}

/* ---- family ------------------------------------------------------------ */

static void family_cb(const struct nlmsghdr *nh, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	const struct nlattr *grps;
	const void *data;
	size_t len;

	(void)arg;
	data = genl_attrs(nh, &len);
	parse_attrs(data, len, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		family_id = attr_uint(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		family_version = attr_uint(tb[CTRL_ATTR_VERSION]);
	grps = tb[CTRL_ATTR_MCAST_GROUPS];
	if (grps) {
		const char *p = attr_data(grps), *end = p + attr_len(grps);

		while (end - p >= NLA_HDRLEN) {
			const struct nlattr *g = (const void *)p;
			const struct nlattr *gt[CTRL_ATTR_MCAST_GRP_MAX + 1];

			if (g->nla_len < NLA_HDRLEN || g->nla_len > end - p)
				break;
			parse_attrs(attr_data(g), attr_len(g), gt,
				    CTRL_ATTR_MCAST_GRP_MAX);
			if (gt[CTRL_ATTR_MCAST_GRP_NAME] &&
			    gt[CTRL_ATTR_MCAST_GRP_ID] &&
			    !strcmp(attr_str(gt[CTRL_ATTR_MCAST_GRP_NAME]),
				    LUNQ_GENL_MCGRP_EVENTS))
				events_group = attr_uint(gt[CTRL_ATTR_MCAST_GRP_ID]);
			p += NLA_ALIGN(g->nla_len);
		}
	}
}

/* Resolve "lunq"; on an error print it and exit 1. */
static void resolve_family(void)
{
	static struct msg m;

	msg_init(&m, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	put_str(&m, CTRL_ATTR_FAMILY_NAME, LUNQ_GENL_NAME);
	msg_send(&m);
	if (recv_answers(m.nh.nlmsg_seq, family_cb, NULL))
		exit(1);
	if (!family_id)
		die("no family id in the controller's answer");
}

/* ---- lunq requests ----------------------------------------------------- */

static void lunq_msg(struct msg *m, uint8_t cmd, uint16_t flags)
{
	msg_init(m, family_id, flags, cmd, LUNQ_GENL_VERSION);
}

/* Send @m, read the answers; print "ok" when asked; exit status. */
static int transact(struct msg *m, void (*cb)(const struct nlmsghdr *, void *),
		    void *arg, int say_ok)
{
	msg_send(m);
	if (recv_answers(m->nh.nlmsg_seq, cb, arg))
		return 1;
	if (say_ok) {
		printf("ok\n");
		fflush(stdout);
	}
	return 0;
}

static void dev_cb(const struct nlmsghdr *nh, void *arg)
{
	const struct nlattr *tb[LUNQ_A_MAX + 1];
	const void *data;
	size_t len;
	int *n = arg;

	data = genl_attrs(nh, &len);
	parse_attrs(data, len, tb, LUNQ_A_MAX);
	printf("name=%s dm_name=%s disk=%s lower=%s", attr_str(tb[LUNQ_A_NAME]),
	       attr_str(tb[LUNQ_A_DM_NAME]), attr_str(tb[LUNQ_A_DISK]),
	       attr_str(tb[LUNQ_A_LOWER]));
	if (tb[LUNQ_A_BEGIN])
		printf(" begin=%llu", (unsigned long long)attr_uint(tb[LUNQ_A_BEGIN]));
	if (tb[LUNQ_A_LEN])
		printf(" len=%llu", (unsigned long long)attr_uint(tb[LUNQ_A_LEN]));
	printf(" policy=\"%s\"", attr_str(tb[LUNQ_A_POLICY]));
	if (tb[LUNQ_A_VERSION])
		printf(" version=%llu", (unsigned long long)attr_uint(tb[LUNQ_A_VERSION]));
	if (tb[LUNQ_A_THROTTLE_POLICY])
		printf(" throttle_policy=%s", attr_str(tb[LUNQ_A_THROTTLE_POLICY]));
	if (tb[LUNQ_A_THROTTLE_POLICY_FROM])
		printf(" throttle_policy_from=%s",
		       attr_str(tb[LUNQ_A_THROTTLE_POLICY_FROM]));
	if (tb[LUNQ_A_STATS]) {
		const struct nlattr *a = tb[LUNQ_A_STATS];
		const char *p = attr_data(a), *end = p + attr_len(a);

		while (end - p >= NLA_HDRLEN) {
			const struct nlattr *s = (const void *)p;
			int type = s->nla_type & NLA_TYPE_MASK;

			if (s->nla_len < NLA_HDRLEN || s->nla_len > end - p)
				break;
			p += NLA_ALIGN(s->nla_len);
			if (type == LUNQ_ST_UNSPEC)	/* padding */
				continue;
			if (type < __LUNQ_ST_MAX && lunq_stat_names[type])
				printf(" %s=", lunq_stat_names[type]);
			else
				printf(" st_%d=", type);
			printf("%llu", (unsigned long long)attr_uint(s));
		}
	}
	printf("\n");
	fflush(stdout);
	if (n)
		(*n)++;
}

static int cmd_family(void)
{
	printf("id=%u version=%u events_group=%u\n", family_id, family_version,
	       events_group);
	return 0;
}

static int cmd_dump(void)
{
	static struct msg m;
	int n = 0;

	lunq_msg(&m, LUNQ_CMD_GET_DEV, NLM_F_DUMP);
	return transact(&m, dev_cb, &n, 0);
}

static int cmd_get(const char *name)
{
	static struct msg m;

	lunq_msg(&m, LUNQ_CMD_GET_DEV, NLM_F_ACK);
	put_str(&m, LUNQ_A_NAME, name);
	return transact(&m, dev_cb, NULL, 0);
}

struct hist_res {
	int got;
	uint64_t count, sum, max, nbuckets, total;
	int32_t last_index;
	int unordered;
};

static void hist_cb(const struct nlmsghdr *nh, void *arg)
{
	struct hist_res *r = arg;
	const char *p, *end;
	size_t len;

	p = genl_attrs(nh, &len);
	end = p + len;
	r->got = 1;
	/* walk every attribute: LUNQ_A_HIST_BUCKETS comes several times */
	while (end - p >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		int type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > end - p)
			break;
		p += NLA_ALIGN(a->nla_len);
		switch (type) {
		case LUNQ_A_HIST_COUNT: r->count = attr_uint(a); break;
		case LUNQ_A_HIST_SUM: r->sum = attr_uint(a); break;
		case LUNQ_A_HIST_MAX: r->max = attr_uint(a); break;
		case LUNQ_A_HIST_BUCKETS: {
			size_t i, nb = attr_len(a) / sizeof(struct lunq_bucket);

			for (i = 0; i < nb; i++) {
				struct lunq_bucket b;

				memcpy(&b, (const char *)attr_data(a) + i * sizeof(b),
				       sizeof(b));
				if ((int32_t)b.index <= r->last_index)
					r->unordered = 1;
				r->last_index = b.index;
				if (b.count)
					r->nbuckets++;
				r->total += b.count;
			}
			break;
		}
		}
	}
}

static int hist_kind(const char *s)
{
	char *end;
	long v;
	int i;

	for (i = 0; i < LUNQ_NR_HISTS; i++)
		if (lunq_hist_names[i] && !strcmp(s, lunq_hist_names[i]))
			return i;
	v = strtol(s, &end, 0);
	if (!*s || *end || v < 0 || v > 0xffffffffL)
		die("bad histogram kind '%s'", s);
	return (int)v;
}

static int cmd_hist(const char *name, const char *kind)
{
	static struct msg m;
	struct hist_res r = { .last_index = -1 };
	uint32_t k = hist_kind(kind);

	lunq_msg(&m, LUNQ_CMD_GET_HIST, NLM_F_ACK);
	put_str(&m, LUNQ_A_NAME, name);
	put_attr(&m, LUNQ_A_HIST, &k, sizeof(k));
	if (transact(&m, hist_cb, &r, 0))
		return 1;
	if (!r.got)
		die("no histogram in the answer");
	printf("count=%llu sum=%llu max=%llu buckets=%llu bucket_total=%llu ordered=%d\n",
	       (unsigned long long)r.count, (unsigned long long)r.sum,
	       (unsigned long long)r.max, (unsigned long long)r.nbuckets,
	       (unsigned long long)r.total, !r.unordered);
	return 0;
}

static int cmd_set(const char *name, const char *policy)
{
	static struct msg m;

	lunq_msg(&m, LUNQ_CMD_SET, NLM_F_ACK);
	put_str(&m, LUNQ_A_NAME, name);
	put_str(&m, LUNQ_A_POLICY, policy);
	return transact(&m, NULL, NULL, 1);
}

static int cmd_reset(const char *name)
{
	static struct msg m;

	lunq_msg(&m, LUNQ_CMD_RESET, NLM_F_ACK);
	put_str(&m, LUNQ_A_NAME, name);
	return transact(&m, NULL, NULL, 1);
}

static unsigned long long num(const char *s, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || v > max)
		die("bad number '%s'", s);
	return v;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One raw attribute: TYPE:HEX, TYPE:s:STRING, TYPE:u8|u32|u64:N */
static void put_raw(struct msg *m, const char *arg)
{
	static unsigned char buf[REQ_MAX];
	const char *colon = strchr(arg, ':'), *v;
	char tstr[16];
	uint16_t type;
	size_t n = 0;

	if (!colon || colon - arg >= (long)sizeof(tstr))
		die("bad attribute '%s' (TYPE:HEX)", arg);
	memcpy(tstr, arg, colon - arg);
	tstr[colon - arg] = 0;
	type = num(tstr, 0xffff);
	v = colon + 1;
	if (!strncmp(v, "s:", 2)) {
		put_str(m, type, v + 2);
		return;
	}
	if (!strncmp(v, "u8:", 3)) {
		uint8_t x = num(v + 3, 0xff);

		put_attr(m, type, &x, 1);
		return;
	}
	if (!strncmp(v, "u32:", 4)) {
		uint32_t x = num(v + 4, 0xffffffffULL);

		put_attr(m, type, &x, 4);
		return;
	}
	if (!strncmp(v, "u64:", 4)) {
		uint64_t x = num(v + 4, ~0ULL);

		put_attr(m, type, &x, 8);
		return;
	}
	if (strlen(v) % 2)
		die("odd number of hex digits in '%s'", arg);
	for (; *v; v += 2) {
		int hi = hexval(v[0]), lo = hexval(v[1]);

		if (hi < 0 || lo < 0)
			die("bad hex in '%s'", arg);
		if (n == sizeof(buf))
			die("attribute too long");
		buf[n++] = hi << 4 | lo;
	}
	put_attr(m, type, buf, n);
}

static int cmd_raw(int argc, char **argv)
{
	static const char *const names[] = {
		[LUNQ_CMD_GET_DEV] = "get", [LUNQ_CMD_GET_HIST] = "hist",
		[LUNQ_CMD_SET] = "set", [LUNQ_CMD_RESET] = "reset",
		[LUNQ_CMD_EVENT] = "event",
	};
	static struct msg m;
	int cmd = -1, i;

	for (i = 1; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(argv[0], names[i]))
			cmd = i;
	if (cmd < 0)
		cmd = num(argv[0], 255);
	lunq_msg(&m, cmd, NLM_F_ACK);
	for (i = 1; i < argc; i++)
		put_raw(&m, argv[i]);
	return transact(&m, NULL, NULL, 1);
}

/* ---- events ------------------------------------------------------------ */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int print_event(const struct nlmsghdr *nh)
{
	static const struct { int attr; const char *key; } keys[] = {
		{ LUNQ_A_EV_COUNT, "count" }, { LUNQ_A_EV_FROM, "from" },
		{ LUNQ_A_EV_TO, "to" }, { LUNQ_A_EV_CAUSE, "cause" },
		{ LUNQ_A_EV_SECTOR, "sector" }, { LUNQ_A_EV_BYTES, "bytes" },
		{ LUNQ_A_EV_WRITE, "write" }, { LUNQ_A_EV_WAIT_NS, "wait_ns" },
		{ LUNQ_A_EV_SVC_NS, "svc_ns" },
	};
	const struct nlattr *tb[LUNQ_A_MAX + 1];
	const struct genlmsghdr *g = NLMSG_DATA(nh);
	const void *data;
	unsigned int i, kind;
	size_t len;

	if (nh->nlmsg_type != family_id || g->cmd != LUNQ_CMD_EVENT)
		return 0;
	data = genl_attrs(nh, &len);
	parse_attrs(data, len, tb, LUNQ_A_MAX);
	if (!tb[LUNQ_A_EVENT])
		return 0;
	kind = attr_uint(tb[LUNQ_A_EVENT]);
	if (kind < LUNQ_NR_EVENTS && lunq_event_names[kind])
		printf("event=%s", lunq_event_names[kind]);
	else
		printf("event=%u", kind);
	printf(" name=%s", attr_str(tb[LUNQ_A_NAME]));
	if (tb[LUNQ_A_EV_TIME_NS])
		printf(" t=%llu", (unsigned long long)attr_uint(tb[LUNQ_A_EV_TIME_NS]));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct nlattr *a = tb[keys[i].attr];

		if (!a)
			continue;
		if (keys[i].attr == LUNQ_A_EV_CAUSE)
			printf(" %s=%s", keys[i].key, attr_str(a));
		else
			printf(" %s=%llu", keys[i].key,
			       (unsigned long long)attr_uint(a));
	}
	if (tb[LUNQ_A_EV_SUPPRESSED])
		printf(" suppressed=%llu",
		       (unsigned long long)attr_uint(tb[LUNQ_A_EV_SUPPRESSED]));
	printf("\n");
	fflush(stdout);
	return 1;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int cmd_listen(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	sigset_t block, orig;
	double secs = 0, deadline;
	long count = 0, got = 0;
	int opt;

	optind = 1;
	while ((opt = getopt(argc, argv, "+c:t:")) != -1) {
		switch (opt) {
		case 'c': count = num(optarg, 1000000000); break;
		case 't': secs = strtod(optarg, NULL); break;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!events_group)
		die("family lunq has no \"%s\" group", LUNQ_GENL_MCGRP_EVENTS);
	if (setsockopt(sock, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &events_group,
		       sizeof(events_group)) < 0)
		die("NETLINK_ADD_MEMBERSHIP: %s", strerror(errno));
	/*
	 * SIGTERM, SIGINT: stop like at the deadline (exit 0 or 3).  Blocked
	 * but inside ppoll(), so that one arriving just before it still
	 * ends the wait.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigdelset(&orig, SIGTERM);
	sigdelset(&orig, SIGINT);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	printf("listening group=%u\n", events_group);
	fflush(stdout);
	deadline = now_s() + secs;
	for (;;) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		struct timespec ts, *tsp = NULL;
		int r;
		const struct nlmsghdr *nh;
		ssize_t n;
		size_t left;

		if (stop || (count && got >= count))
			break;
		if (secs > 0) {
			double left_s = deadline - now_s();

			if (left_s <= 0)
				break;
			ts.tv_sec = (time_t)left_s;
			ts.tv_nsec = (long)((left_s - ts.tv_sec) * 1e9);
			tsp = &ts;
		}
		r = ppoll(&pfd, 1, tsp, &orig);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("ppoll: %s", strerror(errno));
		if (!r)
			continue;
		n = msg_recv(MSG_DONTWAIT);
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n == -ENOBUFS) {
			fprintf(stderr, "nlprobe: receive buffer overrun, events lost\n");
			continue;
		}
		if (n < 0)
			die("recv: %s", strerror((int)-n));
		left = (size_t)n;
		for (nh = (const void *)rbuf; NLMSG_OK(nh, left);
		     nh = NLMSG_NEXT(nh, left))
			if (print_event(nh))
				got++;
	}
	return got ? 0 : 3;
}

/* ---- main -------------------------------------------------------------- */

static const struct {
	const char *name;
	int min, max;	/* arguments */
} cmds[] = {
	{ "family", 0, 0 }, { "dump", 0, 0 }, { "get", 1, 1 },
	{ "hist", 2, 2 }, { "set", 2, 2 }, { "reset", 1, 1 },
	{ "raw", 1, 1 << 20 }, { "listen", 0, 4 },
};

int main(int argc, char **argv)
{
	int one = 1, i = 1, c;
	const char *cmd;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "-u")) {
		unsigned long uid = num(argv[2], 0xfffffffe);

		if (setgroups(0, NULL) < 0 && errno != EPERM)
			die("setgroups: %s", strerror(errno));
		if (setgid(uid) < 0 || setuid(uid) < 0)
			die("setuid %lu: %s", uid, strerror(errno));
		i = 3;
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	cmd = argv[i++];
	argc -= i;
	argv += i;
	for (c = 0; c < (int)(sizeof(cmds) / sizeof(cmds[0])); c++)
		if (!strcmp(cmd, cmds[c].name))
			break;
	if (c == (int)(sizeof(cmds) / sizeof(cmds[0]))) {
		fprintf(stderr, "nlprobe: unknown command '%s'\n%s", cmd, usage);
		return 2;
	}
	if (argc < cmds[c].min || argc > cmds[c].max) {
		fprintf(stderr, "nlprobe: %s: wrong number of arguments\n%s",
			cmd, usage);
		return 2;
	}

	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock < 0)
		die("socket: %s", strerror(errno));
	if (setsockopt(sock, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) < 0)
		die("NETLINK_EXT_ACK: %s", strerror(errno));
	/* the error's echo of the request: headers only (a large POLICY) */
	setsockopt(sock, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	resolve_family();

	if (!strcmp(cmd, "family"))
		return cmd_family();
	if (!strcmp(cmd, "dump"))
		return cmd_dump();
	if (!strcmp(cmd, "get"))
		return cmd_get(argv[0]);
	if (!strcmp(cmd, "hist"))
		return cmd_hist(argv[0], argv[1]);
	if (!strcmp(cmd, "set"))
		return cmd_set(argv[0], argv[1]);
	if (!strcmp(cmd, "reset"))
		return cmd_reset(argv[0]);
	if (!strcmp(cmd, "raw"))
		return cmd_raw(argc, argv);
	return cmd_listen(argc + 1, argv - 1);	/* argv[-1]: "listen" */
}
