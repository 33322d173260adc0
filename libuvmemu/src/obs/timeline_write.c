// SPDX-License-Identifier: MIT
/*
 * timeline_write.c - laying out a timeline's records and writing them as
 * Chrome trace events.
 *
 * Layout. A batch row holds stage times, not timestamps: its stages are laid
 * end to end from its start, fetch, preprocess, service (its parts inside
 * it), fault latency, throttle, late wake, replay, tracker wait, and a row
 * that would begin before the previous one ended is moved after it. Rows
 * with the same start are the passes of one servicing (--replay once): a
 * fault stall ends at the last pass's replay. Slices on a thread's track
 * must nest: a stall is clamped into the CTA it happened in (its start, the
 * batch's, can fall just before a CTA that began after the driver woke), and
 * a last pass clamps anything that still overlaps its parent, counting it.
 *
 * Modelled time. The model's clock is the real one divided by the dilation
 * D, less what the model says a GPU would not have spent: each servicing
 * pass that lasted past its modelled end (the later of its far-fault latency
 * and its last transfer's completion, both dilated) is cut at that end; the
 * rest of it, the emulator's own cost (a model overrun, a late wake, the
 * replay, the tracker wait), takes no modelled time. Everything real that
 * happened in a cut (CTAs running meanwhile, say) is squeezed into its
 * instant: the CPU shares its cores with the driver, so that time is not the
 * GPU's either. Traces written before the modelled end was recorded keep the
 * stages up to the throttle and cut only replay and tracker wait. The map is
 * monotonic, so what nests in real time nests in modelled time.
 *
 * That is --clock real's modelled time. Under --clock model the GPU's time
 * is computed, not cut out of real time: process 2 is the model's own
 * records as they are (model_*() below), and process 1 keeps the real
 * records alone (the link is booked in modelled time only, so it has no
 * link transfers).
 */
#include "timeline_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* Fixed tracks (thread ids in both processes); threads' tracks follow. */
enum { TID_DRIVER = 1, TID_H2D = 2, TID_D2H = 3, TID_THREADS = 10 };
/* Several GPUs: a track per peer link direction, from * 8 + to after this
 * (above every thread's and lane's), sorted after the CPU-GPU link's. */
#define TID_PEERS (1 << 21)
enum { PID_REAL = 1, PID_MODEL = 2 };

/* --------------------------------------------------------------- stages */

/* Stage times by name, in the order they happen in a batch; the parts of
 * service (stats.def: "part of service") are laid inside it. Stages that
 * stats.def gains later come last. */
struct stage {
	const char *name;
	size_t off; /* into struct uvm_stats's ns */
	bool part;
};

#define NS_OFF(id) offsetof(struct uvm_stats, ns.id)
static const struct stage known_stages[] = {
    {"fetch", NS_OFF(fetch), false},
    {"preprocess", NS_OFF(preprocess), false},
    {"service", NS_OFF(service), false},
    {"policy", NS_OFF(policy), true},
    {"unmap", NS_OFF(unmap), true},
    {"copy", NS_OFF(copy), true},
    {"map", NS_OFF(map), true},
    {"fault latency", NS_OFF(fault_latency), false},
    {"throttle", NS_OFF(throttle), false},
    {"late wake", NS_OFF(late_wake), false},
    {"replay", NS_OFF(replay), false},
    {"tracker wait", NS_OFF(tracker_wait), false},
    /* Parts of unmap and map (the device views' share): inside slices
     * already drawn, so neither drawn again nor summed. */
    {"gpu unmap", NS_OFF(gpu_unmap), true},
    {"gpu map", NS_OFF(gpu_map), true},
};
#define NKNOWN (sizeof(known_stages) / sizeof(known_stages[0]))

static const struct stage all_stages[] = {
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) {#id, NS_OFF(id), false},
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
};
#define NALL (sizeof(all_stages) / sizeof(all_stages[0]))

static uint64_t stage_ns(const struct uvm_stats *st, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)st + off, sizeof(v));
	return v;
}

static bool is_known(size_t off)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (known_stages[i].off == off)
			return true;
	return false;
}

/* A batch row laid out on the driver's track. */
struct placed {
	uint64_t start, end; /* after moving it behind its predecessor */
	uint64_t wake_at;    /* when its replay began: the first waiter woke */
};

