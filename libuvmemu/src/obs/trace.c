// SPDX-License-Identifier: MIT
/* trace.c - the bounded trace queue and its background writer. */
#include "trace.h"

#include <errno.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lock_order.h"
#include "space.h"
#include "timeline.h"

/* Records held at most: about 10 MB; a writer formats far faster than a
 * driver produces, so the queue fills only when the disk stalls. */
#define QUEUE_RECORDS 32768
/*
 * Producers do not wake the writer for each record: a wake-up is a system
 * call and a context switch inside the driver's timed stages (the writer
 * then contends for the lock and a core), which made traced batches slower
 * than untraced ones by a fifth (experiment 13's service). The writer looks
 * at the queues every WRITER_PERIOD_MS instead; a producer wakes it only
 * when a queue fills to a quarter (ring_put), long before records would be
 * dropped.
 */
#define WRITER_PERIOD_MS 2
/* Records the writer formats before it frees their room. */
#define CHUNK_RECORDS 1024
/* The workers' CTA records have a queue of their own (struct ring): the
 * program's hundred workers would otherwise contend for the driver's. */
#define CTA_RECORDS 16384

enum rec_type {
	REC_BATCH,
	REC_FAULT,
	REC_ACCESS,
	REC_KERNEL,
	REC_ALLOC,
	REC_CTA,
	REC_XFER,
	REC_GPU_BATCH,
	REC_GPU_STALL
};

/* The files a trace writes; F_RECORD is --record-trace's copy of the
 * accesses; F_GPU_* the model clock's records. */
enum {
	F_BATCHES,
	F_FAULTS,
	F_ACCESSES,
	F_KERNELS,
	F_ALLOCS,
	F_RECORD,
	F_GPU_BATCHES,
	F_GPU_TRANSFERS,
	F_GPU_STALLS,
	F_COUNT
};

struct rec {
	uint8_t type;
	union {
		struct {
			uint64_t seq, start_ns, model_end_ns, device_bytes;
			double dilation;
			uint8_t kind;
			struct uvm_stats st;
		} batch;
		struct uvm_trace_fault fault;
		struct {
			uint64_t launch, block, count;
			uint32_t alloc;
			bool gmmu;
			char kernel[48];
		} access;
		struct {
			uint64_t launch, begin_ns, end_ns;
			bool modelled; /* model_begin_ns, model_end_ns are known */
			uint64_t model_begin_ns, model_end_ns;
			dim3 grid, block;
			size_t shared;
			char kernel[48];
			struct uvm_trace_objs objs;
			struct uvm_reuse_launch reuse;
		} kernel;
		struct {
			uint64_t first, bytes;
			uint32_t id;
			char kind[12], name[48];
		} alloc;
		struct {
			uint64_t launch, t_ns;
			uint32_t tid, cta, sm;
			bool begin;
		} cta;
		struct {
			uint64_t bytes, start_ns, end_ns;
			int dir;
			bool peer; /* a peer link's, from GPU `from` to `to` */
			uint8_t from, to;
		} xfer;
		struct uvm_gpu_batch gpu_batch;
		struct {
			uint64_t from_ns, to_ns;
			uint32_t slot;
		} gpu_stall;
	};
};

/*
 * A queue of records: head is the next to write out, tail the next free
 * (mod cap). The records from head on are the writer's until it moves head
 * (producers stop short of it), so it formats them where they lie.
 */
struct ring {
	struct rec *q;
	size_t cap, head, tail;
	uint64_t dropped;
};

static size_t ring_used(const struct ring *r)
{
	return (r->tail + r->cap - r->head) % r->cap;
}

static bool ring_full(const struct ring *r)
{
	return (r->tail + 1) % r->cap == r->head;
}

/* Stores *rec at the tail (a full queue drops it); true when this record
 * filled the queue to a quarter: time to wake the writer. */
static bool ring_put(struct ring *r, const struct rec *rec)
{
	if (ring_full(r)) {
		r->dropped++;
		return false;
	}
	r->q[r->tail] = *rec;
	r->tail = (r->tail + 1) % r->cap;
	return ring_used(r) == r->cap / 4;
}

/* A peer link observed (--gpus): the trace and the link's pair, a < b. */
struct peer_watch {
	struct uvm_trace *t;
	uint8_t a, b;
};

struct uvm_trace {
	char dir[256];
	uint64_t start_ns;
	FILE *file[F_COUNT];

	/* The timeline: fed and written by the writer thread only. */
	struct uvm_timeline *tl;
	FILE *tl_file;
	char tl_path[512];
	struct uvm_trace_deps dep;
	_Atomic bool ctas_wanted; /* read by CTA producers without the lock */
	/* --clock model: the link's bookings are in modelled time, and the
	 * model's records make the timeline's process 2. */
	bool model_clock;
	struct peer_watch *peers; /* one per peer link observed (NULL: none) */
	size_t npeers;

