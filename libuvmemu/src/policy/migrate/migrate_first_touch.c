// SPDX-License-Identifier: MIT
/* migrate_first_touch.c - migrate every block on its first far fault. */
#include "policy.h"

static void *ft_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return (void *)space; /* no state; any non-NULL handle */
}

static void ft_destroy(void *p)
{
}

static enum uvm_migrate_decision ft_decide(void *p, const struct uvm_migrate_ctx *ctx)
{
	return UVM_MIGRATE;
}

const struct uvm_migrate_ops uvm_migrate_first_touch = {
    .name = "first-touch",
    .help = "migrate a block to the device on its first far fault (NVIDIA default)",
    .create = ft_create,
    .destroy = ft_destroy,
    .decide = ft_decide,
};
