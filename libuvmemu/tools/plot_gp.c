// SPDX-License-Identifier: MIT
/*
 * plot_gp.c - running gnuplot: the temporary directory that holds a plot's
 * scripts and data, a figure rendered twice (PNG with pngcairo, SVG), and
 * gnuplot's own error line passed on when it fails.
 *
 * gnuplot runs with the temporary directory as its working directory, so
 * figure scripts name their data files without a path; outputs are given as
 * absolute paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"
#include "tmpdir.h"

#define GNUPLOT_PACKAGE "gnuplot-nox"

static bool too_long(int written, size_t size)
{
	return written < 0 || (size_t)written >= size;
}

int plot_path(char *out, size_t size, const char *dir, const char *name)
{
	return too_long(dir ? snprintf(out, size, "%s/%s", dir, name)
			    : snprintf(out, size, "%s", name),
			size)
		   ? -1
		   : 0;
}

FILE *plot_job_open_result(struct plot_job *j, const char *name)
{
	char path[PATH_MAX];

	if (plot_path(path, sizeof(path), j->tmp, name))
		return NULL;
	return fopen(path, "r");
}

static int find_in_path(const char *prog, char *out, size_t outlen)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		int w = snprintf(out, outlen, "%.*s/%s", (int)n, n ? path : ".", prog);

		if (w > 0 && (size_t)w < outlen && access(out, X_OK) == 0)
			return 0;
		if (!colon)
			break;
		path = colon + 1;
	}
	return -1;
}

int plot_job_open(struct plot_job *j, bool keep, char *err, size_t len)
{
	memset(j, 0, sizeof(*j));
	j->keep = keep;
	if (find_in_path("gnuplot", j->gnuplot, sizeof(j->gnuplot))) {
		snprintf(err, len, "gnuplot not found in PATH: install it (apt-get install %s)",
			 GNUPLOT_PACKAGE);
		return -1;
	}
	return tool_tmpdir_make(j->tmp, sizeof(j->tmp), "uvmemu-plot.", err, len);
}

void plot_job_close(struct plot_job *j)
{
	if (!j->tmp[0])
		return;
	if (j->keep) {
		printf("kept scripts and data in %s\n", j->tmp);
		return;
	}
	/* Only files this job wrote live there: no subdirectories. */
	tool_tmpdir_remove(j->tmp);
	j->tmp[0] = '\0';
}

FILE *plot_job_create(struct plot_job *j, const char *name, char *err, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	if (too_long(snprintf(path, sizeof(path), "%s/%s", j->tmp, name), sizeof(path))) {
		snprintf(err, len, "%s/%s: path too long", j->tmp, name);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		snprintf(err, len, "%s: %s", path, strerror(errno));
	return f;
}

int plot_job_fclose(struct plot_job *j, FILE *f, const char *name, char *err, size_t len)
{
	bool bad = ferror(f) != 0;

	if (fclose(f) || bad) {
		snprintf(err, len, "%s/%s: write failed: %s", j->tmp, name, strerror(errno));
		return -1;
	}
	return 0;
}

void plot_gp_str(FILE *f, const char *s)
{
	/* In single quotes gnuplot takes everything literally but '' for '. */
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('\'', f);
}

void plot_gp_qstr(FILE *f, const char *s)
{
	/* Double quotes: the only way to put a line break in a title. */
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The line of gnuplot's log that says what went wrong: its own error lines
 * name the script and line; otherwise the last line it printed. */
static void first_error(const char *log, char *out, size_t outlen)
{
	FILE *f = fopen(log, "r");
	char line[512];

	snprintf(out, outlen, "no message");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || strspn(line, " ^") == strlen(line))
			continue;
		snprintf(out, outlen, "%s", line + strspn(line, " "));
		if (strstr(line, " line ") && strchr(line, ':'))
			break;
	}
	fclose(f);
}

