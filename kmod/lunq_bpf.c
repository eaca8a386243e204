// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq throttle policies in BPF, see lunq_bpf.h and kmod/dm-lunq.rst
 * ("Write your own policy").
 *
 * The pattern is tools/testing/selftests/bpf's bpf_testmod: a struct
 * bpf_struct_ops with cfi_stubs for every member of struct
 * lunq_policy_ops (lunq_pol_ops.h: start, window, qfull, stop, all a BPF
 * program may implement) and init_member copying its name.  A program may
 * read its arguments (BTF-typed, read-only views) and call the base
 * helpers; sleepable programs are refused (a callback runs under
 * rcu_read_lock(), from the window work).
 *
 * The device a policy serves is not in the table: lunqctl first tells the
 * device which policy to expect ("policy expect NAME", lunq_bpf_expect()),
 * then registers the struct_ops link; registration attaches the policy to
 * the one device expecting its name.
 *
 * Registering one needs CAP_SYS_ADMIN, as every dm message does; each
 * link is one attachment: releasing it detaches its own device only.
 *
 * Every answer is clamped to auto_min..auto_max by the dispatch
 * (lunq_pol.c), and the device calls the policy outside its lock, from
 * the attach and its window work (lunq_window.c, lunq_pol_dev.c), never in
 * the IO path: a QUEUE FULL is counted there and heard at the next tick
 * (50 ms).  The watchdog (lunq_wd.h) ejects a policy that stops the
 * device; its link is then detached here (EPOLLHUP to its holders), from
 * a work item, as bpf_testmod's bpf_dummy_do_link_detach() does.
 *
 * Locks: lunq_devs_lock (the registry), then lunq_bpf_lock (the list of
 * attachments), then the device's msg_lock, pol_mutex and lock.  A
 * registration holds lunq_devs_lock only to find its device: the start
 * callback runs under lunq_bpf_lock, which the device's dtr waits for.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/jiffies.h>
#include <linux/capability.h>
#include <linux/workqueue.h>

#include "lunq_compat.h"
#include "lunq_core.h"
#include "lunq_pol_dev.h"
#include "lunq_dev.h"
#include "lunq_bpf.h"

static bool bpf_policies;
module_param(bpf_policies, bool, 0444);
MODULE_PARM_DESC(bpf_policies,
		 "read-only: Y when this kernel lets dm-lunq register BPF struct_ops (throttle policies in BPF: 6.9 and later)");

#ifdef LUNQ_HAVE_BPF_POLICY
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>

struct lunq_bpf_att {
	struct list_head node;
	const struct lunq_policy_ops *ops;	/* the map's kernel copy */
	struct bpf_link *link;		/* NULL: a map update, no link */
	struct lunq_c *lc;		/* NULL: ejected, its device gone */
	bool ejected;			/* the watchdog let it go */
	bool hup;			/* its link detached (or tried) */
};

static DEFINE_MUTEX(lunq_bpf_lock);
static LIST_HEAD(lunq_bpf_atts);

static void lunq_bpf_hup_fn(struct work_struct *work);
static DECLARE_WORK(lunq_bpf_hup_work, lunq_bpf_hup_fn);

/* An expectation lasts this long: lunqctl attaches right after. */
#define LUNQ_BPF_EXPECT_JIFFIES	(10 * HZ)

/* The device expecting a policy of this name; lunq_devs_lock held. */
static struct lunq_dev *lunq_bpf_expecting(const char *name)
{
	unsigned long id;
	struct lunq_dev *d;

	xa_for_each(&lunq_devs, id, d)
		if (d->lc && d->lc->bpf_expect[0] &&
		    time_before(jiffies, d->lc->bpf_expect_t +
				LUNQ_BPF_EXPECT_JIFFIES) &&
		    !strcmp(d->lc->bpf_expect, name))
			return d;
	return NULL;
}

