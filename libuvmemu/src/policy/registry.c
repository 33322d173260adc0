// SPDX-License-Identifier: MIT
/* registry.c - policies by name. Adding a policy: one file, one line here,
 * and its name in the option's choices (options.def). */
#include <string.h>

#include "policy.h"

extern const struct uvm_evict_ops uvm_evict_lru2m;
extern const struct uvm_evict_ops uvm_evict_random;
extern const struct uvm_prefetch_ops uvm_prefetch_none;
extern const struct uvm_migrate_ops uvm_migrate_first_touch;

static const struct uvm_evict_ops *const evict_policies[] = {
	&uvm_evict_lru2m,
	&uvm_evict_random,
};

static const struct uvm_prefetch_ops *const prefetch_policies[] = {
	&uvm_prefetch_none,
};

static const struct uvm_migrate_ops *const migrate_policies[] = {
	&uvm_migrate_first_touch,
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
