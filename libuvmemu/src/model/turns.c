// SPDX-License-Identifier: MIT
/*
 * turns.c - the ordered schedule (--schedule model): the executor's workers
 * run kernel code one at a time, the one earliest in modelled time first.
 *
 * Why: under --schedule host the workers run side by side as the host's
 * scheduler lets them, and the real driver services their faults in that
 * order. Which faults it services together decides what the tree
 * prefetcher sees, what LRU evicts and which fault leads a vablock, so two
 * runs of one program differ by what the host did. In turns the real
 * events happen in an order the model alone decides, the order a GPU's
 * would: a CTA starts on the modelled slot free earliest, and a CTA that
 * waited for its faults goes on when its clock is the earliest.
 *
 * A turn is the right to run kernel code. It is held from a hand-out's
 * start (one CTA) to its end, or to a thread loop's end whose warps
 * faulted. There it is given to whoever is earliest: a CTA whose batches
 * ended (its clock: the later of its loop's end and its faults' completion)
 * or a new CTA on the free slot of its GPU (the slot's free time). On a tie
 * the CTA already running goes first, then the lower GPU and slot. Before
 * choosing, the batches that may be formed are formed, so that the choice
 * never depends on when the driver thread last stepped.
 *
 * Workers waiting to start a hand-out wait at their GPU's gate (a list);
 * the one given a new CTA's turn is woken alone, the others sleep on.
 * Which thread runs a CTA does not matter to the model: its slot does.
 */
#include "gpu_priv.h"

#include "abandon.h"

void uvm_turn_init(struct uvm_gpu *g, bool on)
{
	g->turn.on = on;
	g->turn.holder = -1;
	for (unsigned d = 0; d < UVMEMU_MAX_DEVICES; d++)
		g->turn.gate[d] = -1;
}

/* A candidate for the turn, ordered by time, then running before new,
 * then GPU, then slot. */
struct cand {
	uint64_t t;
	unsigned fresh, dev;
	int slot;
	struct worker *w; /* a running CTA's worker; NULL: a new CTA */
};

static bool before(const struct cand *a, const struct cand *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->fresh != b->fresh)
		return a->fresh < b->fresh;
	if (a->dev != b->dev)
		return a->dev < b->dev;
	return a->slot < b->slot;
}

/* Keeps c if it goes before *best (or nothing was kept yet). */
static void consider(struct cand *best, bool *any, const struct cand *c)
{
	if (!*any || before(c, best)) {
		*best = *c;
		*any = true;
	}
}

static void give(struct uvm_gpu *g, struct worker *w)
{
	g->turn.holder = (int32_t)w->idx;
	uvm_gpu_futex_wake(&w->wake);
}

/* The first worker waiting at GPU dev's gate, off the list (NULL: none). */
static struct worker *pop_gate(struct uvm_gpu *g, unsigned dev)
{
	int32_t i = g->turn.gate[dev];
	struct worker *w;

	if (i < 0)
		return NULL;
	w = g->w[i];
	g->turn.gate[dev] = w->next_at_gate;
	w->next_at_gate = -1;
	w->at_gate = false;
	return w;
}

void uvm_turn_choose(struct uvm_gpu *g, struct worker *taker)
{
	struct cand best = {.t = UINT64_MAX}, c;
	bool any = false;
	struct worker *w;

	if (g->turn.holder >= 0)
		return;
	for (size_t i = 0; i < g->nw; i++) {
		w = g->w[i];
		/* In turns every CTA whose batches formed waits for its turn. */
		if (w->state != W_RESUME)
			continue;
		c = (struct cand){
		    .t = w->resume_t > w->done_t ? w->resume_t : w->done_t,
		    .fresh = 0,
		    .dev = w->dev,
		    .slot = w->held,
		    .w = w,
		};
		consider(&best, &any, &c);
	}
	for (unsigned i = 0; i < g->ndev; i++) {
		const struct dev *d = &g->dev[i];
		int s = uvm_gpu_next_slot(d);

		if (s < 0)
			continue;
		c = (struct cand){.t = d->free_t[s], .fresh = 1, .dev = i, .slot = s};
		consider(&best, &any, &c);
	}
	if (!any)
		return; /* every CTA waits for a batch, or none is left */
	if (best.w) {
		give(g, best.w);
		return;
	}
	/* A new CTA: the worker asking takes it, else one at the gate; with
	 * nobody there, the first of its GPU to arrive asks again. */
	if (taker && taker->dev == best.dev)
		g->turn.holder = (int32_t)taker->idx;
	else if ((w = pop_gate(g, best.dev)))
		give(g, w);
}

bool uvm_gpu_turn_take(struct uvm_gpu *g)
{
	struct worker *w;

	if (!(w = uvm_gpu_self(g)))
		return false;
	uvm_mutex_lock(&g->lock);
	if (!g->turn.on) {
		uvm_mutex_unlock(&g->lock);
		return false;
	}
	if (g->turn.holder < 0)
		uvm_turn_choose(g, w);
	while (g->turn.holder != (int32_t)w->idx && uvm_gpu_ctas_left(&g->dev[w->dev]) &&
	       !uvm_waits_abandoned()) {
		uint32_t gen = atomic_load(&w->wake);

		if (!w->at_gate) {
			w->next_at_gate = g->turn.gate[w->dev];
			g->turn.gate[w->dev] = (int32_t)w->idx;
			w->at_gate = true;
		}
		uvm_mutex_unlock(&g->lock);
		uvm_gpu_futex_wait(&w->wake, gen);
		uvm_mutex_lock(&g->lock);
	}
	/* Gone from the gate only through pop_gate or uvm_turn_close. */
	uvm_mutex_unlock(&g->lock);
	return true;
}

void uvm_gpu_turn_pass(struct uvm_gpu *g)
{
	struct worker *w;

	if (!(w = uvm_gpu_self(g)))
		return;
	uvm_mutex_lock(&g->lock);
	if (g->turn.on && g->turn.holder == (int32_t)w->idx) {
		g->turn.holder = -1;
		uvm_turn_choose(g, NULL);
	}
	uvm_mutex_unlock(&g->lock);
}

bool uvm_gpu_turns(struct uvm_gpu *g)
{
	bool on;

	/* Under the lock: --schedule auto decides at the calibration. */
	uvm_mutex_lock(&g->lock);
	on = g->turn.on;
	uvm_mutex_unlock(&g->lock);
	return on;
}

void uvm_turn_yield(struct uvm_gpu *g, struct worker *w)
{
	if (g->turn.holder == (int32_t)w->idx) {
		g->turn.holder = -1;
		uvm_turn_choose(g, NULL);
	}
	while ((w->state != W_RESUME || g->turn.holder != (int32_t)w->idx) &&
	       !uvm_waits_abandoned()) {
		uint32_t gen = atomic_load(&w->wake);

		uvm_mutex_unlock(&g->lock);
		uvm_gpu_futex_wait(&w->wake, gen);
		uvm_mutex_lock(&g->lock);
	}
}

void uvm_turn_close(struct uvm_gpu *g, unsigned dev)
{
	struct worker *w;

	while ((w = pop_gate(g, dev)))
		uvm_gpu_futex_wake(&w->wake);
}

void uvm_turn_abandon(struct uvm_gpu *g)
{
	for (unsigned d = 0; d < UVMEMU_MAX_DEVICES; d++)
		uvm_turn_close(g, d);
	for (size_t i = 0; i < g->nw; i++)
		if (g->w[i]->state == W_WAIT || g->w[i]->state == W_RESUME)
			uvm_gpu_futex_wake(&g->w[i]->wake);
}
