// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: client of dm-lunq's generic netlink family "lunq"
 * (kmod/uapi/lunq.h, kmod/dm-lunq.rst "Generic netlink"), on libnl-genl-3.
 *
 * One socket for requests (extended acks on, so the kernel's reason for a
 * refused SET reaches the user), a second one for the "events" group.
 * Errors are turned into lunqctl's exit codes (exit.h) with a message
 * that says what to do.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include "nl.h"
#include "lunq_hist.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct lq_nl {
	struct nl_sock *sk;	/* requests */
	struct nl_sock *ev;	/* events, once joined */
	int family;
	u32 version;
	int events_group;
	u64 overruns;		/* event socket overflows (ENOBUFS) */
	char err[512];
};

/* State of one request: its parser, and how it ended. */
struct lq_req {
	struct lq_nl *nl;
	int (*parse)(struct nlattr **tb, void *arg);
	void *arg;
	int done;
	int error;		/* negative errno from the kernel */
	char msg[256];		/* its extack message */
};

static int set_err(struct lq_nl *nl, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(struct lq_nl *nl, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nl->err, sizeof(nl->err), fmt, ap);
	va_end(ap);
	return code;
}

const char *lq_nl_err(const struct lq_nl *nl)
{
	return nl->err;
}

u64 lq_nl_overruns(const struct lq_nl *nl)
{
	return nl->overruns;
}

static bool module_loaded(void)
{
	return access("/sys/module/dm_lunq", F_OK) == 0;
}

int lq_nl_open(struct lq_nl **nlp, char *err, size_t errlen)
{
	struct nl_cache *cache = NULL;
	struct genl_family *fam;
	struct lq_nl *nl;
	int one = 1, rc;

	*nlp = NULL;
	nl = calloc(1, sizeof(*nl));
	if (!nl) {
		snprintf(err, errlen, "out of memory");
		return LQ_EFAIL;
	}
	nl->sk = nl_socket_alloc();
	if (!nl->sk || genl_connect(nl->sk)) {
		snprintf(err, errlen, "cannot open a generic netlink socket");
		lq_nl_close(nl);
		return LQ_EFAIL;
	}
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	nl_socket_set_buffer_size(nl->sk, 1 << 20, 0);
	nl_socket_enable_msg_peek(nl->sk);
	rc = genl_ctrl_alloc_cache(nl->sk, &cache);
	if (rc < 0) {
		snprintf(err, errlen, "cannot list generic netlink families: %s",
			 nl_geterror(rc));
		lq_nl_close(nl);
		return LQ_EFAIL;
	}
	fam = genl_ctrl_search_by_name(cache, LUNQ_GENL_NAME);
	if (!fam) {
		nl_cache_free(cache);
		lq_nl_close(nl);
		if (module_loaded())
			snprintf(err, errlen,
				 "dm-lunq is loaded but has no netlink family \"%s\"; load a dm-lunq that matches this lunqctl",
				 LUNQ_GENL_NAME);
		else
			snprintf(err, errlen,
				 "dm-lunq is not loaded (no netlink family \"%s\"); run 'modprobe dm-lunq' as root",
				 LUNQ_GENL_NAME);
		return LQ_ENOTFOUND;
	}
	nl->family = genl_family_get_id(fam);
	nl->version = genl_family_get_version(fam);
	genl_family_put(fam);
	nl_cache_free(cache);
	if (nl->version != LUNQ_GENL_VERSION) {
		snprintf(err, errlen,
			 "dm-lunq speaks netlink version %u, this lunqctl speaks %u; install the lunqctl built with the loaded module",
			 nl->version, LUNQ_GENL_VERSION);
		lq_nl_close(nl);
		return LQ_EVERSION;
	}
	*nlp = nl;
	return LQ_OK;
}

void lq_nl_close(struct lq_nl *nl)
{
	if (!nl)
		return;
	if (nl->sk)
		nl_socket_free(nl->sk);
	if (nl->ev)
		nl_socket_free(nl->ev);
	free(nl);
}

