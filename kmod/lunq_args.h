/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq policy words: the "key:value" optional arguments of the table
 * line and of the "set" message.  Pure logic, no device-mapper plumbing.
 */
#ifndef LUNQ_ARGS_H
#define LUNQ_ARGS_H

#include "lunq_pure.h"

/* Every key of the table syntax, in the order TABLE status prints them. */
enum lunq_key {
	LUNQ_QDEPTH,
	LUNQ_SCHED,
	LUNQ_MAX_WAIT_MS,
	LUNQ_LUN_DEPTH,
	LUNQ_POOL,
	LUNQ_POOL_DEPTH,
	LUNQ_QFULL_DELAY_US,
	LUNQ_REACTION,
	LUNQ_MODEL,
	LUNQ_SVC_US,
	LUNQ_CHANNELS,
	LUNQ_MBPS,
	LUNQ_SEEK_MS,
	LUNQ_RPM,
	LUNQ_PBLK,
	LUNQ_BUBBLE_MS,
	LUNQ_FOREIGN,
	LUNQ_FOREIGN_PERIOD_MS,
	LUNQ_RESET_AFTER,
	LUNQ_RESET_MS,
	LUNQ_RAMP_UP_MS,
	LUNQ_RESTORE_MS,
	LUNQ_STEP_MS,
	LUNQ_MIN_THROTTLE,
	LUNQ_RMW_X,
	LUNQ_AUTO,
	LUNQ_TARGET_US,
	LUNQ_AUTO_MIN,
	LUNQ_AUTO_MAX,
	LUNQ_WCE,
	LUNQ_CACHE_MB,
	LUNQ_BUS_MBPS,
	LUNQ_QFULL_LAT_US,
	LUNQ_LUN_ORDER,
	LUNQ_SPINDLES,
	LUNQ_STRIPE_KB,
	LUNQ_POL,		/* "policy": the built-in, or reaction + auto */
	LUNQ_SHARE,		/* auto in a pool: its weight (PARDA's beta) */
	LUNQ_SPINDLE_DEPTH,	/* array, sptf: each member drive's queue */
	LUNQ_DESTAGE,		/* wce: destage order, fifo or cscan */
	LUNQ_WC_HIGH,		/* wce: % full that starts idle destage */
	LUNQ_WC_LOW,		/* wce: % full that stops it */
	LUNQ_RCACHE_MB,		/* model: the read cache's size, MiB */
	LUNQ_SEEK_CURVE,	/* hdd, array: linear or sqrt */
	LUNQ_AUTO_START,	/* auto: the depth it starts from */
	LUNQ_STATS,		/* on, off: per-IO statistics (off: a pure throttle) */
	LUNQ_NR_KEYS
};

#define LUNQ_POOL_NAME_MAX 31

/* The table's keys: the value of every key, and which were given. */
struct lunq_keys {
	u32 val[LUNQ_NR_KEYS];	/* numbers, or the index into an enum's names */
	char pool[LUNQ_POOL_NAME_MAX + 1];
	u64 given;		/* bit per key: named on the table line */
	/* an auto_start word was given: qdepth leaves auto's start */
	bool start_said;
};

/* Why a word was refused; lunq_arg_error() turns it into a fixed string. */
enum lunq_arg_err {
	LUNQ_ARG_OK = 0,
	LUNQ_ARG_NO_COLON,	/* "key:value" form not respected */
	LUNQ_ARG_UNKNOWN_KEY,
	LUNQ_ARG_BAD_VALUE,	/* value not valid for its key */
	LUNQ_ARG_DUPLICATE,	/* key given twice in one line */
	LUNQ_ARG_UNSUPPORTED,	/* known key, feature not in this build */
};

void lunq_keys_init(struct lunq_keys *p);

/*
 * The key "policy" names a built-in throttle policy (fixed, linux, sd,
 * sd-fc, knee, target); reaction: and auto: say the same in two keys.
 * After a line or message whose keys are @seen: policy:NAME sets reaction
 * and auto, reaction: or auto: sets policy.  NULL, or the error when both
 * forms were given.
 */
const char *lunq_policy_resolve(struct lunq_keys *p, u64 seen);

/*
 * Parse one "key:value" word into @p.  @seen holds a bit per key already
 * parsed in the same line or message (a key given twice is refused).  On
 * failure returns the reason, sets *@key to the key concerned (LUNQ_NR_KEYS
 * when none) and leaves @p and @seen as they were.
 */
enum lunq_arg_err lunq_parse_word(struct lunq_keys *p, const char *word,
				  u64 *seen, enum lunq_key *key);

/* A constant, human-readable message for an error on @key. */
const char *lunq_arg_error(enum lunq_arg_err err, enum lunq_key key);

const char *lunq_key_name(enum lunq_key key);

/* True when the running build implements @key. */
bool lunq_key_supported(enum lunq_key key);

/*
 * True when @key can only be given on the table line (it shapes the device
 * or ties it to other devices), not changed by a message.
 */
bool lunq_key_table_only(enum lunq_key key);

/* True when @key's value is a number (not a name: sched, model, pool...). */
bool lunq_key_numeric(enum lunq_key key);

/* Message for a table-only key given to "set". */
const char *lunq_table_only_error(enum lunq_key key);

/*
 * Rules between keys, checked on every complete policy (table line and
 * message alike).  NULL when @p is consistent, else a constant message.
 */
const char *lunq_policy_check(const struct lunq_keys *p);

/*
 * Print the given keys as "key:value" words separated by spaces into @buf
 * (at most @len bytes, NUL-terminated).  Returns the number of words.
 */
unsigned int lunq_policy_format(const struct lunq_keys *p, char *buf,
				size_t len);

/*
 * Print the value of @key in @p (given or default) into @buf, as a table
 * word would carry it; snprintf's return value.
 */
int lunq_policy_value(const struct lunq_keys *p, enum lunq_key key,
		      char *buf, size_t len);

/*
 * Split @line in place at blanks (space, tab, newline) into at most @max
 * words in @argv (a "set" line from sysfs or netlink).  Returns the number
 * of words, -E2BIG when there are more than @max.
 */
int lunq_split_words(char *line, char **argv, unsigned int max);

#endif /* LUNQ_ARGS_H */