	pthread_t writer;
	struct uvm_mutex lock; /* the main queue's and what follows */
	pthread_cond_t nonempty;
	pthread_cond_t drained;	   /* signalled when the writer emptied the queues */
	pthread_cond_t room;	   /* signalled when the writer freed room in main */
	unsigned room_waiters;	   /* producers of kept records waiting for it */
	struct ring main;	   /* every record but the workers' CTA records */
	struct uvm_mutex cta_lock; /* ctas' (never held with lock) */
	struct ring ctas;	   /* the workers' CTA records */
	_Atomic size_t cta_used;   /* ctas' records, read without cta_lock */
	bool closing;
	bool finish;   /* write the timeline once the queue is empty */
	bool finished; /* it is written (or there is none) */
	struct uvm_tl_counts tl_counts;
	char tl_error[640];
	uint64_t written;	   /* records */
	uint64_t rows;		   /* CSV rows among them */
};

/* ---------------------------------------------------------------- writing */

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* A uvm_now_ns() time as time since the run began. */
static uint64_t rel(const struct uvm_trace *t, uint64_t ns)
{
	return ns > t->start_ns ? ns - t->start_ns : 0;
}

static void write_batch(struct uvm_trace *t, const struct rec *r)
{
	const struct uvm_stats *st = &r->batch.st;

	fprintf(t->file[F_BATCHES], "%" PRIu64 ",%s,%.9f", r->batch.seq,
		r->batch.kind == UVM_BATCH_FAULTS ? "batch" : "eviction",
		secs(r->batch.start_ns - t->start_ns));
#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) fprintf(t->file[F_BATCHES], ",%.9f", secs(st->ns.id));
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
#define UVMEMU_STAT(id, unit, help) fprintf(t->file[F_BATCHES], ",%" PRIu64, st->id);
#define UVMEMU_TIME(id, help)
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	fprintf(t->file[F_BATCHES], ",%d,%.9f,%.17g,%" PRIu64 "\n", st->blocks_evicted > 0,
		secs(rel(t, r->batch.model_end_ns)), r->batch.dilation, r->batch.device_bytes);
}

static void write_gpu_batch(FILE *f, const struct uvm_gpu_batch *b)
{
	fprintf(f,
		"%" PRIu64 ",%.9f,%.9f,%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64
		",%u\n",
		b->seq, secs(b->start_ns), secs(b->end_ns), b->faults, b->vablocks, b->pages,
		b->h2d_bytes, b->d2h_bytes, b->gpu);
}

/* One id list of kernels.csv: space-separated, "+N" for ids left out. */
static void write_ids(FILE *f, const uint32_t *id, uint32_t n, uint32_t more)
{
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu32, i ? " " : "", id[i]);
	if (more)
		fprintf(f, "%s+%" PRIu32, n ? " " : "", more);
}

