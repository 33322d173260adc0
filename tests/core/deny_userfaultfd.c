// SPDX-License-Identifier: MIT
/*
 * deny-userfaultfd [--user-mode-only] PROGRAM [ARGS...] - runs PROGRAM where
 * userfaultfd is unavailable, as in a container with Docker's default seccomp
 * profile: the system call fails with ENOSYS, and, when started as root, the
 * program runs as `nobody` so that /dev/userfaultfd (root-only) is refused
 * too. With --user-mode-only the system call is refused with EPERM unless it
 * asks for UFFD_USER_MODE_ONLY, which is what an unprivileged user meets on
 * a distribution with vm.unprivileged_userfaultfd=0 (without changing that
 * system-wide setting).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH"
#endif

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

int main(int argc, char **argv)
{
	/* userfaultfd(flags): EPERM without UFFD_USER_MODE_ONLY in flags. */
	struct sock_filter user_mode[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_userfaultfd, 0, 3),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, UFFD_USER_MODE_ONLY, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_userfaultfd, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};

	if (argc > 1 && strcmp(argv[1], "--user-mode-only") == 0) {
		prog = (struct sock_fprog){sizeof(user_mode) / sizeof(user_mode[0]), user_mode};
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: deny-userfaultfd [--user-mode-only] PROGRAM [ARGS...]\n");
		return 2;
	}
	if (geteuid() == 0 && (setgid(65534) || setuid(65534))) {
		perror("deny-userfaultfd: dropping to nobody");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("deny-userfaultfd: installing the seccomp filter");
		return 2;
	}
	execvp(argv[1], &argv[1]);
	fprintf(stderr, "deny-userfaultfd: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
