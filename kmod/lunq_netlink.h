/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq generic netlink family LUNQ_GENL_NAME (lunq_netlink.c,
 * kmod/uapi/lunq.h): device and histogram queries, set, reset, and the
 * "events" multicast group, which it registers as the events' sink.
 */
#ifndef LUNQ_NETLINK_H
#define LUNQ_NETLINK_H

int lunq_nl_init(void);
void lunq_nl_exit(void);

#endif /* LUNQ_NETLINK_H */