/* ---- requests ---------------------------------------------------------- */

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct lq_req *r = arg;
	struct nlattr *tb[LUNQ_A_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, LUNQ_A_MAX, NULL) < 0)
		return NL_SKIP;
	if (r->parse && r->parse(tb, r->arg))
		return NL_STOP;
	return NL_OK;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct lq_req *r = arg;

	(void)msg;
	r->done = 1;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct lq_req *r = arg;
	size_t off;

	(void)nla;
	r->error = e->error;
	r->done = 1;
	if (nh->nlmsg_flags & NLM_F_CAPPED)
		off = NLMSG_HDRLEN + sizeof(*e);
	else
		off = NLMSG_HDRLEN + sizeof(e->error) +
		      NLMSG_ALIGN(e->msg.nlmsg_len);
	if ((nh->nlmsg_flags & NLM_F_ACK_TLVS) && off < nh->nlmsg_len) {
		struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

		if (!nla_parse(tb, NLMSGERR_ATTR_MAX,
			       (struct nlattr *)((char *)nh + off),
			       nh->nlmsg_len - off, NULL) &&
		    tb[NLMSGERR_ATTR_MSG])
			snprintf(r->msg, sizeof(r->msg), "%s",
				 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	}
	return NL_STOP;
}

/* Map a kernel errno for a request about @name to an exit code. */
static int kernel_err(struct lq_nl *nl, const struct lq_req *r,
		      const char *what, const char *name)
{
	int e = -r->error;

	switch (e) {
	case ENODEV:
	case ENOENT:
		return set_err(nl, LQ_ENOTFOUND,
			       "%s: no lunq device of that name (lunqctl list shows them)",
			       name);
	case EPERM:
	case EACCES:
		return set_err(nl, LQ_EPERM,
			       "%s %s: permission denied: changes need root (CAP_SYS_ADMIN)",
			       what, name);
	case EINVAL:
	case ERANGE:
		if (r->msg[0])
			return set_err(nl, LQ_EUSAGE, "%s %s: %s", what, name, r->msg);
		return set_err(nl, LQ_EUSAGE, "%s %s: the kernel refused the request (%s)",
			       what, name, strerror(e));
	case EBUSY:
		return set_err(nl, LQ_EBUSY, "%s %s: device busy%s%s", what, name,
			       r->msg[0] ? ": " : "", r->msg);
	default:
		return set_err(nl, LQ_EFAIL, "%s %s: %s%s%s", what, name,
			       strerror(e), r->msg[0] ? ": " : "", r->msg);
	}
}

/*
 * Send @cmd for @name (NULL: none) with optional policy @policy / hist
 * @kind (-1: none), hand every reply to @parse (through @valid, when not
 * NULL, instead of on_valid); returns an exit code.
 */
static int transact(struct lq_nl *nl, int cmd, int flags, const char *name,
		    const char *policy, int kind,
		    int (*parse)(struct nlattr **, void *), void *arg,
		    const char *what, nl_recvmsg_msg_cb_t valid)
{
	struct lq_req r = { .nl = nl, .parse = parse, .arg = arg };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int rc;

	msg = nlmsg_alloc();
	cb = nl_cb_alloc(NL_CB_CUSTOM);
	if (!msg || !cb) {
		nlmsg_free(msg);
		nl_cb_put(cb);
		return set_err(nl, LQ_EFAIL, "out of memory");
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 flags | NLM_F_ACK, cmd, LUNQ_GENL_VERSION) ||
	    (name && nla_put_string(msg, LUNQ_A_NAME, name) < 0) ||
	    (policy && nla_put_string(msg, LUNQ_A_POLICY, policy) < 0) ||
	    (kind >= 0 && nla_put_u32(msg, LUNQ_A_HIST, kind) < 0)) {
		nlmsg_free(msg);
		nl_cb_put(cb);
		return set_err(nl, LQ_EUSAGE, "%s: request too long", what);
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid ? valid : on_valid, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_finish, &r);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	rc = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	while (rc >= 0 && !r.done)
		rc = nl_recvmsgs(nl->sk, cb);
	nl_cb_put(cb);
	if (r.error)
		return kernel_err(nl, &r, what, name ? name : "");
	if (rc < 0)
		return set_err(nl, LQ_EFAIL, "%s: netlink: %s", what,
			       nl_geterror(rc));
	return LQ_OK;
}

