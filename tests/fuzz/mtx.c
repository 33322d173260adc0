// SPDX-License-Identifier: MIT
/*
 * mtx.c - fuzz target for the Matrix Market reader (workloads/common/mtx.c):
 * the input is a whole .mtx file, read through mtx_parse (the buffer) and
 * mtx_read (a FILE), which must agree. A parsed matrix must be consistent
 * CSR (rows ascending, columns in range and ascending within a row, finite
 * values); a rejected one comes with a one-line message naming the input.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "mtx.h"

/*
 * mtx_parse trusts a size line's rows and columns for its CSR arrays (spmv
 * allocates vectors of those sizes anyway), so a 30-byte file may ask for
 * gigabytes. As the graph targets bound node counts, inputs declaring more
 * than this many rows or columns are skipped: the rest of the reader is what
 * is fuzzed.
 */
#define MAX_DIM (1 << 16)

/* The size line's rows and columns as the reader will see them: the first
 * line after the banner that is not a comment or blank. */
static bool dims_too_large(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *save = NULL, *line;
	bool large = false;
	int seen = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long r = 0, c = 0;

		if (seen++ == 0 || line[0] == '%' || line[strspn(line, " \t\r")] == '\0')
			continue;
		sscanf(line, "%llu %llu", &r, &c);
		large = r > MAX_DIM || c > MAX_DIM;
		break;
	}
	free(text);
	return large;
}

static void check_matrix(const struct mtx_matrix *m)
{
	FUZZ_ASSERT(m->rows >= 1 && m->cols >= 1);
	FUZZ_ASSERT(m->row_start[0] == 0 && m->row_start[m->rows] == m->nnz);
	FUZZ_ASSERT(m->nnz >= m->entries && m->nnz <= 2 * m->entries);
	for (int32_t r = 0; r < m->rows; r++) {
		FUZZ_ASSERT(m->row_start[r] <= m->row_start[r + 1]);
		for (int64_t k = m->row_start[r]; k < m->row_start[r + 1]; k++) {
			FUZZ_ASSERT(m->col[k] >= 0 && m->col[k] < m->cols);
			FUZZ_ASSERT(k == m->row_start[r] || m->col[k - 1] <= m->col[k]);
			FUZZ_ASSERT(isfinite(m->val[k]));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mtx_matrix a, b;
	char err_a[512] = "", err_b[512] = "";
	FILE *f;
	int ra, rb;

	if (dims_too_large(data, size))
		return 0;
	ra = mtx_parse((const char *)data, size, "in", &a, err_a, sizeof(err_a));
	f = fuzz_stream(data, size);
	rb = mtx_read(f, "in", &b, err_b, sizeof(err_b));
	fclose(f);
	FUZZ_ASSERT(ra == rb);
	if (ra == 0) {
		check_matrix(&a);
		FUZZ_ASSERT(a.nnz == b.nnz && a.rows == b.rows && a.cols == b.cols);
		FUZZ_ASSERT(memcmp(a.col, b.col, (size_t)a.nnz * sizeof(int32_t)) == 0);
		FUZZ_ASSERT(memcmp(a.val, b.val, (size_t)a.nnz * sizeof(float)) == 0);
	} else {
		FUZZ_ASSERT(ra == -EINVAL || ra == -EIO || ra == -ENOMEM);
		fuzz_one_line(err_a);
		FUZZ_ASSERT(strncmp(err_a, "in", 2) == 0);
		FUZZ_ASSERT(strcmp(err_a, err_b) == 0);
	}
	mtx_free(&a);
	mtx_free(&b);
	return 0;
}
