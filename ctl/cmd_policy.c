// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl policy: throttle policies written in BPF (lunqctl(8), "policy";
 * doc/policies.md, "Write your own policy").
 *
 *   policy attach NAME FILE.bpf.o  load FILE's struct_ops map (a struct
 *                                  lunq_policy_ops), tell device NAME to
 *                                  expect it by its name ("policy expect"),
 *                                  attach it and pin the link at
 *                                  /sys/fs/bpf/lunq/NAME
 *   policy detach NAME             unpin it, and tell the device
 *   policy eject NAME              eject it as lunq's watchdog does: the
 *                                  table's policy back, its link detached
 *                                  (its holders see EPOLLHUP), the pin kept
 *   policy show [-j] NAME          the policy in force, where it comes
 *                                  from (table or bpf), the pin and its
 *                                  link, the last policy ejected and why
 *
 * Through libbpf 1.5 (linked statically: Debian 12's 1.1 cannot load a
 * struct_ops type from module BTF).  The kernel module must say it can
 * (/sys/module/dm_lunq/parameters/bpf_policies: Linux 6.9 and later).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include <stdarg.h>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <linux/magic.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include <bpf/bpf.h>

#include "cmd.h"
#include "dmops.h"
#include "nl.h"
#include "util.h"
#include "options.h"
#include "units.h"
#include "json.h"

#define LQ_BPFFS	"/sys/fs/bpf"
#define LQ_PIN_DIR	LQ_BPFFS "/lunq"
#define LQ_PARAM	"/sys/module/dm_lunq/parameters/bpf_policies"
#define LQ_OPS_TYPE	"lunq_policy_ops"

static char lq_bpf_log[4096];	/* libbpf's last warnings (the verifier's) */

static int lq_bpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	size_t n = strlen(lq_bpf_log);

	if (level == LIBBPF_DEBUG || n >= sizeof(lq_bpf_log) - 1)
		return 0;
	return vsnprintf(lq_bpf_log + n, sizeof(lq_bpf_log) - n, fmt, ap);
}

/* libbpf's words, indented, after an error line */
static void lq_bpf_dump(void)
{
	char *l, *save = NULL;

	for (l = strtok_r(lq_bpf_log, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "  %s\n", l);
	lq_bpf_log[0] = '\0';
}

/* The device, and whether this kernel's dm-lunq takes BPF policies. */
static int lq_policy_dev(const char *name, struct lq_dev *d, bool need_bpf)
{
	struct lq_nl *nl;
	struct utsname u;
	char v[8] = "";
	int rc;

	rc = lq_connect(&nl);
	if (rc)
		return rc;
	rc = lq_find_dev(nl, name, d);
	lq_nl_close(nl);
	if (rc || !need_bpf)
		return rc;
	if (!lq_read_line(LQ_PARAM, v, sizeof(v)) || v[0] != 'Y') {
		uname(&u);
		return lq_error(LQ_EFAIL,
				"this kernel (%s) cannot run BPF policies: dm-lunq registers its struct_ops type only on Linux 6.9 and later with CONFIG_BPF_SYSCALL, CONFIG_BPF_JIT and module BTF (Debian 12: linux-image-6.12-amd64; its 6.1 and 6.1-rt kernels cannot)",
				u.release);
	}
	return LQ_OK;
}

static void lq_pin_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", LQ_PIN_DIR, name);
}

/* bpffs at /sys/fs/bpf (mounted here when it is not) and our folder. */
static int lq_bpffs(void)
{
	struct statfs st;

	if (statfs(LQ_BPFFS, &st) || st.f_type != BPF_FS_MAGIC) {
		if (mount("bpf", LQ_BPFFS, "bpf", 0, NULL))
			return lq_error(errno == EPERM ? LQ_EPERM : LQ_EFAIL,
					"%s is not a BPF filesystem and mounting one failed: %s",
					LQ_BPFFS, strerror(errno));
	}
	if (mkdir(LQ_PIN_DIR, 0700) && errno != EEXIST)
		return lq_error(errno == EACCES || errno == EPERM ? LQ_EPERM :
				LQ_EFAIL, "mkdir %s: %s", LQ_PIN_DIR,
				strerror(errno));
	return LQ_OK;
}

