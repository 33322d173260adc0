// SPDX-License-Identifier: MIT
/*
 * main.c - nn (Rodinia): the k records nearest to a point, from Rodinia's
 * hurricane files (--input) or generated records. One kernel computes every
 * distance into managed memory; the host picks the k nearest by k passes
 * over it. Distances and the selection are checked exactly against a CPU
 * reference.
 */
#include "nn.h"

#include <stdlib.h>
#include <string.h>

#define NN_DEFAULT_RECORDS (1 << 20)
/* Bytes of managed memory per record: its location and its distance. */
#define NN_BYTES_PER_RECORD (sizeof(struct nn_latlong) + sizeof(float))

struct nn_opts {
	long long records, results;
	double lat, lng;
	const char *input;
};

static size_t choose_count(const struct wl *w, const struct nn_opts *o)
{
	long long n = o->records;

	if (!!w->footprint + !!o->records + !!o->input > 1)
		wl_usage_error(w, "--footprint, --records and --input each set the records; "
				  "give one");
	if (w->footprint) {
		n = (long long)(w->footprint / NN_BYTES_PER_RECORD);
		if (n < 1 || n > NN_MAX_RECORDS)
			wl_usage_error(w, "--footprint %llu gives %lld records; accepted 1 to %lld",
				       (unsigned long long)w->footprint, n, NN_MAX_RECORDS);
	}
	return n ? (size_t)n : NN_DEFAULT_RECORDS;
}

static bool check(const struct wl *w, const struct nn_latlong *loc, const float *distances,
		  const int32_t *order, size_t n, const struct nn_opts *o)
{
	float *ref = malloc(n * sizeof(float));
	int32_t *ref_order = malloc(n * sizeof(int32_t));
	bool pass;

	if (!ref || !ref_order) {
		fprintf(stderr, "nn: out of memory for the CPU reference\n");
		exit(1);
	}
	nn_reference(loc, n, (float)o->lat, (float)o->lng, (size_t)o->results, ref, ref_order);
	pass = wl_check_f32_exact(w, "distances (after the selection)", distances, ref, n);
	pass &= wl_check_i32(w, "record order (after the selection)", order, ref_order, n);
	free(ref);
	free(ref_order);
	return pass;
}

static void output(struct wl *w, const struct nn_records *r, const struct nn_latlong *loc,
		   const float *distances, const int32_t *order, size_t k)
{
	float *lat = malloc(k * sizeof(float)), *lng = malloc(k * sizeof(float));
	char text[NN_RECORD_LENGTH + 1];

	if (!lat || !lng) {
		fprintf(stderr, "nn: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < k; i++) {
		nn_record_text(r, (size_t)order[i], text);
		wl_log(w, "%s --> Distance=%f", text, (double)distances[i]);
		lat[i] = loc[order[i]].lat;
		lng[i] = loc[order[i]].lng;
	}
	wl_output_i32(w, "record", order, k);
	wl_output_f32(w, "distance", distances, k);
	wl_output_f32(w, "latitude", lat, k);
	wl_output_f32(w, "longitude", lng, k);
	free(lat);
	free(lng);
}

int main(int argc, char **argv)
{
	struct nn_opts o = {.results = 5, .lat = 30, .lng = 90};
	const struct wl_opt opts[] = {
	    {"input", WL_STR, &o.input, 0, 0, "a Rodinia hurricane .db file (e.g. cane4_0.db)"},
	    {"records", WL_INT, &o.records, 1, NN_MAX_RECORDS,
	     "generated records (default 1048576)"},
	    {"results", WL_INT, &o.results, 1, 1 << 20, "k: records to find (default 5)"},
	    {"lat", WL_DOUBLE, &o.lat, 0, 0, "latitude of the query point (default 30)"},
	    {"lng", WL_DOUBLE, &o.lng, 0, 0, "longitude of the query point (default 90)"},
	    {0},
	};
	struct nn_records r;
	struct nn_latlong *loc;
	struct wl w;
	float *distances;
	int32_t *order;
	size_t n, k;
	bool pass;

	wl_init(&w, "nn", "Rodinia nn: the k nearest hurricane records to a point", argc, argv,
		opts);
	n = choose_count(&w, &o);
	if (o.input) {
		nn_read_db(&w, o.input, &r);
		n = r.count;
	}
	loc = wl_managed(&w, n * sizeof(*loc), "locations");
	distances = wl_managed(&w, n * sizeof(float), "distances");
	wl_footprint(&w, n * NN_BYTES_PER_RECORD);
	uvmemu_report_value("records", (double)n);
	if (o.input)
		nn_fill_db(&r, loc);
	else
		nn_generate(&r, w.seed, n, loc);
	/* As the original: no more results than records. */
	k = (size_t)o.results < n ? (size_t)o.results : n;
	wl_log(&w, "%zu records, the %zu nearest to (%g, %g)", n, k, o.lat, o.lng);
	order = malloc(n * sizeof(int32_t));
	if (!order) {
		fprintf(stderr, "nn: out of memory for the record order\n");
		return 1;
	}

	uvmemu_roi_begin();
	nn_run_gpu(&w, loc, distances, n, (float)o.lat, (float)o.lng);
	/* The host's selection reads the managed distances k times over. */
	for (size_t i = 0; i < n; i++)
		order[i] = (int32_t)i;
	nn_find_lowest(distances, order, n, k);
	uvmemu_roi_end();

	output(&w, &r, loc, distances, order, k);
	pass = check(&w, loc, distances, order, n, &o);
	free(order);
	nn_records_free(&r);
	WL_CHECK(&w, cudaFree(loc));
	WL_CHECK(&w, cudaFree(distances));
	return wl_finish(&w, pass);
}
