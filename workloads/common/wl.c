// SPDX-License-Identifier: MIT
/* wl.c - the conventions every workload shares (see wl.h). */
#include "wl.h"
#include "wl_fmt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sizes: a number with an optional K, M, G or T suffix (powers of 1024). */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	int shift = 0;

	if (!s || !(*s >= '0' && *s <= '9'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	case 't':
	case 'T':
		shift = 40;
		end++;
		break;
	default:
		break;
	}
	if (*end == 'i')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -EINVAL;
	v = ldexp(v, shift);
	if (v >= 0x1p62 || v != floor(v))
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

void wl_usage_error(const struct wl *w, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", w->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* The line above is the run's whole output: no runtime summary. */
	uvmemu_usage_error();
	exit(2);
}

/* The preset of this program, if one of its sources registered one. */
static const struct wl_preset *wl_preset_of;

void wl_preset_register(const struct wl_preset *p)
{
	wl_preset_of = p;
}

/* Whether `arg` is --NAME or --NAME=VALUE for a --NAME among `words`. */
static bool names_option(const char *arg, const char *words)
{
	size_t n;

	if (!words || strncmp(arg, "--", 2) != 0)
		return false;
	n = strcspn(arg, "=");
	for (const char *p = words; *p;) {
		size_t len = strcspn(p, " ");

		if (len == n && strncmp(p, arg, n) == 0)
			return true;
		p += len;
		p += strspn(p, " ");
	}
	return false;
}

/* Appends the words of `s` (separated by spaces) to v at *n. Pointers into a
 * copy of `s` that lives as long as the program: option values may point
 * into it. */
static void append_words(char **v, int *n, const char *s)
{
	char *copy, *save = NULL;

	if (!s)
		return;
	copy = strdup(s);
	if (!copy) {
		fprintf(stderr, "%s: out of memory for the preset's arguments\n",
			wl_preset_of->name);
		exit(1);
	}
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
		v[(*n)++] = t;
}

/* argv with the preset's words before the user's (see struct wl_preset). */
static char **preset_argv(int argc, char **argv, int *out_argc)
{
	const struct wl_preset *p = wl_preset_of;
	/* Every word takes at least two characters with its separator. */
	size_t most = (size_t)argc + 1 + (p->args ? strlen(p->args) / 2 + 1 : 0) +
		      (p->input ? strlen(p->input) / 2 + 1 : 0);
	char **v = calloc(most, sizeof(*v));
	bool sized = false;
	int n = 0;

	if (!v) {
		fprintf(stderr, "%s: out of memory for the preset's arguments\n", p->name);
		exit(1);
	}
	for (int i = 1; i < argc; i++)
		sized |= names_option(argv[i], "--footprint") || names_option(argv[i], p->input) ||
			 names_option(argv[i], p->replaced_by);
	v[n++] = argv[0];
	append_words(v, &n, p->args);
	if (!sized)
		append_words(v, &n, p->input);
	for (int i = 1; i < argc; i++)
		v[n++] = argv[i];
	*out_argc = n;
	return v;
}

static void help(const struct wl *w, const char *summary, const struct wl_opt *opts)
{
	const struct wl_preset *p = wl_preset_of;

	printf("usage: %s [options]\n%s\n", w->name, summary);
	if (p) {
		printf("\ndefaults (%s), read before the options given:\n", p->origin);
		if (p->args)
			printf("  %s\n", p->args);
		if (p->input)
			printf("  %s (unless --footprint%s%s or one of these options is given)\n",
			       p->input, p->replaced_by ? ", " : "",
			       p->replaced_by ? p->replaced_by : "");
	}
	printf("\noptions:\n");
	printf("  --footprint SIZE   size the problem so the managed footprint is close to SIZE "
	       "(e.g. 256M)\n");
	printf("  --seed N           seed of the input generator (default 1)\n");
	printf("  --quiet            no progress lines\n");
	printf("  --dry-run          print the footprint, then stop without running\n");
	printf("  --output FILE      write the result (computed on the GPU) to FILE as text\n");
	for (const struct wl_opt *o = opts; o && o->name; o++)
		printf("  --%-16s %s\n", o->name, o->help);
	printf("  --help             this text\n");
}

static void set_opt(const struct wl *w, const struct wl_opt *o, const char *arg)
{
	char *end;
	long long ll;
	uint64_t sz;

	switch (o->type) {
	case WL_SIZE:
		if (parse_size(arg, &sz) || (long long)sz < o->min ||
		    (o->max && (long long)sz > o->max))
			wl_usage_error(w, "--%s '%s': expected a size (e.g. 64M)%s", o->name, arg,
				       o->max ? " within the documented bounds" : "");
		*(uint64_t *)o->dst = sz;
		break;
	case WL_INT:
		errno = 0;
		ll = strtoll(arg, &end, 10);
		if (errno || end == arg || *end || ll < o->min || (o->max && ll > o->max)) {
			if (o->max)
				wl_usage_error(
				    w, "--%s '%s': expected a whole number from %lld to %lld",
				    o->name, arg, o->min, o->max);
			wl_usage_error(w, "--%s '%s': expected a whole number >= %lld", o->name,
				       arg, o->min);
		}
		*(long long *)o->dst = ll;
		break;
	case WL_DOUBLE:
		errno = 0;
		*(double *)o->dst = strtod(arg, &end);
		if (errno || end == arg || *end || !isfinite(*(double *)o->dst))
			wl_usage_error(w, "--%s '%s': expected a number", o->name, arg);
		break;
	case WL_STR:
		*(const char **)o->dst = arg;
		break;
	case WL_FLAG:
		*(bool *)o->dst = true;
		break;
	case WL_MEM:
		if (wl_mem_parse(arg, o->dst))
			wl_usage_error(w,
				       "--%s '%s': accepted values are managed, explicit, "
				       "prefetch, advise",
				       o->name, arg);
		break;
	}
}

void wl_init(struct wl *w, const char *name, const char *summary, int argc, char **argv,
	     const struct wl_opt *opts)
{
	memset(w, 0, sizeof(*w));
	w->name = name;
	w->seed = 1;
	if (wl_preset_of) {
		w->name = wl_preset_of->name;
		argv = preset_argv(argc, argv, &argc);
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		const struct wl_opt *o;
		const char *eq;
		size_t n;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			help(w, summary, opts);
			uvmemu_usage_shown();
			exit(0);
		}
		if (strncmp(a, "--", 2) != 0)
			wl_usage_error(w, "unexpected argument '%s' (see --help)", a);
		a += 2;
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) : strlen(a);
		if (strncmp(a, "quiet", n) == 0 && n == 5) {
			w->quiet = true;
			continue;
		}
		if (strncmp(a, "dry-run", n) == 0 && n == 7) {
			w->dry_run = true;
			continue;
		}
		for (o = opts; o && o->name; o++)
			if (strlen(o->name) == n && strncmp(a, o->name, n) == 0)
				break;
		if ((!o || !o->name) && !(n == 9 && strncmp(a, "footprint", 9) == 0) &&
		    !(n == 4 && strncmp(a, "seed", 4) == 0) &&
		    !(n == 6 && strncmp(a, "output", 6) == 0))
			wl_usage_error(w, "unknown option '%s' (see --help)", argv[i]);
		if (!(o && o->name && o->type == WL_FLAG)) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val)
				wl_usage_error(w, "option '--%.*s' needs a value", (int)n, a);
		}
		if (n == 9 && strncmp(a, "footprint", 9) == 0) {
			if (parse_size(val, &w->footprint) || w->footprint == 0)
				wl_usage_error(w,
					       "--footprint '%s': expected a size > 0 with an "
					       "optional K, M, G or T suffix, e.g. 256M",
					       val);
		} else if (n == 4 && strncmp(a, "seed", 4) == 0) {
			char *end;

			errno = 0;
			w->seed = strtoull(val, &end, 10);
			if (errno || end == val || *end || *val == '-')
				wl_usage_error(w, "--seed '%s': expected a whole number >= 0", val);
		} else if (n == 6 && strncmp(a, "output", 6) == 0) {
			w->output = val;
		} else {
			set_opt(w, o, val);
		}
	}
	if (w->output) {
		/* Opened now, so a bad path fails before minutes of work. */
		w->out = fopen(w->output, "w");
		if (!w->out)
			wl_usage_error(w, "--output '%s': %s", w->output, strerror(errno));
		fprintf(w->out, "# uvmemu-workload-output 1\n# workload %s\n", w->name);
	}
}

