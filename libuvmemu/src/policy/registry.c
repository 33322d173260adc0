// SPDX-License-Identifier: MIT
/* registry.c - policies by name. Adding a policy: one file, one line here,
 * and its name in the option's choices (options.def). */
#include <string.h>

#include "policy.h"

extern const struct uvm_evict_ops uvm_evict_lru2m;
extern const struct uvm_evict_ops uvm_evict_random;
extern const struct uvm_evict_ops uvm_evict_lru64k;
extern const struct uvm_evict_ops uvm_evict_tree;
extern const struct uvm_evict_ops uvm_evict_lfu;
extern const struct uvm_evict_ops uvm_evict_reverse;
extern const struct uvm_evict_ops uvm_evict_cpc;
extern const struct uvm_evict_ops uvm_evict_opt;
extern const struct uvm_prefetch_ops uvm_prefetch_none;
extern const struct uvm_prefetch_ops uvm_prefetch_seq64k;
extern const struct uvm_prefetch_ops uvm_prefetch_tree;
extern const struct uvm_prefetch_ops uvm_prefetch_vablock;
extern const struct uvm_migrate_ops uvm_migrate_first_touch;
extern const struct uvm_migrate_ops uvm_migrate_always;
extern const struct uvm_migrate_ops uvm_migrate_oversub;
extern const struct uvm_migrate_ops uvm_migrate_adaptive;
extern const struct uvm_migrate_ops uvm_migrate_pin_host;

static const struct uvm_evict_ops *const evict_policies[] = {
    &uvm_evict_lru2m, &uvm_evict_random,  &uvm_evict_lru64k, &uvm_evict_tree,
    &uvm_evict_lfu,   &uvm_evict_reverse, &uvm_evict_cpc,    &uvm_evict_opt,
};

static const struct uvm_prefetch_ops *const prefetch_policies[] = {
    &uvm_prefetch_none,
    &uvm_prefetch_seq64k,
    &uvm_prefetch_tree,
    &uvm_prefetch_vablock,
};

static const struct uvm_migrate_ops *const migrate_policies[] = {
    &uvm_migrate_first_touch, &uvm_migrate_always,   &uvm_migrate_oversub,
    &uvm_migrate_adaptive,    &uvm_migrate_pin_host,
};

#define FIND(table, name)                                                                          \
	do {                                                                                       \
		for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)                      \
			if (strcmp(table[i]->name, name) == 0)                                     \
				return table[i];                                                   \
		return NULL;                                                                       \
	} while (0)

const struct uvm_evict_ops *uvm_evict_find(const char *name)
{
	FIND(evict_policies, name);
}

const struct uvm_prefetch_ops *uvm_prefetch_find(const char *name)
{
	FIND(prefetch_policies, name);
}

const struct uvm_migrate_ops *uvm_migrate_find(const char *name)
{
	FIND(migrate_policies, name);
}