/* Byte offset and size of member @m of struct @type in @btf, or -1. */
static int lq_member(const struct btf *btf, const char *type, const char *m,
		     __u32 *size)
{
	const struct btf_member *mb;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, id);
	mb = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, mb++) {
		if (strcmp(btf__name_by_offset(btf, mb->name_off), m))
			continue;
		*size = btf__resolve_size(btf, mb->type);
		return btf_member_bit_offset(t, i) / 8;
	}
	return -1;
}

/* The object's one struct_ops map of type lunq_policy_ops. */
static struct bpf_map *lq_ops_map(struct bpf_object *obj, const char *file)
{
	const struct btf *btf = bpf_object__btf(obj);
	struct bpf_map *m, *found = NULL;
	int n = 0;

	bpf_object__for_each_map(m, obj) {
		const struct btf_type *t;

		if (bpf_map__type(m) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		t = btf ? btf__type_by_id(btf, bpf_map__btf_value_type_id(m)) : NULL;
		if (!t || strcmp(btf__name_by_offset(btf, t->name_off), LQ_OPS_TYPE))
			continue;
		found = m;
		n++;
	}
	if (n != 1) {
		lq_error(LQ_EUSAGE,
			 "%s: want one struct_ops map of struct %s (SEC(\".struct_ops.link\")), found %d",
			 file, LQ_OPS_TYPE, n);
		return NULL;
	}
	return found;
}

static int lq_errno_code(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
		return LQ_EPERM;
	case ENODEV:
	case ENOENT:
		return LQ_ENOTFOUND;
	case EBUSY:
	case EEXIST:
		return LQ_EBUSY;
	default:
		return LQ_EFAIL;
	}
}