long long wl_elements(const struct wl *w, const char *opt, long long n, uint64_t bytes_per,
		      long long min, long long def, long long max)
{
	if (w->footprint && n)
		wl_usage_error(w, "give --footprint or %s, not both", opt);
	if (!w->footprint)
		return n ? n : def;
	n = (long long)(w->footprint / bytes_per);
	if (n < min || n > max)
		wl_usage_error(w, "--footprint gives %lld elements; accepted %lld to %lld", n, min,
			       max);
	return n;
}

void wl_check(const struct wl *w, cudaError_t e, const char *what, const char *file, int line)
{
	if (e == cudaSuccess)
		return;
	fprintf(stderr, "%s: %s failed at %s:%d: %s (%s)\n", w->name, what, file, line,
		cudaGetErrorString(e), cudaGetErrorName(e));
	uvmemu_set_verify(UVMEMU_VERIFY_FAIL);
	exit(1);
}

void wl_footprint(const struct wl *w, uint64_t bytes)
{
	printf("%s: footprint %" PRIu64 " bytes (%.2f MiB)", w->name, bytes,
	       (double)bytes / (1 << 20));
	if (w->footprint)
		printf(", requested %" PRIu64 " (%+.2f%%)", w->footprint,
		       100.0 * ((double)bytes - (double)w->footprint) / (double)w->footprint);
	printf("\n");
	uvmemu_report_value("footprint_bytes", (double)bytes);
	if (w->dry_run) {
		printf("%s: dry run: stopping before the run\n", w->name);
		fflush(stdout);
		exit(0);
	}
}

