// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq sysfs files, /sys/kernel/lunq/<name>/ (kmod/dm-lunq.rst,
 * "sysfs"):
 *   name disk lower begin len   identity (read-only)
 *   table        the policy words in force (as in the table line); write
 *                "key:value ..." to change several keys at once, all or
 *                nothing (root)
 *   snapshot     every statistic, "name value" lines, one consistent copy
 *   reset        write 1: zero counters, histograms, integrals (root)
 *   stats/<stat> one statistic per file
 *   policy/<key> one key per file; write a value to change it (root;
 *                table-only keys are read-only)
 *   hist/<hist>  a histogram: count, sum, max, percentiles, quantize rows
 *   fast_path    "OPEN IOS": the lock-free pass-through path is open now
 *                (1/0), and the IOs it sent since the table was created
 * Every access finds the live table under lunq_devs_lock: a file read
 * while the device is removed answers -ENODEV.  Nothing allocates under
 * that lock: a resume takes it while its device is suspended, and
 * reclaim could wait for that device.
 */
#include <linux/kernel.h>
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include "lunq_core.h"
#include "lunq_pol_dev.h"
#include "lunq_dev.h"
#include "lunq_sysfs.h"
#include "lunq_names.h"

#define DM_MSG_PREFIX "lunq"

/* A refused sysfs write: say why in the kernel log, as "set" does. */
static ssize_t lunq_sysfs_refused(struct lunq_dev *d, const char *file,
				  const char *err, const char *word)
{
	if (word)
		DMERR("%s: write to %s rejected '%.64s': %s; nothing changed",
		      d->name, file, word, err);
	else
		DMERR("%s: write to %s rejected: %s; nothing changed",
		      d->name, file, err);
	return -EINVAL;
}

/* "set" words written to @file: @count, or the error (reported). */
static ssize_t lunq_sysfs_set(struct lunq_dev *d, struct lunq_c *lc,
			      const char *file, unsigned int argc, char **argv,
			      size_t count)
{
	const char *err, *word;
	int ret = lunq_set_words(lc, argc, argv, &err, &word);

	if (!ret)
		return count;
	lunq_sysfs_refused(d, file, err, word);
	return ret;
}

#define to_dev(k) container_of(k, struct lunq_dev, kobj)

/* Evaluate @expr with @lc, the live target of @kobj under lunq_devs_lock. */
#define LUNQ_WITH_LC(kobj, lc, expr) ({				\
	struct lunq_dev *__d = to_dev(kobj);				\
	ssize_t __r;							\
	mutex_lock(&lunq_devs_lock);					\
	lc = __d->lc;							\
	__r = lc ? (expr) : -ENODEV;					\
	mutex_unlock(&lunq_devs_lock);					\
	__r; })

/* ---- identity ---- */

static ssize_t lunq_dm_name(struct lunq_c *lc, char *buf)
{
	char name[DM_NAME_LEN];

	if (dm_copy_name_and_uuid(dm_table_get_md(lc->ti->table), name, NULL))
		return -ENODEV;
	return sysfs_emit(buf, "%s\n", name);
}

static ssize_t name_show(struct kobject *kobj, struct kobj_attribute *a,
			 char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, lunq_dm_name(lc, buf));
}

static ssize_t disk_show(struct kobject *kobj, struct kobj_attribute *a,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_dev(kobj)->disk);
}

static ssize_t lower_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, sysfs_emit(buf, "%s\n", lc->dev->name));
}

static ssize_t begin_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (unsigned long long)to_dev(kobj)->begin);
}

static ssize_t len_show(struct kobject *kobj, struct kobj_attribute *a,
			char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, sysfs_emit(buf, "%llu\n",
		(unsigned long long)lc->ti->len));
}

static u64 lunq_fast_ios(struct lunq_c *lc)
{
	struct lunq_span io, busy;

	lunq_stats_fast_sum(&lc->st, &io, &busy);
	return lunq_span_opened(&io);
}

/* The lock-free path: open now (1/0), IOs it sent since the table. */
static ssize_t fast_path_show(struct kobject *kobj, struct kobj_attribute *a,
			      char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, sysfs_emit(buf, "%d %llu\n",
		READ_ONCE(lc->host.thr.fast_lim) != 0,
		(unsigned long long)lunq_fast_ios(lc)));
}

/* ---- policy ---- */

static ssize_t lunq_policy_line(struct lunq_c *lc, char *buf)
{
	struct lunq_keys p;
	int n;

	lunq_get_policy(lc, &p, NULL);
	lunq_policy_format(&p, buf, PAGE_SIZE - 1);
	n = strlen(buf);
	buf[n++] = '\n';
	return n;
}

static ssize_t table_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, lunq_policy_line(lc, buf));
}