static int policy_attach(const char *name, const char *file)
{
	char pin[PATH_MAX];
	struct bpf_link *link = NULL;
	struct bpf_object *obj;
	struct bpf_map *map;
	struct lq_dev d;
	char pname[LUNQ_POL_NAME], msg[LUNQ_POL_NAME + 16], err[256];
	__u32 dsize = 0, nsize = 0;
	size_t vsize;
	char *val;
	int off, rc, e;

	if (access(file, R_OK))
		return lq_error(LQ_EUSAGE, "%s: %s", file, strerror(errno));
	rc = lq_policy_dev(name, &d, true);
	if (rc)
		return rc;
	if (geteuid() != 0)
		return lq_error(LQ_EPERM,
				"attaching a BPF policy needs root (CAP_BPF, CAP_SYS_ADMIN and CAP_NET_ADMIN)");
	libbpf_set_print(lq_bpf_print);
	obj = bpf_object__open_file(file, NULL);
	if (!obj) {
		e = errno;
		rc = lq_error(LQ_EUSAGE, "%s: not a BPF object libbpf can open: %s",
			      file, strerror(e));
		lq_bpf_dump();
		return rc;
	}
	map = lq_ops_map(obj, file);
	if (!map) {
		rc = LQ_EUSAGE;
		goto out;
	}
	val = bpf_map__initial_value(map, &vsize);
	off = lq_member(bpf_object__btf(obj), LQ_OPS_TYPE, "name", &nsize);
	if (off < 0 || !val || off + nsize > vsize || nsize > LUNQ_POL_NAME ||
	    !val[off] || strnlen(val + off, nsize) == nsize) {
		rc = lq_error(LQ_EUSAGE, "%s: its struct %s has no name (char name[%d], set by LUNQ_POLICY in lunq_policy.bpf.h)",
			      file, LQ_OPS_TYPE, LUNQ_POL_NAME);
		goto out;
	}
	snprintf(pname, sizeof(pname), "%s", val + off);
	/* built against the header's first layout: the device is named in "dev" */
	off = lq_member(bpf_object__btf(obj), LQ_OPS_TYPE, "dev", &dsize);
	if (off >= 0 && off + dsize <= vsize)
		memset(val + off, 0, dsize);	/* zero: libbpf skips it */
	if (bpf_object__load(obj)) {
		e = errno;
		rc = lq_error(lq_errno_code(e) == LQ_EPERM ? LQ_EPERM : LQ_EUSAGE,
			      "%s: the kernel refused to load it: %s%s", file,
			      strerror(e), lq_bpf_log[0] ? "; libbpf and the verifier said:" : "");
		lq_bpf_dump();
		goto out;
	}
	rc = lq_bpffs();
	if (rc)
		goto out;
	lq_pin_path(pin, sizeof(pin), d.name);
	/* a pin left by a policy the device dropped (a table reload) */
	if (!access(pin, F_OK) && !strcmp(d.tpolicy_from, "table"))
		unlink(pin);
	/* the device takes the next policy of this name registered */
	snprintf(msg, sizeof(msg), "policy expect %s", pname);
	rc = lq_dm_message(d.dm_name, d.begin, msg, NULL, 0, err, sizeof(err));
	if (rc) {
		lq_error(rc, "%s (a BPF policy named '%s' is expected by another lunq device, or its name is refused: see dmesg)",
			 err, pname);
		goto out;
	}
	link = bpf_map__attach_struct_ops(map);
	if (!link) {
		e = errno;
		rc = lq_errno_code(e);
		if (rc == LQ_EBUSY)
			lq_error(rc, "%s has a BPF policy already: 'lunqctl policy detach %s' first",
				 d.name, d.name);
		else
			lq_error(rc, "%s: attaching to %s failed: %s", file, d.name,
				 strerror(e));
		lq_bpf_dump();
		goto out;
	}
	if (bpf_link__pin(link, pin)) {
		e = errno;
		rc = lq_error(lq_errno_code(e), "pinning the link at %s: %s (the policy is detached again)",
			      pin, strerror(e));
		goto out;
	}
	printf("%s: BPF policy %s attached (%s); its link is pinned at %s\n",
	       d.name, bpf_map__name(map), file, pin);
out:
	bpf_link__destroy(link);	/* the pin keeps it */
	bpf_object__close(obj);
	return rc;
}

/* Send @msg ("policy ...") to @d; its first line of answer into @resp. */
static int lq_policy_msg(const struct lq_dev *d, const char *msg, char *resp,
			 size_t len)
{
	char err[256];
	int rc;

	rc = lq_dm_message(d->dm_name, d->begin, msg, resp, len, err,
			   sizeof(err));
	if (rc)
		return lq_error(rc, "%s", err);
	resp[strcspn(resp, "\n")] = '\0';
	return LQ_OK;
}

static int policy_detach(const char *name)
{
	char pin[PATH_MAX], resp[128] = "";
	bool unpinned;
	struct lq_dev d;
	int rc;

	rc = lq_policy_dev(name, &d, false);
	if (rc)
		return rc;
	if (geteuid() != 0)
		return lq_error(LQ_EPERM, "detaching a BPF policy needs root");
	lq_pin_path(pin, sizeof(pin), d.name);
	unpinned = !unlink(pin);
	if (!unpinned && errno != ENOENT)
		return lq_error(lq_errno_code(errno), "%s: %s", pin, strerror(errno));
	/* the link may be held elsewhere: the device lets go all the same */
	rc = lq_policy_msg(&d, "policy detach", resp, sizeof(resp));
	if (rc)
		return rc;
	if (unpinned || !strcmp(resp, "detached"))
		printf("%s: BPF policy detached; the table's policy is back\n", d.name);
	else
		printf("%s: no BPF policy attached\n", d.name);
	return LQ_OK;
}

