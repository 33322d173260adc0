// SPDX-License-Identifier: MIT
/*
 * timeline.c - collecting a timeline's records within its budget.
 *
 * The budget is max_events per process, shared in fixed parts: half for the
 * driver's batches (a batch is up to 14 events), a sixteenth for kernels, an
 * eighth for link transfers, the rest for threads' CTAs and fault stalls.
 * Threads are by far the most numerous (a CTA every few microseconds), so
 * when their part is full, every other worker track is dropped whole and the
 * room reused: what is shown of a worker is all of it. Only when one worker
 * is left, or the records are application threads' CPU faults, are records
 * dropped one by one.
 *
 * Process 2 under --clock model is made of the model's records, with a
 * budget of its own in the same parts: half for modelled batches (two
 * events each), an eighth for the link's bookings, the rest, less the
 * kernels' sixteenth, for the slots' stalls.
 */
#include "timeline_int.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

struct uvm_timeline *uvm_timeline_new(uint64_t max_events)
{
	struct uvm_timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->max_events = max_events;
	tl->budget[TL_BATCH] = max_events / 2;
	tl->budget[TL_KERNEL] = max_events / 16;
	tl->budget[TL_TRANSFER] = max_events / 8;
	tl->budget[TL_THREAD] = max_events - max_events / 2 - max_events / 16 - max_events / 8;
	tl->budget[TL_GPU_BATCH] = tl->budget[TL_BATCH];
	tl->budget[TL_GPU_TRANSFER] = tl->budget[TL_TRANSFER];
	tl->budget[TL_GPU_STALL] = tl->budget[TL_THREAD];
	tl->stride = 1;
	return tl;
}

void uvm_timeline_free(struct uvm_timeline *tl)
{
	if (!tl)
		return;
	free(tl->batch);
	free(tl->kernel);
	free(tl->xfer);
	free(tl->slice);
	free(tl->gbatch);
	free(tl->gxfer);
	free(tl->gstall);
	free(tl->track);
	free(tl->hash);
	free(tl);
}

/* Takes n events of kind k from the budget, or counts the record dropped. */
static bool take(struct uvm_timeline *tl, enum tl_kind k, uint64_t n)
{
	if (tl->written || tl->used[k] + n > tl->budget[k]) {
		tl->dropped[k]++;
		return false;
	}
	tl->used[k] += n;
	return true;
}

/* Takes the budget and room for one more element of arr (n of them): the
 * array, grown or not, or NULL with the record counted dropped. */
static void *room(struct uvm_timeline *tl, enum tl_kind k, uint64_t events, void *arr, size_t *cap,
		  size_t n, size_t elem)
{
	void *v;

	if (!take(tl, k, events))
		return NULL;
	v = uvm_grow(arr, cap, n, elem, 256);
	if (!v) {
		tl->used[k] -= events;
		tl->dropped[k]++;
	}
	return v;
}

uint64_t tl_batch_events(const struct uvm_tl_batch *b)
{
	uint64_t n = 3; /* the batch's slice and two counters */

#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) n += b->st.ns.id != 0;
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	return n;
}

void uvm_timeline_batch(struct uvm_timeline *tl, const struct uvm_tl_batch *b)
{
	struct uvm_tl_batch *v = room(tl, TL_BATCH, tl_batch_events(b), tl->batch, &tl->capbatch,
				      tl->nbatch, sizeof(*v));

	if (!v)
		return;
	tl->batch = v;
	tl->batch[tl->nbatch++] = *b;
}

void uvm_timeline_kernel(struct uvm_timeline *tl, const struct uvm_tl_kernel *k)
{
	struct tl_kernel *v =
	    room(tl, TL_KERNEL, 2, tl->kernel, &tl->capkernel, tl->nkernel, sizeof(*v));

	if (!v)
		return;
	tl->kernel = v;
	v = &tl->kernel[tl->nkernel++];
	*v = (struct tl_kernel){.launch = k->launch,
				.begin = k->begin_ns,
				.end = k->end_ns,
				.modelled = k->modelled,
				.model_begin = k->model_begin_ns,
				.model_end = k->model_end_ns};
	memcpy(v->grid, k->grid, sizeof(v->grid));
	memcpy(v->block, k->block, sizeof(v->block));
	snprintf(v->name, sizeof(v->name), "%s", k->name ? k->name : "");
}

void uvm_timeline_transfer(struct uvm_timeline *tl, int dir, uint64_t bytes, uint64_t start_ns,
			   uint64_t end_ns)
{
	struct tl_transfer *v =
	    room(tl, TL_TRANSFER, 1, tl->xfer, &tl->capxfer, tl->nxfer, sizeof(*v));

	if (!v)
		return;
	tl->xfer = v;
	tl->xfer[tl->nxfer++] =
	    (struct tl_transfer){.start = start_ns, .end = end_ns, .bytes = bytes, .dir = dir};
}

