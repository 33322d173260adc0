// SPDX-License-Identifier: MIT
#include "cpus.h"

#include <dirent.h>
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every thread of the process, the emulator's driver and helpers included:
 * they were started before main and would keep the whole mask. Threads
 * started later inherit their creator's CPUs. */
static int pin_all_threads(const cpu_set_t *set, unsigned *pinned)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	int rc = 0;

	if (!dir)
		return -errno;
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (sched_setaffinity(tid, sizeof(*set), set) == 0)
			(*pinned)++;
		else if (errno != ESRCH) /* ESRCH: the thread has just ended */
			rc = -errno;
	}
	closedir(dir);
	return rc;
}

int cpus_init(struct cpus *c, const char *placement, char *err, size_t errlen)
{
	cpu_set_t mask;
	int first = -1, rc;

	memset(c, 0, sizeof(*c));
	if (strcmp(placement, "shared") == 0)
		return 0;
	if (strcmp(placement, "split") != 0) {
		snprintf(err, errlen, "--placement '%s': shared or split", placement);
		return -1;
	}
	if (sched_getaffinity(0, sizeof(mask), &mask)) {
		snprintf(err, errlen, "--placement split: cannot read the affinity mask: %s",
			 strerror(errno));
		return -1;
	}
	if (CPU_COUNT(&mask) < 2) {
		snprintf(err, errlen,
			 "--placement split needs 2 or more CPUs in the affinity mask; this "
			 "process has %d (taskset, cgroup cpuset): use --placement shared",
			 CPU_COUNT(&mask));
		return -1;
	}
	for (int i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &mask))
			first = i;
	CPU_SET(first, &c->own);
	c->busy = mask;
	CPU_CLR(first, &c->busy);
	c->split = true;
	rc = pin_all_threads(&c->own, &c->pinned);
	if (rc) {
		snprintf(err, errlen, "--placement split: cannot pin the program's threads: %s",
			 strerror(-rc));
		return -1;
	}
	return 0;
}

int cpus_busy_thread(const struct cpus *c, pthread_attr_t *attr)
{
	return c->split ? pthread_attr_setaffinity_np(attr, sizeof(c->busy), &c->busy) : 0;
}

int cpus_busy_process(const struct cpus *c, pid_t pid)
{
	if (c->split && sched_setaffinity(pid, sizeof(c->busy), &c->busy))
		return errno;
	return 0;
}

bool cpus_held(const struct cpus *c, bool busy_side, int cpu)
{
	return !c->split || (cpu >= 0 && CPU_ISSET(cpu, busy_side ? &c->busy : &c->own));
}

/* "0", "1-3", "1,3": hwloc's list syntax, as taskset -c takes it. */
static void set_text(const cpu_set_t *set, char *buf, size_t len)
{
	hwloc_bitmap_t bm = hwloc_bitmap_alloc();

	buf[0] = '\0';
	if (!bm)
		return;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, set))
			hwloc_bitmap_set(bm, (unsigned)i);
	hwloc_bitmap_list_snprintf(buf, len, bm);
	hwloc_bitmap_free(bm);
}

void cpus_describe(const struct cpus *c, char *buf, size_t len)
{
	char own[64], busy[256];

	if (!c->split) {
		snprintf(buf, len, "shared");
		return;
	}
	set_text(&c->own, own, sizeof(own));
	set_text(&c->busy, busy, sizeof(busy));
	snprintf(buf, len, "split (program on CPU %s, busy side on %s)", own, busy);
}
