// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq generic netlink family "lunq" (uapi/lunq.h, kmod/dm-lunq.rst
 * "Generic netlink"): device dump with statistics and policy, histogram
 * fetch (any user: what sysfs shows everyone, no IO's address), set
 * policy and reset (CAP_SYS_ADMIN, as dm's messages and lunq's sysfs
 * writes), and the "events" group (CAP_SYS_ADMIN to join: a bubble event
 * carries an IO's sector, size and direction).  Attributes are validated
 * strictly against lunq_nl_policy; errors carry an extack message.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <net/genetlink.h>
#include "lunq_compat.h"
#include "lunq_core.h"
#include "lunq_pol_dev.h"
#include "lunq_throttle_dev.h"
#include "lunq_dev.h"
#include "lunq_netlink.h"
#include "lunq_names.h"

static const struct nla_policy lunq_nl_policy[LUNQ_A_MAX + 1] = {
	[LUNQ_A_NAME] = { .type = NLA_NUL_STRING, .len = LUNQ_NAME_MAX - 1 },
	[LUNQ_A_POLICY] = { .type = NLA_NUL_STRING,
			    .len = LUNQ_POLICY_MAX - 1 },
	[LUNQ_A_HIST] = NLA_POLICY_MAX(NLA_U32, LUNQ_NR_HISTS - 1),
};

static struct genl_family lunq_nl_family;

enum { LUNQ_MCGRP_EVENTS };

static const struct genl_multicast_group lunq_nl_mcgrps[] = {
	[LUNQ_MCGRP_EVENTS] = { .name = LUNQ_GENL_MCGRP_EVENTS,
				.flags = LUNQ_GENL_MCAST_SYS_ADMIN },
};

/* Buckets per LUNQ_A_HIST_BUCKETS attribute (an attribute is < 64 KiB). */
#define LUNQ_NL_BUCKETS_PER_ATTR	2048

/*
 * One device into @skb; @words is a LUNQ_POLICY_MAX buffer.  Under
 * lunq_devs_lock, which a resume takes with its device suspended: nothing
 * here allocates.
 */
static int lunq_nl_put_dev(struct sk_buff *skb, struct lunq_dev *d,
			   u32 portid, u32 seq, int flags, char *words)
{
	struct lunq_c *lc = d->lc;
	u64 v[__LUNQ_ST_MAX];
	struct lunq_keys p;
	struct nlattr *nest;
	char dmname[DM_NAME_LEN], pname[LUNQ_POL_NAME];
	struct lunq_eject e;
	void *hdr;
	bool ext;
	int i;

	ext = lunq_get_policy(lc, &p, pname);
	lunq_policy_format(&p, words, LUNQ_POLICY_MAX);
	lunq_fill_stats(lc, v);
	if (dm_copy_name_and_uuid(dm_table_get_md(lc->ti->table), dmname, NULL))
		strscpy(dmname, d->name, sizeof(dmname));

	hdr = genlmsg_put(skb, portid, seq, &lunq_nl_family, flags,
			  LUNQ_CMD_GET_DEV);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, LUNQ_A_NAME, d->name) ||
	    nla_put_string(skb, LUNQ_A_DM_NAME, dmname) ||
	    nla_put_string(skb, LUNQ_A_DISK, d->disk) ||
	    nla_put_string(skb, LUNQ_A_LOWER, lc->dev->name) ||
	    nla_put_u64_64bit(skb, LUNQ_A_BEGIN, d->begin, LUNQ_A_PAD) ||
	    nla_put_u64_64bit(skb, LUNQ_A_LEN, lc->ti->len, LUNQ_A_PAD) ||
	    nla_put_string(skb, LUNQ_A_POLICY, words) ||
	    nla_put_u32(skb, LUNQ_A_VERSION, LUNQ_GENL_VERSION) ||
	    nla_put_string(skb, LUNQ_A_THROTTLE_POLICY, pname) ||
	    nla_put_string(skb, LUNQ_A_THROTTLE_POLICY_FROM,
			   ext ? "bpf" : "table"))
		goto cancel;
	if (lunq_get_eject(lc, &e) &&
	    (nla_put_string(skb, LUNQ_A_EJECT_POLICY, e.policy) ||
	     nla_put_string(skb, LUNQ_A_EJECT_RULE,
			    lunq_wd_rule_name(e.rule)) ||
	     (e.rule == LUNQ_WD_CALL &&
	      nla_put_string(skb, LUNQ_A_EJECT_HOOK,
			     e.hook == LUNQ_PH_START ? "start" :
			     e.hook == LUNQ_PH_QFULL ? "qfull" : "window")) ||
	     nla_put_u64_64bit(skb, LUNQ_A_EJECT_TIME_NS, e.t, LUNQ_A_PAD) ||
	     nla_put_u64_64bit(skb, LUNQ_A_EJECT_NS, e.ns, LUNQ_A_PAD) ||
	     nla_put_u64_64bit(skb, LUNQ_A_EJECT_BOUND_NS, e.bound_ns,
			       LUNQ_A_PAD)))
		goto cancel;
	nest = nla_nest_start(skb, LUNQ_A_STATS);
	if (!nest)
		goto cancel;
	for (i = 1; i < __LUNQ_ST_MAX; i++)
		if (nla_put_u64_64bit(skb, i, v[i], LUNQ_ST_UNSPEC))
			goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * The device named by LUNQ_A_NAME; ERR_PTR(-EINVAL) when the request has
 * no name, ERR_PTR(-ENODEV) when no device has it.  Under lunq_devs_lock.
 */
static struct lunq_dev *lunq_nl_dev(struct genl_info *info)
{
	struct nlattr *a = info->attrs[LUNQ_A_NAME];
	struct lunq_dev *d;

	if (!a) {
		NL_SET_ERR_MSG(info->extack,
			       "lunq: LUNQ_A_NAME (device name) is required");
		return ERR_PTR(-EINVAL);
	}
	d = lunq_dev_find(nla_data(a));
	if (d)
		return d;
	NL_SET_ERR_MSG_ATTR(info->extack, a,
			    "lunq: no such lunq device (see /sys/kernel/lunq/)");
	return ERR_PTR(-ENODEV);
}

static int lunq_nl_get_dev(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct lunq_dev *d;
	char *words;
	int ret;

	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	words = kmalloc(LUNQ_POLICY_MAX, GFP_KERNEL);
	if (!msg || !words) {
		nlmsg_free(msg);
		kfree(words);
		return -ENOMEM;
	}
	mutex_lock(&lunq_devs_lock);
	d = lunq_nl_dev(info);
	ret = IS_ERR(d) ? PTR_ERR(d) :
	      lunq_nl_put_dev(msg, d, info->snd_portid, info->snd_seq, 0, words);
	mutex_unlock(&lunq_devs_lock);
	kfree(words);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/*
 * A dump in registry id order: each message resumes at the id after the
 * last one sent (cb->args[0]), found in O(log n), not by walking the
 * devices already sent again; a device removed meanwhile is not missed
 * nor sent twice by the others' shifting.
 */
static int lunq_nl_dump_dev(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long id = cb->args[0];
	struct lunq_dev *d;
	char *words;

	words = kmalloc(LUNQ_POLICY_MAX, GFP_KERNEL);
	if (!words)
		return -ENOMEM;
	mutex_lock(&lunq_devs_lock);
	xa_for_each_start(&lunq_devs, id, d, cb->args[0]) {
		if (lunq_nl_put_dev(skb, d, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI, words))
			break;
		cb->args[0] = id + 1;
	}
	mutex_unlock(&lunq_devs_lock);
	kfree(words);
	return skb->len;
}

static int lunq_nl_get_hist(struct sk_buff *skb, struct genl_info *info)
{
	struct lunq_bucket *b;
	struct sk_buff *msg;
	struct lunq_dev *d;
	u64 *counts, sum = 0, max = 0;
	u32 kind, i, n = 0, off;
	void *hdr;
	int ret;

	if (!info->attrs[LUNQ_A_HIST]) {
		NL_SET_ERR_MSG(info->extack,
			       "lunq: LUNQ_A_HIST (histogram kind) is required");
		return -EINVAL;
	}
	kind = nla_get_u32(info->attrs[LUNQ_A_HIST]);
	counts = kvmalloc_array(LUNQ_HIST_BUCKETS, sizeof(*counts), GFP_KERNEL);
	b = kvmalloc_array(LUNQ_HIST_BUCKETS, sizeof(*b), GFP_KERNEL);
	ret = -ENOMEM;
	if (!counts || !b)
		goto out;
	mutex_lock(&lunq_devs_lock);
	d = lunq_nl_dev(info);
	if (!IS_ERR(d))
		lunq_stats_hist(&d->lc->st, kind, counts, &sum, &max);
	mutex_unlock(&lunq_devs_lock);
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto out;
	}
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		if (counts[i])
			b[n++] = (struct lunq_bucket){ .index = i,
						       .count = counts[i] };
	ret = -ENOMEM;
	msg = genlmsg_new(512 + n * sizeof(*b) +
			  (n / LUNQ_NL_BUCKETS_PER_ATTR + 1) * NLA_HDRLEN,
			  GFP_KERNEL);
	if (!msg)
		goto out;
	hdr = genlmsg_put_reply(msg, info, &lunq_nl_family, 0,
				LUNQ_CMD_GET_HIST);
	if (!hdr ||
	    nla_put_string(msg, LUNQ_A_NAME, nla_data(info->attrs[LUNQ_A_NAME])) ||
	    nla_put_u32(msg, LUNQ_A_HIST, kind) ||
	    nla_put_u64_64bit(msg, LUNQ_A_HIST_COUNT, lunq_hist_total(counts),
			      LUNQ_A_PAD) ||
	    nla_put_u64_64bit(msg, LUNQ_A_HIST_SUM, sum, LUNQ_A_PAD) ||
	    nla_put_u64_64bit(msg, LUNQ_A_HIST_MAX, max, LUNQ_A_PAD))
		goto free;
	/* nonzero buckets, in order, in one or more attributes */
	for (off = 0; off < n; off += LUNQ_NL_BUCKETS_PER_ATTR)
		if (nla_put(msg, LUNQ_A_HIST_BUCKETS,
			    min_t(u32, n - off, LUNQ_NL_BUCKETS_PER_ATTR) *
			    sizeof(*b), b + off))
			goto free;
	genlmsg_end(msg, hdr);
	ret = genlmsg_reply(msg, info);
	goto out;
free:
	nlmsg_free(msg);
	ret = -EMSGSIZE;
out:
	kvfree(counts);
	kvfree(b);
	return ret;
}

/*
 * SET and RESET change what dm's messages and lunq's sysfs writes change,
 * so they need what those need: CAP_SYS_ADMIN, of the socket's opener and
 * of the sender (netlink_capable()).  GENL_ADMIN_PERM (CAP_NET_ADMIN)
 * stays on the ops: genetlink checks it before the attributes.
 */
static bool lunq_nl_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG(info->extack, "lunq: SET and RESET need CAP_SYS_ADMIN");
	return false;
}