static uint64_t top_level_sum(const struct uvm_stats *st, uint64_t *upto_replay)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < NKNOWN; i++) {
		if (known_stages[i].part)
			continue;
		sum += stage_ns(st, known_stages[i].off);
		if (strcmp(known_stages[i].name, "replay") == 0)
			*upto_replay = sum;
	}
	for (size_t i = 0; i < NALL; i++)
		if (!is_known(all_stages[i].off))
			sum += stage_ns(st, all_stages[i].off);
	return sum;
}

/* ---------------------------------------------------------- passes, cuts */

/* One servicing: the rows that share a start (one, unless --replay once). */
struct pass {
	uint64_t t0;	     /* the rows' start as recorded */
	uint64_t first, end; /* placed: first row's start, last row's end */
	uint64_t wake_at;    /* the last row's replay began */
	uint64_t model_end;  /* the latest recorded modelled end (0: none known) */
	uint64_t upto_model; /* older traces: the placed time up to the throttle */
};

/* A stretch of real time that takes no modelled time. */
struct cut {
	uint64_t start, end, before; /* before: cut time earlier than this one */
};

struct layout {
	struct placed *row;
	struct pass *pass;
	size_t npass;
	struct cut *cut;
	size_t ncut;
	double dilation;
};

static int make_layout(struct uvm_timeline *tl, struct layout *L)
{
	uint64_t cursor = 0;

	L->row = calloc(tl->nbatch + 1, sizeof(*L->row));
	L->pass = calloc(tl->nbatch + 1, sizeof(*L->pass));
	L->cut = calloc(tl->nbatch + 1, sizeof(*L->cut));
	if (!L->row || !L->pass || !L->cut)
		return -ENOMEM;
	L->dilation = 1;
	for (size_t i = 0; i < tl->nbatch; i++) {
		const struct uvm_tl_batch *b = &tl->batch[i];
		struct placed *p = &L->row[i];
		uint64_t upto_replay = 0, total = top_level_sum(&b->st, &upto_replay);
		struct pass *g = L->npass ? &L->pass[L->npass - 1] : NULL;
		uint64_t upto_throttle = upto_replay - b->st.ns.replay;

		p->start = b->start_ns > cursor ? b->start_ns : cursor;
		p->end = p->start + total;
		p->wake_at = p->start + upto_throttle;
		cursor = p->end;
		if (b->dilation > 0)
			L->dilation = b->dilation;
		if (!g || g->t0 != b->start_ns) {
			g = &L->pass[L->npass++];
			*g = (struct pass){.t0 = b->start_ns, .first = p->start};
		}
		g->end = p->end;
		g->wake_at = p->wake_at;
		if (b->model_end_ns > g->model_end)
			g->model_end = b->model_end_ns;
		g->upto_model = p->start + upto_throttle - g->first;
	}
	/* Cuts, in time order (passes are). */
	for (size_t i = 0; i < L->npass; i++) {
		const struct pass *g = &L->pass[i];
		uint64_t keep = g->model_end ? (g->model_end > g->t0 ? g->model_end - g->t0 : 0)
					     : g->upto_model;
		uint64_t from = g->first + keep;

		if (from < g->end) {
			struct cut *c = &L->cut[L->ncut];

			c->start = from;
			c->end = g->end;
			c->before = L->ncut ? c[-1].before + (c[-1].end - c[-1].start) : 0;
			L->ncut++;
		}
	}
	return 0;
}

static void free_layout(struct layout *L)
{
	free(L->row);
	free(L->pass);
	free(L->cut);
}

