// SPDX-License-Identifier: MIT
/*
 * native.c - the plain-memory runtime (libuvmemu_native.so).
 *
 * A program links to this library. Run directly, every allocation is ordinary
 * memory that both "sides" share, translation is the identity and nothing
 * migrates; the run still reports its wall time, region of interest, kernel
 * count and verdict, so that native and emulated runs compare one to one.
 * Under LD_PRELOAD=libuvmemu.so every symbol here is interposed. As under
 * the emulator, a forked child inherits none of the runtime's memory and can
 * use none of the runtime (fork.h), and managed memory is bounded by what
 * the host can back.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fork.h"
#include "ranges.h"
#include "report.h"
#include "rt.h"

extern char **environ;

/* The process-wide runtime instance of the native library. */
static struct native_runtime {
	pthread_once_t once;
	struct uvm_session session;
	struct uvm_ranges ranges;
	struct uvm_fork_guard fork_guard;
} native = {.once = PTHREAD_ONCE_INIT};

static void child_fault(int sig, siginfo_t *si, void *uc)
{
	struct uvm_range r;
	bool owned = uvm_ranges_find_unlocked(&native.ranges, (uintptr_t)si->si_addr, &r) == 0 &&
		     r.kind != UVM_PTR_HOST_REGISTERED;

	uvm_fork_fault(&native.fork_guard, sig, si, uc, owned);
}

static void forked_child(void)
{
	uvm_fork_child(&native.fork_guard, &native.session, child_fault);
}

static void native_init(void)
{
	uvm_session_init(&native.session, environ);
	uvm_ranges_init(&native.ranges);
	pthread_atfork(NULL, NULL, forked_child);
	uvm_report_watch_exit(&native.session);
}

struct uvm_session *uvm_rt_session(void)
{
	pthread_once(&native.once, native_init);
	return &native.session;
}

bool uvm_rt_emulated(void)
{
	return false;
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

int uvm_rt_alloc(enum uvm_ptr_kind kind, size_t size, void **out)
{
	struct uvm_range r = {.size = size, .kind = kind};
	void *p;
	int err;

	uvm_rt_session();
	if (size > (SIZE_MAX >> 2))
		return -ENOMEM;
	r.mapped = round_up(size, UVMEMU_BLOCK_SIZE);
	/* Managed memory is charged against what the host can back before it
	 * is mapped, exactly as the emulator does, so both refuse the same. */
	if (kind == UVM_PTR_MANAGED) {
		err = uvm_session_charge_host(&native.session, (int64_t)size);
		if (err)
			return err;
	}
	/* Fresh anonymous memory reads as zero, as the emulator's does. */
	p = mmap(NULL, r.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		err = -ENOMEM;
		goto refund;
	}
	r.base = (uintptr_t)p;
	err = uvm_fork_protect(p, r.mapped);
	if (!err)
		err = uvm_ranges_add(&native.ranges, &r);
	if (err) {
		munmap(p, r.mapped);
		goto refund;
	}
	if (kind == UVM_PTR_MANAGED)
		uvm_session_add_managed(&native.session, (int64_t)r.mapped);
	*out = p;
	return 0;
refund:
	if (kind == UVM_PTR_MANAGED)
		uvm_session_charge_host(&native.session, -(int64_t)size);
	return err;
}

int uvm_rt_free(enum uvm_ptr_kind kind, void *p)
{
	struct uvm_range r;

	uvm_rt_session();
	if (uvm_ranges_find(&native.ranges, (uintptr_t)p, &r) || r.base != (uintptr_t)p ||
	    r.kind != (int)kind)
		return -EINVAL;
	uvm_ranges_remove(&native.ranges, r.base, NULL);
	/* munmap fails when the hole it leaves would take the process past
	 * vm.max_map_count: the memory then goes back, its addresses do not. */
	if (munmap(p, r.mapped))
		madvise(p, r.mapped, MADV_DONTNEED);
	if (kind == UVM_PTR_MANAGED) {
		uvm_session_add_managed(&native.session, -(int64_t)r.mapped);
		uvm_session_charge_host(&native.session, -(int64_t)r.size);
	}
	return 0;
}

int uvm_rt_host_register(void *p, size_t size)
{
	struct uvm_range r = {.base = (uintptr_t)p, .size = size, .kind = UVM_PTR_HOST_REGISTERED};

	uvm_rt_session();
	return uvm_ranges_add(&native.ranges, &r);
}

int uvm_rt_host_unregister(void *p)
{
	struct uvm_range r;

	uvm_rt_session();
	if (uvm_ranges_find(&native.ranges, (uintptr_t)p, &r) || r.base != (uintptr_t)p ||
	    r.kind != UVM_PTR_HOST_REGISTERED)
		return -ENOENT;
	return uvm_ranges_remove(&native.ranges, r.base, NULL);
}

enum uvm_ptr_kind uvm_rt_classify(const void *p)
{
	struct uvm_range r;

	uvm_rt_session();
	if (uvm_ranges_find(&native.ranges, (uintptr_t)p, &r))
		return UVM_PTR_OTHER;
	return (enum uvm_ptr_kind)r.kind;
}

int uvm_rt_span(const void *p, size_t n, struct uvm_range *out)
{
	uvm_rt_session();
	return uvm_ranges_find_span(&native.ranges, (uintptr_t)p, n, out);
}

/* Labels name allocations in traces; a native run writes none. */
void uvm_rt_label(const void *p, const char *name)
{
}

int uvm_rt_memcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
	memmove(dst, src, n);
	return 0;
}

