// SPDX-License-Identifier: MIT
/*
 * main.c - fwt (CUDA samples' fastWalshTransform): dyadic convolution of a
 * batch of vectors with short kernels through three fast Walsh-Hadamard
 * transforms. Options and sizes, then generate, compute the CPU reference,
 * run the 3 transforms and the modulation (the region of interest), and
 * check the result bit for bit, plus a sample against the convolution
 * computed directly.
 */
#include "fwt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FWT_DEFAULT_LOG2N 23 /* the sample's log2Data: 2^23 floats */
#define FWT_DEFAULT_LOG2K 7  /* its log2Kernel */
#define FWT_MAX_LOG2N	  28
#define FWT_MAX_BATCH	  65535 /* the passes' grid y */
#define FWT_SAMPLES	  256	/* outputs checked against the direct convolution */

/*
 * --footprint: 8 bytes a float of data (the vector and its padded kernel).
 * The largest transform up to the sample's 2^23 floats whose whole batch
 * comes within 1% of the request: 64 MB is one 2^23 transform, 256 MB four,
 * 24 MB three of 2^20.
 */
static void size_for_footprint(const struct wl *w, struct fwt_problem *p)
{
	const double floats = (double)w->footprint / (2 * sizeof(float));

	for (int log2n = FWT_DEFAULT_LOG2N; log2n >= FWT_ELEMENTARY_LOG2; log2n--) {
		double batch = floats / (double)(1ull << log2n) + 0.5;

		if (batch < 1 || batch >= FWT_MAX_BATCH + 1)
			continue;
		if ((uint64_t)batch * (1ull << log2n) > floats * 1.01 ||
		    (uint64_t)batch * (1ull << log2n) < floats * 0.99)
			continue;
		p->log2n = log2n;
		p->batch = (int)batch;
		return;
	}
	/* Too small (or too large) for a 1% fit at these sizes: the nearest
	 * single transform. */
	for (p->log2n = 2; p->log2n < FWT_MAX_LOG2N && (double)(2ull << p->log2n) <= floats;
	     p->log2n++)
		;
	if ((double)(1ull << p->log2n) > floats * 4 || floats > (double)FWT_MAX_BATCH * (1 << 23))
		wl_usage_error(w,
			       "--footprint %" PRIu64 ": outside fwt's range (32 bytes to 4 TiB)",
			       w->footprint);
	p->batch = 1;
}

int main(int argc, char **argv)
{
	long long log2n = 0, log2k = FWT_DEFAULT_LOG2K, batch = 0;
	const struct wl_opt opts[] = {
	    {"log2-data", WL_INT, &log2n, 2, FWT_MAX_LOG2N,
	     "log2 of the floats per vector (default 23)"},
	    {"log2-kernel", WL_INT, &log2k, 0, FWT_MAX_LOG2N,
	     "log2 of the kernel's nonzero length (default 7)"},
	    {"batch", WL_INT, &batch, 1, FWT_MAX_BATCH, "independent vectors (default 1)"},
	    {0},
	};
	struct fwt_problem p = {0};
	float *data, *kern, *orig;
	size_t total;
	struct wl w;
	int launches;
	bool pass;

	wl_init(&w, "fwt", "CUDA samples fastWalshTransform: dyadic convolution by FWT", argc, argv,
		opts);
	if (w.footprint && (log2n || batch))
		wl_usage_error(&w, "--footprint sizes the problem: it excludes --log2-data and "
				   "--batch");
	if (w.footprint) {
		size_for_footprint(&w, &p);
	} else {
		p.log2n = log2n ? (int)log2n : FWT_DEFAULT_LOG2N;
		p.batch = batch ? (int)batch : 1;
	}
	p.log2k = (int)log2k;
	if (p.log2k > p.log2n)
		wl_usage_error(&w, "--log2-kernel %d: longer than the vectors (2^%d floats)",
			       p.log2k, p.log2n);
	total = (size_t)fwt_elems(&p);
	if (total > ((size_t)1 << 36))
		wl_usage_error(&w, "--batch %d of 2^%d floats: more than 2^36 floats", p.batch,
			       p.log2n);

	p.data = wl_managed(&w, total * sizeof(float), "data");
	p.kern = wl_managed(&w, total * sizeof(float), "kernel");
	wl_footprint(&w, 2 * total * sizeof(float));
	uvmemu_report_value("log2_data", p.log2n);
	uvmemu_report_value("log2_kernel", p.log2k);
	uvmemu_report_value("batch", p.batch);

	fwt_generate(&p, w.seed);
	/* The reference runs first, while the inputs are still where the CPU
	 * wrote them, so that it adds no traffic of its own; the direct check
	 * needs the original data too. */
	data = malloc(total * sizeof(float));
	kern = malloc(total * sizeof(float));
	orig = malloc(total * sizeof(float));
	if (!data || !kern || !orig) {
		fprintf(stderr, "fwt: out of memory for the CPU reference\n");
		return 1;
	}
	memcpy(data, p.data, total * sizeof(float));
	memcpy(orig, p.data, total * sizeof(float));
	memcpy(kern, p.kern, total * sizeof(float));
	fwt_reference(&p, data, kern);
	/* The kernel's original values, for the direct check: the reference
	 * transformed its copy. */
	memcpy(kern, p.kern, total * sizeof(float));

	uvmemu_roi_begin();
	launches = fwt_gpu(&w, &p);
	uvmemu_roi_end();
	wl_log(&w, "%d vector(s) of 2^%d floats, kernel 2^%d: %d launches", p.batch, p.log2n,
	       p.log2k, launches);
	uvmemu_report_value("launches", launches);

	printf("fwt: checksum of the result %.9g\n", wl_sum_f32(p.data, total));
	pass = wl_check_f32_exact(&w, "result", p.data, data, total);
	pass &= fwt_check_direct(&w, &p, orig, kern, p.data, FWT_SAMPLES);
	wl_output_f32(&w, "result", p.data, total);
	free(data);
	free(kern);
	free(orig);
	WL_CHECK(&w, cudaFree(p.data));
	WL_CHECK(&w, cudaFree(p.kern));
	return wl_finish(&w, pass);
}
