// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy words ("key:value"), shared by the table line, the "set"
 * message and (later) sysfs and netlink.  Pure logic: see lunq_pure.h.
 *
 * The key table is the single place where a key's name, range, default and
 * error texts live.  Error texts are string literals because device-mapper
 * prints ti->error after the constructor has returned.
 */
#include "lunq_args.h"
#include "lunq_auto_cfg.h"

enum lunq_vtype { LUNQ_T_UINT, LUNQ_T_ENUM, LUNQ_T_NAME, LUNQ_T_POW2 };

struct lunq_keydef {
	const char *name;
	enum lunq_vtype type;
	bool supported;
	bool table_only;
	u32 min, max, def;
	const char *const *names;	/* LUNQ_T_ENUM */
	unsigned int nr_names;
	const char *bad_value;
	const char *duplicate;
	const char *unsupported;
	const char *table_only_msg;
};

static const char *const lunq_sched_names[] = { "fifo", "disksort" };

static const char *const lunq_reaction_names[] = {
	"none", "linux", "sd", "sd-fc"
};

static const char *const lunq_auto_names[] = { "off", "knee", "target" };

static const char *const lunq_order_names[] = { "fifo", "sptf" };

static const char *const lunq_destage_names[] = { "fifo", "cscan" };

static const char *const lunq_seek_curve_names[] = { "linear", "sqrt" };

/* "stats": 0 (the default) records every IO, 1 is the pure throttle */
static const char *const lunq_stats_names[] = { "on", "off" };

/* "policy": the built-ins (lunq_pol_react.c, lunq_pol_auto.c), as reaction and auto say */
static const char *const lunq_pol_names[] = {
	"fixed", "linux", "sd", "sd-fc", "knee", "target"
};

static const char *const lunq_model_names[] = {
	"none", "fixed", "flash", "hdd", "array"
};

#define LUNQ_KEY_MSGS(k)						\
	.name = #k,							\
	.duplicate = #k ": given more than once",			\
	.unsupported = #k ": not supported by this build of dm-lunq",	\
	.table_only_msg = #k ": can only be set on the table line (reload the table to change it)"

