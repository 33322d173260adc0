// SPDX-License-Identifier: MIT
/*
 * gmmu.c - the GMMU accessors' warp coalescing (EMUGPU_GMMU).
 *
 * A GPU's access counters count the transactions a warp's coalesced access
 * makes, not the threads in it: 32 threads loading consecutive words of one
 * 64 KB block count once, and a zero-copy load costs the link the distinct
 * 32-byte sectors the warp touched. Counting every thread met counter
 * thresholds 32 times too soon.
 *
 * emu-gpu runs a CTA's threads one after another through each thread loop,
 * so a warp's k-th access is spread over 32 consecutive iterations. Each
 * worker thread keeps a table of *sites*: for access index k of the current
 * warp, the blocks already counted and the sectors already charged. A thread
 * of the same warp at its k-th access looks up site k and counts only what is
 * new. A new warp (or a new thread loop, which a barrier separates) starts a
 * new epoch, and sites of an older epoch read as empty, so nothing is cleared
 * per warp.
 *
 * A REMOTE block's sectors cross the link in one transaction per 128-byte
 * line a warp access touches (the link's latency is paid per transaction).
 *
 * Bounds, each erring towards counting more, as uncoalesced hardware would:
 * a site remembers EMU_GMMU_WAYS blocks and EMU_GMMU_WINDOWS windows of 64
 * sectors (2 KB) - a warp's access scattered wider counts and charges the
 * rest per thread; the table grows with the accesses a thread makes in one
 * thread loop up to EMU_GMMU_MAX_SITES, beyond which accesses count per
 * thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The library serves programs built with the accessors whether or not it was
 * built with them itself. */
#ifndef EMUGPU_GMMU
#define EMUGPU_GMMU
#endif
#include "emugpu.h"
#include "executor.h"

#define EMU_GMMU_WAYS	   4
#define EMU_GMMU_WINDOWS   4
#define EMU_GMMU_MIN_SITES 64
#define EMU_GMMU_MAX_SITES 4096
#define WARP_SIZE	   32
#define SECTOR_SHIFT	   5 /* 32-byte sectors */

struct sector_window {
	uintptr_t base; /* sector number >> 6 */
	uint64_t bits;	/* sectors of the window already charged */
};

struct site {
	uint32_t epoch; /* the warp access it describes; stale if not current */
	uint8_t nblocks, nwindows;
	uint32_t block[EMU_GMMU_WAYS];
	struct sector_window window[EMU_GMMU_WINDOWS];
};

struct warp_state {
	uint32_t loops; /* thread loops begun on this worker */
	uint32_t loop;	/* the thread loop the current epoch belongs to */
	uint32_t warp;	/* warp of the current thread within it */
	uint32_t epoch; /* bumped for each new (loop, warp); 0 never used */
	uint32_t next;	/* access index of the current thread */
	uint32_t nsites;
	struct site *sites;
};

/* Initial-exec: the library is linked or preloaded, never dlopen()ed, and
 * every accessor reads this; the default model called __tls_get_addr for
 * it, an eighth of a fitting run's time in the counting build. */
static _Thread_local struct warp_state ws __attribute__((tls_model("initial-exec")));
static pthread_key_t sites_key;
static pthread_once_t sites_once = PTHREAD_ONCE_INIT;

static void free_sites(void *p)
{
	free(p);
}

static void make_key(void)
{
	/* Worker threads exit at unload; the key frees their tables then. */
	pthread_key_create(&sites_key, free_sites);
}

unsigned emu_gmmu_loop_(void)
{
	return ++ws.loops;
}

int emu_gmmu_thread_(unsigned loop, unsigned tid)
{
	uint32_t warp = tid / WARP_SIZE;

	if (loop != ws.loop || warp != ws.warp || !ws.epoch) {
		ws.loop = loop;
		ws.warp = warp;
		if (++ws.epoch == 0) {
			/* After 2^32 warps, old epochs would alias. */
			if (ws.sites)
				memset(ws.sites, 0, ws.nsites * sizeof(*ws.sites));
			ws.epoch = 1;
		}
	}
	ws.next = 0;
	return 1;
}

/* Site for access index k, grown on demand; NULL past the bound (or out of
 * memory), where the access counts per thread. */
static struct site *site_for(uint32_t k)
{
	if (k >= ws.nsites) {
		uint32_t n = ws.nsites ? ws.nsites : EMU_GMMU_MIN_SITES;
		struct site *grown;

		while (n <= k)
			n *= 2;
		if (n > EMU_GMMU_MAX_SITES)
			return NULL;
		grown = realloc(ws.sites, n * sizeof(*grown));
		if (!grown)
			return NULL;
		memset(grown + ws.nsites, 0, (n - ws.nsites) * sizeof(*grown));
		pthread_once(&sites_once, make_key);
		pthread_setspecific(sites_key, grown);
		ws.sites = grown;
		ws.nsites = n;
	}
	return &ws.sites[k];
}

/* Whether the warp access at `s` counts `block` for the first time. */
static bool first_in_block(struct site *s, uint32_t block)
{
	if (!s)
		return true;
	for (unsigned i = 0; i < s->nblocks; i++)
		if (s->block[i] == block)
			return false;
	if (s->nblocks < EMU_GMMU_WAYS)
		s->block[s->nblocks++] = block;
	return true;
}

/*
 * Whether the warp access at `s` charges `sector` for the first time; *line
 * is set when no sector of its 128-byte line was charged before either: the
 * GPU asks the link for a line's sectors in one request, so a line is one
 * transaction (one latency) whatever number of its sectors the warp needs.
 */
