/* SPDX-License-Identifier: MIT */
/*
 * gpu_priv.h - the model clock's records, shared by gpu.c (the clocks,
 * the fault buffers, the batches) and turns.c (the ordered schedule,
 * --schedule model). Nothing outside model/ includes it.
 */
#ifndef UVM_GPU_PRIV_H
#define UVM_GPU_PRIV_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "batcher.h"
#include "gpu.h"
#include "lock_order.h"
#include "tidmap.h"

/* A block's arrival (uvm_gpu::ready): 0, long since there; a modelled time;
 * PENDING, its transfers not charged to a batch yet; FOLLOWS | lead, it came
 * with the transfers of block `lead`'s service and arrives when they do.
 * Every value but a time is above any clock, which is what an accessor
 * compares (uvmemu_gmmu.h). */
#define PENDING UINT64_MAX
#define FOLLOWS (1ull << 63)
/* A running worker's compute clock is read again for the horizon at most
 * this often: each read is a system call. */
#define REFRESH_NS 50000u
/* Pages a worker remembers its pending faults on, so that its SM's late
 * hits on one of them are stalls, not more faults; and pages of its SM's
 * faults it waits for. */
#define WAITED_MAX 16u
/* SMs per GPU whose workers' pending faults coalesce (the SM's TLB). */
#define SM_MAX 256u

enum wstate {
	W_IDLE,	  /* not in a hand-out */
	W_RUN,	  /* running a hand-out */
	W_WAIT,	  /* at a warp's end, waiting for its faults' batches */
	W_RESUME, /* its batches formed: it goes on from done_t once it runs */
};

/* One executor worker. */
struct worker {
	struct uvmemu_slot pub;		/* the word the executor tests at warp ends */
	uint32_t idx;			/* its place in uvm_gpu::w */
	int32_t next_on_sm;		/* the next worker of its SM (-1: none) */
	clockid_t cpu;			/* the thread's CPU clock */
	const _Atomic uint64_t *blocks; /* its count of basic blocks run */
	unsigned dev, sm;		/* its GPU (an executor's pool per GPU), its SM there */
	enum wstate state;
	int held;	  /* the modelled CTA slot its hand-out runs on */
	uint64_t t, cpu0; /* its clock was t when its work (work_now) read cpu0 */
	uint64_t warp_t;  /* with attention: its warp's issue time */
	uint32_t pending; /* its warp's faults not in a formed batch yet */
	uint32_t nwaited; /* pages of its pending faults (the first WAITED_MAX) */
	uint64_t waited[WAITED_MAX];
	uint32_t njoined; /* pages of its SM's pending faults it waits for too */
	uint64_t joined[WAITED_MAX];
	uint64_t done_t;       /* the latest completion among them */
	uint64_t lb, lb_at;    /* a lower bound of its clock, and when read (real) */
	uint32_t faults;       /* real faults it took since cpu0 (their CPU is not compute) */
	uint64_t run_ncta;     /* the hand-out's CTAs */
	bool run_faulted;      /* a fault stalled it: its CTAs ran one after another */
	_Atomic uint32_t wake; /* futex word for its waits: a warp's end, its turn */
	/* --schedule model (turns.c): it waits to start a hand-out (the next
	 * of its GPU's list of such workers), or at a loop's end (W_WAIT,
	 * W_RESUME) from resume_t for its turn. */
	bool at_gate;
	int32_t next_at_gate;
	uint64_t resume_t;
};

/* A block's transfers, charged to the first batch holding a fault on it. */
struct ledger {
	uint32_t h2d_bytes, d2h_bytes;
	uint16_t h2d_xfers, d2h_xfers;
	/* GPU-GPU: on peer link p2p_link, direction p2p_dir (--gpus). */
	uint32_t p2p_bytes;
	uint16_t p2p_xfers;
	uint8_t p2p_link, p2p_dir;
};

/*
 * One GPU: its modelled CTA slots for the kernel it runs, its stream and its
 * fault buffer. GPUs run their kernels side by side in modelled time; the
 * one driver's batches, one GPU's buffer at a time, order them only through
 * the faults they wait for (and the links they share).
 */
struct dev {
	struct uvm_batcher buf;
	/* The modelled CTA slots of the running kernel. */
	uint64_t *free_t;
	bool *held;
	unsigned nslots;
	double per_cpu_ns; /* modelled ns per ns of a worker's CPU time */
	double speed;	   /* its preset's DRAM bandwidth over GPU 0's (D is GPU 0's) */
	struct {
		bool running;
		uint64_t begin, end; /* modelled; end: the latest CTA's end so far */
		uint64_t ncta, begun;
	} k;
	uint64_t stream_end;
};

