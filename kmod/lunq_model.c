// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: the family's front, see lunq_model.h.
 * Each model is in lunq_model_<name>.c, what they share in
 * lunq_model_base.c.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "lunq_model.h"

static const struct lunq_model_ops *const lunq_models[] = {
	[LUNQ_MODEL_FIXED] = &lunq_model_fixed,
	[LUNQ_MODEL_FLASH] = &lunq_model_flash,
	[LUNQ_MODEL_HDD] = &lunq_model_hdd,
};

const struct lunq_model_ops *lunq_model_ops(enum lunq_model_kind kind)
{
	return (unsigned int)kind < ARRAY_SIZE(lunq_models) ?
		lunq_models[kind] : NULL;
}

void lunq_model_init(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	lunq_model_config(m, cfg);
}

void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	m->cfg = *cfg;
	m->ops = lunq_model_ops(cfg->kind);
}
