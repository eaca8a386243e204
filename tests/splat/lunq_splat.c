// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture, never part of dm-lunq: a module that makes the kernel
 * splat on purpose so the tests can check that qemu/run notices.
 *   insmod lunq_splat.ko mode=warn   WARN_ON() at load, then loads fine
 *   insmod lunq_splat.ko mode=oops   NULL dereference at load (an oops that
 *                                    kills insmod; the kernel keeps running)
 *   insmod lunq_splat.ko mode=none   nothing (the control case)
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/bug.h>
#include <linux/string.h>

static char *mode = "none";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "none, warn or oops");

static int __init lunq_splat_init(void)
{
	if (!strcmp(mode, "warn")) {
		WARN_ON(1);
	} else if (!strcmp(mode, "oops")) {
		int *volatile p = NULL;

		*p = 1;
	}
	return 0;
}

static void __exit lunq_splat_exit(void)
{
}

module_init(lunq_splat_init);
module_exit(lunq_splat_exit);
MODULE_DESCRIPTION("lunq test fixture: splats on purpose");
MODULE_LICENSE("GPL");
