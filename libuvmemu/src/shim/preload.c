// SPDX-License-Identifier: MIT
/*
 * preload.c - libuvmemu.so's process-wide emulator instance.
 *
 * This is the one global of the project: a program is emulated by loading
 * this library ahead of libuvmemu_native.so (LD_PRELOAD, which `uvmemu run`
 * sets up), and the CUDA-named and uvmemu_* entry points it then reaches
 * need one instance to act on. The instance starts when the library loads,
 * so configuration errors stop the program before main() with a one-line
 * message and status 2, and the report is written when the process exits,
 * or when SIGINT or SIGTERM ends it (interrupt.h). A forked child inherits
 * none of the managed memory and can use none of the runtime (fork.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "emu.h"
#include "fork.h"
#include "interrupt.h"
#include "report.h"
#include "rt.h"
#include "shim.h"
#include "units.h"

extern char **environ;

static struct preload {
	pthread_once_t once;
	struct uvm_session session;
	struct uvm_emu *emu;
	struct uvm_interrupt interrupt;
	struct uvm_fork_guard fork_guard;
	atomic_bool long_waits_said; /* warn_long_waits said it */
} g = {.once = PTHREAD_ONCE_INIT};

/* The summary and the JSON report, at exit (sig 0) or on SIGINT/SIGTERM. */
static void report(void *ctx, int sig)
{
	struct uvm_stats st;
	struct uvm_report r = {
	    .session = &g.session,
	    .mode = "emulated",
	    .stats = &st,
	    .signal = sig,
	    .json_extra = uvm_emu_report_json,
	    .text_extra = uvm_emu_report_text,
	};

	/* The signal's handler abandoned the model's sleeps; the model
	 * clock's workers may be waiting for their batches. */
	if (sig)
		uvm_emu_abandon_waits(g.emu);
	uvm_emu_progress_stop(g.emu);
	uvm_emu_stats(g.emu, &st);
	uvm_emu_flush_traces(g.emu);
	r.device_mem_bytes = uvm_emu_device_mem(g.emu);
	r.ctx = g.emu;
	uvm_report_emit(&r);
}

static void interrupted(int sig)
{
	uvm_interrupt_caught(&g.interrupt, sig);
}

/* Managed and zero-copy memory (the arena's views) and cudaMalloc memory. */
static bool owned(uintptr_t a)
{
	return uvm_emu_owns(g.emu, a);
}

static void child_fault(int sig, siginfo_t *si, void *uc)
{
	uvm_fork_fault(&g.fork_guard, sig, si, uc, owned((uintptr_t)si->si_addr));
}

static void forked_child(void)
{
	uvm_interrupt_child(&g.interrupt);
	uvm_fork_child(&g.fork_guard, &g.session, child_fault);
}

/* Under ulimit -v the views' reservation (hundreds of GiB of address space,
 * not memory) fails first: a hint that names the limit and the way out. */
static const char *address_limit_hint(char *buf, size_t len)
{
	struct rlimit rl;
	char lim[32];

	if (getrlimit(RLIMIT_AS, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return "";
	snprintf(buf, len,
		 " (ulimit -v allows %s: the emulator reserves address space for its views, "
		 "not memory; run it under ulimit -v unlimited)",
		 uvm_fmt_size(lim, sizeof(lim), (uint64_t)rl.rlim_cur));
	return buf;
}

/* A model whose waits make a run take hours or years: said once, since it
 * is allowed (at start, and again once --dilation auto settles). */
static void warn_long_waits(struct uvm_emu *e)
{
	char warning[UVM_ERRLEN];

	if (uvm_emu_long_wait_warning(e, warning, sizeof(warning)) &&
	    !atomic_exchange(&g.long_waits_said, true))
		fprintf(stderr, "uvmemu: warning: %s\n", warning);
}

static void start(void)
{
	char err[UVM_ERRLEN], warning[UVM_ERRLEN], hint[192];
	int rc;

	uvm_session_init(&g.session, environ);
	rc = uvm_emu_create(&g.emu, &g.session, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "uvmemu: %s%s\n", err,
			rc == -ENOMEM ? address_limit_hint(hint, sizeof(hint)) : "");
		exit(2);
	}
	warn_long_waits(g.emu);
	uvm_report_watch_exit(&g.session);
	/* What the capture gives up, once, at start (the report repeats it). */
	if (uvm_emu_capture_warning(g.emu, warning, sizeof(warning)))
		fprintf(stderr, "uvmemu: warning: %s\n", warning);
	pthread_atfork(NULL, NULL, forked_child);
	rc = uvm_interrupt_start(&g.interrupt, interrupted, report, NULL);
	if (rc)
		fprintf(stderr,
			"uvmemu: warning: no report will be written if SIGINT or SIGTERM ends the "
			"run: %s\n",
			rc == -EMFILE || rc == -ENFILE
			    ? "no file descriptor left for its pipe (raise ulimit -n)"
			    : "no thread for it");
}

static struct uvm_emu *emu(void)
{
	pthread_once(&g.once, start);
	return g.emu;
}

struct uvm_session *uvm_rt_session(void)
{
	emu();
	return &g.session;
}

bool uvm_rt_emulated(void)
{
	return true;
}

int uvm_rt_alloc(enum uvm_ptr_kind kind, size_t size, void **out)
{
	return uvm_emu_alloc(emu(), kind, size, out);
}

int uvm_rt_free(enum uvm_ptr_kind kind, void *p)
{
	return uvm_emu_free(emu(), kind, p);
}

int uvm_rt_host_register(void *p, size_t size)
{
	return uvm_emu_host_register(emu(), p, size);
}

int uvm_rt_host_unregister(void *p)
{
	return uvm_emu_host_unregister(emu(), p);
}

enum uvm_ptr_kind uvm_rt_classify(const void *p)
{
	return uvm_emu_classify(emu(), p);
}

int uvm_rt_span(const void *p, size_t n, struct uvm_range *out)
{
	return uvm_emu_span(emu(), p, n, out);
}

void uvm_rt_label(const void *p, const char *name)
{
	uvm_emu_label(emu(), p, name);
}

int uvm_rt_memcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
	return uvm_emu_memcpy(emu(), dst, src, n, kind);
}

