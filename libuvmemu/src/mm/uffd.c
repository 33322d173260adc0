// SPDX-License-Identifier: MIT
/* uffd.c - userfaultfd creation, feature detection and resolving ioctls. */
#include "uffd.h"

#include <errno.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "capture.h"

enum open_method { VIA_SYSCALL, VIA_DEVICE, VIA_USER_MODE };

static int open_fd(enum open_method m, int *err)
{
	int fd = -1, dev;

	switch (m) {
	case VIA_SYSCALL:
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
		break;
	case VIA_DEVICE:
		/* Access to /dev/userfaultfd grants kernel-mode faults without
		 * CAP_SYS_PTRACE (Linux 6.1+). */
		dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
		if (dev < 0)
			break;
		fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
		*err = errno;
		close(dev);
		return fd;
	case VIA_USER_MODE:
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
		break;
	}
	*err = errno;
	return fd;
}

static const char *why_syscall(int e)
{
	switch (e) {
	case ENOSYS:
		return "the kernel has no userfaultfd (CONFIG_USERFAULTFD) or a seccomp filter "
		       "blocks it, as Docker's default profile does";
	case EPERM:
		return "not permitted: vm.unprivileged_userfaultfd is 0 and this process lacks "
		       "CAP_SYS_PTRACE";
	default:
		return strerror(e);
	}
}

static const char *kernel_release(struct utsname *u)
{
	return uname(u) == 0 ? u->release : "unknown";
}

/* Features the emulator cannot work without, with the kernel that added them. */
static const struct {
	uint64_t bit;
	const char *name, *since, *why;
} required[] = {
    {UFFD_FEATURE_MISSING_SHMEM, "MISSING_SHMEM", "4.11", "host frames live in a memfd"},
    {UFFD_FEATURE_MINOR_SHMEM, "MINOR_SHMEM", "5.14",
     "a CPU write during a migration must wait for it (minor faults on the host view)"},
    {UFFD_FEATURE_PAGEFAULT_FLAG_WP, "WP", "5.7",
     "an eviction must stop GPU writes while it copies a block back (write-protect)"},
};

static const struct {
	uint64_t bit;
	const char *name;
} known[] = {
    {UFFD_FEATURE_MISSING_SHMEM, "MISSING_SHMEM"}, {UFFD_FEATURE_MINOR_SHMEM, "MINOR_SHMEM"},
    {UFFD_FEATURE_PAGEFAULT_FLAG_WP, "WP"},	   {UFFD_FEATURE_THREAD_ID, "THREAD_ID"},
    {UFFD_FEATURE_WP_HUGETLBFS_SHMEM, "WP_SHMEM"}, {UFFD_FEATURE_WP_UNPOPULATED, "WP_UNPOPULATED"},
    {UFFD_FEATURE_WP_ASYNC, "WP_ASYNC"},	   {UFFD_FEATURE_MOVE, "MOVE"},
};

void uvm_uffd_features_str(const struct uvm_uffd *u, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]) && n < len; i++)
		if (u->features & known[i].bit)
			n +=
			    (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", known[i].name);
}

/* process_madvise(2)'s "this process": PIDFD_SELF (Linux 6.14), which stays
 * right after fork, as a cached pidfd would not. */
#define ZAPV_PIDFD_SELF (-10000)
/* The kernel's UIO_MAXIOV: the most runs one call takes. */
#define ZAPV_MAX_RUNS 1024

static long zapv_call(const struct iovec *iov, size_t n)
{
#ifdef SYS_process_madvise
	return syscall(SYS_process_madvise, ZAPV_PIDFD_SELF, iov, n, MADV_DONTNEED, 0);
#else
	(void)iov;
	(void)n;
	errno = ENOSYS;
	return -1;
#endif
}

/* Whether one process_madvise(MADV_DONTNEED) over this process works: tried
 * once on a scratch shared page, as the views are shared mappings. */
