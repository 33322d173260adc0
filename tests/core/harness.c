// SPDX-License-Identifier: MIT
/* harness.c - emulator instances, GPU-side threads and smaps for tests. */
#include "harness.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

void th_start(struct th_emu *t, const char *const *opts)
{
	struct uvm_config cfg;
	char err[UVM_ERRLEN];

	uvm_config_defaults(&cfg);
	/* Every test walks every residency invariant after every batch. The
	 * environment then picks the backend (CTest runs the data-integrity
	 * tests under each: UVMEMU_BACKEND), and the test's own options win. */
	uvm_config_set(&cfg, "check", "1", "test", err, sizeof(err));
	if (uvm_config_load(&cfg, environ, NULL, err, sizeof(err))) {
		fprintf(stderr, "bad test environment: %s\n", err);
		exit(1);
	}
	for (; opts && *opts; opts++) {
		char name[64];
		const char *eq = strchr(*opts, '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - *opts), *opts);
		if (uvm_config_set(&cfg, name, eq + 1, "test", err, sizeof(err))) {
			fprintf(stderr, "bad test option: %s\n", err);
			exit(1);
		}
	}
	uvm_session_init_cfg(&t->session, &cfg);
	if (uvm_emu_create(&t->e, &t->session, err, sizeof(err))) {
		printf("SKIP: cannot start the emulator here: %s\n", err);
		exit(77);
	}
}

bool th_shared_frames(const struct th_emu *t)
{
	return t->e->backend->shared_frames;
}

void th_stop(struct th_emu *t)
{
	uvm_emu_destroy(t->e);
	t->e = NULL;
}

void *th_managed(struct th_emu *t, size_t bytes)
{
	void *p = NULL;
	int rc = uvm_emu_alloc(t->e, UVM_PTR_MANAGED, bytes, &p);

	if (rc) {
		fprintf(stderr, "managed allocation of %zu bytes failed: %s\n", bytes,
			strerror(-rc));
		exit(1);
	}
	return p;
}

void *th_dev(struct th_emu *t, const void *host_ptr)
{
	struct uvmemu_view_map m;

	uvm_emu_view_map(t->e, &m);
	return uvmemu_view_to_device(&m, host_ptr);
}

void *th_dev_g(struct th_emu *t, const void *host_ptr, unsigned gpu)
{
	uint64_t off = (uintptr_t)host_ptr - t->e->arena.host;

	return (void *)uvm_dev_addr_g(&t->e->arena, gpu, off);
}

struct uvm_stats th_stats(struct th_emu *t)
{
	struct uvm_stats st;

	uvm_emu_stats(t->e, &st);
	return st;
}

struct state_read {
	const struct uvm_space *space;
	size_t block;
	uint8_t state;
};

static void read_state(void *arg)
{
	struct state_read *r = arg;

	r->state = r->space->block[r->block].state;
}

uint8_t th_block_state(struct th_emu *t, const void *host)
{
	struct state_read r = {&t->e->space,
			       ((uintptr_t)host - t->e->arena.host) >> UVM_BLOCK_SHIFT, 0};

	uvm_emu_synchronize(t->e);
	uvm_driver_call(t->e->driver, read_state, &r);
	return r.state;
}

struct par {
	void (*fn)(int, void *);
	void *arg;
	int index;
};

static void *par_main(void *p)
{
	struct par *q = p;

	q->fn(q->index, q->arg);
	return NULL;
}

void th_parallel(int n, void (*fn)(int index, void *arg), void *arg)
{
	pthread_t tid[64];
	struct par p[64];

	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		p[i] = (struct par){fn, arg, i};
		if (pthread_create(&tid[i], NULL, par_main, &p[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
}

uint64_t th_device_rss(struct th_emu *t)
{
	uintptr_t lo = t->e->arena.dev, hi = lo + t->e->arena.size;
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool inside = false;
	uint64_t total = 0;

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		uintptr_t a, b;
		uint64_t kb;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &a, &b) == 2)
			inside = a >= lo && b <= hi;
		else if (inside && sscanf(line, "Rss: %" SCNu64 " kB", &kb) == 1)
			total += kb << 10;
	}
	fclose(f);
	return total;
}
