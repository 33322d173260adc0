/* SPDX-License-Identifier: MIT */
/* stats.h - the counters of stats.def as a struct. */
#ifndef UVM_STATS_H
#define UVM_STATS_H

#include <stdint.h>

struct uvm_stats {
#define UVMEMU_STAT(id, unit, help) uint64_t id;
#define UVMEMU_TIME(id, help)
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	struct {
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) uint64_t id;
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	} ns; /* stage times in nanoseconds */
};

/* dst += src, field by field (batch totals into run totals). */
void uvm_stats_add(struct uvm_stats *dst, const struct uvm_stats *src);

#endif