/* Writes the record's CSV row; returns whether it has one. */
static bool write_rec(struct uvm_trace *t, const struct rec *r)
{
	switch (r->type) {
	case REC_BATCH:
		write_batch(t, r);
		break;
	case REC_FAULT: {
		char launch[24] = "", gpu_id[4] = ""; /* a CPU fault's gpu_id: empty */

		if (!t->file[F_FAULTS])
			return false; /* for the timeline only */
		if (r->fault.launch != UINT64_MAX)
			snprintf(launch, sizeof(launch), "%" PRIu64, r->fault.launch);
		if (r->fault.gpu)
			snprintf(gpu_id, sizeof(gpu_id), "%u", r->fault.dev);
		fprintf(t->file[F_FAULTS],
			"%.9f,%s,%#" PRIx64 ",%" PRIu64 ",%s,%" PRIu32 ",%" PRId32 ",%s,%s,%" PRIu32
			",%s\n",
			secs(r->fault.t_ns), r->fault.gpu ? "gpu" : "cpu", r->fault.page,
			r->fault.page >> UVM_BASIC_SHIFT, r->fault.write ? "write" : "read",
			r->fault.tid, r->fault.sm, launch,
			uvm_fault_outcome_name((enum uvm_fault_outcome)r->fault.outcome),
			r->fault.count, gpu_id);
		break;
	}
	case REC_ACCESS:
		for (int i = 0; i < 2; i++) {
			FILE *f = t->file[i ? F_RECORD : F_ACCESSES];

			if (f)
				fprintf(f,
					"%" PRIu64 ",%s,%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%s\n",
					r->access.launch, r->access.kernel, r->access.alloc,
					r->access.block, r->access.count,
					r->access.gmmu ? "gmmu" : "faults");
		}
		break;
	case REC_ALLOC:
		fprintf(t->file[F_ALLOCS],
			"%" PRIu32 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n", r->alloc.id,
			r->alloc.kind, r->alloc.first,
			(uint64_t)((r->alloc.bytes + UVM_BASIC_SIZE - 1) >> UVM_BASIC_SHIFT),
			r->alloc.bytes, r->alloc.name);
		break;
	case REC_KERNEL: {
		char rate[16] = ""; /* an unknown rate (-1): empty, the CSV's null */

		if (r->kernel.reuse.rate >= 0)
			snprintf(rate, sizeof(rate), "%.4f", r->kernel.reuse.rate);
		fprintf(
		    t->file[F_KERNELS],
		    "%" PRIu64 ",%s,%u,%u,%u,%u,%u,%u,%zu,%.9f,%.9f,%" PRIu64 ",%" PRIu64 ",%s,%s,",
		    r->kernel.launch, r->kernel.kernel, r->kernel.grid.x, r->kernel.grid.y,
		    r->kernel.grid.z, r->kernel.block.x, r->kernel.block.y, r->kernel.block.z,
		    r->kernel.shared, secs(r->kernel.begin_ns - t->start_ns),
		    secs(r->kernel.end_ns - t->start_ns), r->kernel.reuse.touched,
		    r->kernel.reuse.reused, rate, uvm_reuse_source_name(r->kernel.reuse.source));
		write_ids(t->file[F_KERNELS], r->kernel.objs.id, r->kernel.objs.nargs,
			  r->kernel.objs.more_args);
		fputc(',', t->file[F_KERNELS]);
		write_ids(t->file[F_KERNELS], r->kernel.objs.id + r->kernel.objs.nargs,
			  r->kernel.objs.ndev, r->kernel.objs.more_dev);
		if (r->kernel.modelled)
			fprintf(t->file[F_KERNELS], ",%.9f,%.9f\n", secs(r->kernel.model_begin_ns),
				secs(r->kernel.model_end_ns));
		else
			fputs(",,\n", t->file[F_KERNELS]);
		break;
	}
	case REC_XFER:
		if (!t->model_clock || r->xfer.peer)
			return false; /* real and peer bookings: the timeline's alone */
		fprintf(t->file[F_GPU_TRANSFERS], "%s,%.9f,%.9f,%" PRIu64 "\n",
			r->xfer.dir ? "d2h" : "h2d", secs(r->xfer.start_ns), secs(r->xfer.end_ns),
			r->xfer.bytes);
		break;
	case REC_GPU_BATCH:
		write_gpu_batch(t->file[F_GPU_BATCHES], &r->gpu_batch);
		break;
	case REC_GPU_STALL:
		fprintf(t->file[F_GPU_STALLS], "%" PRIu32 ",%.9f,%.9f\n", r->gpu_stall.slot,
			secs(r->gpu_stall.from_ns), secs(r->gpu_stall.to_ns));
		break;
	case REC_CTA:
		return false; /* the timeline's alone */
	}
	return true;
}

/* The same record, for the timeline. */
static void feed_timeline(struct uvm_trace *t, const struct rec *r)
{
	struct uvm_tl_batch b;
	struct uvm_tl_kernel k;

	switch (r->type) {
	case REC_BATCH:
		b = (struct uvm_tl_batch){
		    .seq = r->batch.seq,
		    .eviction = r->batch.kind != UVM_BATCH_FAULTS,
		    .start_ns = rel(t, r->batch.start_ns),
		    .model_end_ns = rel(t, r->batch.model_end_ns),
		    .dilation = r->batch.dilation,
		    .device_bytes = r->batch.device_bytes,
		    .st = r->batch.st,
		};
		uvm_timeline_batch(t->tl, &b);
		break;
	case REC_FAULT:
		uvm_timeline_fault(t->tl, &r->fault);
		break;
	case REC_KERNEL:
		k = (struct uvm_tl_kernel){
		    .launch = r->kernel.launch,
		    .begin_ns = rel(t, r->kernel.begin_ns),
		    .end_ns = rel(t, r->kernel.end_ns),
		    .modelled = r->kernel.modelled,
		    .model_begin_ns = r->kernel.model_begin_ns,
		    .model_end_ns = r->kernel.model_end_ns,
		    .grid = {r->kernel.grid.x, r->kernel.grid.y, r->kernel.grid.z},
		    .block = {r->kernel.block.x, r->kernel.block.y, r->kernel.block.z},
		    .name = r->kernel.kernel,
		};
		uvm_timeline_kernel(t->tl, &k);
		break;
	case REC_CTA:
		uvm_timeline_cta(t->tl, r->cta.tid, (int)r->cta.sm, r->cta.launch, r->cta.cta,
				 r->cta.begin, rel(t, r->cta.t_ns));
		break;
	case REC_XFER:
		if (r->xfer.peer && t->model_clock)
			uvm_timeline_gpu_peer_transfer(t->tl, r->xfer.from, r->xfer.to,
						       r->xfer.bytes, r->xfer.start_ns,
						       r->xfer.end_ns);
		else if (r->xfer.peer)
			uvm_timeline_peer_transfer(t->tl, r->xfer.from, r->xfer.to, r->xfer.bytes,
						   rel(t, r->xfer.start_ns),
						   rel(t, r->xfer.end_ns));
		else if (t->model_clock)
			uvm_timeline_gpu_transfer(t->tl, r->xfer.dir, r->xfer.bytes,
						  r->xfer.start_ns, r->xfer.end_ns);
		else
			uvm_timeline_transfer(t->tl, r->xfer.dir, r->xfer.bytes,
					      rel(t, r->xfer.start_ns), rel(t, r->xfer.end_ns));
		break;
	case REC_GPU_BATCH:
		uvm_timeline_gpu_batch(t->tl, &r->gpu_batch);
		break;
	case REC_GPU_STALL:
		uvm_timeline_gpu_stall(t->tl, r->gpu_stall.slot, r->gpu_stall.from_ns,
				       r->gpu_stall.to_ns);
		break;
	default:
		break;
	}
}

