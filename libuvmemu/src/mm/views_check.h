/* SPDX-License-Identifier: MIT */
/*
 * views_check.h - residency against the page tables of both views
 * (--check; /proc/self/pagemap).
 */
#ifndef UVM_VIEWS_CHECK_H
#define UVM_VIEWS_CHECK_H

#include <stddef.h>

#include "arena.h"
#include "backend.h"
#include "space.h"

/* Under --check: each block's state against the page
 * tables of both views (/proc/self/pagemap). Returns 0 or -EINVAL with the
 * first disagreement in err. */
int uvm_views_check(const struct uvm_arena *a, const struct uvm_space *s,
		    const struct uvm_backend_ops *be, char *err, size_t errlen);

#endif
