/* SPDX-License-Identifier: GPL-2.0 */
/* dm-lunq: refuse a table whose lower device leads back to this device. */
#ifndef LUNQ_LOOP_H
#define LUNQ_LOOP_H

#include <linux/device-mapper.h>

#define LUNQ_LOOP_MSG	192	/* longest ti->error of a loop */

/*
 * Before dm_get_device(): is @path this device itself?  Returns the error
 * text ("lower device 253:0 leads back to this device (253:0 -> 253:0)")
 * or NULL.  Since 6.2 the block layer refuses that link itself, with a
 * message that does not say why.
 */
const char *lunq_loop_self(struct dm_target *ti, const char *path);

/*
 * After dm_get_device() (its holder link exists): does @lower lead back
 * to this device through the devices stacked below it?  0 if not;
 * -ELOOP with *@error naming the chain if it does (or if the stack is too
 * deep to walk); another -errno with *@error if the walk failed.
 */
int lunq_loop_check(struct dm_target *ti, struct block_device *lower,
		    const char **error);

#endif /* LUNQ_LOOP_H */
