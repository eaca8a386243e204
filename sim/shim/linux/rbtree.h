/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's rbtree interface, the part lunq's wait queue uses, over a
 * plain binary search tree: the same order and the same answers as the
 * kernel's red-black tree, without its balancing (rb_insert_color does
 * nothing).  lunqsim's keys are random LBAs, which keep such a tree
 * shallow (about 2 ln n deep on average).
 */
#ifndef SIM_SHIM_LINUX_RBTREE_H
#define SIM_SHIM_LINUX_RBTREE_H
#include <linux/types.h>
#include <linux/list.h>
struct rb_node {
	struct rb_node *rb_parent, *rb_left, *rb_right;
};
struct rb_root {
	struct rb_node *rb_node;
};
#define RB_ROOT ((struct rb_root) { NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->rb_parent = parent;
	node->rb_left = node->rb_right = NULL;
	*link = node;
}
static inline void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
}
static inline struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_left)
		n = n->rb_left;
	return n;
}
/* @n's place (its parent's link or the root) takes @c (may be NULL) */
static inline void rb_shim_replace(struct rb_node *n, struct rb_node *c,
				   struct rb_root *root)
{
	struct rb_node *p = n->rb_parent;

	if (c)
		c->rb_parent = p;
	if (!p)
		root->rb_node = c;
	else if (p->rb_left == n)
		p->rb_left = c;
	else
		p->rb_right = c;
}
static inline void rb_erase(struct rb_node *n, struct rb_root *root)
{
	struct rb_node *s;

	if (!n->rb_left) {
		rb_shim_replace(n, n->rb_right, root);
	} else if (!n->rb_right) {
		rb_shim_replace(n, n->rb_left, root);
	} else {
		/* the successor takes @n's place */
		s = n->rb_right;
		while (s->rb_left)
			s = s->rb_left;
		if (s->rb_parent != n) {
			rb_shim_replace(s, s->rb_right, root);
			s->rb_right = n->rb_right;
			s->rb_right->rb_parent = s;
		}
		rb_shim_replace(n, s, root);
		s->rb_left = n->rb_left;
		s->rb_left->rb_parent = s;
	}
}
#endif