static int policy_eject(const char *name)
{
	char resp[128] = "";
	struct lq_dev d;
	int rc;

	rc = lq_policy_dev(name, &d, false);
	if (rc)
		return rc;
	if (geteuid() != 0)
		return lq_error(LQ_EPERM, "ejecting a BPF policy needs root (CAP_SYS_ADMIN)");
	rc = lq_policy_msg(&d, "policy eject", resp, sizeof(resp));
	if (rc)
		return rc;
	if (strcmp(resp, "ejected")) {
		printf("%s: no BPF policy attached\n", d.name);
		return LQ_OK;
	}
	printf("%s: BPF policy %s ejected; the table's policy is back (its link is detached; 'lunqctl policy detach %s' removes the pin)\n",
	       d.name, d.tpolicy, d.name);
	return LQ_OK;
}

/*
 * The pinned link's state: "attached", "detached" (EPOLLHUP: ejected, or
 * its map went away) or "unknown" (not ours to open, or a kernel whose
 * struct_ops links cannot be polled: before 6.11).
 */
static const char *lq_link_state(const char *pin)
{
	struct pollfd p = { .events = POLLIN };
	const char *st = "unknown";

	p.fd = bpf_obj_get(pin);
	if (p.fd < 0)
		return st;
	if (poll(&p, 1, 0) >= 0)
		st = (p.revents & POLLHUP) ? "detached" :
		     (p.revents & POLLIN) ? "unknown" : "attached";
	close(p.fd);
	return st;
}

/* "its window callback ran 812 ms (the bound is 50 ms)" and the like */
static void lq_eject_why(char *buf, size_t len, const struct lq_dev *d)
{
	char a[32], b[32];

	lq_fmt_ns(a, sizeof(a), d->ej_ns);
	lq_fmt_ns(b, sizeof(b), d->ej_bound_ns);
	if (!strcmp(d->ej_rule, "callback"))
		snprintf(buf, len, "its %s callback ran %s (the bound is %s)",
			 d->ej_hook[0] ? d->ej_hook : "?", a, b);
	else if (!strcmp(d->ej_rule, "stall"))
		snprintf(buf, len, "commands waited and none was sent for %s (its timeout is %s)",
			 a, b);
	else if (!strcmp(d->ej_rule, "floor"))
		snprintf(buf, len, "it held the depth at its floor while a command waited %s (its timeout is %s)",
			 a, b);
	else if (!strcmp(d->ej_rule, "manual"))
		snprintf(buf, len, "by hand (lunqctl policy eject)");
	else
		snprintf(buf, len, "rule %s", d->ej_rule);
}

