// SPDX-License-Identifier: MIT
/*
 * syscalls.c - system calls on managed buffers, for the captures that do
 * not see kernel-mode touches (mprotect, user-mode-only).
 *
 * There a read(2) into a block not mapped in the host view fails with EFAULT
 * where a program on a real GPU system would simply fault and go on. Each
 * wrapper here pins every managed range its buffers touch on the host
 * (core/host_pin.h) for the call's duration, then calls the C library's
 * function. Under full userfaultfd the kernel's own faults reach the driver,
 * and the wrappers pass straight through.
 *
 * Covered: read, write, pread(64), pwrite(64), readv, writev, preadv(64),
 * pwritev(64), recv, recvfrom, recvmsg, send, sendto, sendmsg, fread,
 * fwrite. Not covered (README): every other call taking a user buffer
 * (ioctl, getdents, stat, io_uring, splice/vmsplice, recvmmsg/sendmmsg,
 * preadv2/pwritev2, aio, mmap'ed files...), and calls glibc makes on its own
 * internal aliases (fgets, fscanf, getline... on their FILE buffers, which
 * are not managed unless setvbuf gave them one).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "emu.h"
#include "host_pin.h"
#include "shim.h"

/* Buffers of one call; more iovecs than this are pinned in a heap array. */
#define INLINE_PINS 8

struct guard {
	struct uvm_emu *e;
	struct uvm_host_pin in[INLINE_PINS], *pin;
	size_t n, cap;
};

static struct uvm_emu *wrapping(void)
{
	struct uvm_emu *e = uvm_rt_emu_started();

	return e && uvm_emu_capture_blind(e) ? e : NULL;
}

static void guard_init(struct guard *g)
{
	g->e = wrapping();
	g->pin = g->in;
	g->n = 0;
	g->cap = INLINE_PINS;
}

static int guard_add(struct guard *g, const void *p, size_t len)
{
	struct uvm_host_pin pin;
	int rc;

	if (!g->e || !len)
		return 0;
	rc = uvm_host_pin(g->e, p, len, &pin);
	if (rc <= 0)
		return rc;
	if (g->n == g->cap) {
		size_t cap = 2 * g->cap;
		struct uvm_host_pin *np = malloc(cap * sizeof(*np));

		if (!np) {
			uvm_host_unpin(g->e, &pin);
			return -ENOMEM;
		}
		for (size_t i = 0; i < g->n; i++)
			np[i] = g->pin[i];
		if (g->pin != g->in)
			free(g->pin);
		g->pin = np;
		g->cap = cap;
	}
	g->pin[g->n++] = pin;
	return 0;
}

static int guard_iov(struct guard *g, const struct iovec *iov, int cnt)
{
	int rc = 0;

	for (int i = 0; i < cnt && !rc && iov; i++)
		rc = guard_add(g, iov[i].iov_base, iov[i].iov_len);
	return rc;
}

static int guard_msg(struct guard *g, const struct msghdr *m)
{
	int rc;

	if (!m || !g->e)
		return 0;
	rc = guard_iov(g, m->msg_iov, (int)m->msg_iovlen);
	if (!rc)
		rc = guard_add(g, m->msg_name, m->msg_namelen);
	if (!rc)
		rc = guard_add(g, m->msg_control, m->msg_controllen);
	return rc;
}

/* Unpins, keeping the call's errno. */
static void guard_end(struct guard *g)
{
	int e = errno;

	for (size_t i = 0; i < g->n; i++)
		uvm_host_unpin(g->e, &g->pin[i]);
	if (g->pin != g->in)
		free(g->pin);
	errno = e;
}

/* A pin that could not be made (out of memory) fails the call as the
 * kernel would have. */
#define FAIL_IF(rc)                                                                                \
	do {                                                                                       \
		if (rc) {                                                                          \
			guard_end(&g);                                                             \
			errno = -(rc);                                                             \
			return -1;                                                                 \
		}                                                                                  \
	} while (0)