static void detect_zapv(struct uvm_uffd *u)
{
	long page = sysconf(_SC_PAGESIZE), rc;
	char *p =
	    mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct iovec iov;
	int e;

	u->zapv_batched = false;
	if (p == MAP_FAILED) {
		snprintf(u->zap_why, sizeof(u->zap_why), "madvise per run (probe mmap: %s)",
			 strerror(errno));
		return;
	}
	p[0] = 1;
	iov = (struct iovec){p, (size_t)page};
	rc = zapv_call(&iov, 1);
	e = errno;
	munmap(p, (size_t)page);
	if (rc == page) {
		u->zapv_batched = true;
		snprintf(u->zap_why, sizeof(u->zap_why),
			 "process_madvise: one call per batch of runs");
		return;
	}
	snprintf(u->zap_why, sizeof(u->zap_why), "madvise per run (process_madvise: %s)",
		 rc >= 0       ? "partial advice"
		 : e == ENOSYS ? "not in this kernel (Linux 5.10) or blocked by seccomp"
		 : e == EBADF  ? "no PIDFD_SELF (Linux 6.14)"
		 : e == EINVAL ? "no MADV_DONTNEED through it (Linux 6.13)"
			       : strerror(e));
}

static int api_handshake(int fd, uint64_t want, uint64_t *got)
{
	struct uffdio_api api = {.api = UFFD_API, .features = want};

	if (ioctl(fd, UFFDIO_API, &api))
		return -errno;
	*got = api.features;
	return 0;
}

/* Whether this process may open a user-mode-only userfaultfd. */
static bool user_mode_possible(void)
{
	int e, fd = open_fd(VIA_USER_MODE, &e);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int uvm_uffd_open_as(struct uvm_uffd *u, enum uvm_fault_capture_choice how, char *err,
		     size_t errlen)
{
	static const char *const names[] = {"userfaultfd(2)", "/dev/userfaultfd",
					    "userfaultfd(2) in user-mode-only mode"};
	enum open_method m, last = VIA_DEVICE;
	int e[3] = {0, 0, 0}, reopen_errno = 0, fd = -1, rc;
	uint64_t supported = 0, want;
	struct utsname un;

	/* User-mode-only only when asked for: system calls on non-resident
	 * managed memory then fail with EFAULT, which nothing else would say. */
	m = how == UVM_CAPTURE_USER_MODE_ONLY ? VIA_USER_MODE : VIA_SYSCALL;
	if (how == UVM_CAPTURE_USER_MODE_ONLY)
		last = VIA_USER_MODE;
	for (; m <= last; m++) {
		fd = open_fd(m, &e[m]);
		if (fd >= 0)
			break;
	}
	if (fd < 0 && how == UVM_CAPTURE_USER_MODE_ONLY) {
		snprintf(err, errlen,
			 "--fault-capture user-mode-only: userfaultfd(2): %s (kernel %s)",
			 why_syscall(e[VIA_USER_MODE]), kernel_release(&un));
		return -e[VIA_USER_MODE];
	}
	if (fd < 0 && user_mode_possible()) {
		snprintf(err, errlen,
			 "userfaultfd: this process may only catch faults in user mode, where "
			 "system calls on managed memory would fail with EFAULT (userfaultfd(2): "
			 "%s; /dev/userfaultfd: %s). Enable full userfaultfd: run as root or with "
			 "CAP_SYS_PTRACE, or `sysctl vm.unprivileged_userfaultfd=1`, or give this "
			 "user access to /dev/userfaultfd; or accept it with --fault-capture "
			 "user-mode-only",
			 why_syscall(e[VIA_SYSCALL]), strerror(e[VIA_DEVICE]));
		return -EPERM;
	}
	if (fd < 0) {
		snprintf(err, errlen,
			 "userfaultfd unavailable: userfaultfd(2): %s; /dev/userfaultfd: %s. The "
			 "emulator needs it to catch page faults: run as root, or `sysctl "
			 "vm.unprivileged_userfaultfd=1`, or give this user access to "
			 "/dev/userfaultfd (kernel %s)",
			 why_syscall(e[VIA_SYSCALL]), strerror(e[VIA_DEVICE]), kernel_release(&un));
		return -e[VIA_SYSCALL];
	}
	/* Two-step handshake: ask for nothing to learn what is supported, then
	 * open a fresh descriptor and ask for what is wanted (the API call can be
	 * made once per descriptor). */
	rc = api_handshake(fd, 0, &supported);
	close(fd);
	if (rc) {
		snprintf(err, errlen, "userfaultfd: UFFDIO_API failed: %s", strerror(-rc));
		return rc;
	}
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		if (!(supported & required[i].bit)) {
			snprintf(err, errlen,
				 "userfaultfd on this kernel (%s) lacks %s, added in Linux %s: %s",
				 kernel_release(&un), required[i].name, required[i].since,
				 required[i].why);
			return -ENOTSUP;
		}
	}
	want = UFFD_FEATURE_MISSING_SHMEM | UFFD_FEATURE_MINOR_SHMEM |
	       UFFD_FEATURE_PAGEFAULT_FLAG_WP |
	       (supported & (UFFD_FEATURE_THREAD_ID | UFFD_FEATURE_WP_HUGETLBFS_SHMEM));
	fd = open_fd(m, &reopen_errno);
	if (fd < 0) {
		snprintf(err, errlen, "userfaultfd: reopening failed: %s", strerror(reopen_errno));
		return -reopen_errno;
	}
	rc = api_handshake(fd, want, &want);
	if (rc) {
		close(fd);
		snprintf(err, errlen, "userfaultfd: UFFDIO_API with features %#llx failed: %s",
			 (unsigned long long)want, strerror(-rc));
		return rc;
	}
	u->features = supported; /* the report lists everything the kernel has */
	u->fd = fd;
	u->user_mode_only = m == VIA_USER_MODE;
	u->shmem_wp = (supported & UFFD_FEATURE_WP_HUGETLBFS_SHMEM) != 0;
	u->how = names[m];
	detect_zapv(u);
	return 0;
}