static ssize_t lunq_set_line(struct lunq_c *lc, char *line, size_t count)
{
	char *argv[2 * LUNQ_NR_KEYS];
	struct lunq_dev *d = lc->sysdev;
	int argc;

	argc = lunq_split_words(line, argv, ARRAY_SIZE(argv));
	if (argc < 0)
		return lunq_sysfs_refused(d, "table", "too many words", NULL);
	if (!argc)
		return lunq_sysfs_refused(d, "table", "no key:value given",
					  NULL);
	return lunq_sysfs_set(d, lc, "table", argc, argv, count);
}

static ssize_t table_store(struct kobject *kobj, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	struct lunq_c *lc;
	char *line;
	ssize_t ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* a NUL would hide the bytes after it from the parser */
	if (memchr(buf, '\0', count))
		return -EINVAL;
	line = kstrndup(buf, count, GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	ret = LUNQ_WITH_LC(kobj, lc, lunq_set_line(lc, line, count));
	kfree(line);
	return ret;
}

static struct kobj_attribute lunq_key_attrs[LUNQ_NR_KEYS];
static struct attribute *lunq_key_list[LUNQ_NR_KEYS + 1];

static ssize_t lunq_key_value(struct lunq_c *lc, enum lunq_key k, char *buf)
{
	struct lunq_keys p;

	lunq_get_policy(lc, &p, NULL);
	lunq_policy_value(&p, k, buf, PAGE_SIZE - 1);
	return strlen(strcat(buf, "\n"));
}

static ssize_t key_show(struct kobject *kobj, struct kobj_attribute *a,
			char *buf)
{
	enum lunq_key k = a - lunq_key_attrs;
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, lunq_key_value(lc, k, buf));
}

static ssize_t key_store(struct kobject *kobj, struct kobj_attribute *a,
			 const char *buf, size_t count)
{
	enum lunq_key k = a - lunq_key_attrs;
	char word[64], *argv[1] = { word };
	struct lunq_c *lc;
	int n;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* one value: no blanks inside, one trailing newline allowed */
	n = count;
	if (n && buf[n - 1] == '\n')
		n--;
	if (!n || memchr(buf, ' ', n) || memchr(buf, '\n', n) ||
	    memchr(buf, '\t', n) || memchr(buf, '\0', n) ||
	    snprintf(word, sizeof(word), "%s:%.*s", lunq_key_name(k), n,
		     buf) >= (int)sizeof(word))
		return -EINVAL;
	return LUNQ_WITH_LC(kobj, lc,
			    lunq_sysfs_set(to_dev(kobj), lc, lunq_key_name(k),
					   1, argv, count));
}

/* ---- statistics ---- */

static struct kobj_attribute lunq_stat_attrs[__LUNQ_ST_MAX];
static struct attribute *lunq_stat_list[__LUNQ_ST_MAX];

static ssize_t lunq_stat_one(struct lunq_c *lc, int i, char *buf)
{
	u64 v[__LUNQ_ST_MAX];

	lunq_fill_stats(lc, v);
	return sysfs_emit(buf, "%llu\n", v[i]);
}

static ssize_t stat_show(struct kobject *kobj, struct kobj_attribute *a,
			 char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc,
			    lunq_stat_one(lc, a - lunq_stat_attrs, buf));
}

static ssize_t lunq_snapshot_show(struct lunq_c *lc, char *buf)
{
	u64 v[__LUNQ_ST_MAX];
	int i, n = 0;

	lunq_fill_stats(lc, v);
	for (i = 1; i < __LUNQ_ST_MAX; i++)
		n += sysfs_emit_at(buf, n, "%s %llu\n", lunq_stat_names[i],
				   v[i]);
	return n;
}

static ssize_t snapshot_show(struct kobject *kobj, struct kobj_attribute *a,
			     char *buf)
{
	struct lunq_c *lc;

	return LUNQ_WITH_LC(kobj, lc, lunq_snapshot_show(lc, buf));
}

static ssize_t lunq_do_reset(struct lunq_c *lc, size_t count)
{
	lunq_stats_reset(lc);
	return count;
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	struct lunq_c *lc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (memchr(buf, '\0', count) || !sysfs_streq(buf, "1"))
		return -EINVAL;
	return LUNQ_WITH_LC(kobj, lc, lunq_do_reset(lc, count));
}

/* ---- histograms ---- */

static struct kobj_attribute lunq_hist_attrs[LUNQ_NR_HISTS];
static struct attribute *lunq_hist_list[LUNQ_NR_HISTS + 1];

static const struct { const char *name; u32 ppm; } lunq_pcts[] = {
	{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 },
	{ "p99.9", 999000 }, { "p99.99", 999900 },
};

/*
 * count, sum, max, percentiles (within 1.6%, see lunq_hist.h), then the
 * non-empty power-of-two rows "<lower> <count>" (row [lower, 2*lower),
 * row 0 holds 0).  Fits a page: at most 8 + 65 short lines.
 */