/* Writes timeline.json (the writer thread, once the queue is empty). */
static void finish_timeline(struct uvm_trace *t)
{
	char err[sizeof(t->tl_path) + 128] = "";

	if (uvm_timeline_write(t->tl, t->tl_file, "run", err, sizeof(err)) == 0 &&
	    fclose(t->tl_file) != 0)
		snprintf(err, sizeof(err), "writing %s: %s", t->tl_path, strerror(errno));
	else if (*err)
		fclose(t->tl_file);
	t->tl_file = NULL;
	uvm_mutex_lock(&t->lock);
	uvm_timeline_counts(t->tl, &t->tl_counts);
	snprintf(t->tl_error, sizeof(t->tl_error), "%s", err);
	t->finished = true;
	pthread_cond_broadcast(&t->drained);
	uvm_mutex_unlock(&t->lock);
}

/* The writer's nap: until a producer's wake-up or its next look. */
static void wait_period(struct uvm_trace *t)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += WRITER_PERIOD_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	uvm_cond_timedwait(&t->nonempty, &t->lock, &until);
}

/*
 * Whether both queues are empty, read with the trace's lock held and the
 * CTA queue's not taken: the writer never waits for a worker's lock while
 * it holds the one the driver takes (a worker holding it may wait for a
 * core behind the program's other workers, and the driver would wait
 * behind both).
 */
static bool queues_empty(struct uvm_trace *t)
{
	return t->main.head == t->main.tail &&
	       atomic_load_explicit(&t->cta_used, memory_order_acquire) == 0;
}

/* Writes out up to CHUNK_RECORDS of ring r where they lie, with its lock
 * (held on entry and on return) released meanwhile: a producer (the
 * driver, inside its timed stages) never waits for records to be formatted
 * or copied out. Returns how many. */
static size_t drain(struct uvm_trace *t, struct ring *r, struct uvm_mutex *lock, uint64_t *rows)
{
	size_t from = r->head, n = ring_used(r);

	if (n > CHUNK_RECORDS)
		n = CHUNK_RECORDS;
	uvm_mutex_unlock(lock);
	for (size_t i = 0; i < n; i++) {
		const struct rec *rec = &r->q[(from + i) % r->cap];

		*rows += write_rec(t, rec);
		if (t->tl && !t->finished)
			feed_timeline(t, rec);
	}
	uvm_mutex_lock(lock);
	r->head = (from + n) % r->cap;
	return n;
}

static void *writer_main(void *arg)
{
	struct uvm_trace *t = arg;

	pthread_setname_np(pthread_self(), "uvmemu-trace");
	for (;;) {
		uint64_t rows = 0;
		size_t n;

		uvm_mutex_lock(&t->lock);
		while (queues_empty(t) && !t->closing && !(t->finish && !t->finished))
			wait_period(t);
		if (queues_empty(t) && t->finish && !t->finished) {
			uvm_mutex_unlock(&t->lock);
			finish_timeline(t);
			continue;
		}
		if (queues_empty(t) && t->closing) {
			uvm_mutex_unlock(&t->lock);
			break;
		}
		n = drain(t, &t->main, &t->lock, &rows);
		if (t->room_waiters)
			pthread_cond_broadcast(&t->room);
		uvm_mutex_unlock(&t->lock);
		uvm_mutex_lock(&t->cta_lock);
		n += drain(t, &t->ctas, &t->cta_lock, &rows);
		atomic_store_explicit(&t->cta_used, ring_used(&t->ctas), memory_order_release);
		uvm_mutex_unlock(&t->cta_lock);
		if (t->tl)
			atomic_store_explicit(&t->ctas_wanted,
					      !t->finished && uvm_timeline_wants_ctas(t->tl),
					      memory_order_relaxed);
		uvm_mutex_lock(&t->lock);
		t->written += n;
		t->rows += rows;
		if (queues_empty(t)) {
			uvm_mutex_unlock(&t->lock);
			for (int i = 0; i < F_COUNT; i++)
				if (t->file[i])
					fflush(t->file[i]);
			uvm_mutex_lock(&t->lock);
			pthread_cond_broadcast(&t->drained);
		}
		uvm_mutex_unlock(&t->lock);
	}
	return NULL;
}

/*
 * What a full main queue does with a record. An observation is dropped (and
 * counted). Data - the accesses, kernels and allocations, which `uvmemu
 * profile` and --evict opt read - waits for room: one dropped would make
 * their input wrong (a loaded machine starved the writer of a core long
 * enough to fill the queue in CI). No data record is made inside the
 * driver's timed stages (kernel ends and allocations, on the program's
 * threads), and the writer takes no lock but the trace's own, so the wait
 * always ends.
 */