#define LUNQ_UINT(k, lo, hi, d, on)					\
	{ LUNQ_KEY_MSGS(k), .type = LUNQ_T_UINT, .supported = on,	\
	  .min = lo, .max = hi, .def = d,				\
	  .bad_value = #k ": value must be an integer " #lo ".." #hi }

/* An integer key that only the table line may set. */
#define LUNQ_UINT_T(k, lo, hi, d)					\
	{ LUNQ_KEY_MSGS(k), .type = LUNQ_T_UINT, .supported = true,	\
	  .table_only = true, .min = lo, .max = hi, .def = d,		\
	  .bad_value = #k ": value must be an integer " #lo ".." #hi }

#define LUNQ_ENUM(k, arr, choices, on)					\
	{ LUNQ_KEY_MSGS(k), .type = LUNQ_T_ENUM, .supported = on,	\
	  .names = arr, .nr_names = ARRAY_SIZE(arr),			\
	  .bad_value = #k ": value must be one of " choices }

/*
 * The last column says whether this build implements the key; a known but
 * unimplemented key is refused rather than silently ignored.
 */
static const struct lunq_keydef lunq_keys[LUNQ_NR_KEYS] = {
	[LUNQ_QDEPTH] = LUNQ_UINT(qdepth, 0, 65535, 0, true),
	[LUNQ_SCHED] = LUNQ_ENUM(sched, lunq_sched_names,
				 "fifo, disksort", true),
	[LUNQ_MAX_WAIT_MS] = LUNQ_UINT(max_wait_ms, 0, 3600000, 0, true),
	[LUNQ_LUN_DEPTH] = LUNQ_UINT(lun_depth, 0, 65535, 0, true),
	[LUNQ_POOL] = { LUNQ_KEY_MSGS(pool), .type = LUNQ_T_NAME,
			.supported = true, .table_only = true,
			.bad_value = "pool: name must be 1..31 characters of A-Z a-z 0-9 _ -" },
	[LUNQ_POOL_DEPTH] = LUNQ_UINT_T(pool_depth, 1, 65535, 0),
	[LUNQ_QFULL_DELAY_US] = LUNQ_UINT(qfull_delay_us, 0, 10000000,
					  3000, true),
	[LUNQ_REACTION] = LUNQ_ENUM(reaction, lunq_reaction_names,
				    "none, linux, sd, sd-fc", true),
	[LUNQ_MODEL] = LUNQ_ENUM(model, lunq_model_names,
				 "none, fixed, flash, hdd, array", true),
	[LUNQ_SVC_US] = LUNQ_UINT(svc_us, 0, 60000000, 0, true),
	[LUNQ_CHANNELS] = LUNQ_UINT(channels, 1, 1024, 1, true),
	[LUNQ_MBPS] = LUNQ_UINT(mbps, 0, 1000000, 0, true),
	[LUNQ_SEEK_MS] = LUNQ_UINT(seek_ms, 0, 1000, 0, true),
	[LUNQ_RPM] = LUNQ_UINT(rpm, 0, 100000, 0, true),
	[LUNQ_PBLK] = { LUNQ_KEY_MSGS(pblk), .type = LUNQ_T_POW2,
			.supported = true, .table_only = true,
			.min = 512, .max = 65536, .def = 512,
			.bad_value = "pblk: value must be a power of two 512..65536" },
	[LUNQ_BUBBLE_MS] = LUNQ_UINT(bubble_ms, 0, 3600000, 0, true),
	[LUNQ_FOREIGN] = LUNQ_UINT(foreign, 0, 65535, 0, true),
	[LUNQ_FOREIGN_PERIOD_MS] = LUNQ_UINT(foreign_period_ms, 0, 3600000, 0,
					     true),
	[LUNQ_RESET_AFTER] = LUNQ_UINT(reset_after, 0, 1000000, 0, true),
	[LUNQ_RESET_MS] = LUNQ_UINT(reset_ms, 0, 600000, 1000, true),
	[LUNQ_RAMP_UP_MS] = LUNQ_UINT(ramp_up_ms, 1, 3600000, 120000, true),
	[LUNQ_RESTORE_MS] = LUNQ_UINT(restore_ms, 1, 3600000, 60000, true),
	[LUNQ_STEP_MS] = LUNQ_UINT(step_ms, 1, 3600000, 10000, true),
	[LUNQ_MIN_THROTTLE] = LUNQ_UINT(min_throttle, 1, 65535, 8, true),
	[LUNQ_RMW_X] = LUNQ_UINT(rmw_x, 1, 1000, 5, true),
	/* spelt out: the kernel defines "auto" as a macro (__auto_type) */
	[LUNQ_AUTO] = { .name = "auto", .type = LUNQ_T_ENUM, .supported = true,
			.names = lunq_auto_names,
			.nr_names = ARRAY_SIZE(lunq_auto_names),
			.bad_value = "auto: value must be one of off, knee, target",
			.duplicate = "auto: given more than once",
			.unsupported = "auto: not supported by this build of dm-lunq",
			.table_only_msg = "auto: can only be set on the table line" },
	[LUNQ_TARGET_US] = LUNQ_UINT(target_us, 0, 60000000, 0, true),
	[LUNQ_AUTO_MIN] = LUNQ_UINT(auto_min, 1, 65535, 1, true),
	[LUNQ_AUTO_MAX] = LUNQ_UINT(auto_max, 1, 65535, LUNQ_AUTO_MAX_DEFAULT, true),
	/* 0: auto_max */
	[LUNQ_AUTO_START] = LUNQ_UINT(auto_start, 0, 65535, 0, true),
	[LUNQ_STATS] = LUNQ_ENUM(stats, lunq_stats_names, "on, off", true),
	[LUNQ_WCE] = LUNQ_UINT(wce, 0, 1, 0, true),
	[LUNQ_CACHE_MB] = LUNQ_UINT(cache_mb, 1, 65536, 32, true),
	[LUNQ_BUS_MBPS] = LUNQ_UINT(bus_mbps, 0, 1000000, 0, true),
	[LUNQ_QFULL_LAT_US] = LUNQ_UINT(qfull_lat_us, 0, 10000000, 0, true),
	[LUNQ_LUN_ORDER] = LUNQ_ENUM(lun_order, lunq_order_names,
				     "fifo, sptf", true),
	[LUNQ_SPINDLES] = LUNQ_UINT(spindles, 1, 64, 8, true),
	[LUNQ_STRIPE_KB] = LUNQ_UINT(stripe_kb, 4, 1048576, 64, true),
	[LUNQ_POL] = { .name = "policy", .type = LUNQ_T_ENUM, .supported = true,
		       .names = lunq_pol_names,
		       .nr_names = ARRAY_SIZE(lunq_pol_names),
		       .bad_value = "policy: value must be one of fixed, linux, sd, sd-fc, knee, target",
		       .duplicate = "policy: given more than once",
		       .unsupported = "policy: not supported by this build of dm-lunq",
		       .table_only_msg = "policy: can only be set on the table line" },
	[LUNQ_SHARE] = LUNQ_UINT(share, 1, 1000, 1, true),
	[LUNQ_SPINDLE_DEPTH] = LUNQ_UINT(spindle_depth, 1, 32, 32, true),
	[LUNQ_DESTAGE] = LUNQ_ENUM(destage, lunq_destage_names,
				   "fifo, cscan", true),
	[LUNQ_WC_HIGH] = LUNQ_UINT(wc_high, 0, 100, 0, true),
	[LUNQ_WC_LOW] = LUNQ_UINT(wc_low, 0, 100, 0, true),
	[LUNQ_RCACHE_MB] = LUNQ_UINT(rcache_mb, 0, 128, 0, true),
	[LUNQ_SEEK_CURVE] = LUNQ_ENUM(seek_curve, lunq_seek_curve_names,
				      "linear, sqrt", true),
};

void lunq_keys_init(struct lunq_keys *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < LUNQ_NR_KEYS; i++)
		p->val[i] = lunq_keys[i].def;
}

const char *lunq_key_name(enum lunq_key key)
{
	return key < LUNQ_NR_KEYS ? lunq_keys[key].name : "?";
}

bool lunq_key_supported(enum lunq_key key)
{
	return key < LUNQ_NR_KEYS && lunq_keys[key].supported;
}

bool lunq_key_table_only(enum lunq_key key)
{
	return key < LUNQ_NR_KEYS && lunq_keys[key].table_only;
}

const char *lunq_table_only_error(enum lunq_key key)
{
	return key < LUNQ_NR_KEYS ? lunq_keys[key].table_only_msg :
				    "Key can only be set on the table line";
}

#define LUNQ_GIVEN(p, k) ((p)->given & (1ULL << (k)))

const char *lunq_policy_resolve(struct lunq_keys *p, u64 seen)
{
	/* policy's values as reaction and auto say them, and back */
	static const u32 react_of[] = { 0, 1, 2, 3, 0, 0 };
	static const u32 auto_of[] = { 0, 0, 0, 0, 1, 2 };
	bool pol = seen & (1ULL << LUNQ_POL);
	bool ra = seen & ((1ULL << LUNQ_REACTION) | (1ULL << LUNQ_AUTO));
	u32 *v = p->val;

	if (pol && ra)
		return "policy: give policy:NAME, or reaction: and auto:, not both";
	if (pol) {
		v[LUNQ_REACTION] = react_of[v[LUNQ_POL]];
		v[LUNQ_AUTO] = auto_of[v[LUNQ_POL]];
	} else {
		v[LUNQ_POL] = v[LUNQ_AUTO] ? 3 + v[LUNQ_AUTO] : v[LUNQ_REACTION];
	}
	/*
	 * auto's start in the old spelling: until an auto_start word is given,
	 * auto starts from qdepth -- while auto is on, auto_start follows
	 * qdepth (shown beside it when qdepth was given); while auto is off,
	 * qdepth is the throttle alone and auto_start is left as it is.  An
	 * auto_start word, once given, is auto's start until the next one.
	 */
	if (seen & (1ULL << LUNQ_AUTO_START)) {
		p->start_said = true;
	} else if (!p->start_said && v[LUNQ_AUTO]) {
		v[LUNQ_AUTO_START] = v[LUNQ_QDEPTH];
		if (LUNQ_GIVEN(p, LUNQ_QDEPTH))
			p->given |= 1ULL << LUNQ_AUTO_START;
	}
	return NULL;
}

const char *lunq_policy_check(const struct lunq_keys *p)
{
	const u32 *v = p->val;

	if (v[LUNQ_REACTION] && !v[LUNQ_QDEPTH])
		return "reaction: needs qdepth:1 or more (the throttle it moves)";
	if (v[LUNQ_AUTO] && v[LUNQ_REACTION])
		return "auto: reacts to QUEUE FULL itself; give reaction:none with it";
	if (v[LUNQ_AUTO] == 2 /* target */ && !v[LUNQ_TARGET_US])
		return "auto: target needs target_us:N (the service p99 goal in microseconds)";
	if (v[LUNQ_AUTO_MIN] > v[LUNQ_AUTO_MAX])
		return "auto_min: must not exceed auto_max";
	if (v[LUNQ_WCE] && !v[LUNQ_MODEL])
		return "wce: the write cache models time in front of a model: give model:fixed, flash or hdd with it";
	if (v[LUNQ_LUN_ORDER] && v[LUNQ_MODEL] != 3 /* hdd */ &&
	    v[LUNQ_MODEL] != 4 /* array */)
		return "lun_order: sptf orders an hdd's command queue (an array's: each spindle's): give model:hdd or array with it";
	if (v[LUNQ_LUN_ORDER] && (!v[LUNQ_LUN_DEPTH] || v[LUNQ_LUN_DEPTH] > 256))
		return "lun_order: sptf needs lun_depth:1..256 (the drive's command queue)";
	if (v[LUNQ_RCACHE_MB] && !v[LUNQ_MODEL])
		return "rcache_mb: the read cache models time in front of a model: give model:fixed, flash, hdd or array with it";
	if (v[LUNQ_WC_LOW] > v[LUNQ_WC_HIGH])
		return "wc_low: must not exceed wc_high (destage runs from wc_high % full down to wc_low %)";
	if (v[LUNQ_BUS_MBPS] && !v[LUNQ_MODEL])
		return "bus_mbps: the bus is part of the model: give model:fixed, flash or hdd with it";
	/*
	 * stats:off times no IO on the lock-free path: what reads the
	 * times or the histograms cannot run without them
	 */
	if (v[LUNQ_STATS] && v[LUNQ_AUTO])
		return "stats: off leaves auto nothing to measure (its windows read the statistics): give auto:off with it, or stats:on";
	if (v[LUNQ_STATS] && v[LUNQ_BUBBLE_MS])
		return "stats: off times no IO, so no bubble can be seen: give bubble_ms:0 with it, or stats:on";
	if (LUNQ_GIVEN(p, LUNQ_POOL_DEPTH) && !LUNQ_GIVEN(p, LUNQ_POOL))
		return "pool_depth: needs pool:NAME";
	if (v[LUNQ_FOREIGN] && !v[LUNQ_LUN_DEPTH] && !LUNQ_GIVEN(p, LUNQ_POOL))
		return "foreign: needs lun_depth or pool (the slots other initiators hold)";
	if (v[LUNQ_FOREIGN] && !v[LUNQ_FOREIGN_PERIOD_MS] &&
	    v[LUNQ_LUN_DEPTH] && v[LUNQ_FOREIGN] >= v[LUNQ_LUN_DEPTH])
		return "foreign: must be below lun_depth unless foreign_period_ms is set (else no command ever gets a slot)";
	if (v[LUNQ_FOREIGN] && !v[LUNQ_FOREIGN_PERIOD_MS] &&
	    LUNQ_GIVEN(p, LUNQ_POOL_DEPTH) &&
	    v[LUNQ_FOREIGN] >= v[LUNQ_POOL_DEPTH])
		return "foreign: must be below pool_depth unless foreign_period_ms is set (else no command ever gets a slot)";
	return NULL;
}

/* Strict unsigned decimal: digits only, no sign, no space, fits in u32. */
static bool lunq_parse_u32(const char *s, u32 *out)
{
	u64 v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (u64)(*s - '0');
		if (v > 0xffffffffULL)
			return false;
	}
	*out = (u32)v;
	return true;
}

static bool lunq_valid_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++) {
		char c = s[n];

		if (n >= LUNQ_POOL_NAME_MAX)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return n > 0;
}