static ssize_t lunq_hist_show(struct lunq_c *lc, int kind, char *buf,
			      u64 *counts)
{
	u64 rows[LUNQ_QUANT_ROWS], sum, max;
	int i, n = 0;

	lunq_stats_hist(&lc->st, kind, counts, &sum, &max);
	n += sysfs_emit_at(buf, n, "count %llu\nsum %llu\nmax %llu\n",
			   lunq_hist_total(counts), sum, max);
	for (i = 0; i < ARRAY_SIZE(lunq_pcts); i++)
		n += sysfs_emit_at(buf, n, "%s %llu\n", lunq_pcts[i].name,
				   lunq_hist_percentile(counts, max,
							lunq_pcts[i].ppm));
	lunq_hist_quantize(counts, rows);
	for (i = 0; i < LUNQ_QUANT_ROWS; i++)
		if (rows[i])
			n += sysfs_emit_at(buf, n, "%llu %llu\n",
					   i ? 1ULL << (i - 1) : 0ULL,
					   rows[i]);
	return n;
}

static ssize_t hist_show(struct kobject *kobj, struct kobj_attribute *a,
			 char *buf)
{
	struct lunq_c *lc;
	ssize_t ret;
	u64 *counts;

	/* allocate outside lunq_devs_lock, which a resume takes (NOIO) */
	counts = kvmalloc_array(LUNQ_HIST_BUCKETS, sizeof(*counts),
				GFP_KERNEL);
	if (!counts)
		return -ENOMEM;
	ret = LUNQ_WITH_LC(kobj, lc, lunq_hist_show(lc, a - lunq_hist_attrs,
						    buf, counts));
	kvfree(counts);
	return ret;
}

/* ---- groups ---- */

static struct kobj_attribute lunq_attr_name = __ATTR_RO(name);
static struct kobj_attribute lunq_attr_disk = __ATTR_RO(disk);
static struct kobj_attribute lunq_attr_lower = __ATTR_RO(lower);
static struct kobj_attribute lunq_attr_begin = __ATTR_RO(begin);
static struct kobj_attribute lunq_attr_len = __ATTR_RO(len);
static struct kobj_attribute lunq_attr_table = __ATTR_RW(table);
static struct kobj_attribute lunq_attr_snapshot = __ATTR_RO(snapshot);
static struct kobj_attribute lunq_attr_reset = __ATTR_WO(reset);
static struct kobj_attribute lunq_attr_fast_path = __ATTR_RO(fast_path);

static struct attribute *lunq_top_list[] = {
	&lunq_attr_name.attr, &lunq_attr_disk.attr, &lunq_attr_lower.attr,
	&lunq_attr_begin.attr, &lunq_attr_len.attr, &lunq_attr_table.attr,
	&lunq_attr_snapshot.attr, &lunq_attr_reset.attr,
	&lunq_attr_fast_path.attr, NULL
};

static const struct attribute_group lunq_top_group = {
	.attrs = lunq_top_list,
};

static const struct attribute_group lunq_stat_group = {
	.name = "stats", .attrs = lunq_stat_list,
};

static const struct attribute_group lunq_key_group = {
	.name = "policy", .attrs = lunq_key_list,
};

static const struct attribute_group lunq_hist_group = {
	.name = "hist", .attrs = lunq_hist_list,
};

const struct attribute_group *lunq_dev_groups[] = {
	&lunq_top_group, &lunq_stat_group, &lunq_key_group, &lunq_hist_group,
	NULL
};

/* Fill the generated attributes (one per statistic, key, histogram). */
int lunq_sysfs_init(void)
{
	int i, n;

	for (i = 1, n = 0; i < __LUNQ_ST_MAX; i++, n++) {
		struct kobj_attribute *a = &lunq_stat_attrs[i];

		sysfs_attr_init(&a->attr);
		a->attr.name = lunq_stat_names[i];
		a->attr.mode = 0444;
		a->show = stat_show;
		lunq_stat_list[n] = &a->attr;
	}
	for (i = 0; i < LUNQ_NR_KEYS; i++) {
		struct kobj_attribute *a = &lunq_key_attrs[i];
		bool ro = lunq_key_table_only(i);

		sysfs_attr_init(&a->attr);
		a->attr.name = lunq_key_name(i);
		a->attr.mode = ro ? 0444 : 0644;
		a->show = key_show;
		a->store = ro ? NULL : key_store;
		lunq_key_list[i] = &a->attr;
	}
	for (i = 0; i < LUNQ_NR_HISTS; i++) {
		struct kobj_attribute *a = &lunq_hist_attrs[i];

		sysfs_attr_init(&a->attr);
		a->attr.name = lunq_hist_names[i];
		a->attr.mode = 0444;
		a->show = hist_show;
		lunq_hist_list[i] = &a->attr;
	}
	return 0;
}
