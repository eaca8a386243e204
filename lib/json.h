/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: the two JSON primitives every JSON output of lunqctl and
 * lunqbench is written with.  Objects and arrays are plain fprintf; what
 * needs care is here.
 */
#ifndef LIBLUNQ_JSON_H
#define LIBLUNQ_JSON_H

#include "lq.h"

/*
 * The version of every JSON document lunqctl and lunqbench print
 * (doc/json.md): "schema": LQ_JSON_SCHEMA in each top-level object.
 */
#define LQ_JSON_SCHEMA	2

/* @s as a JSON string, quotes included (control characters \uXXXX). */
void lq_json_str(FILE *f, const char *s);

/*
 * @v as a JSON number with at most 3 decimals, trailing zeros dropped
 * ("1.5", "2", "0.125"); NaN and infinities print as 0.
 */
void lq_json_num(FILE *f, double v);

#endif /* LIBLUNQ_JSON_H */