/* ---- devices ----------------------------------------------------------- */

static void copy_str(char *dst, size_t len, const struct nlattr *a)
{
	if (!a) {
		dst[0] = '\0';
		return;
	}
	snprintf(dst, len, "%.*s", (int)strnlen(nla_data(a), nla_len(a)),
		 (const char *)nla_data(a));
}

static void parse_dev(struct nlattr **tb, struct lq_dev *d)
{
	struct nlattr *a;
	int rem;

	memset(d, 0, sizeof(*d));
	copy_str(d->name, sizeof(d->name), tb[LUNQ_A_NAME]);
	copy_str(d->dm_name, sizeof(d->dm_name), tb[LUNQ_A_DM_NAME]);
	copy_str(d->disk, sizeof(d->disk), tb[LUNQ_A_DISK]);
	copy_str(d->lower, sizeof(d->lower), tb[LUNQ_A_LOWER]);
	copy_str(d->policy, sizeof(d->policy), tb[LUNQ_A_POLICY]);
	copy_str(d->tpolicy, sizeof(d->tpolicy), tb[LUNQ_A_THROTTLE_POLICY]);
	copy_str(d->tpolicy_from, sizeof(d->tpolicy_from),
		 tb[LUNQ_A_THROTTLE_POLICY_FROM]);
	copy_str(d->ej_policy, sizeof(d->ej_policy), tb[LUNQ_A_EJECT_POLICY]);
	copy_str(d->ej_rule, sizeof(d->ej_rule), tb[LUNQ_A_EJECT_RULE]);
	copy_str(d->ej_hook, sizeof(d->ej_hook), tb[LUNQ_A_EJECT_HOOK]);
	if (tb[LUNQ_A_EJECT_TIME_NS])
		d->ej_t = nla_get_u64(tb[LUNQ_A_EJECT_TIME_NS]);
	if (tb[LUNQ_A_EJECT_NS])
		d->ej_ns = nla_get_u64(tb[LUNQ_A_EJECT_NS]);
	if (tb[LUNQ_A_EJECT_BOUND_NS])
		d->ej_bound_ns = nla_get_u64(tb[LUNQ_A_EJECT_BOUND_NS]);
	if (tb[LUNQ_A_BEGIN])
		d->begin = nla_get_u64(tb[LUNQ_A_BEGIN]);
	if (tb[LUNQ_A_LEN])
		d->len = nla_get_u64(tb[LUNQ_A_LEN]);
	if (!tb[LUNQ_A_STATS])
		return;
	nla_for_each_nested(a, tb[LUNQ_A_STATS], rem) {
		int t = nla_type(a);

		/* statistics are only appended: skip those we don't know */
		if (t > 0 && t < __LUNQ_ST_MAX && nla_len(a) == 8) {
			d->st[t] = nla_get_u64(a);
			d->have[t] = true;
		}
	}
}

static int parse_one_dev(struct nlattr **tb, void *arg)
{
	if (tb[LUNQ_A_NAME])
		parse_dev(tb, arg);
	return 0;
}

int lq_nl_get_dev(struct lq_nl *nl, const char *name, struct lq_dev *d)
{
	memset(d, 0, sizeof(*d));
	return transact(nl, LUNQ_CMD_GET_DEV, 0, name, NULL, -1,
			parse_one_dev, d, "get", NULL);
}

struct dump_state {
	struct lq_dev *devs;
	int n, cap;
	bool oom;
};

static int parse_dump_dev(struct nlattr **tb, void *arg)
{
	struct dump_state *s = arg;

	if (!tb[LUNQ_A_NAME])
		return 0;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct lq_dev *p = realloc(s->devs, cap * sizeof(*p));

		if (!p) {
			s->oom = true;
			return 1;
		}
		s->devs = p;
		s->cap = cap;
	}
	parse_dev(tb, &s->devs[s->n++]);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct lq_dev *)a)->name,
		      ((const struct lq_dev *)b)->name);
}