static int open_mprotect(struct uvm_uffd *u, char *err, size_t errlen)
{
	int rc = uvm_sigcap_open(&u->sig, &u->fd, err, errlen);

	if (rc)
		return rc;
	u->features = 0;
	u->user_mode_only = false;
	u->shmem_wp = true; /* mprotect(PROT_READ) write-protects shared memory */
	u->how = "mprotect and SIGSEGV";
	u->zapv_batched = false;
	snprintf(u->zap_why, sizeof(u->zap_why), "mprotect per run (the mprotect capture)");
	return 0;
}

/* Why full userfaultfd could not be had, in a few words. */
static void short_reason(char *buf, size_t len, int rc, const char *detail)
{
	if (rc == -ENOTSUP)
		/* names the missing feature; cut to the buffer on purpose */
		snprintf(buf, len, "%.*s", (int)len - 1, detail);
	else if (rc == -EPERM)
		snprintf(buf, len,
			 "full userfaultfd not permitted: vm.unprivileged_userfaultfd=0, no "
			 "CAP_SYS_PTRACE, no access to /dev/userfaultfd");
	else
		snprintf(buf, len, "userfaultfd: %s", strerror(-rc));
}

int uvm_uffd_open_capture(struct uvm_uffd *u, enum uvm_fault_capture_choice how, char *err,
			  size_t errlen)
{
	char e1[512], e2[512], r1[140], r2[140];
	int rc;

	u->sig = NULL;
	if (how == UVM_CAPTURE_MPROTECT) {
		snprintf(u->why, sizeof(u->why), "asked for");
		return open_mprotect(u, err, errlen);
	}
	if (how != UVM_CAPTURE_AUTO) {
		snprintf(u->why, sizeof(u->why), "asked for");
		return uvm_uffd_open_as(u, how, err, errlen);
	}
	rc = uvm_uffd_open_as(u, UVM_CAPTURE_UFFD, e1, sizeof(e1));
	if (rc == 0) {
		snprintf(u->why, sizeof(u->why), "full userfaultfd works");
		return 0;
	}
	short_reason(r1, sizeof(r1), rc, e1);
	rc = uvm_uffd_open_as(u, UVM_CAPTURE_USER_MODE_ONLY, e2, sizeof(e2));
	if (rc == 0) {
		snprintf(u->why, sizeof(u->why), "%s; user-mode-only works", r1);
		return 0;
	}
	short_reason(r2, sizeof(r2), rc, e2);
	snprintf(u->why, sizeof(u->why), "%s; user-mode-only: %s", r1, r2);
	return open_mprotect(u, err, errlen);
}