static int lunq_bpf_reg(void *kdata, struct bpf_link *link)
{
	const struct lunq_policy_ops *ops = kdata;
	char name[LUNQ_NAME_MAX];
	struct lunq_bpf_att *a;
	struct lunq_dev *d;
	struct lunq_c *lc;
	int err;

	if (!capable(CAP_SYS_ADMIN)) {
		pr_warn_ratelimited("dm-lunq: BPF policy %s: registering it needs CAP_SYS_ADMIN\n",
				    ops->name);
		return -EPERM;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	mutex_lock(&lunq_devs_lock);
	mutex_lock(&lunq_bpf_lock);
	d = lunq_bpf_expecting(ops->name);
	if (!d) {
		mutex_unlock(&lunq_devs_lock);
		pr_warn("dm-lunq: BPF policy %s: no lunq device expects it ('policy expect %s' first)\n",
			ops->name, ops->name);
		err = -ENODEV;
		goto out;
	}
	lc = d->lc;
	strscpy(name, d->name, sizeof(name));
	lc->bpf_expect[0] = '\0';	/* expected once, taken or not */
	/* lc stays: its dtr waits for lunq_bpf_lock (lunq_bpf_detach()) */
	mutex_unlock(&lunq_devs_lock);
	err = lunq_policy_attach(lc, ops, name);
	if (!err) {
		a->ops = ops;
		a->link = link;
		a->lc = lc;
		list_add(&a->node, &lunq_bpf_atts);
		a = NULL;
	} else if (err == -EBUSY) {
		pr_warn("dm-lunq: BPF policy %s: device '%s' has one already\n",
			ops->name, name);
	} else if (err == -EOPNOTSUPP) {
		pr_warn("dm-lunq: BPF policy %s: device '%s' has stats:off (set stats:on first)\n",
			ops->name, name);
	}
out:
	mutex_unlock(&lunq_bpf_lock);
	kfree(a);
	return err;
}

int lunq_bpf_expect(struct lunq_c *lc, const char *name)
{
	struct lunq_dev *d;
	size_t n = strnlen(name, LUNQ_POL_NAME);
	int err = 0;

	if (!n || n == LUNQ_POL_NAME)
		return -EINVAL;
	mutex_lock(&lunq_devs_lock);
	mutex_lock(&lunq_bpf_lock);
	d = lunq_bpf_expecting(name);
	if (d && d->lc != lc) {
		err = -EBUSY;	/* registration could not tell them apart */
	} else {
		strscpy(lc->bpf_expect, name, sizeof(lc->bpf_expect));
		lc->bpf_expect_t = jiffies;
	}
	mutex_unlock(&lunq_bpf_lock);
	mutex_unlock(&lunq_devs_lock);
	return err;
}

/* The link (or map) @link of @kdata goes: its own device lets it go. */
static void lunq_bpf_unreg(void *kdata, struct bpf_link *link)
{
	struct lunq_bpf_att *a, *n;

	mutex_lock(&lunq_bpf_lock);
	list_for_each_entry_safe(a, n, &lunq_bpf_atts, node) {
		if (a->ops != kdata || a->link != link)
			continue;
		if (!a->ejected)
			lunq_policy_detach(a->lc, a->ops);
		list_del(&a->node);
		kfree(a);
	}
	mutex_unlock(&lunq_bpf_lock);
}

bool lunq_bpf_detach(struct lunq_c *lc)
{
	struct lunq_bpf_att *a, *n;
	bool was = false;

	mutex_lock(&lunq_bpf_lock);
	list_for_each_entry_safe(a, n, &lunq_bpf_atts, node) {
		if (a->lc != lc)
			continue;
		if (a->ejected && !a->hup) {
			a->lc = NULL;	/* its link is still to be let go */
			continue;
		}
		if (!a->ejected)
			was |= lunq_policy_detach(lc, a->ops);
		list_del(&a->node);
		kfree(a);
	}
	mutex_unlock(&lunq_bpf_lock);
	return was;
}

/*
 * The watchdog ejected @ops from @lc (lunq_policy_eject_held()): its link
 * is detached from the work below, outside every lock of lunq's.
 */
static void lunq_bpf_ejected(struct lunq_c *lc,
			     const struct lunq_policy_ops *ops)
{
	struct lunq_bpf_att *a;

	mutex_lock(&lunq_bpf_lock);
	list_for_each_entry(a, &lunq_bpf_atts, node)
		if (a->lc == lc && a->ops == ops && !a->ejected)
			a->ejected = true;
	mutex_unlock(&lunq_bpf_lock);
	schedule_work(&lunq_bpf_hup_work);
}

/*
 * Detach the links of ejected policies: their holders see EPOLLHUP, and
 * the link's unreg (lunq_bpf_unreg()) drops the attachment.  The link is
 * held (bpf_link_inc_not_zero()) across the call, made without
 * lunq_bpf_lock, which unreg takes.
 */
static void lunq_bpf_hup_fn(struct work_struct *work)
{
	struct bpf_link *link;
	struct lunq_bpf_att *a;

	do {
		link = NULL;
		mutex_lock(&lunq_bpf_lock);
		list_for_each_entry(a, &lunq_bpf_atts, node) {
			if (!a->ejected || a->hup)
				continue;
			a->hup = true;
			if (a->link && !IS_ERR(bpf_link_inc_not_zero(a->link))) {
				link = a->link;
				break;
			}
		}
		mutex_unlock(&lunq_bpf_lock);
		if (link) {
			if (link->ops->detach)
				link->ops->detach(link);
			bpf_link_put(link);
		}
	} while (link);
}

int lunq_bpf_message(struct lunq_c *lc, unsigned int argc, char **argv,
		     char *result, unsigned int maxlen)
{
	int err;

	if (argc == 2 && !strcmp(argv[0], "expect")) {
		if (READ_ONCE(lc->stats_off)) {
			pr_err("dm-lunq: policy expect: stats:off leaves a BPF policy nothing to measure; set stats:on first\n");
			return -EOPNOTSUPP;
		}
		err = lunq_bpf_expect(lc, argv[1]);
		if (err == -EINVAL)
			pr_err("dm-lunq: policy expect: '%.32s' is not a policy name (1 to %d characters)\n",
			       argv[1], LUNQ_POL_NAME - 1);
		else if (err == -EBUSY)
			pr_err("dm-lunq: policy expect: another lunq device expects '%s' already\n",
			       argv[1]);
		return err;
	}
	if (argc == 1 && !strcmp(argv[0], "detach")) {
		/* a BPF policy: the table's again (its link stays) */
		scnprintf(result, maxlen, "%s\n",
			  lunq_bpf_detach(lc) ? "detached" : "none attached");
		return 1;
	}
	if (argc == 1 && !strcmp(argv[0], "eject")) {
		/* by hand: as the watchdog does, the link let go */
		scnprintf(result, maxlen, "%s\n",
			  lunq_policy_eject(lc) ? "none attached" : "ejected");
		return 1;
	}
	pr_err("dm-lunq: unknown policy message '%.32s': expected 'policy expect NAME', 'policy detach' or 'policy eject'\n",
	       argc ? argv[0] : "");
	return -EINVAL;
}

/* A NUL-terminated, printable string filling at most @len bytes. */
static int lunq_bpf_str(char *dst, const char *src, size_t len)
{
	size_t n = strnlen(src, len);
	size_t i;

	if (n == len || !n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (src[i] < 0x21 || src[i] > 0x7e)
			return -EINVAL;
	memcpy(dst, src, n + 1);
	return 1;
}

static int lunq_bpf_init_member(const struct btf_type *t,
				const struct btf_member *member,
				void *kdata, const void *udata)
{
	const struct lunq_policy_ops *u = udata;
	struct lunq_policy_ops *k = kdata;
	u32 moff = __btf_member_bit_offset(t, member) / 8;

	if (moff == offsetof(struct lunq_policy_ops, name))
		return lunq_bpf_str(k->name, u->name, sizeof(k->name));
	if (moff == offsetof(struct lunq_policy_ops, timeout_ms)) {
		if (u->timeout_ms > LUNQ_WD_TIMEOUT_MAX_MS) {
			pr_warn("dm-lunq: BPF policy %.16s: timeout_ms %u is above the ceiling, %u\n",
				u->name, u->timeout_ms, LUNQ_WD_TIMEOUT_MAX_MS);
			return -E2BIG;
		}
		k->timeout_ms = u->timeout_ms;
		return 1;
	}
	return 0;
}

static int lunq_bpf_check_member(const struct btf_type *t,
				 const struct btf_member *member,
				 const struct bpf_prog *prog)
{
	/* called under rcu_read_lock() by the struct_ops trampoline */
	return prog->sleepable ? -EINVAL : 0;
}

static int lunq_bpf_btf_init(struct btf *btf)
{
	return 0;
}

static bool lunq_bpf_valid_access(int off, int size, enum bpf_access_type type,
				  const struct bpf_prog *prog,
				  struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

static const struct bpf_verifier_ops lunq_bpf_verifier_ops = {
	.is_valid_access = lunq_bpf_valid_access,
	.get_func_proto = bpf_base_func_proto,
};

/* The stubs: what a BPF policy may implement (and their CFI types). */
static u32 lunq_bpf_start(const struct lunq_pol_dev *d,
			  const struct lunq_pol_view *v)
{
	return v->depth;
}

static u32 lunq_bpf_window(const struct lunq_pol_dev *d,
			   const struct lunq_pol_window *w)
{
	return w->v.depth;
}

static u32 lunq_bpf_qfull(const struct lunq_pol_dev *d,
			  const struct lunq_pol_view *v)
{
	return v->depth;
}

static void lunq_bpf_stop(const struct lunq_pol_dev *d)
{
}

static struct lunq_policy_ops lunq_bpf_stubs = {
	.start = lunq_bpf_start,
	.window = lunq_bpf_window,
	.qfull = lunq_bpf_qfull,
	.stop = lunq_bpf_stop,
};

static struct bpf_struct_ops lunq_bpf_ops = {
	.verifier_ops = &lunq_bpf_verifier_ops,
	.init = lunq_bpf_btf_init,
	.check_member = lunq_bpf_check_member,
	.init_member = lunq_bpf_init_member,
	.reg = lunq_bpf_reg,
	.unreg = lunq_bpf_unreg,
	.cfi_stubs = &lunq_bpf_stubs,
	.name = "lunq_policy_ops",
	.owner = THIS_MODULE,
};

void lunq_bpf_init(void)
{
	int err = register_bpf_struct_ops(&lunq_bpf_ops, lunq_policy_ops);

	if (err)
		pr_warn("dm-lunq: BPF policies unavailable: struct_ops registration failed (%d)\n",
			err);
	bpf_policies = !err;
	if (!err) {
		lunq_policy_init();
		lunq_policy_set_eject_sink(lunq_bpf_ejected);
	}
}

void lunq_bpf_exit(void)
{
	/* the struct_ops maps hold the module: no policy is left by now */
	lunq_policy_set_eject_sink(NULL);
	cancel_work_sync(&lunq_bpf_hup_work);
}
#else
void lunq_bpf_init(void)
{
}

void lunq_bpf_exit(void)
{
}

bool lunq_bpf_detach(struct lunq_c *lc)
{
	return false;
}

int lunq_bpf_expect(struct lunq_c *lc, const char *name)
{
	return -EOPNOTSUPP;
}

int lunq_bpf_message(struct lunq_c *lc, unsigned int argc, char **argv,
		     char *result, unsigned int maxlen)
{
	if (argc == 1 && !strcmp(argv[0], "detach")) {
		scnprintf(result, maxlen, "none attached\n");
		return 1;
	}
	pr_err("dm-lunq: policy messages: this kernel has no BPF policies (bpf_policies=N)\n");
	return -EOPNOTSUPP;
}
#endif