enum when_full { DROP, WAIT };

static void push(struct uvm_trace *t, const struct rec *r, enum when_full full)
{
	uvm_mutex_lock(&t->lock);
	while (full == WAIT && ring_full(&t->main)) {
		t->room_waiters++;
		pthread_cond_signal(&t->nonempty);
		uvm_cond_wait(&t->room, &t->lock);
		t->room_waiters--;
	}
	if (ring_put(&t->main, r))
		pthread_cond_signal(&t->nonempty);
	uvm_mutex_unlock(&t->lock);
}

/* A worker's CTA record, on the workers' own queue. */
static void push_cta(struct uvm_trace *t, const struct rec *r)
{
	bool wake;

	uvm_mutex_lock(&t->cta_lock);
	wake = ring_put(&t->ctas, r);
	atomic_store_explicit(&t->cta_used, ring_used(&t->ctas), memory_order_release);
	uvm_mutex_unlock(&t->cta_lock);
	/* Without the trace's lock: at worst the writer sees it at its next
	 * look. */
	if (wake)
		pthread_cond_signal(&t->nonempty);
}

/* A condition whose timed waits read the monotonic clock (wait_period). */
static int init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int rc = pthread_condattr_init(&a);

	if (!rc)
		rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!rc)
		rc = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return rc;
}

/* ----------------------------------------------------------------- files */

static FILE *open_csv(const char *dir, const char *name, const char *header, char *err,
		      size_t errlen)
{
	char path[512];
	FILE *f;

	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write trace file %s: %s", path, strerror(errno));
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	fputs(header, f);
	return f;
}

static void batch_header(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "batch,kind,start_s");

#define UVMEMU_STAT(id, unit, help)
#define UVMEMU_TIME(id, help) n += (size_t)snprintf(buf + n, len - n, "," #id "_s");
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
#define UVMEMU_STAT(id, unit, help) n += (size_t)snprintf(buf + n, len - n, "," #id);
#define UVMEMU_TIME(id, help)
#include "stats.def"
#undef UVMEMU_STAT
#undef UVMEMU_TIME
	snprintf(buf + n, len - n, ",any_eviction,model_end_s,dilation,device_bytes\n");
}

static const char access_header[] = "launch,kernel,alloc,block,accesses,source\n";

/* A transfer the link booked (under the link's lock): in real time under
 * --clock real, in modelled time under --clock model (every booking is the
 * model's then). */
static void link_booked(void *ctx, enum uvm_dir dir, uint64_t bytes, uint64_t start,
			uint64_t busy_end)
{
	push(ctx,
	     &(struct rec){
		 .type = REC_XFER,
		 .xfer = {.bytes = bytes, .start_ns = start, .end_ns = busy_end, .dir = dir}},
	     DROP);
}

/* A peer link's booking: its H2D direction is a -> b, its D2H b -> a. */
static void peer_booked(void *ctx, enum uvm_dir dir, uint64_t bytes, uint64_t start,
			uint64_t busy_end)
{
	const struct peer_watch *w = ctx;

	push(w->t,
	     &(struct rec){.type = REC_XFER,
			   .xfer = {.bytes = bytes,
				    .start_ns = start,
				    .end_ns = busy_end,
				    .dir = dir,
				    .peer = true,
				    .from = dir == UVM_H2D ? w->a : w->b,
				    .to = dir == UVM_H2D ? w->b : w->a}},
	     DROP);
}

/* Several GPUs: every peer link is observed as the CPU-GPU link is (the
 * timeline's peer link tracks); without memory for it, none is. */
static void observe_peers(struct uvm_trace *t)
{
	const struct uvm_model *m = t->dep.model;
	size_t pairs = m->ngpus > 1 ? (size_t)m->ngpus * (m->ngpus - 1) / 2 : 0;

	if (!pairs || !m->peers || !(t->peers = calloc(pairs, sizeof(*t->peers))))
		return;
	for (unsigned a = 0; a < m->ngpus; a++) {
		for (unsigned b = a + 1; b < m->ngpus; b++) {
			enum uvm_dir dir;
			unsigned l = uvm_model_peer_link(m, a, b, &dir);

			t->peers[l] = (struct peer_watch){t, (uint8_t)a, (uint8_t)b};
		}
	}
	t->npeers = pairs;
	for (size_t l = 0; l < pairs; l++)
		uvm_link_observe(&m->peers[l], peer_booked, &t->peers[l]);
}

/* DIR/timeline.json is opened now, so that a file that cannot be written
 * stops the run at its start; it is written at the end. */
