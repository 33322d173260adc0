// SPDX-License-Identifier: MIT
/*
 * migrate_pin_host.c - every managed block stays on the host and the GPU
 * reads it remotely (zero-copy), however often it is accessed.
 */
#include "policy.h"

static void *pin_create(const struct uvm_space *space, const struct uvm_config *cfg)
{
	return (void *)space; /* no state; any non-NULL handle */
}

static void pin_destroy(void *p)
{
}

static enum uvm_migrate_decision pin_decide(void *p, const struct uvm_migrate_ctx *ctx)
{
	return UVM_MAP_REMOTE;
}

const struct uvm_migrate_ops uvm_migrate_pin_host = {
    .name = "pin-host",
    .help = "every block stays on the host, read remotely (zero-copy)",
    .create = pin_create,
    .destroy = pin_destroy,
    .decide = pin_decide,
};