int uvm_rt_memset(void *p, int value, size_t n)
{
	return uvm_emu_memset(emu(), p, value, n);
}

int uvm_rt_advise(const void *p, size_t n, enum cudaMemoryAdvise advice, int device)
{
	return uvm_emu_advise(emu(), p, n, advice, device);
}

int uvm_rt_prefetch(const void *p, size_t n, int device)
{
	return uvm_emu_prefetch(emu(), p, n, device);
}

int uvm_rt_synchronize(void)
{
	return uvm_emu_synchronize(emu());
}

void uvm_rt_mem_info(size_t *free_bytes, size_t *total_bytes)
{
	uvm_emu_mem_info(emu(), free_bytes, total_bytes);
}

int uvm_rt_fault_is_capture(const void *addr)
{
	/* g.emu is set once, before any managed memory exists. */
	const struct uvm_emu *e = g.emu;

	return e && uvm_emu_fault_is_capture(e, addr);
}

struct uvm_emu *uvm_rt_emu_started(void)
{
	return g.emu;
}

void uvm_rt_view_map(struct uvmemu_view_map *map)
{
	uvm_emu_view_map(emu(), map);
}

void *uvm_rt_host_ptr(const void *device_ptr)
{
	return uvm_emu_host_ptr(emu(), device_ptr);
}

const struct uvmemu_gmmu *uvm_rt_gmmu(void)
{
	return uvm_emu_gmmu(emu());
}

uint64_t uvm_rt_kernel_begin(const struct uvmemu_launch *launch, uint64_t index)
{
	struct uvm_emu *e = emu();

	/* Known only now (the --oversub capacity, the object profile against
	 * this run), but a configuration error all the same. */
	if (uvm_emu_kernel_begin(e, index, launch) == -EINVAL) {
		fprintf(stderr, "uvmemu: %s\n", uvm_emu_launch_error(e));
		exit(2);
	}
	return index;
}

void uvm_rt_kernel_end(uint64_t index)
{
	uvm_emu_kernel_end(emu(), index);
}

void uvm_rt_cta(uint64_t launch, unsigned cta, unsigned sm, bool begin)
{
	uvm_emu_cta(emu(), launch, cta, sm, begin);
}

const struct uvmemu_slot *uvm_rt_worker_register(unsigned sm, unsigned slot)
{
	return uvm_emu_worker_register(emu(), sm);
}

void uvm_rt_run(uint64_t ncta, bool begin)
{
	uvm_emu_run(emu(), ncta, begin);
}

void uvm_rt_warp_end(bool barrier)
{
	uvm_emu_warp_end(emu(), barrier);
}

bool uvm_rt_turn(enum uvm_turn_op op)
{
	if (op == UVM_TURN_ASK)
		return uvm_emu_turns(emu());
	uvm_emu_turn(emu(), op == UVM_TURN_TAKE);
	return false;
}

uint64_t uvm_rt_launch(bool begin, uint64_t host_ns)
{
	return uvm_emu_launch(emu(), begin, host_ns);
}

uint64_t uvm_rt_host_time(void)
{
	return uvm_emu_host_time(emu());
}

double uvm_rt_dilation(void)
{
	return uvm_emu_dilation(emu());
}

void uvm_rt_calibrated(void)
{
	uvm_emu_calibrated(emu());
	warn_long_waits(g.emu);
}

__attribute__((constructor)) static void preload_load(void)
{
	emu();
}

/* A forked child writes nothing: the run, its driver and its report are the
 * parent's. */
__attribute__((destructor)) static void preload_unload(void)
{
	if (g.emu && !atomic_load(&g.session.forked))
		uvm_interrupt_report_once(&g.interrupt, 0);
}