void wl_log(const struct wl *w, const char *fmt, ...)
{
	va_list ap;

	if (w->quiet)
		return;
	printf("%s: ", w->name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int wl_finish(struct wl *w, bool pass)
{
	wl_output_close(w);
	uvmemu_set_verify(pass ? UVMEMU_VERIFY_PASS : UVMEMU_VERIFY_FAIL);
	printf("%s: verify %s\n", w->name, pass ? "pass" : "FAIL");
	fflush(stdout);
	return pass ? 0 : 1;
}

#define WL_CHECK_EXACT(sfx, T, fmt)                                                                \
	bool wl_check_##sfx(const struct wl *w, const char *what, const T *got, const T *want,     \
			    size_t n)                                                              \
	{                                                                                          \
		size_t bad = 0;                                                                    \
		for (size_t i = 0; i < n; i++) {                                                   \
			if (got[i] == want[i])                                                     \
				continue;                                                          \
			if (bad++ < 5)                                                             \
				fprintf(stderr, "%s: %s[%zu] = " fmt ", expected " fmt "\n",       \
					w->name, what, i, got[i], want[i]);                        \
		}                                                                                  \
		if (bad)                                                                           \
			fprintf(stderr, "%s: %s: %zu of %zu elements differ\n", w->name, what,     \
				bad, n);                                                           \
		return bad == 0;                                                                   \
	}

WL_CHECK_EXACT(i32, int32_t, "%" PRId32)
WL_CHECK_EXACT(u32, uint32_t, "%" PRIu32)
WL_CHECK_EXACT(u64, uint64_t, "%" PRIu64)
WL_CHECK_EXACT(u8, uint8_t, "%u")

/* Bit for bit, so -0 differs from 0 and a NaN equals only itself; a mismatch
 * shows the value and its bits. */
bool wl_check_f32_exact(const struct wl *w, const char *what, const float *got, const float *want,
			size_t n)
{
	const uint32_t *g = (const uint32_t *)(const void *)got;
	const uint32_t *e = (const uint32_t *)(const void *)want;
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (g[i] == e[i])
			continue;
		if (bad++ < 5)
			fprintf(stderr,
				"%s: %s[%zu] = %.9g (%#010" PRIx32 "), expected %.9g (%#010" PRIx32
				")\n",
				w->name, what, i, got[i], g[i], want[i], e[i]);
	}
	if (bad)
		fprintf(stderr, "%s: %s: %zu of %zu elements differ\n", w->name, what, bad, n);
	return bad == 0;
}