static int open_timeline(struct uvm_trace *t, const struct uvm_config *cfg,
			 const struct uvm_trace_deps *deps, char *err, size_t errlen)
{
	snprintf(t->tl_path, sizeof(t->tl_path), "%s/timeline.json", t->dir);
	t->tl = uvm_timeline_new((uint64_t)uvm_cfg_i(cfg, UVM_OPT_trace_events));
	if (!t->tl) {
		snprintf(err, errlen, "out of memory for the timeline");
		return -ENOMEM;
	}
	t->tl_file = fopen(t->tl_path, "w");
	if (!t->tl_file) {
		snprintf(err, errlen, "cannot write trace file %s: %s", t->tl_path,
			 strerror(errno));
		return -EIO;
	}
	if (deps)
		t->dep = *deps;
	if (t->model_clock)
		uvm_timeline_model_clock(t->tl);
	atomic_store(&t->ctas_wanted, true);
	return 0;
}

/* --clock model: the model's records, each file with its header. */
static int open_gpu_csvs(struct uvm_trace *t, const char *dir, char *err, size_t errlen)
{
	if (!(t->file[F_GPU_BATCHES] =
		  open_csv(dir, "gpu_batches.csv",
			   "batch,start_s,end_s,faults,vablocks,pages,h2d_bytes,d2h_bytes,gpu\n",
			   err, errlen)) ||
	    !(t->file[F_GPU_TRANSFERS] =
		  open_csv(dir, "gpu_transfers.csv", "dir,start_s,end_s,bytes\n", err, errlen)) ||
	    !(t->file[F_GPU_STALLS] =
		  open_csv(dir, "gpu_stalls.csv", "slot,start_s,end_s\n", err, errlen)))
		return -EIO;
	return 0;
}

int uvm_trace_open(struct uvm_trace **out, const struct uvm_config *cfg, uint64_t start_ns,
		   const struct uvm_trace_deps *deps, char *err, size_t errlen)
{
	const char *dir = uvm_cfg_s(cfg, UVM_OPT_trace),
		   *rec = uvm_cfg_s(cfg, UVM_OPT_record_trace);
	bool faults = uvm_cfg_i(cfg, UVM_OPT_trace_faults) == UVM_TRACE_FAULTS_ON;
	struct uvm_trace *t;
	char header[2048];

	*out = NULL;
	if (!*dir && !*rec) {
		if (faults) {
			snprintf(err, errlen, "--trace-faults on needs --trace DIR");
			return -EINVAL;
		}
		return 0;
	}
	t = calloc(1, sizeof(*t));
	if (!t || !(t->main.q = malloc(QUEUE_RECORDS * sizeof(*t->main.q))) ||
	    !(t->ctas.q = malloc(CTA_RECORDS * sizeof(*t->ctas.q)))) {
		if (t)
			free(t->main.q);
		free(t);
		snprintf(err, errlen, "out of memory for the trace queue");
		return -ENOMEM;
	}
	t->main.cap = QUEUE_RECORDS;
	t->ctas.cap = CTA_RECORDS;
	t->start_ns = start_ns;
	t->model_clock = uvm_cfg_i(cfg, UVM_OPT_clock) == UVM_CLOCK_MODEL;
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	if (*dir) {
		if (mkdir(dir, 0777) && errno != EEXIST) {
			snprintf(err, errlen, "--trace %s: cannot create the directory: %s", dir,
				 strerror(errno));
			goto fail;
		}
		batch_header(header, sizeof(header));
		if (!(t->file[F_BATCHES] = open_csv(dir, "batches.csv", header, err, errlen)) ||
		    !(t->file[F_KERNELS] =
			  open_csv(dir, "kernels.csv",
				   "launch,kernel,grid_x,grid_y,grid_z,block_x,block_y,"
				   "block_z,shared_bytes,begin_s,end_s,touched_blocks,"
				   "reused_blocks,reuse_rate,reuse_source,arg_allocs,dev_allocs,"
				   "model_begin_s,model_end_s\n",
				   err, errlen)) ||
		    !(t->file[F_ACCESSES] =
			  open_csv(dir, "accesses.csv", access_header, err, errlen)) ||
		    !(t->file[F_ALLOCS] =
			  open_csv(dir, "allocations.csv",
				   "alloc,kind,first_block,blocks,bytes,name\n", err, errlen)))
			goto fail;
		if (faults &&
		    !(t->file[F_FAULTS] = open_csv(dir, "faults.csv",
						   "time_s,side,page,block,access,tid,sm,launch,"
						   "outcome,count,gpu_id\n",
						   err, errlen)))
			goto fail;
		if (t->model_clock && open_gpu_csvs(t, dir, err, errlen))
			goto fail;
		if (open_timeline(t, cfg, deps, err, errlen))
			goto fail;
	} else {
		t->finished = true; /* no timeline without a directory */
	}
	if (*rec && !(t->file[F_RECORD] = open_csv(NULL, rec, access_header, err, errlen)))
		goto fail;
	uvm_mutex_init_pi(&t->lock, UVM_LOCK_TRACE);
	uvm_mutex_init(&t->cta_lock, UVM_LOCK_TRACE_CTA);
	if (init_monotonic(&t->nonempty)) {
		snprintf(err, errlen, "cannot set up the trace writer's clock");
		goto fail;
	}
	pthread_cond_init(&t->drained, NULL);
	pthread_cond_init(&t->room, NULL);
	if (pthread_create(&t->writer, NULL, writer_main, t)) {
		snprintf(err, errlen, "cannot start the trace writer");
		goto fail;
	}
	if (t->tl && t->dep.model) {
		uvm_link_observe(&t->dep.model->link, link_booked, t);
		observe_peers(t);
	}
	*out = t;
	return 0;
fail:
	for (int i = 0; i < F_COUNT; i++)
		if (t->file[i])
			fclose(t->file[i]);
	if (t->tl_file)
		fclose(t->tl_file);
	uvm_timeline_free(t->tl);
	free(t->main.q);
	free(t->ctas.q);
	free(t);
	return -EIO;
}