static bool lunq_parse_value(const struct lunq_keydef *d, const char *s,
			     u32 *out)
{
	unsigned int i;

	switch (d->type) {
	case LUNQ_T_UINT:
		return lunq_parse_u32(s, out) && *out >= d->min &&
		       *out <= d->max;
	case LUNQ_T_POW2:
		return lunq_parse_u32(s, out) && *out >= d->min &&
		       *out <= d->max && !(*out & (*out - 1));
	case LUNQ_T_ENUM:
		for (i = 0; i < d->nr_names; i++) {
			if (!strcmp(s, d->names[i])) {
				*out = i;
				return true;
			}
		}
		return false;
	case LUNQ_T_NAME:
		*out = 0;
		return lunq_valid_name(s);
	}
	return false;
}

enum lunq_arg_err lunq_parse_word(struct lunq_keys *p, const char *word,
				  u64 *seen, enum lunq_key *key)
{
	const char *colon = strchr(word, ':');
	const struct lunq_keydef *d;
	size_t klen;
	unsigned int i;
	u32 v;

	*key = LUNQ_NR_KEYS;
	if (!colon || colon == word)
		return LUNQ_ARG_NO_COLON;
	klen = colon - word;
	for (i = 0; i < LUNQ_NR_KEYS; i++) {
		if (strlen(lunq_keys[i].name) == klen &&
		    !memcmp(lunq_keys[i].name, word, klen))
			break;
	}
	if (i == LUNQ_NR_KEYS)
		return LUNQ_ARG_UNKNOWN_KEY;
	*key = i;
	d = &lunq_keys[i];
	if (*seen & (1ULL << i))
		return LUNQ_ARG_DUPLICATE;
	if (!lunq_parse_value(d, colon + 1, &v))
		return LUNQ_ARG_BAD_VALUE;
	if (!d->supported)
		return LUNQ_ARG_UNSUPPORTED;

	if (d->type == LUNQ_T_NAME)
		strcpy(p->pool, colon + 1);	/* length checked above */
	p->val[i] = v;
	p->given |= 1ULL << i;
	*seen |= 1ULL << i;
	return LUNQ_ARG_OK;
}