static int lunq_nl_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *a = info->attrs[LUNQ_A_POLICY];
	char *argv[2 * LUNQ_NR_KEYS], *line;
	const char *err = NULL, *word;
	struct lunq_dev *d;
	int argc, ret = -EINVAL;

	if (!lunq_nl_admin(skb, info))
		return -EPERM;
	if (!a) {
		NL_SET_ERR_MSG(info->extack,
			       "lunq: LUNQ_A_POLICY (\"key:value ...\") is required");
		return -EINVAL;
	}
	line = nla_strdup(a, GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	argc = lunq_split_words(line, argv, ARRAY_SIZE(argv));
	if (argc < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "lunq: too many key:value words");
		goto out;
	}
	if (!argc) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "lunq: no key:value word given");
		goto out;
	}
	mutex_lock(&lunq_devs_lock);
	d = lunq_nl_dev(info);
	ret = IS_ERR(d) ? PTR_ERR(d) :
	      lunq_set_words(d->lc, argc, argv, &err, &word);
	mutex_unlock(&lunq_devs_lock);
	if (err) {
		/* a constant string from the parser: safe to hand to extack */
		info->extack->_msg = err;
		info->extack->bad_attr = a;
	}
out:
	kfree(line);
	return ret;
}

static int lunq_nl_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct lunq_dev *d;

	if (!lunq_nl_admin(skb, info))
		return -EPERM;
	mutex_lock(&lunq_devs_lock);
	d = lunq_nl_dev(info);
	if (!IS_ERR(d))
		lunq_stats_reset(d->lc);
	mutex_unlock(&lunq_devs_lock);
	return PTR_ERR_OR_ZERO(d);
}

