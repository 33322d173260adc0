/* SPDX-License-Identifier: MIT */
/*
 * nn.h - Rodinia nn: the k nearest hurricane records to a point. One kernel
 * computes every record's distance; the host then picks the k smallest by k
 * passes over the managed distances. Declarations, the distance arithmetic
 * shared by the kernel and the CPU reference, and the host selection both
 * runs share.
 */
#ifndef NN_H
#define NN_H

#include <math.h>
#include <stddef.h>

#include "wl.h"

/* The original's DEFAULT_THREADS_PER_BLOCK. */
#define NN_THREADS 256
/* A record: 48 characters, then the newline. */
#define NN_RECORD_LENGTH 48
/* Record numbers fit an int32_t (the --output format writes them so). */
#define NN_MAX_RECORDS ((1ll << 31) - 1)

struct nn_latlong {
	float lat, lng;
};

/* The records' text where they came from a file (host memory, as the
 * original's records), or NULL for generated ones. */
struct nn_records {
	size_t count;
	char (*text)[NN_RECORD_LENGTH + 1];
	uint64_t seed; /* generated records: their fields follow from seed and index */
};

/* The original's euclid: float differences and sum, sqrt in double. */
static inline float nn_distance(float lat, float lng, struct nn_latlong p)
{
	return (float)sqrt((double)((lat - p.lat) * (lat - p.lat) + (lng - p.lng) * (lng - p.lng)));
}

/*
 * records.c: Rodinia's .db files, fixed-width lines of 48 characters:
 * year (4), month, day, hour, storm number (3 each), a blank, name (10),
 * latitude (5, one decimal), longitude (6, one decimal), wind speed and
 * pressure (5 each). nn_read_db counts and checks every line; on a malformed
 * one it prints "nn: FILE:LINE: reason" and exits 2. nn_fill_db writes the
 * locations of the records read.
 */
void nn_read_db(const struct wl *w, const char *path, struct nn_records *r);
void nn_fill_db(const struct nn_records *r, struct nn_latlong *loc);
/* Generated records: fields in the ranges of cane4_0.db, drawn from the
 * seed and the record's index; nn_generate writes their locations. */
void nn_generate(struct nn_records *r, uint64_t seed, size_t count, struct nn_latlong *loc);
/* The record's text (48 characters and a NUL) into buf. */
void nn_record_text(const struct nn_records *r, size_t index, char *buf);
void nn_records_free(struct nn_records *r);

/*
 * select.c: the original's findLowest. For i = 0..k-1 it scans distances
 * i..n-1 for the first smallest and swaps it (and its record) into place i.
 * `order` holds the record numbers (0..n-1 on entry) and is swapped alongside.
 */
void nn_find_lowest(float *distances, int32_t *order, size_t n, size_t k);

/* reference.c: distances on the CPU and the same selection; distances and
 * order (n each) receive the result. */
void nn_reference(const struct nn_latlong *loc, size_t n, float lat, float lng, size_t k,
		  float *distances, int32_t *order);

/* kernel.c: the one launch of euclid over n records, and the wait for it. */
void nn_run_gpu(const struct wl *w, const struct nn_latlong *loc, float *distances, size_t n,
		float lat, float lng);

#endif
