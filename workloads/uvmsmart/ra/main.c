// SPDX-License-Identifier: MIT
/*
 * main.c - us-ra: UVMSmart's ra (benchmarks/Managed/ra/main.cu). Three managed
 * arrays of n floats (2^20 by default): the host fills input with uniform
 * fractions and table[i] with i, and leaves output alone; one launch of
 * 256-thread CTAs, where only every 100th thread works. The output is checked
 * bit for bit against the same float operations on the CPU.
 */
#include <stdlib.h>

#include "ra.h"
#include "wl.h"

#define US_RA_DEFAULT_N (1ll << 20) /* the original's N */
#define US_RA_EVERY	100	    /* x_id % 100 != 0 returns */
/* Indices stay within int64 and the grid within CUDA's 2^31 - 1 CTAs. */
#define US_RA_MAX_N (1ll << 36)

/*
 * input[i] uniform in [0, 1), as the original's rand() / RAND_MAX, except
 * that a working thread's input is drawn again while its table index is one
 * an earlier working thread took: the original's threads that collide race
 * to write the same output, and distinct indices make the result exact.
 */
static void generate(const struct wl *w, float *input, float *table, int64_t n, int64_t every)
{
	unsigned char *taken = calloc((size_t)n, 1);
	struct wl_rng rng;

	if (!taken) {
		fprintf(stderr, "%s: out of memory for the generator\n", w->name);
		exit(1);
	}
	wl_rng_seed(&rng, w->seed);
	for (int64_t i = 0; i < n; i++) {
		float v = (float)wl_rng_unit(&rng);

		if (i % every == 0) {
			while (taken[us_ra_index(v, n)])
				v = (float)wl_rng_unit(&rng);
			taken[us_ra_index(v, n)] = 1;
		}
		input[i] = v;
		table[i] = (float)i;
	}
	free(taken);
}

/* The output on the CPU: zero where no thread writes, as the untouched
 * managed output reads. */
static float *reference(const struct wl *w, const float *input, const float *table, int64_t n,
			int64_t every)
{
	float *out = calloc((size_t)n, sizeof(float));

	if (!out) {
		fprintf(stderr, "%s: out of memory for the CPU reference\n", w->name);
		exit(1);
	}
	for (int64_t i = 0; i < n; i += every) {
		int64_t idx = us_ra_index(input[i], n);

		out[idx] = us_ra_value(table[idx], input[i]);
	}
	return out;
}

int main(int argc, char **argv)
{
	long long n = 0, every = US_RA_EVERY;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, 1, US_RA_MAX_N, "elements of each array (default 1048576)"},
	    {"every", WL_INT, &every, 1, 1 << 30,
	     "only threads whose index is a multiple of this work (default 100)"},
	    {0},
	};
	float *input, *output, *table, *want;
	struct wl w;
	bool pass;

	wl_init(&w, "us-ra", "UVMSmart's ra: every 100th thread copies a random table entry", argc,
		argv, opts);
	n = wl_elements(&w, "--n", n, 3 * sizeof(float), 1, US_RA_DEFAULT_N, US_RA_MAX_N);

	input = wl_managed(&w, (size_t)n * sizeof(float), "input");
	output = wl_managed(&w, (size_t)n * sizeof(float), "output");
	table = wl_managed(&w, (size_t)n * sizeof(float), "table");
	wl_footprint(&w, 3 * (uint64_t)n * sizeof(float));
	uvmemu_report_value("n", (double)n);
	wl_log(&w, "%lld elements, %lld CTAs of %d threads, %lld of them working", n,
	       (n + US_RA_THREADS - 1) / US_RA_THREADS, US_RA_THREADS, (n + every - 1) / every);

	generate(&w, input, table, n, every);
	/* Before the launch, while input and table are where the host wrote
	 * them, so that the check adds no traffic to the run. */
	want = reference(&w, input, table, n, every);

	uvmemu_roi_begin();
	WL_CHECK(&w, EMU_LAUNCH(us_ra_kernel,
				emu_dim3((unsigned)((n + US_RA_THREADS - 1) / US_RA_THREADS), 1, 1),
				emu_dim3(US_RA_THREADS, 1, 1), 0, .input = input, .output = output,
				.table = table, .n = n, .every = every));
	WL_CHECK(&w, cudaDeviceSynchronize());
	uvmemu_roi_end();

	pass = wl_check_f32_exact(&w, "output", output, want, (size_t)n);
	wl_output_f32(&w, "output", output, (size_t)n);
	free(want);
	WL_CHECK(&w, cudaFree(input));
	WL_CHECK(&w, cudaFree(output));
	WL_CHECK(&w, cudaFree(table));
	return wl_finish(&w, pass);
}