static bool first_in_sector(struct site *s, uintptr_t sector, bool *line)
{
	uintptr_t base = sector >> 6;
	uint64_t bit = 1ull << (sector & 63), line_bits = 0xfull << (sector & 60);

	*line = true;
	if (!s)
		return true;
	for (unsigned i = 0; i < s->nwindows; i++) {
		if (s->window[i].base != base)
			continue;
		if (s->window[i].bits & bit)
			return false;
		*line = !(s->window[i].bits & line_bits);
		s->window[i].bits |= bit;
		return true;
	}
	if (s->nwindows < EMU_GMMU_WINDOWS)
		s->window[s->nwindows++] = (struct sector_window){base, bit};
	return true;
}

/* One access counted for a block in `state`: a REMOTE block reaching the
 * notification threshold tells the runtime (once: at the count itself). */
static void count(const struct uvmemu_gmmu *g, size_t counter, uint8_t state)
{
	uint32_t old = atomic_fetch_add_explicit(&g->counters[counter], 1, memory_order_relaxed);
	uint32_t now = (old & UVMEMU_COUNTER_ACCESS_MASK) + 1;

	if (now == UVMEMU_COUNTER_HALVE_AT)
		g->halve(g->ctx);
	if ((state & UVMEMU_GMMU_REMOTE) && g->notify_at &&
	    now == atomic_load_explicit(g->notify_at, memory_order_relaxed))
		g->notify(g->ctx);
}

/* The sectors of [addr, addr + n) the warp access at `s` has not charged
 * yet, and in how many new lines they fall. */
static size_t new_sectors(struct site *s, uintptr_t addr, size_t n, unsigned *lines)
{
	size_t sectors = 0;
	bool line;

	*lines = 0;
	for (uintptr_t sec = addr >> SECTOR_SHIFT; sec <= (addr + n - 1) >> SECTOR_SHIFT; sec++) {
		if (first_in_sector(s, sec, &line)) {
			sectors++;
			*lines += line;
		}
	}
	return sectors;
}

/* A warp's first access to a block mapped on the device: one that arrives,
 * in modelled time, after what its slot's clock is known to have reached
 * asks the runtime whether the access is a fault (uvmemu_gmmu.h). */
static void check_arrival(const struct uvmemu_gmmu *g, uintptr_t addr, size_t block)
{
	uint64_t r = atomic_load_explicit(&g->arrival[block], memory_order_relaxed);
	const struct eg_worker *w;

	if (r == 0 || !(w = eg_self()) || !w->model_slot)
		return;
	/* A warp that faulted waits on a GPU: nothing later in it is late. */
	if (r > atomic_load_explicit(&w->model_slot->clock_lb, memory_order_relaxed) &&
	    !(atomic_load_explicit(&w->model_slot->attention, memory_order_relaxed) &
	      UVMEMU_ATTN_WARP))
		g->late(g->ctx, addr);
}

/* A warp access of n bytes at addr; rmw: an atomic's (a store whose sectors
 * also come back). */
static void gmmu_access(const struct uvmemu_gmmu *g, uintptr_t addr, size_t n, bool store, bool rmw)
{
	/* Counters are per 64 KB basic block, state per migration unit, which
	 * only the running library knows (uvmemu_gmmu.h). */
	size_t counter = (addr - g->dev_lo) >> UVMEMU_BASIC_SHIFT;
	size_t block = (addr - g->dev_lo) >> g->block_shift;
	struct site *s = site_for(ws.next++);
	uint8_t state;
	bool first;

	if (s && s->epoch != ws.epoch) {
		s->epoch = ws.epoch;
		s->nblocks = s->nwindows = 0;
	}
	state = atomic_load_explicit(&g->state[block], memory_order_relaxed);
	first = first_in_block(s, (uint32_t)counter);
	if (first && !g->measure_only)
		count(g, counter, state);
	if (first && g->arrival && (state & UVMEMU_GMMU_DEVICE))
		check_arrival(g, addr, block);
	/* --fault-path uvmmu: a block neither on the device nor REMOTE is
	 * brought in by the runtime from this thread, as UVMMU's GMMU does,
	 * instead of the access trapping through userfaultfd to the driver. */
	if (g->resolve && !(state & (UVMEMU_GMMU_DEVICE | UVMEMU_GMMU_REMOTE))) {
		g->resolve(g->ctx, addr, store);
		state = atomic_load_explicit(&g->state[block], memory_order_relaxed);
	}
	/* Test before setting: most stores find the bit set, and a plain load
	 * keeps the byte's cache line shared between the workers. */
	if (store && !g->measure_only && !(state & UVMEMU_GMMU_WRITTEN))
		atomic_fetch_or_explicit(&g->state[block], UVMEMU_GMMU_WRITTEN,
					 memory_order_relaxed);
	if (state & UVMEMU_GMMU_REMOTE) {
		unsigned lines;
		size_t sectors = new_sectors(s, addr, n, &lines);

		if (!sectors)
			return;
		if (rmw)
			g->remote_access(g->ctx, addr, sectors << SECTOR_SHIFT, lines, false);
		g->remote_access(g->ctx, addr, sectors << SECTOR_SHIFT, lines, store);
	}
}

const void *emu_gmmu_access_(const struct uvmemu_gmmu *g, uintptr_t addr, size_t n, bool store)
{
	gmmu_access(g, addr, n, store, false);
	return (const void *)addr;
}

void *emu_gmmu_rmw_(const struct uvmemu_gmmu *g, uintptr_t addr, size_t n)
{
	gmmu_access(g, addr, n, true, true);
	return (void *)addr;
}
