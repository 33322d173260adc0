// SPDX-License-Identifier: MIT
/*
 * commands.c - what other threads ask of the driver thread: a queue of
 * commands it runs between batches (frees, shrinks, prefetches, advice,
 * calls), and the figures they read from it. A command waits for its
 * completion unless it is asynchronous (a prefetch, as a stream's).
 */
#include "driver_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"
#include "timing.h"

/* ------------------------------------------------------------- commands */

static void cmd_free(struct uvm_driver *d, struct uvm_cmd *c)
{
	size_t first = c->off >> UVM_BLOCK_SHIFT;
	size_t n = (c->len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;
	size_t dropped = 0;

	uvm_tracker_settle(&d->tracker, first, n);
	uvm_thrash_forget(&d->thrash, first, n);
	/* Deferred faults of the freed range are dropped and their threads
	 * woken here, or nothing would wake them (neither a release nor an
	 * unmap wakes a thread waiting on a userfaultfd). A woken thread
	 * faults again, on a range now unallocated (uvm_service_batch). */
	for (size_t i = 0; i < d->ndeferred; i++) {
		const struct uvm_fault *f = &d->deferred[i];

		if (f->page >= c->off && f->page < c->off + c->len) {
			int rc = uvm_uffd_wake(d->dep.uffd, uvm_fault_addr(d, f), UVM_PAGE_SIZE);

			if (rc)
				uvm_bug("waking a fault of a freed range", f->page, rc);
			dropped++;
		} else {
			d->deferred[i - dropped] = *f;
		}
	}
	d->ndeferred -= dropped;
	uvm_res_free(&d->res, c->off, c->len);
	c->result = 0;
}

static void cmd_prefetch(struct uvm_driver *d, struct uvm_cmd *c)
{
	uint64_t t = uvm_now_ns();
	size_t first = c->off >> UVM_BLOCK_SHIFT;
	size_t n = ((c->off + c->len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT) - first;

	d->seq++; /* the prefetched vablocks are in use, nothing else */
	uvm_model_batch_begin(&d->bt, t);
	d->target = c->gpu;
	uvm_service_prefetch(d, first, n, c->to_device);
	if (d->bt.end > d->prefetch_end)
		d->prefetch_end = d->bt.end;
	/* The model clock: stream work, after what the stream had before it. */
	if (d->dep.gpu) {
		uvm_gpu_stream_transfers(d->dep.gpu, c->stream, c->host_ns, d->bt.xfer_bytes,
					 d->bt.xfers);
		d->bt.xfers[UVM_H2D] = d->bt.xfers[UVM_D2H] = 0;
	}
	/* Nobody waits on a prefetched range: wake-ups recorded for it (CPU
	 * side operations add them) are harmless and dropped here. */
	uvm_driver_wake_all(d);
	uvm_driver_publish(d, UVM_BATCH_OTHER, t);
	c->result = 0;
}

/* Block blk's advice after c: the bits, and the GPUs preferred location
 * and accessed-by name (accessed-by is a bit per GPU: its flag says any). */
static void advise_block(struct uvm_block *blk, const struct uvm_cmd *c)
{
	uint8_t by = UVM_ADV_ACCESSED_BY;

	if (c->clear & UVM_ADV_PREFER_DEVICE)
		blk->prefer_gpu = 0;
	if (c->set & UVM_ADV_PREFER_DEVICE)
		blk->prefer_gpu = (uint8_t)c->gpu;
	if (c->clear & by)
		blk->accessed_by &= (uint8_t) ~(1u << c->gpu);
	if (c->set & by)
		blk->accessed_by |= (uint8_t)(1u << c->gpu);
	blk->advice = (uint8_t)(((blk->advice & ~c->clear) | c->set) & ~by);
	if (blk->accessed_by)
		blk->advice |= by;
}

/* Accessed-by given to GPU c->gpu maps the range's data where it is now,
 * ahead of any access; withdrawn, its peer mappings go. Per vablock, as
 * operations act. */
static void advise_mappings(struct uvm_driver *d, const struct uvm_cmd *c, size_t first, size_t end)
{
	const struct uvm_space *s = d->dep.space;

	if (!((c->set | c->clear) & UVM_ADV_ACCESSED_BY))
		return;
	for (size_t v = uvm_vablock_of(first); v <= uvm_vablock_of(end - 1); v++) {
		size_t lo = uvm_vablock_first(v), hi = lo + s->vablock[v].nvalid;

		lo = lo < first ? first : lo;
		hi = hi > end ? end : hi;
		if (lo >= hi)
			continue;
		if (c->set & UVM_ADV_ACCESSED_BY)
			uvm_op_follow_accessed_by(d, lo, hi - lo);
		else
			uvm_op_peer_unmap(d, lo, hi - lo, c->gpu, false);
	}
}

static void cmd_advise(struct uvm_driver *d, struct uvm_cmd *c)
{
	struct uvm_space *s = d->dep.space;
	size_t first = c->off >> UVM_BLOCK_SHIFT;
	size_t end = (c->off + c->len + UVM_BLOCK_SIZE - 1) >> UVM_BLOCK_SHIFT;

	d->seq++;
	for (size_t b = first; b < end; b++) {
		advise_block(&s->block[b], c);
		/* Read-mostly withdrawn: a duplicated block keeps its device
		 * copy, now the only one. */
		if ((c->clear & UVM_ADV_READ_MOSTLY) && s->block[b].state == UVM_DUPLICATED) {
			/* With copies on several GPUs, the lowest keeps its. */
			d->target = (unsigned)__builtin_ctz(s->block[b].dups);
			uvm_op_dup_to_device(d, b, 1);
		}
	}
	advise_mappings(d, c, first, end);
	uvm_driver_wake_all(d);
	uvm_driver_publish(d, UVM_BATCH_OTHER, uvm_now_ns());
	c->result = 0;
}

bool uvm_driver_run_commands(struct uvm_driver *d)
{
	bool stop = false;
	uint64_t v;

	uvm_assert_driver_thread(d);
	if (read(d->evfd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		uvm_bug("reading the command doorbell", 0, errno);
	uvm_mutex_lock(&d->cmd_lock);
	while (d->cmd_head) {
		struct uvm_cmd *c = d->cmd_head;

		d->cmd_head = c->next;
		if (!d->cmd_head)
			d->cmd_tail = NULL;
		uvm_mutex_unlock(&d->cmd_lock);
		switch (c->kind) {
		case UVM_CMD_FREE:
			cmd_free(d, c);
			break;
		case UVM_CMD_SHRINK: {
			uint64_t t = uvm_now_ns();

			d->seq++; /* nothing is in use */
			uvm_model_batch_begin(&d->bt, t);
			uvm_service_evict_all_excess(d);
			uvm_driver_claim(d, NULL, false);
			uvm_driver_publish(d, UVM_BATCH_OTHER, t);
			c->result = 0;
			break;
		}
		case UVM_CMD_FLUSH:
			/* Commands run between batches: everything so far is in. */
			uvm_driver_publish(d, UVM_BATCH_OTHER, uvm_now_ns());
			c->result = 0;
			break;
		case UVM_CMD_CALL:
			c->fn(c->arg);
			c->result = 0;
			break;
		case UVM_CMD_PREFETCH:
			cmd_prefetch(d, c);
			break;
		case UVM_CMD_ADVISE:
			cmd_advise(d, c);
			break;
		case UVM_CMD_STOP:
			stop = true;
			c->result = 0;
			break;
		}
		uvm_mutex_lock(&d->cmd_lock);
		if (c->async) {
			free(c);
			continue;
		}
		c->done = true;
		pthread_cond_broadcast(&d->cmd_cond);
	}
	uvm_mutex_unlock(&d->cmd_lock);
	return stop;
}

/* Queues c behind every earlier command and rings the driver's doorbell. */
static int enqueue(struct uvm_driver *d, struct uvm_cmd *c)
{
	uint64_t one = 1;

	uvm_mutex_lock(&d->cmd_lock);
	if (d->cmd_tail)
		d->cmd_tail->next = c;
	else
		d->cmd_head = c;
	d->cmd_tail = c;
	uvm_mutex_unlock(&d->cmd_lock);
	return write(d->evfd, &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

static int submit(struct uvm_driver *d, struct uvm_cmd *cmd)
{
	struct uvm_cmd c = *cmd;
	int rc;

	/* The driver thread takes locks of its own while it works. */
	uvm_lock_assert_handoff(UVM_LOCK_INTERRUPT, "the driver thread");
	rc = enqueue(d, &c);
	if (rc)
		return rc;
	uvm_mutex_lock(&d->cmd_lock);
	while (!c.done)
		uvm_cond_wait(&d->cmd_cond, &d->cmd_lock);
	uvm_mutex_unlock(&d->cmd_lock);
	return c.result;
}

int uvm_driver_command(struct uvm_driver *d, enum uvm_cmd_kind kind, uint64_t off, uint64_t len)
{
	struct uvm_cmd c = {.kind = kind, .off = off, .len = len};

	return submit(d, &c);
}

int uvm_driver_prefetch(struct uvm_driver *d, uint64_t off, uint64_t len, int gpu, unsigned stream)
{
	if (gpu >= (int)d->ngpus)
		return -ENODEV;
	struct uvm_cmd *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	*c = (struct uvm_cmd){.kind = UVM_CMD_PREFETCH,
			      .off = off,
			      .len = len,
			      .to_device = gpu >= 0,
			      .gpu = gpu >= 0 ? (unsigned)gpu : 0,
			      .stream = stream,
			      .async = true,
			      .host_ns = d->dep.gpu ? uvm_gpu_host_now(d->dep.gpu) : 0};
	return enqueue(d, c);
}

static void read_prefetch_end(void *arg)
{
	struct uvm_driver *d = ((void **)arg)[0];

	*(uint64_t *)((void **)arg)[1] = d->prefetch_end;
}

void uvm_driver_sync(struct uvm_driver *d)
{
	uint64_t end = 0;
	void *arg[2] = {d, &end};

	/* Commands run in order: this one runs after every queued prefetch.
	 * The model clock waits for nothing: a synchronize joins the host's
	 * clock and the stream's. */
	uvm_driver_call(d, read_prefetch_end, arg);
	if (!d->dep.gpu)
		uvm_model_wait_until(end);
}

int uvm_driver_advise(struct uvm_driver *d, uint64_t off, uint64_t len, uint8_t set, uint8_t clear,
		      int gpu)
{
	struct uvm_cmd c = {.kind = UVM_CMD_ADVISE,
			    .off = off,
			    .len = len,
			    .set = set,
			    .clear = clear,
			    .gpu = gpu < 0 ? 0 : (unsigned)gpu};

	bool names_gpu = ((set | clear) & UVM_ADV_ACCESSED_BY) || (set & UVM_ADV_PREFER_DEVICE);

	if (gpu >= (int)d->ngpus || (gpu < 0 && names_gpu))
		return -ENODEV;
	return submit(d, &c);
}

void uvm_driver_call(struct uvm_driver *d, void (*fn)(void *arg), void *arg)
{
	struct uvm_cmd c = {.kind = UVM_CMD_CALL, .fn = fn, .arg = arg};

	submit(d, &c);
}

int uvm_driver_free_range(struct uvm_driver *d, uint64_t off, uint64_t len)
{
	return uvm_driver_command(d, UVM_CMD_FREE, off, len);
}

int uvm_driver_shrink(struct uvm_driver *d)
{
	return uvm_driver_command(d, UVM_CMD_SHRINK, 0, 0);
}

void uvm_driver_request_halving(struct uvm_driver *d)
{
	atomic_store(&d->halve_requested, true);
}

void uvm_driver_counter_notify(struct uvm_driver *d)
{
	uint64_t one = 1;

	/* One doorbell per scan: later notifications find the flag set. */
	if (!atomic_exchange(&d->counter_notified, true) &&
	    write(d->evfd, &one, sizeof(one)) != sizeof(one))
		uvm_bug("ringing the driver for an access counter notification", 0, errno);
}

void uvm_driver_account(struct uvm_driver *d, const struct uvm_stats *delta)
{
	uvm_mutex_lock(&d->stats_lock);
	uvm_stats_add(&d->totals, delta);
	uvm_mutex_unlock(&d->stats_lock);
}

void uvm_driver_totals(struct uvm_driver *d, struct uvm_stats *out)
{
	uvm_mutex_lock(&d->stats_lock);
	*out = d->totals;
	uvm_mutex_unlock(&d->stats_lock);
}

void uvm_driver_thrash_stats(struct uvm_driver *d, struct uvm_thrash_stats *out)
{
	uvm_mutex_lock(&d->stats_lock);
	*out = d->thrash_stats;
	out->alloc = malloc((out->nalloc ? out->nalloc : 1) * sizeof(*out->alloc));
	if (!out->alloc)
		out->nalloc = 0;
	else if (out->nalloc)
		memcpy(out->alloc, d->thrash_stats.alloc, out->nalloc * sizeof(*out->alloc));
	uvm_mutex_unlock(&d->stats_lock);
}

uint64_t uvm_driver_remote_mapped(struct uvm_driver *d)
{
	return atomic_load_explicit(&d->res.remote_mapped, memory_order_relaxed);
}

static void read_remote_blocks(void *arg)
{
	struct uvm_driver *d = ((void **)arg)[0];

	*(uint64_t *)((void **)arg)[1] = d->res.remote_blocks;
}

uint64_t uvm_driver_remote_blocks(struct uvm_driver *d)
{
	uint64_t n = 0;
	void *arg[2] = {d, &n};

	uvm_driver_call(d, read_remote_blocks, arg);
	return n;
}

void uvm_driver_stats(struct uvm_driver *d, struct uvm_stats *out)
{
	/* A thread woken by a batch may ask before that batch is published. */
	uvm_driver_command(d, UVM_CMD_FLUSH, 0, 0);
	uvm_mutex_lock(&d->stats_lock);
	*out = d->totals;
	uvm_mutex_unlock(&d->stats_lock);
}