#define REAL(name)                                                                                 \
	static __typeof__(name) *_Atomic real_##name;                                              \
	if (!real_##name)                                                                          \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name);

/* name(params): pins what pin_expr names, calls the C library's, unpins. */
#define WRAP(ret, name, params, pin_expr, args)                                                    \
	ret name params                                                                            \
	{                                                                                          \
		struct guard g;                                                                    \
		ret r;                                                                             \
		REAL(name)                                                                         \
		guard_init(&g);                                                                    \
		FAIL_IF(pin_expr);                                                                 \
		r = real_##name args;                                                              \
		guard_end(&g);                                                                     \
		return r;                                                                          \
	}
#define WRAP1(ret, name, params, buf, len, args)                                                   \
	WRAP(ret, name, params, guard_add(&g, buf, len), args)
#define WRAPV(name, params, iov, cnt, args)                                                        \
	WRAP(ssize_t, name, params, guard_iov(&g, iov, cnt), args)
#define WRAPM(name, params, msg, args) WRAP(ssize_t, name, params, guard_msg(&g, msg), args)

#define EXPORT __attribute__((visibility("default")))

EXPORT WRAP1(ssize_t, read, (int fd, void *buf, size_t n), buf, n, (fd, buf, n)) EXPORT
    WRAP1(ssize_t, write, (int fd, const void *buf, size_t n), buf, n, (fd, buf, n)) EXPORT
    WRAP1(ssize_t, pread, (int fd, void *buf, size_t n, off_t o), buf, n, (fd, buf, n, o)) EXPORT
    WRAP1(ssize_t, pread64, (int fd, void *buf, size_t n, off64_t o), buf, n,
	  (fd, buf, n, o)) EXPORT
    WRAP1(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t o), buf, n,
	  (fd, buf, n, o)) EXPORT
    WRAP1(ssize_t, pwrite64, (int fd, const void *buf, size_t n, off64_t o), buf, n,
	  (fd, buf, n, o)) EXPORT
    WRAP1(ssize_t, recv, (int fd, void *buf, size_t n, int fl), buf, n, (fd, buf, n, fl)) EXPORT
    WRAP1(ssize_t, send, (int fd, const void *buf, size_t n, int fl), buf, n,
	  (fd, buf, n, fl)) EXPORT
    WRAP1(ssize_t, sendto,
	  (int fd, const void *buf, size_t n, int fl, const struct sockaddr *to, socklen_t tl), buf,
	  n, (fd, buf, n, fl, to, tl)) EXPORT
    WRAP1(size_t, fread, (void *restrict p, size_t sz, size_t cnt, FILE *restrict f), p, sz *cnt,
	  (p, sz, cnt, f)) EXPORT
    WRAP1(size_t, fwrite, (const void *restrict p, size_t sz, size_t cnt, FILE *restrict f), p,
	  sz *cnt, (p, sz, cnt, f))

	static int guard_from(struct guard *g, void *buf, size_t n, void *from,
			      const socklen_t *fromlen)
{
	int rc = guard_add(g, buf, n);

	return rc || !from || !fromlen ? rc : guard_add(g, from, *fromlen);
}

EXPORT WRAP(ssize_t, recvfrom,
	    (int fd, void *restrict buf, size_t n, int fl, struct sockaddr *restrict from,
	     socklen_t *restrict fromlen),
	    guard_from(&g, buf, n, from, fromlen), (fd, buf, n, fl, from, fromlen)) EXPORT
    WRAPV(readv, (int fd, const struct iovec *iov, int cnt), iov, cnt, (fd, iov, cnt)) EXPORT
    WRAPV(writev, (int fd, const struct iovec *iov, int cnt), iov, cnt, (fd, iov, cnt)) EXPORT
    WRAPV(preadv, (int fd, const struct iovec *iov, int cnt, off_t o), iov, cnt,
	  (fd, iov, cnt, o)) EXPORT
    WRAPV(preadv64, (int fd, const struct iovec *iov, int cnt, off64_t o), iov, cnt,
	  (fd, iov, cnt, o)) EXPORT
    WRAPV(pwritev, (int fd, const struct iovec *iov, int cnt, off_t o), iov, cnt,
	  (fd, iov, cnt, o)) EXPORT
    WRAPV(pwritev64, (int fd, const struct iovec *iov, int cnt, off64_t o), iov, cnt,
	  (fd, iov, cnt, o)) EXPORT
    WRAPM(recvmsg, (int fd, struct msghdr *m, int fl), m, (fd, m, fl)) EXPORT
    WRAPM(sendmsg, (int fd, const struct msghdr *m, int fl), m, (fd, m, fl))
