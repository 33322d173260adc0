// SPDX-License-Identifier: MIT
/*
 * main.c - nw: options and problem size, then generate, run the wavefront on
 * the GPU (the region of interest) and check the score matrix exactly.
 */
#include "nw.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define NW_DEFAULT_N	   2048 /* the size of Rodinia's run script */
#define NW_DEFAULT_PENALTY 10

/* The multiple of NW_BLOCK whose two (n+1)^2 int matrices come closest to
 * `bytes`. */
static int n_for_footprint(const struct wl *w, uint64_t bytes)
{
	double edge = sqrt((double)bytes / (2.0 * sizeof(int))) - 1.0;
	long long n = llround(edge / NW_BLOCK) * NW_BLOCK;

	if (n < NW_BLOCK)
		wl_usage_error(
		    w, "--footprint %" PRIu64 ": too small for nw (at least %" PRIu64 " bytes)",
		    bytes, nw_footprint_bytes(NW_BLOCK));
	if (n > NW_MAX_N)
		wl_usage_error(
		    w, "--footprint %" PRIu64 ": too large for nw (at most %" PRIu64 " bytes)",
		    bytes, nw_footprint_bytes(NW_MAX_N));
	return (int)n;
}

int main(int argc, char **argv)
{
	struct wl w;
	long long n = 0, penalty = NW_DEFAULT_PENALTY;
	const struct wl_opt opts[] = {
	    {"n", WL_INT, &n, NW_BLOCK, NW_MAX_N,
	     "sequence length N, a multiple of 16 (default 2048)"},
	    {"penalty", WL_INT, &penalty, 0, NW_MAX_PENALTY, "gap penalty (default 10)"},
	    WL_OPT_MEM(&w),
	    {0},
	};
	struct nw_problem p = {0};
	size_t bytes;
	bool pass;

	wl_init(&w, "nw", "Rodinia nw: Needleman-Wunsch alignment of two random sequences", argc,
		argv, opts);
	if (w.footprint && n)
		wl_usage_error(&w, "--footprint and --n both set the problem size; give one");
	if (n % NW_BLOCK)
		wl_usage_error(&w, "--n '%lld': expected a multiple of %d", n, NW_BLOCK);
	if (w.footprint)
		p.n = n_for_footprint(&w, w.footprint);
	else
		p.n = n ? (int)n : NW_DEFAULT_N;
	p.cols = p.n + 1;
	p.penalty = (int)penalty;

	p.seq_a = calloc((size_t)p.cols, sizeof(int));
	p.seq_b = calloc((size_t)p.cols, sizeof(int));
	if (!p.seq_a || !p.seq_b) {
		fprintf(stderr, "nw: out of memory for the sequences\n");
		return 1;
	}
	bytes = (size_t)p.cols * p.cols * sizeof(int);
	p.reference = wl_managed(&w, bytes, "the reference");
	p.matrix = wl_managed(&w, bytes, "the score matrix");
	/* The kernels only read the reference (--mem advise). */
	wl_advise(&w, p.reference, bytes, WL_READ_MOSTLY);
	wl_footprint(&w, nw_footprint_bytes(p.n));
	uvmemu_report_value("n", p.n);
	uvmemu_report_value("penalty", p.penalty);
	wl_log(&w, "n %d, penalty %d: %d + %d launches of %d-thread CTAs", p.n, p.penalty,
	       p.n / NW_BLOCK, p.n / NW_BLOCK - 1, NW_BLOCK);

	nw_generate(&p, w.seed);

	uvmemu_roi_begin();
	wl_to_gpu(&w, p.reference, bytes);
	wl_to_gpu(&w, p.matrix, bytes);
	WL_CHECK(&w, nw_gpu(&w, &p));
	wl_to_host(&w, p.matrix, bytes);
	uvmemu_roi_end();

	pass = nw_check(&w, &p);
	/* The alignment score, bottom-right corner of the GPU's matrix. */
	wl_log(&w, "score %d", p.matrix[(size_t)p.cols * (size_t)p.cols - 1]);
	wl_output_i32(&w, "score_matrix", p.matrix, (size_t)p.cols * (size_t)p.cols);
	wl_free(&w, p.reference);
	wl_free(&w, p.matrix);
	free(p.seq_a);
	free(p.seq_b);
	return wl_finish(&w, pass);
}