static const struct genl_small_ops lunq_nl_ops[] = {
	{
		.cmd = LUNQ_CMD_GET_DEV,
		.doit = lunq_nl_get_dev,
		.dumpit = lunq_nl_dump_dev,
	},
	{
		.cmd = LUNQ_CMD_GET_HIST,
		.doit = lunq_nl_get_hist,
	},
	{
		.cmd = LUNQ_CMD_SET,
		.doit = lunq_nl_set,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = LUNQ_CMD_RESET,
		.doit = lunq_nl_reset,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family lunq_nl_family __ro_after_init = {
	.name = LUNQ_GENL_NAME,
	.version = LUNQ_GENL_VERSION,
	.maxattr = LUNQ_A_MAX,
	.policy = lunq_nl_policy,
	.module = THIS_MODULE,
	.small_ops = lunq_nl_ops,
	.n_small_ops = ARRAY_SIZE(lunq_nl_ops),
	LUNQ_GENL_RESV_START_OP(LUNQ_CMD_RESET + 1)
	.mcgrps = lunq_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(lunq_nl_mcgrps),
};

static bool lunq_nl_listening(void)
{
	return genl_has_listeners(&lunq_nl_family, &init_net,
				  LUNQ_MCGRP_EVENTS) > 0;
}

static void lunq_nl_send_event(const char *name, const struct lunq_ev *ev)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &lunq_nl_family, 0, LUNQ_CMD_EVENT);
	if (!hdr ||
	    nla_put_string(msg, LUNQ_A_NAME, name) ||
	    nla_put_u32(msg, LUNQ_A_EVENT, ev->kind) ||
	    nla_put_u64_64bit(msg, LUNQ_A_EV_TIME_NS, ev->t, LUNQ_A_PAD) ||
	    nla_put_u64_64bit(msg, LUNQ_A_EV_SUPPRESSED, ev->suppressed,
			      LUNQ_A_PAD))
		goto bad;
	switch (ev->kind) {
	case LUNQ_EV_QFULL:
		if (nla_put_u64_64bit(msg, LUNQ_A_EV_COUNT, ev->count,
				      LUNQ_A_PAD))
			goto bad;
		break;
	case LUNQ_EV_THROTTLE:
		if (nla_put_u32(msg, LUNQ_A_EV_FROM, ev->from) ||
		    nla_put_u32(msg, LUNQ_A_EV_TO, ev->to) ||
		    nla_put_string(msg, LUNQ_A_EV_CAUSE,
				   lunq_tcause_names[ev->cause]))
			goto bad;
		break;
	case LUNQ_EV_BUBBLE:
		/* the IO's address only where the group is root's (compat) */
		if (LUNQ_GENL_MCAST_PRIVATE &&
		    (nla_put_u64_64bit(msg, LUNQ_A_EV_SECTOR, ev->sector,
				       LUNQ_A_PAD) ||
		     nla_put_u32(msg, LUNQ_A_EV_BYTES, ev->bytes) ||
		     nla_put_u8(msg, LUNQ_A_EV_WRITE, ev->write)))
			goto bad;
		if (nla_put_u64_64bit(msg, LUNQ_A_EV_WAIT_NS, ev->wait_ns,
				      LUNQ_A_PAD) ||
		    nla_put_u64_64bit(msg, LUNQ_A_EV_SVC_NS, ev->svc_ns,
				      LUNQ_A_PAD))
			goto bad;
		break;
	case LUNQ_EV_EJECT:
		if (nla_put_string(msg, LUNQ_A_EJECT_RULE,
				   lunq_wd_rule_name(ev->cause)) ||
		    nla_put_u64_64bit(msg, LUNQ_A_EJECT_NS, ev->count,
				      LUNQ_A_PAD) ||
		    nla_put_u64_64bit(msg, LUNQ_A_EJECT_BOUND_NS, ev->wait_ns,
				      LUNQ_A_PAD))
			goto bad;
		break;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&lunq_nl_family, msg, 0, LUNQ_MCGRP_EVENTS,
			  GFP_KERNEL);
	return;
bad:
	nlmsg_free(msg);
}

static const struct lunq_ev_sink lunq_nl_sink = {
	.listening = lunq_nl_listening,
	.send = lunq_nl_send_event,
};

int lunq_nl_init(void)
{
	int ret = genl_register_family(&lunq_nl_family);

	if (!ret)
		lunq_ev_set_sink(&lunq_nl_sink);
	return ret;
}

void lunq_nl_exit(void)
{
	lunq_ev_set_sink(NULL);
	genl_unregister_family(&lunq_nl_family);
}