int plot_job_exec(struct plot_job *j, const char *script, char *err, size_t len)
{
	char log[PATH_MAX], msg[300];
	pid_t pid;
	int status;

	if (too_long(snprintf(log, sizeof(log), "%s/%s.log", j->tmp, script), sizeof(log))) {
		snprintf(err, len, "%s/%s: path too long", j->tmp, script);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int in = open("/dev/null", O_RDONLY);

		if (out < 0 || in < 0 || chdir(j->tmp))
			_exit(126);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		execl(j->gnuplot, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, len, "waiting for gnuplot: %s", strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	j->tool_failed = true;
	first_error(log, msg, sizeof(msg));
	snprintf(err, len, "gnuplot (%s) failed on %s/%s: %s%s", j->gnuplot, j->tmp, script, msg,
		 j->keep ? "" : " (--keep keeps the scripts)");
	return -1;
}

static int check_output(struct plot_job *j, const char *path, char *err, size_t len)
{
	struct stat st;

	if (stat(path, &st) || st.st_size == 0) {
		snprintf(err, len, "%s: gnuplot wrote nothing", path);
		return -1;
	}
	printf("wrote %s (%lld bytes)\n", path, (long long)st.st_size);
	j->written++;
	return 0;
}

int plot_job_render(struct plot_job *j, const char *body, const char *outdir,
		    const char *out_prefix, int width, int height, char *err, size_t len)
{
	struct plot_figure *g;
	char given[PATH_MAX], cwd[PATH_MAX];

	if (j->nfig == PLOT_MAX_FIGURES) {
		snprintf(err, len, "more than %d figures in one plot", PLOT_MAX_FIGURES);
		return -1;
	}
	g = &j->fig[j->nfig];
	if (plot_path(given, sizeof(given), outdir, out_prefix)) {
		snprintf(err, len, "%s/%s: path too long", outdir ? outdir : ".", out_prefix);
		return -1;
	}
	/* gnuplot runs in tmp: outputs need absolute paths. */
	if (given[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd))) {
			snprintf(err, len, "cannot find the working directory: %s",
				 strerror(errno));
			return -1;
		}
		if (plot_path(g->prefix, sizeof(g->prefix), cwd, given)) {
			snprintf(err, len, "%s: path too long", given);
			return -1;
		}
	} else {
		snprintf(g->prefix, sizeof(g->prefix), "%s", given);
	}
	snprintf(g->body, sizeof(g->body), "%s", body);
	g->width = width;
	g->height = height;
	j->nfig++;
	return 0;
}

static const struct {
	const char *ext, *terminal;
} terms[] = {
    {"png", "pngcairo"},
    {"svg", "svg"},
};
#define NTERMS (sizeof(terms) / sizeof(terms[0]))

static int render(struct plot_job *j, const struct plot_figure *g, char *err, size_t len)
{
	char script[96], out[PATH_MAX + 8];
	FILE *f;

	/* An old output left in place would pass for a new one. */
	for (size_t i = 0; i < NTERMS; i++) {
		snprintf(out, sizeof(out), "%s.%s", g->prefix, terms[i].ext);
		if (unlink(out) && errno != ENOENT) {
			snprintf(err, len, "%s: cannot replace it: %s", out, strerror(errno));
			return -1;
		}
	}
	snprintf(script, sizeof(script), "main-%s", g->body);
	f = plot_job_create(j, script, err, len);
	if (!f)
		return -1;
	fprintf(f, "set encoding utf8\n");
	for (size_t i = 0; i < NTERMS; i++) {
		snprintf(out, sizeof(out), "%s.%s", g->prefix, terms[i].ext);
		/* noenhanced: names such as bfs_kernel1 must not turn into subscripts. */
		fprintf(f,
			"set terminal %s size %d,%d noenhanced font 'sans,10' background "
			"rgb 'white'\nset output ",
			terms[i].terminal, g->width, g->height);
		plot_gp_str(f, out);
		fprintf(f, "\nload '%s'\nunset output\n", g->body);
	}
	if (plot_job_fclose(j, f, script, err, len) || plot_job_exec(j, script, err, len))
		return -1;
	for (size_t i = 0; i < NTERMS; i++) {
		snprintf(out, sizeof(out), "%s.%s", g->prefix, terms[i].ext);
		if (check_output(j, out, err, len))
			return -1;
	}
	return 0;
}

int plot_job_flush(struct plot_job *j, char *err, size_t len)
{
	for (int i = 0; i < j->nfig; i++)
		if (render(j, &j->fig[i], err, len))
			return -1;
	j->nfig = 0;
	return 0;
}
