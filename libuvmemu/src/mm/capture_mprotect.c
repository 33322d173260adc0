// SPDX-License-Identifier: MIT
/*
 * capture_mprotect.c - page faults caught with mprotect and SIGSEGV
 * (capture.h says what it is and what it gives up).
 *
 * The handler's only way to its capture is the process-wide `active` pointer
 * (and the action it replaced): a signal handler has no argument of ours.
 * It runs on the faulting thread, possibly on an executor worker's signal
 * stack, and uses async-signal-safe calls only: write(2) to post, futex(2)
 * to sleep, sigaction(2) to pass a fault on.
 */
#include "capture.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "arena.h"
#include "space.h"
#include "uffd.h"

/* Threads that may wait on a fault at once; one more waits by retrying. */
#define NWAITERS 1024
/* The fault pipe's capacity asked for: 32768 messages of 32 bytes. */
#define PIPE_BYTES (1 << 20)

enum { SLOT_FREE, SLOT_CLAIMED, SLOT_WAITING };

/* One sleeping thread: the page it faulted on and the futex it sleeps on. */
struct waiter {
	_Atomic uint32_t state;
	_Atomic uint32_t word; /* 0 while it must sleep */
	_Atomic uintptr_t page;
};

struct uvm_sigcap {
	int rd, wr; /* the fault pipe: the driver reads, faulting threads write */
	struct uvm_arena *arena;
	_Atomic uint32_t nslots; /* slots ever claimed: wake scans these */
	struct waiter slot[NWAITERS];
};

static struct uvm_sigcap *_Atomic active;
static struct sigaction previous;
/* The C library's sigaction: the preloaded runtime interposes on the
 * program's (uvm_sigcap_virtualize), never on ours. */
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