const char *uvm_uffd_capture_name(const struct uvm_uffd *u)
{
	return u->sig ? "mprotect" : u->user_mode_only ? "user-mode-only" : "uffd";
}

void uvm_uffd_close(struct uvm_uffd *u)
{
	if (u->sig) {
		uvm_sigcap_close(u->sig); /* closes the pipe */
		u->sig = NULL;
	} else if (u->fd >= 0) {
		close(u->fd);
	}
	u->fd = -1;
}

int uvm_uffd_register(struct uvm_uffd *u, uintptr_t start, size_t len, uint64_t mode)
{
	struct uffdio_register r = {.range = {start, len}, .mode = mode};

	if (u->sig)
		return 0; /* the views' open blocks are the registration (arena.h) */
	return ioctl(u->fd, UFFDIO_REGISTER, &r) ? -errno : 0;
}

int uvm_uffd_zap(struct uvm_uffd *u, uintptr_t start, size_t len)
{
	if (u->sig)
		return uvm_sigcap_protect(u->sig, start, len, PROT_NONE, false);
	return madvise((void *)start, len, MADV_DONTNEED) ? -errno : 0;
}

static int zap_each(struct uvm_uffd *u, const struct iovec *iov, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rc = uvm_uffd_zap(u, (uintptr_t)iov[i].iov_base, iov[i].iov_len);

		if (rc)
			return rc;
	}
	return 0;
}