static int policy_show(const char *name, bool json)
{
	const char *pname, *from, *link = NULL;
	char pin[PATH_MAX], why[160];
	unsigned long long depth, a0, below, above;
	struct timespec ts;
	struct lq_dev d;
	bool pinned, bpf;
	double ago = 0;
	int rc;

	/* the policy in force and where it comes from: netlink, as the rest */
	rc = lq_policy_dev(name, &d, false);
	if (rc)
		return rc;
	pname = d.tpolicy[0] ? d.tpolicy : "-";
	from = d.tpolicy_from[0] ? d.tpolicy_from : "-";
	bpf = !strcmp(from, "bpf");
	depth = d.st[LUNQ_ST_THROTTLE];
	a0 = d.st[LUNQ_ST_POL_ZERO];
	below = d.st[LUNQ_ST_POL_BELOW];
	above = d.st[LUNQ_ST_POL_ABOVE];
	lq_pin_path(pin, sizeof(pin), d.name);
	pinned = !access(pin, F_OK);
	if (pinned)
		link = lq_link_state(pin);
	if (d.ej_policy[0]) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ago = (ts.tv_sec * 1e9 + ts.tv_nsec - (double)d.ej_t) / 1e9;
		lq_eject_why(why, sizeof(why), &d);
	}
	if (json) {
		printf("{\"name\":\"%s\",\"policy\":\"%s\",\"from\":\"%s\",\"throttle\":%llu,\"pin\":%s%s%s,\"link\":%s%s%s,\"ejected\":",
		       d.name, pname, from, depth, pinned ? "\"" : "",
		       pinned ? pin : "null", pinned ? "\"" : "",
		       link ? "\"" : "", link ? link : "null", link ? "\"" : "");
		if (d.ej_policy[0]) {
			printf("{\"policy\":\"%s\",\"rule\":\"%s\",\"hook\":%s%s%s,\"ago_s\":%.3f,\"ns\":%llu,\"bound_ns\":%llu,\"why\":",
			       d.ej_policy, d.ej_rule, d.ej_hook[0] ? "\"" : "",
			       d.ej_hook[0] ? d.ej_hook : "null",
			       d.ej_hook[0] ? "\"" : "", ago, d.ej_ns,
			       d.ej_bound_ns);
			lq_json_str(stdout, why);
			printf("}");
		} else {
			printf("null");
		}
		printf(",\"answers_raised_from_0\":%llu,\"answers_below_min\":%llu,\"answers_above_max\":%llu}\n",
		       a0, below, above);
		return LQ_OK;
	}
	if (pinned && !bpf)
		printf("%s: policy %s (from the table), throttle %llu; a link left at %s is attached to nothing (%s; 'lunqctl policy detach %s' removes it)\n",
		       d.name, pname, depth, pin,
		       d.ej_policy[0] ? "its policy was ejected" :
		       "a table reload detached it", d.name);
	else
		printf("%s: policy %s (from the %s), throttle %llu%s%s\n", d.name,
		       pname, bpf ? "BPF program" : "table", depth,
		       pinned ? ", link pinned at " : "", pinned ? pin : "");
	printf("%s: answers of %s clamped since it took over: %llu were 0, %llu others below auto_min, %llu above auto_max\n",
	       d.name, pname, a0, below, above);
	if (d.ej_policy[0])
		printf("%s: BPF policy %s was ejected %.1f s ago by lunq's watchdog, rule %s: %s\n",
		       d.name, d.ej_policy, ago, d.ej_rule, why);
	return LQ_OK;
}

int lq_policy_forget(const char *dm_name)
{
	char pin[PATH_MAX];
	size_t n = strlen(dm_name);
	struct dirent *e;
	int gone = 0;
	DIR *dir;

	dir = opendir(LQ_PIN_DIR);
	if (!dir)
		return 0;
	/* the device's own name, and NAME@BEGIN of a table of several */
	while ((e = readdir(dir)))
		if (!strncmp(e->d_name, dm_name, n) &&
		    (!e->d_name[n] || e->d_name[n] == '@')) {
			lq_pin_path(pin, sizeof(pin), e->d_name);
			gone += !unlink(pin);
		}
	closedir(dir);
	return gone;
}

int cmd_policy(int argc, char **argv)
{
	struct lq_getopt g;
	bool json = false;
	const char *what;
	int c, n;

	lq_getopt_init(&g, "policy", argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_JSON: json = true; break;
		case LQO_HELP: return lq_cmd_help("policy");
		default: return lq_getopt_fail(&g, c);
		}
	}
	n = argc - optind;
	what = n ? argv[optind] : "";
	if (!strcmp(what, "attach") && n == 3 && !json)
		return policy_attach(argv[optind + 1], argv[optind + 2]);
	if (!strcmp(what, "detach") && n == 2 && !json)
		return policy_detach(argv[optind + 1]);
	if (!strcmp(what, "eject") && n == 2 && !json)
		return policy_eject(argv[optind + 1]);
	if (!strcmp(what, "show") && n == 2)
		return policy_show(argv[optind + 1], json);
	return lq_usage("policy", "attach NAME FILE.bpf.o | detach NAME | eject NAME | show [-j] NAME");
}