const char *lunq_arg_error(enum lunq_arg_err err, enum lunq_key key)
{
	const struct lunq_keydef *d = key < LUNQ_NR_KEYS ? &lunq_keys[key] : NULL;

	switch (err) {
	case LUNQ_ARG_OK:
		return "no error";
	case LUNQ_ARG_NO_COLON:
		return "Optional argument is not of the form key:value";
	case LUNQ_ARG_UNKNOWN_KEY:
		return "Unknown optional argument key";
	case LUNQ_ARG_BAD_VALUE:
		return d ? d->bad_value : "Invalid value";
	case LUNQ_ARG_DUPLICATE:
		return d ? d->duplicate : "Key given more than once";
	case LUNQ_ARG_UNSUPPORTED:
		return d ? d->unsupported : "Key not supported";
	}
	return "Invalid optional argument";
}

unsigned int lunq_policy_format(const struct lunq_keys *p, char *buf,
				size_t len)
{
	unsigned int i, n = 0;
	size_t pos = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < LUNQ_NR_KEYS; i++) {
		const struct lunq_keydef *d = &lunq_keys[i];
		const char *sep = pos ? " " : "";
		int w;

		if (!(p->given & (1ULL << i)))
			continue;
		if (d->type == LUNQ_T_ENUM)
			w = snprintf(buf + pos, len - pos, "%s%s:%s", sep,
				     d->name, d->names[p->val[i] < d->nr_names ?
						       p->val[i] : 0]);
		else if (d->type == LUNQ_T_NAME)
			w = snprintf(buf + pos, len - pos, "%s%s:%s", sep,
				     d->name, p->pool);
		else
			w = snprintf(buf + pos, len - pos, "%s%s:%u", sep,
				     d->name, p->val[i]);
		if (w < 0 || (size_t)w >= len - pos) {
			buf[pos] = '\0';	/* never emit half a word */
			break;
		}
		pos += w;
		n++;
	}
	return n;
}

bool lunq_key_numeric(enum lunq_key key)
{
	return lunq_keys[key].type != LUNQ_T_ENUM &&
	       lunq_keys[key].type != LUNQ_T_NAME;
}

int lunq_policy_value(const struct lunq_keys *p, enum lunq_key key,
		      char *buf, size_t len)
{
	const struct lunq_keydef *d = &lunq_keys[key];

	if (d->type == LUNQ_T_ENUM)
		return snprintf(buf, len, "%s", d->names[p->val[key] <
						      d->nr_names ?
						      p->val[key] : 0]);
	if (d->type == LUNQ_T_NAME)
		return snprintf(buf, len, "%s", p->pool);
	return snprintf(buf, len, "%u", p->val[key]);
}

int lunq_split_words(char *line, char **argv, unsigned int max)
{
	unsigned int argc = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			*p++ = '\0';
		if (!*p)
			return argc;
		if (argc == max)
			return -E2BIG;
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
	}
}