struct uvm_gpu {
	struct uvm_model *model;
	struct uvm_mutex lock;	  /* guards everything below */
	int doorbell;		  /* eventfd: a step may form a batch now */
	bool waiting;		  /* the driver waits for a slot's clock */
	bool per_fault;		  /* --fault-path uvmmu: each fault alone, no batches */
	uint64_t latency_ns;	  /* a batch's far-fault latency (UVMMU: a fault's) */
	uint64_t vablock_ns;	  /* --vablock-cost: the driver's time per vablock */
	unsigned batch_max;	  /* faults a batch holds at most */
	struct uvm_mfault *taken; /* a batch's faults (batch_max of them) */
	unsigned ndev;
	struct dev dev[UVMEMU_MAX_DEVICES];

	unsigned ctas_per_sm; /* modelled slot s is on SM s / ctas_per_sm */
	/* Per GPU and SM, its first worker (-1: none): a list through
	 * next_on_sm. */
	int32_t sm_first[UVMEMU_MAX_DEVICES][SM_MAX];

	struct uvm_tidmap tids; /* thread id -> worker */
	struct worker **w;
	size_t nw; /* w holds UVM_TIDMAP_SLOTS, never moved: a worker reads its
		    * own record without the lock */

	/* What of a worker's CPU time is the emulator's: a fault's trap and
	 * wake-up, a read of its CPU clock (uvm_gpu_set_costs). */
	uint64_t fault_cpu_ns, read_cpu_ns;
	/* --compute blocks: CPU ns per counted block (0: CPU time measures
	 * compute); written before the first kernel, read by workers. */
	double block_ns;

	/* The host's clock: anchor_h when the work of the thread that last
	 * synchronised with the runtime read anchor_r (its CPU clock host_clk,
	 * or under --compute blocks its count host_blocks), then that thread's
	 * work: host code runs at the host's speed, and the time it waits for
	 * a core beside the emulator's workers is not the program's. */
	uint64_t anchor_h, anchor_r;
	clockid_t host_clk;
	const _Atomic uint64_t *host_blocks;
	uint64_t paused_h; /* uvm_gpu_host_pause's time */

	struct ledger *ledger;
	/* Per block, when its data is on the device in modelled time (the
	 * encoding at PENDING); written under the lock, read by accessors. */
	_Atomic uint64_t *ready;
	size_t nblocks;
	struct uvm_gpu_figures fig;
	struct uvm_gpu_observer obs; /* traces (no callbacks: none) */

	/* --schedule model (turns.c): one worker runs kernel code at a time,
	 * the one earliest in modelled time. */
	struct {
		bool on;
		bool automatic; /* --schedule auto: on once compute is counted */
		int32_t holder; /* the worker whose turn it is (-1: nobody's) */
		/* Per GPU, the workers waiting to start a hand-out. */
		int32_t gate[UVMEMU_MAX_DEVICES];
	} turn;
};

static inline void uvm_gpu_futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
	/* EAGAIN (the word moved on) and EINTR both mean: look again. */
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static inline void uvm_gpu_futex_wake(_Atomic uint32_t *word)
{
	atomic_fetch_add(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* gpu.c, for turns.c; all with the lock held but uvm_gpu_self. */
struct worker *uvm_gpu_self(struct uvm_gpu *g);
/* GPU d's unheld modelled slot free earliest (-1: none). */
int uvm_gpu_earliest_free(const struct dev *d);
/* d's running kernel has a CTA left to start. */
static inline bool uvm_gpu_ctas_left(const struct dev *d)
{
	return d->k.running && d->k.begun < d->k.ncta;
}
/* The slot the next CTA of d's kernel would start on (-1: none is left to
 * start, or no slot is free). */
int uvm_gpu_next_slot(const struct dev *d);
/* Forms every batch that may be formed now. */
void uvm_gpu_form(struct uvm_gpu *g);

/* turns.c (docs/architecture.md, "The ordered schedule"); with the lock
 * held, and only when turn.on. */
void uvm_turn_init(struct uvm_gpu *g, bool on);
/* Nobody's turn: gives it to the worker or the new hand-out earliest in
 * modelled time. `taker`, waiting to start a hand-out, gets it if a new
 * hand-out on its GPU is earliest. */
void uvm_turn_choose(struct uvm_gpu *g, struct worker *taker);
/* w, at a loop's end (its state W_WAIT or W_RESUME, its clock resume_t),
 * gives the turn away and waits until its batches are formed and the turn
 * is its again (or the run is abandoned). */
void uvm_turn_yield(struct uvm_gpu *g, struct worker *w);
/* GPU dev has no CTA left to start: its workers waiting to start one go. */
void uvm_turn_close(struct uvm_gpu *g, unsigned dev);
/* The run is abandoned: everyone waiting goes. */
void uvm_turn_abandon(struct uvm_gpu *g);

#endif