int lq_nl_dump(struct lq_nl *nl, struct lq_dev **devs, int *n)
{
	struct dump_state s = { 0 };
	int rc;

	rc = transact(nl, LUNQ_CMD_GET_DEV, NLM_F_DUMP, NULL, NULL, -1,
		      parse_dump_dev, &s, "list", NULL);
	if (rc == LQ_OK && s.oom)
		rc = set_err(nl, LQ_EFAIL, "out of memory");
	if (rc != LQ_OK) {
		free(s.devs);
		return rc;
	}
	if (s.n)
		qsort(s.devs, s.n, sizeof(*s.devs), by_name);
	*devs = s.devs;
	*n = s.n;
	return LQ_OK;
}

/* ---- histograms -------------------------------------------------------- */

static int parse_hist(struct nlattr **tb, void *arg)
{
	struct lq_hist *h = arg;

	if (tb[LUNQ_A_HIST_COUNT])
		h->count = nla_get_u64(tb[LUNQ_A_HIST_COUNT]);
	if (tb[LUNQ_A_HIST_SUM])
		h->sum = nla_get_u64(tb[LUNQ_A_HIST_SUM]);
	if (tb[LUNQ_A_HIST_MAX])
		h->max = nla_get_u64(tb[LUNQ_A_HIST_MAX]);
	return 0;
}

/*
 * HIST_BUCKETS comes more than once in one reply; genlmsg_parse keeps
 * only the last, so the buckets are walked over the raw attributes.
 */
static int on_hist_msg(struct nl_msg *msg, void *arg)
{
	struct lq_req *r = arg;
	struct lq_hist *h = r->arg;
	struct nlmsghdr *nh = nlmsg_hdr(msg);
	struct nlattr *a;
	int rem;

	on_valid(msg, arg);
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nh), 0),
			  genlmsg_attrlen(nlmsg_data(nh), 0), rem) {
		const struct lunq_bucket *b = nla_data(a);
		size_t i, nb;

		if (nla_type(a) != LUNQ_A_HIST_BUCKETS)
			continue;
		nb = nla_len(a) / sizeof(*b);
		for (i = 0; i < nb; i++) {
			struct lunq_bucket bk;

			memcpy(&bk, b + i, sizeof(bk));	/* may be unaligned */
			if (bk.index < LUNQ_HIST_BUCKETS)
				h->counts[bk.index] += bk.count;
		}
	}
	return NL_OK;
}

int lq_nl_get_hist(struct lq_nl *nl, const char *name, u32 kind,
		   struct lq_hist *h)
{
	h->kind = kind;
	h->count = h->sum = h->max = 0;
	memset(h->counts, 0, LUNQ_HIST_BUCKETS * sizeof(*h->counts));
	return transact(nl, LUNQ_CMD_GET_HIST, 0, name, NULL, kind, parse_hist,
			h, "hist", on_hist_msg);
}

/* ---- changes ----------------------------------------------------------- */

int lq_nl_set(struct lq_nl *nl, const char *name, const char *policy)
{
	return transact(nl, LUNQ_CMD_SET, 0, name, policy, -1, NULL, NULL,
			"set", NULL);
}

int lq_nl_reset(struct lq_nl *nl, const char *name)
{
	return transact(nl, LUNQ_CMD_RESET, 0, name, NULL, -1, NULL, NULL,
			"reset", NULL);
}

/* ---- events ------------------------------------------------------------ */

struct ev_state {
	void (*cb)(const struct lq_event *ev, void *arg);
	void *arg;
};

