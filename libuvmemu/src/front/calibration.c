// SPDX-License-Identifier: MIT
/* calibration.c - the saved executor bandwidth (calibration.h). */
#include "calibration.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The CPU model line of /proc/cpuinfo, or "unknown cpu". */
static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(out, len, "unknown cpu");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

void uvm_calib_machine(char *out, size_t len)
{
	char host[64] = "unknown host", cpu[96];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	gethostname(host, sizeof(host) - 1);
	cpu_model(cpu, sizeof(cpu));
	/* Slashes separate the fields; none may hide inside one. */
	for (char *p = cpu; *p; p++)
		*p = *p == '/' ? '-' : *p;
	snprintf(out, len, "%s/%s/%ld cpus/%ld MiB", host, cpu, ncpu,
		 (long)((double)pages * (double)page / (1 << 20)));
}

int uvm_calib_path(const char *option, char *out, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (option && strcmp(option, "none") == 0)
		return -ENOENT;
	if (option && *option)
		n = snprintf(out, len, "%s", option);
	else if (xdg && *xdg)
		n = snprintf(out, len, "%s/uvmemu/calibration", xdg);
	else
		n = snprintf(out, len, "%s/.cache/uvmemu/calibration",
			     home && *home ? home : "/tmp");
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static int parse_line(struct uvm_calib *c, char *line)
{
	char *eq = strchr(line, '='), *name = line, *val, *end;
	size_t n;

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	val = eq + 1 + strspn(eq + 1, " \t");
	val[strcspn(val, "\r\n")] = '\0';
	n = strcspn(name, " \t");
	name[n] = '\0';
	if (strcmp(name, "machine") == 0)
		snprintf(c->machine, sizeof(c->machine), "%s", val);
	else if (strcmp(name, "build") == 0)
		snprintf(c->build, sizeof(c->build), "%s", val);
	else if (strcmp(name, "date") == 0)
		snprintf(c->date, sizeof(c->date), "%s", val);
	else if (strcmp(name, "runs") == 0)
		c->runs = (unsigned)strtoul(val, &end, 10);
	else if (strcmp(name, "bytes_per_s") == 0)
		c->bytes_per_s = strtod(val, &end);
	else if (strcmp(name, "min_bytes_per_s") == 0)
		c->min_bytes_per_s = strtod(val, &end);
	else if (strcmp(name, "max_bytes_per_s") == 0)
		c->max_bytes_per_s = strtod(val, &end);
	else
		return -EINVAL;
	return 0;
}

int uvm_calib_read(const char *path, const char *build, struct uvm_calib *out, char *why,
		   size_t whylen)
{
	FILE *f = fopen(path, "r");
	char line[512], machine[160];
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (parse_line(out, line)) {
			snprintf(why, whylen, "%s:%d: not a line of a calibration file", path,
				 lineno);
			fclose(f);
			return -EINVAL;
		}
	}
	fclose(f);
	if (!(out->bytes_per_s > 0) || !*out->machine || !*out->build) {
		snprintf(why, whylen, "%s: no machine, build or bytes_per_s", path);
		return -EINVAL;
	}
	uvm_calib_machine(machine, sizeof(machine));
	if (strcmp(machine, out->machine) != 0) {
		snprintf(why, whylen, "%s was measured on %s, this is %s", path, out->machine,
			 machine);
		return -ESTALE;
	}
	if (strcmp(build, out->build) != 0) {
		snprintf(why, whylen, "%s was measured with an executor built %s, this one is %s",
			 path, out->build, build);
		return -ESTALE;
	}
	return 0;
}

/* mkdir -p of the file's directory. */
static int make_parent(const char *path)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(dir, 0755) && errno != EEXIST ? -errno : 0;
}

int uvm_calib_write(const char *path, const struct uvm_calib *c)
{
	int rc = make_parent(path);
	FILE *f;

	if (rc)
		return rc;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(
	    f,
	    "# uvmemu calibration: the executor's stream bandwidth on this machine, the median\n"
	    "# of `runs` runs in separate processes (uvmemu calibrate). --dilation auto reads\n"
	    "# it while machine and build match.\n"
	    "machine = %s\nbuild = %s\ndate = %s\nruns = %u\nbytes_per_s = %.6g\n"
	    "min_bytes_per_s = %.6g\nmax_bytes_per_s = %.6g\n",
	    c->machine, c->build, c->date, c->runs, c->bytes_per_s, c->min_bytes_per_s,
	    c->max_bytes_per_s);
	rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}