/* A peer link's booking, among the transfers of kind k (v, n, cap). */
static void peer_transfer(struct uvm_timeline *tl, enum tl_kind k, struct tl_transfer **v,
			  size_t *n, size_t *cap, const struct tl_transfer *x)
{
	struct tl_transfer *grown = room(tl, k, 1, *v, cap, *n, sizeof(*grown));

	if (!grown)
		return;
	*v = grown;
	(*v)[(*n)++] = *x;
}

/* A peer link's booking from GPU `from` to GPU `to`. */
static struct tl_transfer peer_record(unsigned from, unsigned to, uint64_t bytes, uint64_t start_ns,
				      uint64_t end_ns)
{
	return (struct tl_transfer){.start = start_ns,
				    .end = end_ns,
				    .bytes = bytes,
				    .peer = true,
				    .from = (uint8_t)from,
				    .to = (uint8_t)to};
}

void uvm_timeline_peer_transfer(struct uvm_timeline *tl, unsigned from, unsigned to, uint64_t bytes,
				uint64_t start_ns, uint64_t end_ns)
{
	struct tl_transfer x = peer_record(from, to, bytes, start_ns, end_ns);

	peer_transfer(tl, TL_TRANSFER, &tl->xfer, &tl->nxfer, &tl->capxfer, &x);
}

/* ------------------------------------------------------- the model's records */

void uvm_timeline_model_clock(struct uvm_timeline *tl)
{
	tl->model_clock = true;
}

void uvm_timeline_gpu_batch(struct uvm_timeline *tl, const struct uvm_gpu_batch *b)
{
	/* Its slice and its faults-per-batch counter. */
	struct uvm_gpu_batch *v =
	    room(tl, TL_GPU_BATCH, 2, tl->gbatch, &tl->capgbatch, tl->ngbatch, sizeof(*v));

	if (!v)
		return;
	tl->gbatch = v;
	tl->gbatch[tl->ngbatch++] = *b;
}

void uvm_timeline_gpu_transfer(struct uvm_timeline *tl, int dir, uint64_t bytes, uint64_t start_ns,
			       uint64_t end_ns)
{
	struct tl_transfer *v =
	    room(tl, TL_GPU_TRANSFER, 1, tl->gxfer, &tl->capgxfer, tl->ngxfer, sizeof(*v));

	if (!v)
		return;
	tl->gxfer = v;
	tl->gxfer[tl->ngxfer++] =
	    (struct tl_transfer){.start = start_ns, .end = end_ns, .bytes = bytes, .dir = dir};
}

void uvm_timeline_gpu_peer_transfer(struct uvm_timeline *tl, unsigned from, unsigned to,
				    uint64_t bytes, uint64_t start_ns, uint64_t end_ns)
{
	struct tl_transfer x = peer_record(from, to, bytes, start_ns, end_ns);

	peer_transfer(tl, TL_GPU_TRANSFER, &tl->gxfer, &tl->ngxfer, &tl->capgxfer, &x);
}

void uvm_timeline_gpu_stall(struct uvm_timeline *tl, unsigned slot, uint64_t from_ns,
			    uint64_t to_ns)
{
	struct tl_slice *v =
	    room(tl, TL_GPU_STALL, 1, tl->gstall, &tl->capgstall, tl->ngstall, sizeof(*v));

	if (!v)
		return;
	tl->gstall = v;
	tl->gstall[tl->ngstall++] =
	    (struct tl_slice){.start = from_ns, .end = to_ns, .track = slot, .stall = 1};
}

/* ------------------------------------------------------------ thread tracks */

static size_t slot_of(uint32_t tid, size_t cap)
{
	return (tid * 2654435761u) & (cap - 1);
}

static int rehash(struct uvm_timeline *tl, size_t cap)
{
	uint32_t *h = calloc(cap, sizeof(*h));

	if (!h)
		return -1;
	for (size_t i = 0; i < tl->ntrack; i++) {
		size_t k = slot_of(tl->track[i].tid, cap);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = (uint32_t)i + 1;
	}
	free(tl->hash);
	tl->hash = h;
	tl->hashcap = cap;
	return 0;
}

/* The track of thread tid (created on first sight), or NULL without memory.
 * sm >= 0 makes it a worker's, whichever record names the SM first. */
static struct tl_track *track_of(struct uvm_timeline *tl, uint32_t tid, int sm)
{
	struct tl_track *t, *v;
	size_t k;