int uvm_rt_memset(void *p, int value, size_t n)
{
	memset(p, value, n);
	return 0;
}

/* Natively there is one memory: advice and prefetches have nothing to move. */
int uvm_rt_advise(const void *p, size_t n, enum cudaMemoryAdvise advice, int device)
{
	return 0;
}

int uvm_rt_prefetch(const void *p, size_t n, int device)
{
	return 0;
}

int uvm_rt_synchronize(void)
{
	return 0;
}

void uvm_rt_mem_info(size_t *free_bytes, size_t *total_bytes)
{
	long page = sysconf(_SC_PAGESIZE);

	*total_bytes = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)page;
	*free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)page;
}

void uvm_rt_view_map(struct uvmemu_view_map *map)
{
	memset(map, 0, sizeof(*map));
}

int uvm_rt_fault_is_capture(const void *addr)
{
	(void)addr;
	return 0;
}

void *uvm_rt_host_ptr(const void *device_ptr)
{
	return (void *)device_ptr;
}

static void no_remote_access(void *ctx, uintptr_t addr, size_t bytes, unsigned xacts, bool store)
{
}

static void no_halve(void *ctx)
{
}

const struct uvmemu_gmmu *uvm_rt_gmmu(void)
{
	static const struct uvmemu_gmmu empty = {.block_shift = UVMEMU_BLOCK_SHIFT,
						 .remote_access = no_remote_access,
						 .halve = no_halve};

	return &empty;
}

uint64_t uvm_rt_kernel_begin(const struct uvmemu_launch *launch, uint64_t index)
{
	return index;
}

void uvm_rt_kernel_end(uint64_t index)
{
}

void uvm_rt_cta(uint64_t launch, unsigned cta, unsigned sm, bool begin)
{
}

const struct uvmemu_slot *uvm_rt_worker_register(unsigned sm, unsigned slot)
{
	return NULL; /* plain memory has no GPU clock: warps need no test */
}

void uvm_rt_run(uint64_t ncta, bool begin)
{
}

void uvm_rt_warp_end(bool barrier)
{
	(void)barrier;
}

bool uvm_rt_turn(enum uvm_turn_op op)
{
	(void)op;
	return false;
}

uint64_t uvm_rt_launch(bool begin, uint64_t host_ns)
{
	(void)begin;
	(void)host_ns;
	return 0;
}

uint64_t uvm_rt_host_time(void)
{
	return 0;
}

double uvm_rt_dilation(void)
{
	return 1;
}

void uvm_rt_calibrated(void)
{
}

/*
 * Under LD_PRELOAD=libuvmemu.so this library is still loaded (the program
 * links to it) and its constructor and destructor still run; the exported
 * uvmemu_is_emulated() then resolves to the emulator's, and this library stays
 * silent so that the run has one report.
 */
__attribute__((constructor)) static void native_load(void)
{
	if (!uvmemu_is_emulated())
		uvm_rt_session();
}

__attribute__((destructor)) static void native_unload(void)
{
	struct uvm_report r = {.mode = "native"};

	/* A forked child's run is its parent's: one report. */
	if (uvmemu_is_emulated() || atomic_load(&uvm_rt_session()->forked))
		return;
	r.session = uvm_rt_session();
	uvm_report_emit(&r);
}
