// SPDX-License-Identifier: MIT
/* sim.c - the eviction tests' stand-in for the driver (see sim.h). */
#include "sim.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

void sim_config(struct sim *m, const char *const *opts)
{
	char err[UVM_ERRLEN], name[64];

	uvm_config_defaults(&m->cfg);
	for (size_t i = 0; opts && opts[i]; i++) {
		const char *eq = strchr(opts[i], '=');

		assert_non_null(eq);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - opts[i]), opts[i]);
		if (uvm_config_set(&m->cfg, name, eq + 1, "test", err, sizeof(err)))
			fail_msg("%s", err);
	}
}

void sim_start(struct sim *m, const char *name, uint64_t bytes, const char *const *opts)
{
	char err[UVM_ERRLEN] = "";

	memset(m, 0, sizeof(*m));
	assert_int_equal(uvm_space_init(&m->s, SIM_ARENA), 0);
	uvm_space_add(&m->s, 0, bytes, 1);
	sim_config(m, opts);
	m->ops = uvm_evict_find(name);
	if (!m->ops)
		fail_msg("no eviction policy named %s", name);
	m->p = m->ops->create(&m->s, &m->cfg, err, sizeof(err));
	if (!m->p)
		fail_msg("creating %s: %s", name, err);
	for (int g = 0; g < 2; g++)
		uvm_pool_init(&m->pool[g], 0, true);
	uvm_res_init(&m->r, &m->s, m->pool, &m->st);
	uvm_res_observe(&m->r, &(struct uvm_res_observer){
				   .p = m->p,
				   .resident = m->ops->resident,
				   .released = m->ops->released,
				   .touched = m->ops->touched,
				   .launch = m->ops->launch,
			       });
	/* The driver's batch sequence starts at 1; in_batch 0 means never. */
	m->batch = 1;
}

static void books_hold(struct sim *m)
{
	char err[256];

	if (uvm_res_check(&m->r, err, sizeof(err)))
		fail_msg("residency: %s", err);
}

void sim_stop(struct sim *m)
{
	m->ops->destroy(m->p);
	uvm_space_destroy(&m->s);
}

void sim_in(struct sim *m, size_t b)
{
	uvm_res_move(&m->r, b, 1, UVM_DEVICE, UVM_RES_MIGRATE);
}

void sim_in_run(struct sim *m, size_t first, size_t n)
{
	for (size_t b = first; b < first + n; b++)
		sim_in(m, b);
}

void sim_touch(struct sim *m, size_t b, bool write)
{
	assert_int_equal(m->s.block[b].state, UVM_DEVICE);
	uvm_res_touched(&m->r, b, write);
}

void sim_launch(struct sim *m)
{
	uvm_res_launch(&m->r, m->launch++);
}

size_t sim_evict(struct sim *m, const struct uvm_victim *v)
{
	size_t n = 0;

	assert_true(v->n >= 1);
	assert_true(v->first + v->n <= m->s.nblocks);
	/* uvm_op_evict works per vablock run; a victim never needs two. */
	assert_int_equal(uvm_vablock_of(v->first), uvm_vablock_of(v->first + v->n - 1));
	for (size_t b = v->first; b < v->first + v->n; b++) {
		if (m->s.block[b].state == UVM_DEVICE) {
			uvm_res_move(&m->r, b, 1, UVM_HOST, UVM_RES_EVICT);
			n++;
		}
	}
	assert_true(n > 0); /* the driver calls a victim with nothing on the device a bug */
	books_hold(m);
	return n;
}

struct uvm_evict_ctx sim_ctx(struct sim *m)
{
	return (struct uvm_evict_ctx){
	    .space = &m->s,
	    .batch = ++m->batch,
	    .launch = m->launch ? m->launch - 1 : 0,
	    .keep_vablock = SIZE_MAX,
	};
}

int sim_pick2(struct sim *m, struct uvm_evict_ctx *ctx, struct uvm_victim *v)
{
	ctx->allow_in_use = false;
	if (m->ops->pick(m->p, ctx, v) == 0)
		return 0;
	ctx->allow_in_use = true;
	return m->ops->pick(m->p, ctx, v);
}

size_t sim_on_device(const struct sim *m)
{
	size_t n = 0;

	for (size_t b = 0; b < m->s.nblocks; b++)
		n += m->s.block[b].state == UVM_DEVICE;
	return n;
}