bool wl_check_f32_tol(const struct wl *w, const char *what, const float *got, const float *want,
		      size_t n, double abs_tol, double rel_tol)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)got[i] - (double)want[i]);

		if (d <= abs_tol + rel_tol * fabs((double)want[i]))
			continue;
		if (bad++ < 5)
			fprintf(stderr, "%s: %s[%zu] = %.9g, expected %.9g\n", w->name, what, i,
				got[i], want[i]);
	}
	if (bad)
		fprintf(stderr, "%s: %s: %zu of %zu elements outside tolerance\n", w->name, what,
			bad, n);
	return bad == 0;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

uint64_t wl_rng_below(struct wl_rng *r, uint64_t bound)
{
	uint64_t limit = -bound % bound; /* 2^64 mod bound */
	uint64_t x;

	do
		x = wl_rng_next(r);
	while (x < limit);
	return x % bound;
}

double wl_rng_unit(struct wl_rng *r)
{
	return (double)(wl_rng_next(r) >> 11) * 0x1p-53;
}

void wl_rng_fill_unit(struct wl_rng *r, float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (float)wl_rng_unit(r);
}

long long wl_round_nearest(double x, long long q)
{
	long long v = llround(x / (double)q) * q;

	return v < q ? q : v;
}

void wl_rng_fill_signed(struct wl_rng *r, float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (float)(2.0 * wl_rng_unit(r) - 1.0);
}

double wl_sum_f32(const float *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += (double)v[i];
	return s;
}

double wl_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ----------------------------------------------------------------- output */

/* One section: its header, then each value's text (wl_fmt_*, printf's
 * text made faster) gathered into blocks for fwrite. */
#define WL_OUTPUT(sfx, T, format)                                                                  \
	void wl_output_##sfx(struct wl *w, const char *what, const T *v, size_t n)                 \
	{                                                                                          \
		char buf[1 << 16];                                                                 \
		size_t len = 0;                                                                    \
                                                                                                   \
		if (!w->out)                                                                       \
			return;                                                                    \
		fprintf(w->out, "# section %s %zu\n", what, n);                                    \
		for (size_t i = 0; i < n; i++) {                                                   \
			if (len > sizeof(buf) - WL_FMT_MAX - 1) {                                  \
				fwrite(buf, 1, len, w->out);                                       \
				len = 0;                                                           \
			}                                                                          \
			len += (size_t)format(buf + len, v[i]);                                    \
			buf[len++] = '\n';                                                         \
		}                                                                                  \
		fwrite(buf, 1, len, w->out);                                                       \
	}

WL_OUTPUT(i32, int32_t, wl_fmt_i64)
WL_OUTPUT(u32, uint32_t, wl_fmt_u64)
WL_OUTPUT(u64, uint64_t, wl_fmt_u64)
WL_OUTPUT(f32, float, wl_fmt_f32)
WL_OUTPUT(f64, double, wl_fmt_f64)

void wl_output_close(struct wl *w)
{
	if (!w->out)
		return;
	if (ferror(w->out) | fclose(w->out)) {
		fprintf(stderr, "%s: writing --output '%s' failed\n", w->name, w->output);
		w->out = NULL;
		exit(1);
	}
	w->out = NULL;
}
