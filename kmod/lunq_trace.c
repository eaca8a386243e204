// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq trace events (lunq_trace.h), instantiated here and only here.
 */
#define CREATE_TRACE_POINTS
#include "lunq_trace.h"
