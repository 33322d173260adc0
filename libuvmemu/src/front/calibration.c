// SPDX-License-Identifier: MIT
/* calibration.c - the saved executor bandwidth (calibration.h). */
#include "calibration.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "units.h"

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

/* The cache's base directory is ours alone: owned by this user and not
 * writable by everyone (as /tmp is). */
static int private_dir(const char *var, const char *dir, char *why, size_t whylen)
{
	struct stat st;

	if (stat(dir, &st)) {
		snprintf(why, whylen, "$%s (%s): %s", var, dir, strerror(errno));
		return -EPERM;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & S_IWOTH)) {
		snprintf(why, whylen, "$%s (%s) is %s", var, dir,
			 !S_ISDIR(st.st_mode)	  ? "not a directory"
			 : st.st_uid != geteuid() ? "another user's"
						  : "writable by every user");
		return -EPERM;
	}
	return 0;
}

int uvm_calib_path(const char *option, char *out, size_t len, char *why, size_t whylen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	bool use_xdg = xdg && *xdg;
	const char *var = use_xdg ? "XDG_CACHE_HOME" : "HOME", *base = use_xdg ? xdg : home;
	int n, rc;

	if (option && strcmp(option, "none") == 0)
		return -ENOENT;
	if (option && *option) {
		n = snprintf(out, len, "%s", option);
		return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
	}
	if (!base || !*base) {
		snprintf(why, whylen,
			 "no private cache directory: $XDG_CACHE_HOME and $HOME "
			 "are unset");
		return -EPERM;
	}
	rc = private_dir(var, base, why, whylen);
	if (rc)
		return rc;
	n = snprintf(out, len, "%s/%suvmemu/calibration", base, use_xdg ? "" : ".cache/");
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

/* A bandwidth of the file: a finite number > 0 (the file may be anyone's
 * doing; "inf" or 1e-300 would make the dilation meaningless). */
static int positive(const char *val, double *out)
{
	double v;

	if (uvm_parse_double(val, &v) || !(v > 0))
		return -ERANGE;
	*out = v;
	return 0;
}

/* One setting; -EINVAL for an unknown name, -ERANGE for a value out of its
 * bounds. */
static int parse_setting(struct uvm_calib *c, const char *name, const char *val)
{
	long long runs;

	if (strcmp(name, "machine") == 0)
		snprintf(c->machine, sizeof(c->machine), "%s", val);
	else if (strcmp(name, "build") == 0)
		snprintf(c->build, sizeof(c->build), "%s", val);
	else if (strcmp(name, "date") == 0)
		snprintf(c->date, sizeof(c->date), "%s", val);
	else if (strcmp(name, "runs") == 0) {
		if (uvm_parse_int(val, &runs) || runs < 1 || runs > UINT32_MAX)
			return -ERANGE;
		c->runs = (unsigned)runs;
	} else if (strcmp(name, "bytes_per_s") == 0)
		return positive(val, &c->bytes_per_s);
	else if (strcmp(name, "min_bytes_per_s") == 0)
		return positive(val, &c->min_bytes_per_s);
	else if (strcmp(name, "max_bytes_per_s") == 0)
		return positive(val, &c->max_bytes_per_s);
	else if (strcmp(name, "block_ns") == 0)
		return positive(val, &c->block_ns);
	else
		return -EINVAL;
	return 0;
}

/* A `name = value` line split in place; -EINVAL without '='. */
static int split(char *line, char **name, char **val)
{
	char *eq = strchr(line, '=');

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	*val = eq + 1 + strspn(eq + 1, " \t");
	(*val)[strcspn(*val, "\r\n")] = '\0';
	*name = line;
	line[strcspn(line, " \t")] = '\0';
	return 0;
}

int uvm_calib_read(const char *path, const char *build, struct uvm_calib *out, char *why,
		   size_t whylen)
{
	FILE *f = fopen(path, "r");
	char line[512], machine[160], *name, *val;
	int lineno = 0, rc;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		rc = split(line, &name, &val);
		if (!rc)
			rc = parse_setting(out, name, val);
		if (rc) {
			if (rc == -ERANGE)
				snprintf(why, whylen,
					 "%s:%d: %s = '%.40s': not a finite number > 0", path,
					 lineno, name, val);
			else
				snprintf(why, whylen, "%s:%d: not a line of a calibration file",
					 path, lineno);
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
	if (c->block_ns > 0)
		fprintf(f, "block_ns = %.6g\n", c->block_ns);
	rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}