void uvm_trace_flush(struct uvm_trace *t)
{
	uint64_t target;

	if (!t)
		return;
	uvm_mutex_lock(&t->lock);
	/* Wait for what is queued now, not for rows added while waiting. */
	target = t->written + ring_used(&t->main) +
		 atomic_load_explicit(&t->cta_used, memory_order_acquire);
	pthread_cond_signal(&t->nonempty); /* not at its next look: now */
	while (t->written < target || !queues_empty(t))
		uvm_cond_wait(&t->drained, &t->lock);
	/* Then the timeline, from everything so far. */
	t->finish = true;
	pthread_cond_signal(&t->nonempty);
	while (!t->finished)
		uvm_cond_wait(&t->drained, &t->lock);
	uvm_mutex_unlock(&t->lock);
}

void uvm_trace_close(struct uvm_trace *t)
{
	if (!t)
		return;
	if (t->dep.model)
		uvm_link_observe(&t->dep.model->link, NULL, NULL);
	for (size_t l = 0; l < t->npeers; l++)
		uvm_link_observe(&t->dep.model->peers[l], NULL, NULL);
	uvm_trace_flush(t);
	uvm_mutex_lock(&t->lock);
	t->closing = true;
	pthread_cond_signal(&t->nonempty);
	uvm_mutex_unlock(&t->lock);
	pthread_join(t->writer, NULL);
	for (int i = 0; i < F_COUNT; i++)
		if (t->file[i])
			fclose(t->file[i]);
	uvm_mutex_destroy(&t->lock);
	uvm_mutex_destroy(&t->cta_lock);
	pthread_cond_destroy(&t->nonempty);
	pthread_cond_destroy(&t->drained);
	pthread_cond_destroy(&t->room);
	uvm_timeline_free(t->tl);
	free(t->peers);
	free(t->main.q);
	free(t->ctas.q);
	free(t);
}

/* ------------------------------------------------------------- producers */

bool uvm_trace_wants_faults(const struct uvm_trace *t)
{
	/* The timeline shows a stall per fault. */
	return t && (t->file[F_FAULTS] || t->tl);
}

bool uvm_trace_wants_ctas(const struct uvm_trace *t)
{
	return t && t->tl && atomic_load_explicit(&t->ctas_wanted, memory_order_relaxed);
}

bool uvm_trace_wants_accesses(const struct uvm_trace *t)
{
	return t && (t->file[F_ACCESSES] || t->file[F_RECORD]);
}

static void on_batch(void *p, const struct uvm_batch_event *b)
{
	struct uvm_trace *t = p;
	struct rec r = {.type = REC_BATCH};
	struct uvm_pool pool;

	r.batch.seq = b->seq;
	r.batch.start_ns = b->start_ns;
	r.batch.kind = (uint8_t)b->kind;
	r.batch.st = *b->st;
	r.batch.model_end_ns = b->model_end_ns;
	r.batch.dilation = b->dilation;
	r.batch.device_bytes = UINT64_MAX;
	if (t->dep.pool) {
		uvm_pool_snapshot(t->dep.pool, &pool);
		r.batch.device_bytes = (pool.used + pool.pinned) << UVM_BLOCK_SHIFT;
	}
	push(t, &r, DROP);
}

static void on_fault(void *p, const struct uvm_fault_event *f)
{
	struct uvm_trace *t = p;
	struct rec r = {.type = REC_FAULT};

	r.fault = (struct uvm_trace_fault){
	    .t_ns = rel(t, f->t_ns),
	    .page = f->page,
	    .launch = f->launch,
	    .tid = f->tid,
	    .sm = t->dep.workers ? (int32_t)uvm_tidmap_get(t->dep.workers, f->tid) : -1,
	    .count = f->count,
	    .gpu = f->gpu,
	    .write = f->write,
	    .outcome = f->outcome,
	    .dev = f->dev,
	};
	push(t, &r, DROP);
}

struct uvm_res_observer uvm_trace_observer(struct uvm_trace *t)
{
	return (struct uvm_res_observer){
	    .p = t,
	    .batch = t && t->file[F_BATCHES] ? on_batch : NULL,
	    .fault = uvm_trace_wants_faults(t) ? on_fault : NULL,
	};
}