static long futex(_Atomic uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

static bool is_write(const void *ucv)
{
#if defined(__x86_64__)
	/* The page-fault error code: bit 1 set for a write access. */
	return (((const ucontext_t *)ucv)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
	/* Unknown: a write is the safe guess (it migrates; a read may map
	 * read-only and fault again). */
	(void)ucv;
	return true;
#endif
}

static struct waiter *claim(struct uvm_sigcap *c, uint32_t tid)
{
	for (uint32_t i = 0; i < NWAITERS; i++) {
		uint32_t k = (tid + i) % NWAITERS, n, expected = SLOT_FREE;

		if (!atomic_compare_exchange_strong(&c->slot[k].state, &expected, SLOT_CLAIMED))
			continue;
		n = atomic_load(&c->nslots);
		while (n < k + 1 && !atomic_compare_exchange_weak(&c->nslots, &n, k + 1))
			;
		return &c->slot[k];
	}
	return NULL;
}

static void post(struct uvm_sigcap *c, uintptr_t addr, bool is_store, uint32_t tid)
{
	struct uffd_msg m;
	const char *p = (const char *)&m;
	size_t left = sizeof(m);

	memset(&m, 0, sizeof(m));
	m.event = UFFD_EVENT_PAGEFAULT;
	m.arg.pagefault.address = addr;
	m.arg.pagefault.flags = is_store ? UFFD_PAGEFAULT_FLAG_WRITE : 0;
	m.arg.pagefault.feat.ptid = tid;
	/* Smaller than PIPE_BUF: written whole, or not at all. The system
	 * call itself: write() may be the runtime's wrapper (shim/syscalls.c),
	 * whose first call looks the C library's up, which a signal handler
	 * must not do. */
	while (left) {
		ssize_t n = syscall(SYS_write, c->wr, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* the capture is closing: the retry faults again */
		p += n;
		left -= (size_t)n;
	}
}

/* Posts the fault and sleeps until the driver wakes the page's range. */
static void wait_resolved(struct uvm_sigcap *c, uintptr_t addr, bool is_store)
{
	uint32_t tid = (uint32_t)syscall(SYS_gettid);
	struct waiter *w = claim(c, tid);

	if (!w) {
		/* Every slot taken: post, let the others run, and fault again. */
		struct timespec ts = {0, 50000};

		post(c, addr, is_store, tid);
		nanosleep(&ts, NULL);
		return;
	}
	/* Registered before posting: no wake for this fault can come earlier. */
	atomic_store(&w->word, 0);
	atomic_store(&w->page, addr & ~(uintptr_t)(UVM_PAGE_SIZE - 1));
	atomic_store(&w->state, SLOT_WAITING);
	post(c, addr, is_store, tid);
	while (atomic_load(&w->word) == 0)
		futex(&w->word, FUTEX_WAIT_PRIVATE, 0);
	atomic_store(&w->state, SLOT_FREE);
}

static bool is_handler(const struct sigaction *a)
{
	if (a->sa_flags & SA_SIGINFO)
		return a->sa_sigaction != NULL;
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

/* Not ours: the handler before ours decides (emu-gpu's turns a kernel's
 * fault into cudaErrorIllegalAddress), or the default action, as if we had
 * never been installed. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	if (is_handler(&previous)) {
		if (previous.sa_flags & SA_SIGINFO)
			previous.sa_sigaction(sig, si, uc);
		else
			previous.sa_handler(sig);
		return;
	}
	/* The fault recurs on return and takes the old action (a core dump
	 * with the right address); a sent signal is raised again. */
	real_sigaction(sig, &previous, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	struct uvm_sigcap *c = atomic_load_explicit(&active, memory_order_acquire);
	uintptr_t addr = (uintptr_t)si->si_addr;
	int saved = errno;

	if (c && c->arena && si->si_code == SEGV_ACCERR && uvm_arena_is_open(c->arena, addr)) {
		wait_resolved(c, addr, is_write(uc));
		errno = saved;
		return;
	}
	pass_on(sig, si, uc);
}

int uvm_sigcap_open(struct uvm_sigcap **out, int *fd, char *err, size_t errlen)
{
	struct uvm_sigcap *c = calloc(1, sizeof(*c)), *none = NULL;
	struct sigaction sa;
	int p[2], e;

	if (!c) {
		snprintf(err, errlen, "--fault-capture mprotect: out of memory");
		return -ENOMEM;
	}
	if (pipe2(p, O_CLOEXEC)) {
		e = errno;
		free(c);
		snprintf(err, errlen, "--fault-capture mprotect: pipe: %s", strerror(e));
		return -e;
	}
	c->rd = p[0];
	c->wr = p[1];
	/* The driver reads until the pipe is empty; writers block when full. */
	fcntl(c->rd, F_SETFL, O_NONBLOCK);
	(void)fcntl(c->wr, F_SETPIPE_SZ, PIPE_BYTES); /* a smaller pipe works too */
	if (!atomic_compare_exchange_strong(&active, &none, c)) {
		uvm_sigcap_close(c);
		snprintf(err, errlen,
			 "--fault-capture mprotect: one emulator instance per process may catch "
			 "faults with signals");
		return -EBUSY;
	}
	if (!real_sigaction)
		real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(
		    RTLD_NEXT, "sigaction");
	if (!real_sigaction)
		real_sigaction = sigaction;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	/* SA_ONSTACK: executor workers fault on their own signal stacks;
	 * SA_NODEFER: a fault the previous handler takes nests. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (real_sigaction(SIGSEGV, &sa, &previous)) {
		e = errno;
		atomic_store(&active, NULL);
		uvm_sigcap_close(c);
		snprintf(err, errlen, "--fault-capture mprotect: sigaction: %s", strerror(e));
		return -e;
	}
	*out = c;
	*fd = c->rd;
	return 0;
}

void uvm_sigcap_close(struct uvm_sigcap *c)
{
	struct uvm_sigcap *me = c;
	struct sigaction cur;

	if (!c)
		return;
	if (atomic_compare_exchange_strong(&active, &me, NULL) &&
	    real_sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_sigaction == on_segv)
		real_sigaction(SIGSEGV, &previous, NULL);
	/* Nobody will resolve a fault any more: waiters retry (and crash as
	 * they would on the unmapped views). */
	uvm_sigcap_wake(c, 0, UINTPTR_MAX);
	close(c->rd);
	close(c->wr);
	/* Not freed: a thread may still be leaving the handler with it. */
}

bool uvm_sigcap_virtualize(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig != SIGSEGV || !atomic_load(&active))
		return false;
	if (old)
		*old = previous;
	if (act)
		previous = *act;
	return true;
}

void uvm_sigcap_attach(struct uvm_sigcap *c, struct uvm_arena *a)
{
	c->arena = a;
	a->closed_views = true;
}

static void __attribute__((noreturn)) out_of_mappings(void)
{
	char buf[32] = "?";
	int fd = open("/proc/sys/vm/max_map_count", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		close(fd);
	}
	fprintf(stderr,
		"uvmemu: --fault-capture mprotect: the process reached vm.max_map_count (%s "
		"mappings; each protected run of blocks is one): raise it with `sysctl "
		"vm.max_map_count=N`, or use --fault-capture uffd or user-mode-only\n",
		buf);
	_exit(2);
}

int uvm_sigcap_protect(struct uvm_sigcap *c, uintptr_t addr, size_t len, int prot, bool wake)
{
	if (mprotect((void *)addr, len, prot)) {
		if (errno == ENOMEM)
			out_of_mappings();
		return -errno;
	}
	return wake ? uvm_sigcap_wake(c, addr, len) : 0;
}

int uvm_sigcap_wake(struct uvm_sigcap *c, uintptr_t addr, size_t len)
{
	uint32_t n = atomic_load(&c->nslots);

	for (uint32_t i = 0; i < n; i++) {
		struct waiter *w = &c->slot[i];
		uintptr_t page;

		if (atomic_load(&w->state) != SLOT_WAITING)
			continue;
		page = atomic_load(&w->page);
		if (page < addr || page - addr >= len)
			continue;
		/* A slot reused meanwhile may be woken early: its thread
		 * retries the access and faults again, never lost. */
		atomic_store(&w->word, 1);
		futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
	}
	return 0;
}
