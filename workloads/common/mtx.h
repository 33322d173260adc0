/* SPDX-License-Identifier: MIT */
/*
 * mtx.h - reading Matrix Market files (coordinate format; real, integer or
 * pattern fields; general or symmetric) into compressed sparse rows in
 * ordinary memory. One job: parse. It never exits and keeps no state between
 * calls, so a fuzz target can call it on any bytes.
 */
#ifndef WL_MTX_H
#define WL_MTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum mtx_field { MTX_REAL, MTX_INTEGER, MTX_PATTERN };
enum mtx_symmetry { MTX_GENERAL, MTX_SYMMETRIC };

/*
 * A sparse matrix in compressed sparse rows: row i's entries are
 * col[row_start[i]] .. col[row_start[i + 1] - 1] (0-based columns, ascending;
 * duplicates kept in file order) with values val[...]. A symmetric file's
 * off-diagonal entries are stored twice, (i, j) and (j, i); pattern entries
 * get the value 1. Values are floats (the workloads compute in float).
 */
struct mtx_matrix {
	int32_t rows, cols;
	int64_t entries; /* entries the file lists (its size line's count) */
	int64_t nnz;	 /* stored entries, after mirroring */
	enum mtx_field field;
	enum mtx_symmetry symmetry;
	int64_t *row_start; /* rows + 1 */
	int32_t *col;	    /* nnz */
	float *val;	    /* nnz */
};

/* Largest count of entries a file may list (the stored ones, mirrored, fit
 * twice that). */
#define MTX_MAX_ENTRIES ((int64_t)INT32_MAX)

/*
 * Parses a Matrix Market file read from `f` (mtx_read) or held in `buf`
 * (mtx_parse: `len` bytes, NUL bytes allowed and rejected as malformed).
 * `name` names the input in messages. Returns 0 and fills `m` (free it with
 * mtx_free), or a negative errno with one line in `err` (no newline,
 * truncated to `errlen`): -EINVAL for malformed or unsupported input,
 * "NAME:LINE: what is wrong"; -EIO for a read error; -ENOMEM. On error `m`
 * holds nothing to free.
 */
int mtx_read(FILE *f, const char *name, struct mtx_matrix *m, char *err, size_t errlen);
int mtx_parse(const char *buf, size_t len, const char *name, struct mtx_matrix *m, char *err,
	      size_t errlen);
void mtx_free(struct mtx_matrix *m);

/* "real", "integer", "pattern"; "general", "symmetric". */
const char *mtx_field_name(enum mtx_field f);
const char *mtx_symmetry_name(enum mtx_symmetry s);

#endif