/* Real time to modelled time (both ns since the run began). */
static uint64_t modelled(const struct layout *L, uint64_t t)
{
	size_t lo = 0, hi = L->ncut;
	uint64_t cut;

	/* The last cut starting at or before t. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (L->cut[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0) {
		cut = 0;
	} else {
		const struct cut *c = &L->cut[lo - 1];

		cut = c->before + (t < c->end ? t - c->start : c->end - c->start);
	}
	return (uint64_t)((double)(t - cut) / L->dilation);
}

/* The pass whose rows started at t0, or NULL. */
static const struct pass *pass_at(const struct layout *L, uint64_t t0)
{
	size_t lo = 0, hi = L->npass;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (L->pass[mid].t0 < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < L->npass && L->pass[lo].t0 == t0 ? &L->pass[lo] : NULL;
}

/* --------------------------------------------------------- thread tracks */

static int by_track_start(const void *pa, const void *pb)
{
	const struct tl_slice *a = pa, *b = pb;

	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	/* Longer first: a parent before the children it starts with. */
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return (int)a->stall - (int)b->stall;
}

/* qsort's array may not be NULL even when empty: a run with no slices of a
 * kind leaves its array unallocated. */
static void sort_slices(struct tl_slice *s, size_t n)
{
	if (n)
		qsort(s, n, sizeof(*s), by_track_start);
}

/* Overlap of two slices (0 when apart). */
static uint64_t overlap(const struct tl_slice *a, const struct tl_slice *b)
{
	uint64_t s = a->start > b->start ? a->start : b->start;
	uint64_t e = a->end < b->end ? a->end : b->end;

	return e > s ? e - s : 0;
}

/*
 * Stalls get their end (their pass's replay), stalls of a fault deferred or
 * throttled in one pass and serviced in a later one become one (the thread
 * slept through both), and each is clamped into the CTA it overlaps most.
 * Leaves the slices sorted by track and start.
 */
static void settle_stalls(struct uvm_timeline *tl, const struct layout *L, uint64_t *clamped)
{
	size_t n = 0, prev = SIZE_MAX;

	for (size_t i = 0; i < tl->nslice; i++) {
		struct tl_slice *s = &tl->slice[i];
		const struct pass *g;

		if (s->stall) {
			g = pass_at(L, s->start);
			if (!g) { /* its batch row was dropped */
				tl->dropped[TL_THREAD]++;
				continue;
			}
			s->start = g->first;
			s->end = g->wake_at;
		}
		tl->slice[n++] = *s;
	}
	tl->nslice = n;
	sort_slices(tl->slice, n);
	n = 0;
	for (size_t i = 0; i < tl->nslice; i++) {
		struct tl_slice *s = &tl->slice[i];

		if (prev != SIZE_MAX && tl->slice[prev].track != s->track)
			prev = SIZE_MAX;
		if (s->stall && prev != SIZE_MAX && tl->slice[prev].end <= s->start &&
		    (tl->slice[prev].outcome == UVM_OUT_DEFERRED ||
		     tl->slice[prev].outcome == UVM_OUT_THROTTLED)) {
			tl->slice[prev].end = s->end;
			tl->slice[prev].outcome = s->outcome;
			tl->slice[prev].merged++;
			continue;
		}
		if (s->stall)
			prev = n;
		tl->slice[n++] = *s;
	}
	tl->nslice = n;
	for (size_t i = 0; i < n; i++) {
		struct tl_slice *s = &tl->slice[i];
		const struct tl_slice *cta = NULL, *c;

		if (!s->stall)
			continue;
		/* The CTAs just before and just after it on its track. */
		for (size_t j = i; j-- > 0 && tl->slice[j].track == s->track;)
			if (!tl->slice[j].stall) {
				cta = &tl->slice[j];
				break;
			}
		for (size_t j = i + 1; j < n && tl->slice[j].track == s->track; j++)
			if (!(c = &tl->slice[j])->stall) {
				if (!cta || overlap(c, s) > overlap(cta, s))
					cta = c;
				break;
			}
		if (!cta || !overlap(cta, s) || (s->start >= cta->start && s->end <= cta->end))
			continue;
		(*clamped)++;
		if (s->start < cta->start)
			s->start = cta->start;
		if (s->end > cta->end)
			s->end = cta->end;
	}
	sort_slices(tl->slice, n);
}

/*
 * The last pass over one track's slices, sorted by start: a slice that
 * begins inside another and would end after it ends with it instead.
 */
static void nest(struct tl_slice *s, size_t n, uint64_t *clamped)
{
	size_t stack[64];
	size_t depth = 0;

	for (size_t i = 0; i < n; i++) {
		while (depth && s[stack[depth - 1]].end <= s[i].start)
			depth--;
		if (depth && s[i].end > s[stack[depth - 1]].end) {
			s[i].end = s[stack[depth - 1]].end;
			(*clamped)++;
		}
		if (depth < sizeof(stack) / sizeof(stack[0]))
			stack[depth++] = i;
	}
}

/* ------------------------------------------------------------- writing */

struct out {
	FILE *f;
	int pid;
	bool cut; /* times are real: map them by the layout's cuts */
	const struct layout *L;
	uint64_t events;
};

static uint64_t at(const struct out *o, uint64_t t)
{
	return o->cut ? modelled(o->L, t) : t;
}

static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* Opens an event: {"ph":..,"pid":..,"tid":..,"ts":..[,"dur":..],"name":.. */
static void event(struct out *o, char ph, int tid, const char *cat, const char *name,
		  uint64_t start, uint64_t end, bool complete)
{
	uint64_t s = at(o, start), e = at(o, end);

	fprintf(o->f, ",\n{\"ph\":\"%c\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, o->pid, tid);
	put_us(o->f, s);
	if (complete) {
		fputs(",\"dur\":", o->f);
		put_us(o->f, e > s ? e - s : 0);
	}
	fprintf(o->f, ",\"cat\":\"%s\",\"name\":", cat);
	uvm_json_put_string(o->f, name);
	o->events++;
}

static void metadata(FILE *f, int pid, int tid, const char *what, const char *name, long sort)
{
	fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"ts\":0,\"name\":\"%s\",\"args\":{",
		pid, tid, what);
	if (name) {
		fputs("\"name\":", f);
		uvm_json_put_string(f, name);
	} else {
		fprintf(f, "\"sort_index\":%ld", sort);
	}
	fputs("}}", f);
}

static void counter(struct out *o, const char *name, const char *key, uint64_t t, uint64_t v)
{
	fprintf(o->f, ",\n{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"ts\":", o->pid);
	put_us(o->f, at(o, t));
	fprintf(o->f, ",\"name\":\"%s\",\"args\":{\"%s\":%" PRIu64 "}}", name, key, v);
	o->events++;
}

/* A stage's slice inside its batch. */
static void stage(struct out *o, const char *name, uint64_t from, uint64_t ns)
{
	if (!ns)
		return;
	event(o, 'X', TID_DRIVER, "stage", name, from, from + ns, true);
	fputs("}", o->f);
}

static void write_batch(struct out *o, const struct uvm_tl_batch *b, const struct placed *p)
{
	uint64_t t = p->start;

	event(o, 'X', TID_DRIVER, "driver", b->eviction ? "eviction" : "batch", p->start, p->end,
	      true);
	fprintf(o->f, ",\"args\":{\"seq\":%" PRIu64, b->seq);
#define UVMEMU_STAT(id, unit, help)                                                                \
	if (b->st.id)                                                                              \
		fprintf(o->f, ",\"" #id "\":%" PRIu64, b->st.id);
#define UVMEMU_TIME(id, help)
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	if (b->model_end_ns)
		fprintf(
		    o->f, ",\"modelled_us\":%.3f",
		    (double)(b->model_end_ns > b->start_ns ? b->model_end_ns - b->start_ns : 0) /
			1e3);
	fputs("}}", o->f);
	/* Stages end to end; service's parts from its start, within it. */
	for (size_t i = 0; i < NKNOWN; i++) {
		const struct stage *s = &known_stages[i];
		uint64_t ns = stage_ns(&b->st, s->off), u = t;

		if (s->part)
			continue;
		for (size_t j = i + 1; strcmp(s->name, "service") == 0 && j < NKNOWN; j++) {
			uint64_t part = stage_ns(&b->st, known_stages[j].off);

			if (!known_stages[j].part)
				break;
			if (part > t + ns - u)
				part = t + ns - u;
			stage(o, known_stages[j].name, u, part);
			u += part;
		}
		stage(o, s->name, t, ns);
		t += ns;
	}
	for (size_t i = 0; i < NALL; i++) {
		uint64_t ns = stage_ns(&b->st, all_stages[i].off);

		if (is_known(all_stages[i].off))
			continue;
		stage(o, all_stages[i].name, t, ns);
		t += ns;
	}
	counter(o, "faults per batch", "faults", p->start, b->st.gpu_faults + b->st.cpu_faults);
	if (b->device_bytes != UINT64_MAX)
		counter(o, "device memory in use", "bytes", p->end, b->device_bytes);
}

static void write_kernel(struct out *o, const struct tl_kernel *k, uint64_t begin, uint64_t end)
{
	/* One async track for all: launches run one after another. */
	event(o, 'b', 0, "kernel", k->name, begin, begin, false);
	fprintf(o->f,
		",\"id\":1,\"args\":{\"launch\":%" PRIu64 ",\"grid\":\"%ux%ux%u\","
		"\"block\":\"%ux%ux%u\"}}",
		k->launch, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
		k->block[2]);
	event(o, 'e', 0, "kernel", k->name, end, end, false);
	fputs(",\"id\":1}", o->f);
}

static void write_kernels(struct out *o, const struct uvm_timeline *tl)
{
	for (size_t i = 0; i < tl->nkernel; i++)
		write_kernel(o, &tl->kernel[i], tl->kernel[i].begin, tl->kernel[i].end);
}

static const char *kernel_name(const struct uvm_timeline *tl, uint64_t launch)
{
	for (size_t i = 0; i < tl->nkernel; i++)
		if (tl->kernel[i].launch == launch)
			return tl->kernel[i].name;
	return "CTA";
}

static void write_threads(struct out *o, const struct uvm_timeline *tl, const int *tids)
{
	const char *name = "CTA";
	uint64_t name_launch = UINT64_MAX;

	for (size_t i = 0; i < tl->nslice; i++) {
		const struct tl_slice *s = &tl->slice[i];
		const struct tl_track *t = &tl->track[s->track];

		if (s->stall) {
			event(o, 'X', tids[s->track], "fault", s->gpu ? "far fault" : "CPU fault",
			      s->start, s->end, true);
			fprintf(o->f, ",\"args\":{\"outcome\":\"%s\",\"page\":\"%#" PRIx64 "\"",
				uvm_fault_outcome_name((enum uvm_fault_outcome)s->outcome),
				s->launch);
			if (s->merged > 1)
				fprintf(o->f, ",\"batches\":%u", s->merged);
			fputs("}}", o->f);
			continue;
		}
		if (s->launch != name_launch) {
			name = kernel_name(tl, s->launch);
			name_launch = s->launch;
		}
		event(o, 'X', tids[s->track], "cta", name, s->start, s->end, true);
		fprintf(o->f, ",\"args\":{\"launch\":%" PRIu64 ",\"cta\":%u,\"sm\":%d}}", s->launch,
			s->cta, t->sm);
	}
}

static int peer_tid(unsigned from, unsigned to)
{
	return TID_PEERS + (int)(from * 8 + to);
}

static void write_transfer(struct out *o, const struct tl_transfer *x, uint64_t start, uint64_t end)
{
	char name[48];

	if (x->peer) {
		snprintf(name, sizeof(name), "GPU %u to GPU %u", x->from, x->to);
		event(o, 'X', peer_tid(x->from, x->to), "peer link", name, start, end, true);
	} else {
		event(o, 'X', x->dir ? TID_D2H : TID_H2D, "link",
		      x->dir ? "device to host" : "host to device", start, end, true);
	}
	fprintf(o->f, ",\"args\":{\"bytes\":%" PRIu64 "}}", x->bytes);
}

/* Names the peer link directions that transfers x[0 .. n) used. */
static void name_peer_tracks(FILE *f, int pid, const struct tl_transfer *x, size_t n)
{
	uint64_t used = 0; /* bit from * 8 + to */
	char name[64];

	for (size_t i = 0; i < n; i++)
		if (x[i].peer && x[i].from < 8 && x[i].to < 8)
			used |= 1ull << (x[i].from * 8 + x[i].to);
	for (unsigned k = 0; k < 64; k++) {
		if (!(used >> k & 1))
			continue;
		snprintf(name, sizeof(name), "peer link: GPU %u to GPU %u", k / 8, k % 8);
		metadata(f, pid, peer_tid(k / 8, k % 8), "thread_name", name, 0);
		metadata(f, pid, peer_tid(k / 8, k % 8), "thread_sort_index", NULL,
			 TID_D2H + 1 + (long)k);
	}
}

static void write_transfers(struct out *o, const struct uvm_timeline *tl)
{
	for (size_t i = 0; i < tl->nxfer; i++)
		write_transfer(o, &tl->xfer[i], tl->xfer[i].start, tl->xfer[i].end);
}

static void write_process(struct out *o, const struct uvm_timeline *tl, const struct layout *L,
			  const int *tids)
{
	for (size_t i = 0; i < tl->nbatch; i++)
		write_batch(o, &tl->batch[i], &L->row[i]);
	write_kernels(o, tl);
	write_transfers(o, tl);
	write_threads(o, tl, tids);
}

/* ---------------------------------------------- process 2, the model clock */

/* The driver's lanes: batches that overlap (UVMMU's faults, which no driver
 * orders: tens at once) take the first lane free; past the last, they nest
 * by clamping. Lanes after the first are tracks of their own, numbered far
 * above the slots' (TID_THREADS + slot) and sorted next to the driver's. */
#define NLANES	  256
#define TID_LANES (1 << 20)

static int lane_tid(uint32_t lane)
{
	return lane ? TID_LANES + (int)lane : TID_DRIVER;
}

/* The model's records laid out: slices on their tracks (launch: the
 * record's index), sorted by track and start, each track nested. */
struct model_layout {
	struct tl_slice *batch, *xfer; /* track: the lane; the direction */
	uint32_t lanes;		       /* lanes used */
};

/* Nests each track's slices (sorted by track and start). */
static void nest_tracks(struct tl_slice *s, size_t n, uint64_t *clamped)
{
	size_t from;

	for (size_t i = 0; i < n; i = from) {
		for (from = i; from < n && s[from].track == s[i].track;)
			from++;
		nest(&s[i], from - i, clamped);
	}
}

static void sort_and_nest(struct tl_slice *s, size_t n, uint64_t *clamped)
{
	sort_slices(s, n);
	nest_tracks(s, n, clamped);
}

static void model_lanes(struct model_layout *M, size_t n)
{
	uint64_t lane_end[NLANES] = {0};

	/* All on track 0 so far: sorted by start, longest first. */
	sort_slices(M->batch, n);
	for (size_t i = 0; i < n; i++) {
		struct tl_slice *s = &M->batch[i];
		uint32_t k = 0;

		while (k + 1 < NLANES && lane_end[k] > s->start)
			k++;
		s->track = k;
		if (s->end > lane_end[k])
			lane_end[k] = s->end;
		if (k + 1 > M->lanes)
			M->lanes = k + 1;
	}
}

static int model_layout(struct uvm_timeline *tl, struct model_layout *M, uint64_t *clamped)
{
	M->batch = calloc(tl->ngbatch + 1, sizeof(*M->batch));
	M->xfer = calloc(tl->ngxfer + 1, sizeof(*M->xfer));
	if (!M->batch || !M->xfer)
		return -ENOMEM;
	for (size_t i = 0; i < tl->ngbatch; i++)
		M->batch[i] = (struct tl_slice){
		    .start = tl->gbatch[i].start_ns, .end = tl->gbatch[i].end_ns, .launch = i};
	model_lanes(M, tl->ngbatch);
	sort_and_nest(M->batch, tl->ngbatch, clamped);
	for (size_t i = 0; i < tl->ngxfer; i++)
		M->xfer[i] = (struct tl_slice){
		    .start = tl->gxfer[i].start,
		    .end = tl->gxfer[i].end,
		    .launch = i,
		    .track = tl->gxfer[i].peer ? 2 + tl->gxfer[i].from * 8u + tl->gxfer[i].to
					       : tl->gxfer[i].dir != 0};
	sort_and_nest(M->xfer, tl->ngxfer, clamped);
	sort_and_nest(tl->gstall, tl->ngstall, clamped);
	return 0;
}

static void free_model_layout(struct model_layout *M)
{
	free(M->batch);
	free(M->xfer);
}

static void model_tracks(FILE *f, const struct uvm_timeline *tl, const struct model_layout *M)
{
	char name[64];

	for (uint32_t k = 0; k < M->lanes; k++) {
		if (k)
			snprintf(name, sizeof(name),
				 "driver: modelled batches overlapping (lane %u)", k + 1);
		metadata(f, PID_MODEL, lane_tid(k), "thread_name",
			 k ? name : "driver: modelled batches", 0);
		metadata(f, PID_MODEL, lane_tid(k), "thread_sort_index", NULL, TID_DRIVER);
	}
	metadata(f, PID_MODEL, TID_H2D, "thread_name", "link: host to device", 0);
	metadata(f, PID_MODEL, TID_H2D, "thread_sort_index", NULL, TID_H2D);
	metadata(f, PID_MODEL, TID_D2H, "thread_name", "link: device to host", 0);
	metadata(f, PID_MODEL, TID_D2H, "thread_sort_index", NULL, TID_D2H);
	name_peer_tracks(f, PID_MODEL, tl->gxfer, tl->ngxfer);
	for (size_t i = 0; i < tl->ngstall; i++) {
		uint32_t slot = tl->gstall[i].track;

		if (i && tl->gstall[i - 1].track == slot)
			continue;
		snprintf(name, sizeof(name), "CTA slot %u: far-fault stalls", slot);
		metadata(f, PID_MODEL, TID_THREADS + (int)slot, "thread_name", name, 0);
		metadata(f, PID_MODEL, TID_THREADS + (int)slot, "thread_sort_index", NULL,
			 100 + (long)slot);
	}
}

static void model_batches(struct out *o, const struct uvm_timeline *tl,
			  const struct model_layout *M)
{
	for (size_t i = 0; i < tl->ngbatch; i++) {
		const struct tl_slice *s = &M->batch[i];
		const struct uvm_gpu_batch *b = &tl->gbatch[s->launch];

		event(o, 'X', lane_tid(s->track), "driver", "batch", s->start, s->end, true);
		fprintf(o->f,
			",\"args\":{\"seq\":%" PRIu64 ",\"gpu\":%u,\"faults\":%" PRIu32
			",\"vablocks\":%" PRIu32 ",\"pages\":%" PRIu32 ",\"h2d_bytes\":%" PRIu64
			",\"d2h_bytes\":%" PRIu64 "}}",
			b->seq, b->gpu, b->faults, b->vablocks, b->pages, b->h2d_bytes,
			b->d2h_bytes);
		counter(o, "faults per batch", "faults", s->start, b->faults);
	}
}

/* Kernels at their modelled begin and end (those without: none). One the
 * model did not time (no slots to run on) reports an earlier kernel's
 * begin: it is shown as an instant after the one before, so the async
 * track stays ordered. */
static void model_kernels(struct out *o, const struct uvm_timeline *tl)
{
	uint64_t after = 0;

	for (size_t i = 0; i < tl->nkernel; i++) {
		const struct tl_kernel *k = &tl->kernel[i];
		uint64_t b = k->model_begin > after ? k->model_begin : after;
		uint64_t e = k->model_end > b ? k->model_end : b;

		if (!k->modelled)
			continue;
		write_kernel(o, k, b, e);
		after = e;
	}
}

static void model_process(struct out *o, const struct uvm_timeline *tl,
			  const struct model_layout *M)
{
	model_batches(o, tl, M);
	model_kernels(o, tl);
	for (size_t i = 0; i < tl->ngxfer; i++)
		write_transfer(o, &tl->gxfer[M->xfer[i].launch], M->xfer[i].start, M->xfer[i].end);
	for (size_t i = 0; i < tl->ngstall; i++) {
		const struct tl_slice *s = &tl->gstall[i];

		event(o, 'X', TID_THREADS + (int)s->track, "fault", "far-fault stall", s->start,
		      s->end, true);
		fprintf(o->f, ",\"args\":{\"slot\":%" PRIu32 "}}", s->track);
	}
}

/* Thread tracks: workers by SM, then application threads; sort indexes say so. */
static void name_tracks(FILE *f, const struct uvm_timeline *tl, int pid, const int *tids)
{
	static const struct {
		int tid;
		const char *name;
	} fixed[] = {{TID_DRIVER, "driver: batches and their stages"},
		     {TID_H2D, "link: host to device"},
		     {TID_D2H, "link: device to host"}};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		metadata(f, pid, fixed[i].tid, "thread_name", fixed[i].name, 0);
		metadata(f, pid, fixed[i].tid, "thread_sort_index", NULL, fixed[i].tid);
	}
	name_peer_tracks(f, pid, tl->xfer, tl->nxfer);
	for (size_t i = 0; i < tl->ntrack; i++) {
		const struct tl_track *t = &tl->track[i];
		char name[64];

		if (!t->shown || tids[i] < 0)
			continue;
		if (t->sm >= 0)
			snprintf(name, sizeof(name), "SM %d worker (thread %u)", t->sm, t->tid);
		else
			snprintf(name, sizeof(name), "CPU thread %u", t->tid);
		metadata(f, pid, tids[i], "thread_name", name, 0);
		metadata(f, pid, tids[i], "thread_sort_index", NULL,
			 t->sm >= 0 ? 100 + 100L * t->sm + (long)t->worker % 100
				    : 1000000L + (long)i);
	}
}

static void write_other_data(FILE *f, const struct uvm_timeline *tl, const char *source,
			     const struct layout *L, uint64_t clamped)
{
	static const char *const kinds[TL_NKINDS] = {
	    "batch", "kernel", "transfer", "thread", "gpu_batch", "gpu_transfer", "gpu_stall"};
	/* The model's kinds are there only when process 2 is made of them. */
	int nkinds = tl->model_clock ? TL_NKINDS : TL_GPU_BATCH;

	fputs("\n],\n\"otherData\":{\"source\":", f);
	uvm_json_put_string(f, source);
	fprintf(f,
		",\"dilation\":%g,\"events_per_process\":%" PRIu64 ",\"max_events\":%" PRIu64
		",\"worker_tracks\":%" PRIu64 ",\"worker_tracks_shown\":%" PRIu64
		",\"clamped_to_nest\":%" PRIu64 ",\"dropped\":{",
		L->dilation, tl->counts.events, tl->max_events, tl->counts.tracks_total,
		tl->counts.tracks_shown, clamped);
	for (int k = 0; k < nkinds; k++)
		fprintf(f, "%s\"%s\":%" PRIu64, k ? "," : "", kinds[k], tl->dropped[k]);
	if (tl->model_clock)
		fputs("},\"clock\":\"model\",\"modelled_time\":\"process 2: the model clock's own "
		      "records: modelled batches, the link's bookings, kernels' modelled begin "
		      "and end, CTA slots' far-fault stalls\"}}\n",
		      f);
	else
		fputs("},\"modelled_time\":\"process 2: real time / dilation, less the part of "
		      "each batch past its modelled end (far-fault latency or last transfer)\"}}\n",
		      f);
}

int uvm_timeline_write(struct uvm_timeline *tl, FILE *f, const char *source, char *err,
		       size_t errlen)
{
	struct layout L = {0};
	struct model_layout M = {0};
	struct out o = {.f = f, .L = &L};
	uint64_t clamped = 0, events = 0;
	int *tids = NULL;
	int next = TID_THREADS;

	if (make_layout(tl, &L) || model_layout(tl, &M, &clamped) ||
	    !(tids = malloc((tl->ntrack ? tl->ntrack : 1) * sizeof(*tids)))) {
		free_layout(&L);
		free_model_layout(&M);
		snprintf(err, errlen, "out of memory laying out the timeline");
		return -ENOMEM;
	}
	tl->written = true;
	settle_stalls(tl, &L, &clamped);
	nest_tracks(tl->slice, tl->nslice, &clamped);
	for (size_t i = 0; i < tl->ntrack; i++) {
		tids[i] = tl->track[i].shown ? next++ : -1;
		tl->counts.tracks_total += tl->track[i].sm >= 0;
		tl->counts.tracks_shown += tl->track[i].sm >= 0 && tl->track[i].shown;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
	fprintf(f,
		"{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"ts\":0,\"name\":\"process_name\","
		"\"args\":{\"name\":\"uvmemu: real time\"}}",
		PID_REAL);
	metadata(f, PID_MODEL, 0, "process_name", "uvmemu: modelled time (what the GPU would show)",
		 0);
	for (int pid = PID_REAL; pid <= PID_MODEL; pid++) {
		metadata(f, pid, 0, "process_sort_index", NULL, pid);
		o.pid = pid;
		o.events = 0;
		if (pid == PID_MODEL && tl->model_clock) {
			model_tracks(f, tl, &M);
			model_process(&o, tl, &M);
		} else {
			name_tracks(f, tl, pid, tids);
			o.cut = pid == PID_MODEL;
			write_process(&o, tl, &L, tids);
		}
		if (o.events > events)
			events = o.events;
	}
	tl->counts.events = events;
	for (int k = 0; k < TL_NKINDS; k++)
		tl->counts.dropped += tl->dropped[k];
	write_other_data(f, tl, source, &L, clamped);
	free(tids);
	free_layout(&L);
	free_model_layout(&M);
	if (ferror(f)) {
		snprintf(err, errlen, "writing the timeline: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}
