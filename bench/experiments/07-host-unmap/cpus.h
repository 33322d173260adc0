/* SPDX-License-Identifier: MIT */
/*
 * cpus - where hostthreads' two sides run (--placement).
 *
 * On a GPU machine the emulated "GPU" is not a host CPU: while a
 * single-threaded host program waits for its kernel, the only CPU in its
 * address space's shootdown set is the one the driver unmaps from. Under
 * the emulator the GPU side is threads of the same process, so by default
 * (shared) they and the busy threads spread over every CPU and even K = 0
 * sends shootdowns. split gives the program's own threads (the driver, the
 * GPU side, main) the first CPU of the affinity mask and the busy threads
 * or processes the rest, so that only a busy thread of this process puts
 * another CPU in its shootdown set.
 */
#ifndef HOSTTHREADS_CPUS_H
#define HOSTTHREADS_CPUS_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

struct cpus {
	bool split;
	cpu_set_t own;	 /* the program's threads */
	cpu_set_t busy;	 /* the busy threads or processes */
	unsigned pinned; /* threads moved to own at start (main, the emulator's) */
};

/* Parses --placement (shared or split) and, for split, pins every thread the
 * process has now (the emulator's included) to the first CPU of its
 * affinity mask. Returns 0, or -1 with a message in err (the mask has one
 * CPU, or the name is not a placement). */
int cpus_init(struct cpus *c, const char *placement, char *err, size_t errlen);

/* Busy threads start on the busy CPUs (split only); returns 0 or an errno. */
int cpus_busy_thread(const struct cpus *c, pthread_attr_t *attr);

/* Moves busy process pid to the busy CPUs (split only): posix_spawn has no
 * affinity attribute, and the busy loop only starts after a warm-up. */
int cpus_busy_process(const struct cpus *c, pid_t pid);

/* Whether a thread of the busy side (or of the program's, !busy_side) seen
 * on cpu ran where the placement puts it; always under shared. */
bool cpus_held(const struct cpus *c, bool busy_side, int cpu);

/* The placement's name and CPUs, for the log: "split (own 0, busy 1-3)". */
void cpus_describe(const struct cpus *c, char *buf, size_t len);

#endif
