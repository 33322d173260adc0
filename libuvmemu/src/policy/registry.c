// SPDX-License-Identifier: MIT
/* registry.c - policies by name, made from policies.def. */
#include <string.h>

#include "policy.h"

#define UVMEMU_POLICY(kind, name, ops) extern const struct uvm_##kind##_ops ops;
#include "policies.def"
#undef UVMEMU_POLICY

/* The three interfaces differ: each row keeps its ops untyped, and its help. */
static const struct entry {
	enum uvm_policy_kind kind;
	const char *name;
	const void *ops;
	const char *const *help;
} policies[] = {
#define UVMEMU_POLICY(kind_, name_, ops_) {UVM_POLICY_##kind_, name_, &ops_, &ops_.help},
#include "policies.def"
#undef UVMEMU_POLICY
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

static const char *const kind_names[] = {
    [UVM_POLICY_evict] = "evict",
    [UVM_POLICY_prefetch] = "prefetch",
    [UVM_POLICY_migrate] = "migrate",
};

const void *uvm_policy_find(enum uvm_policy_kind kind, const char *name)
{
	for (size_t i = 0; i < NPOLICIES; i++)
		if (policies[i].kind == kind && strcmp(policies[i].name, name) == 0)
			return policies[i].ops;
	return NULL;
}

const struct uvm_evict_ops *uvm_evict_find(const char *name)
{
	return uvm_policy_find(UVM_POLICY_evict, name);
}

const struct uvm_prefetch_ops *uvm_prefetch_find(const char *name)
{
	return uvm_policy_find(UVM_POLICY_prefetch, name);
}

const struct uvm_migrate_ops *uvm_migrate_find(const char *name)
{
	return uvm_policy_find(UVM_POLICY_migrate, name);
}

void uvm_policy_print_help(FILE *f)
{
	for (size_t i = 0; i < NPOLICIES; i++) {
		const struct entry *p = &policies[i];

		if (i == 0 || policies[i - 1].kind != p->kind)
			fprintf(f, "%s--%s policies:\n", i ? "\n" : "", kind_names[p->kind]);
		fprintf(f, "  %-18s %s\n", p->name, *p->help);
	}
}
