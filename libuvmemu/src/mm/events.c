// SPDX-License-Identifier: MIT
/* events.c - the names of fault outcomes, as traces and reports spell them. */
#include "events.h"

static const char *const outcome_names[UVM_NOUTCOMES] = {
    [UVM_OUT_MIGRATED] = "migrated",   [UVM_OUT_ZERO_FILL] = "zero-fill",
    [UVM_OUT_HOST_FILL] = "host-fill", [UVM_OUT_REMOTE] = "remote",
    [UVM_OUT_STALE] = "stale",	       [UVM_OUT_DUPLICATE] = "duplicate",
    [UVM_OUT_DEFERRED] = "deferred",   [UVM_OUT_THROTTLED] = "throttled",
    [UVM_OUT_REMAPPED] = "remapped",   [UVM_OUT_FREED] = "freed",
    [UVM_OUT_READ_DUP] = "read-dup",   [UVM_OUT_PREFETCHED] = "prefetched",
    [UVM_OUT_SAMPLED] = "sampled",     [UVM_OUT_PROBED] = "probed",
    [UVM_OUT_REFRESHED] = "refreshed",
};

const char *uvm_fault_outcome_name(enum uvm_fault_outcome o)
{
	return o < UVM_NOUTCOMES && outcome_names[o] ? outcome_names[o] : "?";
}
