/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the KUnit suites of the service-time models
 * (lunq_model*_test.c): units, a model allocated per test, scripted IOs.
 */
#ifndef LUNQ_MODEL_TEST_H
#define LUNQ_MODEL_TEST_H

#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "lunq_model.h"

#define MS	1000000ULL	/* ns */
#define US	1000ULL		/* ns */
#define SEC	(1000 * MS)

/* An hdd of 10^6 sectors: a distance of 10^4 sectors is 1 % of a stroke. */
#define CAP	1000000ULL

/* 30 s / 7200 rpm, rounded down */
#define HALF_REV_7200	4166666ULL

/* struct lunq_model is 8 KiB and more: never on the stack. */
static inline int lunq_model_test_init(struct kunit *test)
{
	struct lunq_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	test->priv = m;
	return 0;
}

/*
 * A new LUN with @cfg, as a new table has it: the device context is zeroed
 * when it is allocated (lunq_core_alloc()), then lunq_apply_policy()
 * configures the model.
 */
static inline struct lunq_model *model(struct kunit *test,
				const struct lunq_model_cfg *cfg)
{
	struct lunq_model *m = test->priv;

	memset(m, 0, sizeof(*m));
	if (cfg->rcache_mb) {
		/* as lunq_model_alloc() before the keys take effect */
		m->rc.e = kunit_kcalloc(test, LUNQ_RC_ENTRIES, sizeof(*m->rc.e),
					GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m->rc.e);
	}
	lunq_model_config(m, cfg);
	return m;
}

/*
 * The LUN accepts a read of @sectors at @sector at @now, as the host side
 * hands it over (lunq_model_io(), no queue cookie): when it completes.
 */
static inline u64 model_read(struct lunq_model *m, u64 now, u64 sector,
			     u32 sectors)
{
	return lunq_model_io(m, now, sector, sectors, LUNQ_MD_READ, NULL);
}

/* One IO handed to the LUN and when it must complete. */
struct model_io {
	u64 now;
	u64 sector;
	u32 sectors;
	u64 want;
};

static inline void run_ios(struct kunit *test, struct lunq_model *m,
		    const struct model_io *io, int n)
{
	int i;

	for (i = 0; i < n; i++, io++)
		KUNIT_EXPECT_EQ_MSG(test,
				    model_read(m, io->now, io->sector,
					       io->sectors),
				    io->want, "IO %d (at %llu ns, sector %llu+%u)",
				    i, io->now, io->sector, io->sectors);
}

#endif /* LUNQ_MODEL_TEST_H */