static u64 get_uint(const struct nlattr *a)
{
	switch (nla_len(a)) {
	case 1:
		return nla_get_u8((struct nlattr *)a);
	case 4:
		return nla_get_u32((struct nlattr *)a);
	case 8:
		return nla_get_u64((struct nlattr *)a);
	}
	return 0;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct ev_state *s = arg;
	struct nlattr *tb[LUNQ_A_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct lq_event ev;
	int i;

	if (g->cmd != LUNQ_CMD_EVENT ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, LUNQ_A_MAX, NULL) < 0 ||
	    !tb[LUNQ_A_EVENT])
		return NL_SKIP;
	memset(&ev, 0, sizeof(ev));
	ev.kind = nla_get_u32(tb[LUNQ_A_EVENT]);
	copy_str(ev.name, sizeof(ev.name), tb[LUNQ_A_NAME]);
	copy_str(ev.cause, sizeof(ev.cause), tb[LUNQ_A_EV_CAUSE]);
	for (i = LUNQ_A_EVENT; i <= LUNQ_A_EV_SUPPRESSED; i++)
		if (tb[i])
			ev.have |= 1ULL << i;
#define GET(attr, field) do { if (tb[attr]) ev.field = get_uint(tb[attr]); } while (0)
	GET(LUNQ_A_EV_TIME_NS, time_ns);
	GET(LUNQ_A_EV_COUNT, count);
	GET(LUNQ_A_EV_SECTOR, sector);
	GET(LUNQ_A_EV_WAIT_NS, wait_ns);
	GET(LUNQ_A_EV_SVC_NS, svc_ns);
	GET(LUNQ_A_EV_SUPPRESSED, suppressed);
	GET(LUNQ_A_EV_FROM, from);
	GET(LUNQ_A_EV_TO, to);
	GET(LUNQ_A_EV_BYTES, bytes);
	GET(LUNQ_A_EV_WRITE, write);
	/* an ejection: its rule, what broke it and the bound */
	if (tb[LUNQ_A_EJECT_RULE])
		copy_str(ev.cause, sizeof(ev.cause), tb[LUNQ_A_EJECT_RULE]);
	GET(LUNQ_A_EJECT_NS, count);
	GET(LUNQ_A_EJECT_BOUND_NS, wait_ns);
#undef GET
	s->cb(&ev, s->arg);
	return NL_OK;
}

int lq_nl_events_join(struct lq_nl *nl)
{
	int grp, rc;

	grp = genl_ctrl_resolve_grp(nl->sk, LUNQ_GENL_NAME,
				    LUNQ_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return set_err(nl, LQ_EVERSION,
			       "dm-lunq has no \"%s\" multicast group; load a dm-lunq that matches this lunqctl",
			       LUNQ_GENL_MCGRP_EVENTS);
	nl->ev = nl_socket_alloc();
	if (!nl->ev || genl_connect(nl->ev))
		return set_err(nl, LQ_EFAIL, "cannot open a netlink socket for events");
	nl_socket_disable_seq_check(nl->ev);
	nl_socket_set_buffer_size(nl->ev, 1 << 20, 0);
	rc = nl_socket_add_membership(nl->ev, grp);
	if (rc == -NLE_PERM || rc == -NLE_NOACCESS)
		return set_err(nl, LQ_EPERM,
			       "permission denied: events carry IO addresses, joining the \"%s\" group needs root (CAP_SYS_ADMIN)",
			       LUNQ_GENL_MCGRP_EVENTS);
	if (rc < 0)
		return set_err(nl, LQ_EFAIL, "cannot join the events group: %s",
			       nl_geterror(rc));
	nl->events_group = grp;
	return LQ_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int lq_nl_events_wait(struct lq_nl *nl, int timeout_ms,
		      void (*cb)(const struct lq_event *ev, void *arg),
		      void *arg)
{
	struct ev_state s = { .cb = cb, .arg = arg };
	struct pollfd p = { .fd = nl_socket_get_fd(nl->ev), .events = POLLIN };
	struct nl_cb *c;
	int rc;

	rc = poll(&p, 1, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? LQ_OK :
		       set_err(nl, LQ_EFAIL, "poll: %s", strerror(errno));
	if (rc == 0)
		return LQ_OK;
	c = nl_cb_alloc(NL_CB_CUSTOM);
	if (!c)
		return set_err(nl, LQ_EFAIL, "out of memory");
	nl_cb_set(c, NL_CB_VALID, NL_CB_CUSTOM, on_event, &s);
	/* multicast messages carry no sequence number of ours */
	nl_cb_set(c, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_socket_set_nonblocking(nl->ev);
	rc = nl_recvmsgs(nl->ev, c);
	nl_cb_put(c);
	if (rc < 0 && rc != -NLE_AGAIN && rc != -NLE_INTR) {
		if (rc == -NLE_NOMEM) {	/* ENOBUFS: we fell behind */
			nl->overruns++;
			return LQ_OK;
		}
		return set_err(nl, LQ_EFAIL, "events: netlink: %s",
			       nl_geterror(rc));
	}
	return LQ_OK;
}