	if (tl->hashcap) {
		for (k = slot_of(tid, tl->hashcap); tl->hash[k]; k = (k + 1) & (tl->hashcap - 1)) {
			t = &tl->track[tl->hash[k] - 1];
			if (t->tid != tid)
				continue;
			if (t->sm < 0 && sm >= 0) {
				t->sm = sm;
				t->worker = tl->nworkers++;
				t->shown = t->worker % tl->stride == 0;
			}
			return t;
		}
	}
	if (2 * (tl->ntrack + 1) > tl->hashcap && rehash(tl, tl->hashcap ? 2 * tl->hashcap : 256))
		return NULL;
	v = uvm_grow(tl->track, &tl->captrack, tl->ntrack, sizeof(*v), 64);
	if (!v)
		return NULL;
	tl->track = v;
	t = &tl->track[tl->ntrack];
	*t = (struct tl_track){.tid = tid, .sm = sm, .shown = true};
	if (sm >= 0) {
		t->worker = tl->nworkers++;
		t->shown = t->worker % tl->stride == 0;
	}
	for (k = slot_of(tid, tl->hashcap); tl->hash[k]; k = (k + 1) & (tl->hashcap - 1))
		;
	tl->hash[k] = (uint32_t)++tl->ntrack;
	return t;
}

/* Drops every other shown worker track, whole; false when one is left. */
static bool thin(struct uvm_timeline *tl)
{
	size_t kept = 0;

	if (tl->stride >= tl->nworkers)
		return false;
	tl->stride *= 2;
	for (size_t i = 0; i < tl->ntrack; i++) {
		struct tl_track *t = &tl->track[i];

		if (t->sm >= 0)
			t->shown = t->worker % tl->stride == 0;
	}
	for (size_t i = 0; i < tl->nslice; i++) {
		if (tl->track[tl->slice[i].track].shown)
			tl->slice[kept++] = tl->slice[i];
		else
			tl->dropped[TL_THREAD]++;
	}
	tl->nslice = kept;
	tl->used[TL_THREAD] = kept;
	return true;
}

static struct tl_slice *add_slice(struct uvm_timeline *tl, struct tl_track *t)
{
	struct tl_slice *v;

	if (!t || !t->shown || tl->written) {
		tl->dropped[TL_THREAD]++;
		return NULL;
	}
	while (tl->used[TL_THREAD] + 1 > tl->budget[TL_THREAD])
		if (!thin(tl) || !t->shown) {
			tl->dropped[TL_THREAD]++;
			return NULL;
		}
	v = uvm_grow(tl->slice, &tl->capslice, tl->nslice, sizeof(*v), 1024);
	if (!v) {
		tl->dropped[TL_THREAD]++;
		return NULL;
	}
	tl->slice = v;
	tl->used[TL_THREAD]++;
	v = &tl->slice[tl->nslice++];
	*v = (struct tl_slice){.track = (uint32_t)(t - tl->track)};
	return v;
}

void uvm_timeline_cta(struct uvm_timeline *tl, uint32_t tid, int sm, uint64_t launch, uint32_t cta,
		      bool begin, uint64_t t_ns)
{
	struct tl_track *t = track_of(tl, tid, sm);
	struct tl_slice *s;

	if (begin) {
		if (t) {
			t->open = true;
			t->open_begin = t_ns;
			t->open_launch = launch;
			t->open_cta = cta;
		}
		return;
	}
	/* An end without its begin (dropped by a full trace queue) shows nothing. */
	if (!t || !t->open || t->open_launch != launch || t->open_cta != cta) {
		tl->dropped[TL_THREAD]++;
		return;
	}
	t->open = false;
	s = add_slice(tl, t);
	if (!s)
		return;
	s->start = t->open_begin;
	s->end = t_ns;
	s->launch = launch;
	s->cta = cta;
}

void uvm_timeline_fault(struct uvm_timeline *tl, const struct uvm_trace_fault *f)
{
	struct tl_slice *s;

	/* A prefetched block is not a fault: nobody waited for it. */
	if (f->outcome == UVM_OUT_PREFETCHED || f->tid == 0)
		return;
	s = add_slice(tl, track_of(tl, f->tid, f->gpu ? f->sm : -1));
	if (!s)
		return;
	s->stall = 1;
	s->start = f->t_ns; /* the batch's start; its end is the batch's replay */
	s->launch = f->page;
	s->outcome = f->outcome;
	s->gpu = f->gpu;
	s->merged = 1;
}

bool uvm_timeline_wants_ctas(const struct uvm_timeline *tl)
{
	return tl && !tl->written &&
	       (tl->used[TL_THREAD] < tl->budget[TL_THREAD] || tl->stride < tl->nworkers);
}

void uvm_timeline_counts(const struct uvm_timeline *tl, struct uvm_tl_counts *out)
{
	*out = tl->counts;
	if (!tl->written) {
		out->dropped = 0;
		for (int k = 0; k < TL_NKINDS; k++)
			out->dropped += tl->dropped[k];
	}
}