static void on_gpu_batch(void *p, const struct uvm_gpu_batch *b)
{
	push(p, &(struct rec){.type = REC_GPU_BATCH, .gpu_batch = *b}, DROP);
}

static void on_gpu_stall(void *p, unsigned slot, uint64_t from, uint64_t to)
{
	push(p,
	     &(struct rec){.type = REC_GPU_STALL,
			   .gpu_stall = {.from_ns = from, .to_ns = to, .slot = slot}},
	     DROP);
}

struct uvm_gpu_observer uvm_trace_gpu_observer(struct uvm_trace *t)
{
	bool on = t && t->model_clock && t->file[F_GPU_BATCHES];

	return (struct uvm_gpu_observer){
	    .ctx = t,
	    .batch = on ? on_gpu_batch : NULL,
	    .stall = on ? on_gpu_stall : NULL,
	};
}

void uvm_trace_access(struct uvm_trace *t, uint64_t launch, const char *kernel, uint32_t alloc,
		      uint64_t block, uint64_t count, bool from_gmmu)
{
	struct rec r = {.type = REC_ACCESS};

	if (!uvm_trace_wants_accesses(t))
		return;
	r.access.launch = launch;
	r.access.block = block;
	r.access.count = count;
	r.access.alloc = alloc;
	r.access.gmmu = from_gmmu;
	snprintf(r.access.kernel, sizeof(r.access.kernel), "%s", kernel ? kernel : "");
	push(t, &r, WAIT);
}

void uvm_trace_kernel(struct uvm_trace *t, uint64_t launch, const struct uvmemu_launch *l,
		      uint64_t begin_ns, uint64_t end_ns, const struct uvm_trace_span *modelled,
		      const struct uvm_reuse_launch *reuse, const struct uvm_trace_objs *objs)
{
	struct rec r = {.type = REC_KERNEL};

	if (!t || !t->file[F_KERNELS])
		return;
	r.kernel.launch = launch;
	r.kernel.begin_ns = begin_ns;
	r.kernel.end_ns = end_ns;
	if (modelled) {
		r.kernel.modelled = true;
		r.kernel.model_begin_ns = modelled->begin_ns;
		r.kernel.model_end_ns = modelled->end_ns;
	}
	r.kernel.grid = l->grid;
	r.kernel.block = l->block;
	r.kernel.shared = l->shared_bytes;
	r.kernel.reuse = *reuse;
	snprintf(r.kernel.kernel, sizeof(r.kernel.kernel), "%s", l->kernel ? l->kernel : "");
	if (objs)
		r.kernel.objs = *objs;
	push(t, &r, WAIT);
}

void uvm_trace_allocation(struct uvm_trace *t, uint32_t id, const char *kind, uint64_t first,
			  uint64_t bytes, const char *name)
{
	struct rec r = {.type = REC_ALLOC};

	if (!t || !t->file[F_ALLOCS])
		return;
	r.alloc.id = id;
	r.alloc.first = first;
	r.alloc.bytes = bytes;
	snprintf(r.alloc.kind, sizeof(r.alloc.kind), "%s", kind);
	/* A name with a comma would break the row. */
	for (size_t i = 0; i + 1 < sizeof(r.alloc.name) && name[i]; i++)
		r.alloc.name[i] = name[i] == ',' ? ';' : name[i];
	push(t, &r, WAIT);
}

void uvm_trace_cta(struct uvm_trace *t, uint32_t tid, unsigned sm, uint64_t launch, unsigned cta,
		   bool begin, uint64_t t_ns)
{
	if (uvm_trace_wants_ctas(t))
		push_cta(t, &(struct rec){.type = REC_CTA,
					  .cta = {.launch = launch,
						  .t_ns = t_ns,
						  .tid = tid,
						  .cta = cta,
						  .sm = sm,
						  .begin = begin}});
}

bool uvm_trace_timeline(struct uvm_trace *t, struct uvm_tl_counts *out, char *why, size_t len)
{
	bool ok;

	memset(out, 0, sizeof(*out));
	if (!t || !t->tl) {
		snprintf(why, len, "no trace directory");
		return false;
	}
	uvm_mutex_lock(&t->lock);
	ok = t->finished && !*t->tl_error;
	if (ok)
		*out = t->tl_counts;
	else
		snprintf(why, len, "%s", t->finished ? t->tl_error : "not written yet");
	uvm_mutex_unlock(&t->lock);
	return ok;
}

void uvm_trace_counts(struct uvm_trace *t, uint64_t *written, uint64_t *dropped)
{
	*written = *dropped = 0;
	if (!t)
		return;
	uvm_mutex_lock(&t->lock);
	*written = t->rows;
	*dropped = t->main.dropped;
	uvm_mutex_unlock(&t->lock);
	uvm_mutex_lock(&t->cta_lock);
	*dropped += t->ctas.dropped;
	uvm_mutex_unlock(&t->cta_lock);
}

const char *uvm_trace_dir(const struct uvm_trace *t)
{
	return t ? t->dir : "";
}
