// SPDX-License-Identifier: MIT
/*
 * deny-userfaultfd PROGRAM [ARGS...] - runs PROGRAM where userfaultfd is
 * unavailable, as in a container with Docker's default seccomp profile: the
 * system call fails with ENOSYS, and, when started as root, the program runs
 * as `nobody` so that /dev/userfaultfd (root-only) is refused too.
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

int main(int argc, char **argv)
{
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

	if (argc < 2) {
		fprintf(stderr, "usage: deny-userfaultfd PROGRAM [ARGS...]\n");
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