int uvm_uffd_zapv(struct uvm_uffd *u, const struct iovec *iov, size_t n)
{
	if (u->sig || !u->zapv_batched)
		return zap_each(u, iov, n);
	while (n) {
		size_t k = n < ZAPV_MAX_RUNS ? n : ZAPV_MAX_RUNS, want = 0;
		long rc;

		for (size_t i = 0; i < k; i++)
			want += iov[i].iov_len;
		rc = zapv_call(iov, k);
		if (rc < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		/* Stopped part way (a signal, a busy lock): the runs it did not
		 * reach are zapped one by one; zapping one again is harmless. */
		if (rc != (long)want) {
			size_t done = rc > 0 ? (size_t)rc : 0, i = 0;

			while (i < k && done >= iov[i].iov_len)
				done -= iov[i++].iov_len;
			rc = zap_each(u, iov + i, k - i);
			if (rc)
				return (int)rc;
		}
		iov += k;
		n -= k;
	}
	return 0;
}

/*
 * The three populating ioctls share one contract: they report progress in a
 * field of their argument; a partial result is continued from where it
 * stopped, and EAGAIN (mappings changing concurrently) is retried.
 */
int uvm_uffd_copy(struct uvm_uffd *u, uintptr_t dst, uintptr_t src, size_t len, unsigned flags)
{
	if (u->sig)
		return -ENOTSUP; /* the copy backend is refused (uvm_backend_choose) */
	while (len) {
		struct uffdio_copy c = {
		    .dst = dst,
		    .src = src,
		    .len = len,
		    .mode = (flags & UVM_MAP_WAKE ? 0 : UFFDIO_COPY_MODE_DONTWAKE) |
			    (flags & UVM_MAP_WP ? UFFDIO_COPY_MODE_WP : 0),
		};
		int e;

		if (ioctl(u->fd, UFFDIO_COPY, &c) == 0)
			return 0;
		e = errno;
		if (c.copy > 0) {
			dst += (uintptr_t)c.copy;
			src += (uintptr_t)c.copy;
			len -= (size_t)c.copy;
			continue;
		}
		if (e != EAGAIN)
			return -e;
	}
	return 0;
}

int uvm_uffd_zeropage(struct uvm_uffd *u, uintptr_t dst, size_t len, unsigned flags)
{
	/* Shared frames never written (or punched at free) read as zeroes. */
	if (u->sig)
		return uvm_sigcap_protect(u->sig, dst, len, PROT_READ | PROT_WRITE,
					  flags & UVM_MAP_WAKE);
	while (len) {
		struct uffdio_zeropage z = {
		    .range = {dst, len},
		    .mode = flags & UVM_MAP_WAKE ? 0 : UFFDIO_ZEROPAGE_MODE_DONTWAKE};
		int e;

		if (ioctl(u->fd, UFFDIO_ZEROPAGE, &z) == 0)
			return 0;
		e = errno;
		if (z.zeropage > 0) {
			dst += (uintptr_t)z.zeropage;
			len -= (size_t)z.zeropage;
			continue;
		}
		if (e != EAGAIN)
			return -e;
	}
	return 0;
}

int uvm_uffd_continue(struct uvm_uffd *u, uintptr_t dst, size_t len, unsigned flags)
{
	if (u->sig)
		return uvm_sigcap_protect(u->sig, dst, len,
					  flags & UVM_MAP_WP ? PROT_READ : PROT_READ | PROT_WRITE,
					  flags & UVM_MAP_WAKE);
	while (len) {
		struct uffdio_continue c = {
		    .range = {dst, len},
		    .mode = (flags & UVM_MAP_WAKE ? 0 : UFFDIO_CONTINUE_MODE_DONTWAKE) |
			    (flags & UVM_MAP_WP ? UFFDIO_CONTINUE_MODE_WP : 0),
		};
		int e;

		if (ioctl(u->fd, UFFDIO_CONTINUE, &c) == 0)
			return 0;
		e = errno;
		if (c.mapped > 0) {
			dst += (uintptr_t)c.mapped;
			len -= (size_t)c.mapped;
			continue;
		}
		if (e != EAGAIN)
			return -e;
	}
	return 0;
}

int uvm_uffd_wake(struct uvm_uffd *u, uintptr_t start, size_t len)
{
	struct uffdio_range r = {start, len};

	if (u->sig)
		return uvm_sigcap_wake(u->sig, start, len);
	return ioctl(u->fd, UFFDIO_WAKE, &r) ? -errno : 0;
}

static int writeprotect(struct uvm_uffd *u, uintptr_t start, size_t len, uint64_t mode)
{
	struct uffdio_writeprotect w = {.range = {start, len}, .mode = mode};

	for (;;) {
		if (ioctl(u->fd, UFFDIO_WRITEPROTECT, &w) == 0)
			return 0;
		if (errno != EAGAIN)
			return -errno;
	}
}

int uvm_uffd_protect(struct uvm_uffd *u, uintptr_t start, size_t len)
{
	if (u->sig)
		return uvm_sigcap_protect(u->sig, start, len, PROT_READ, false);
	/* The kernel refuses DONTWAKE with WP. */
	return writeprotect(u, start, len, UFFDIO_WRITEPROTECT_MODE_WP);
}

int uvm_uffd_unprotect(struct uvm_uffd *u, uintptr_t start, size_t len, unsigned flags)
{
	if (u->sig)
		return uvm_sigcap_protect(u->sig, start, len, PROT_READ | PROT_WRITE,
					  flags & UVM_MAP_WAKE);
	return writeprotect(u, start, len,
			    flags & UVM_MAP_WAKE ? 0 : UFFDIO_WRITEPROTECT_MODE_DONTWAKE);
}

int uvm_uffd_open(struct uvm_uffd *u, char *err, size_t errlen)
{
	return uvm_uffd_open_as(u, UVM_CAPTURE_AUTO, err, errlen);
}
