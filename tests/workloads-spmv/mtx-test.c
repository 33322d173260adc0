// SPDX-License-Identifier: MIT
/*
 * Description: the Matrix Market reader's buffer entry point (mtx_parse, the
 * one a fuzz target calls) builds the exact CSR - symmetric entries
 * mirrored, columns ascending, duplicates kept in file order, pattern values
 * 1 - and rejects malformed buffers (empty, NUL bytes, bad counts) with
 * -EINVAL and one line "NAME:LINE: ..." and nothing left to free; mtx_read
 * on a FILE gives the same matrix.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mtx.h"

#define BANNER "%%MatrixMarket matrix coordinate "

static void parse_ok(const char *text, struct mtx_matrix *m)
{
	char err[256] = "";

	assert_int_equal(mtx_parse(text, strlen(text), "t.mtx", m, err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

static void expect_csr(const struct mtx_matrix *m, const int64_t *row_start, const int32_t *col,
		       const float *val)
{
	for (int32_t r = 0; r <= m->rows; r++)
		assert_int_equal(m->row_start[r], row_start[r]);
	for (int64_t e = 0; e < m->nnz; e++) {
		assert_int_equal(m->col[e], col[e]);
		assert_true(m->val[e] == val[e]);
	}
}

/* [[5 0 2] [0 0 0] [1 0 3]] given out of order, with a duplicate of (3, 1)
 * after it: row 2 keeps both, in file order. */
static void test_general(void **state)
{
	const char *text = BANNER "real general\n% c\n3 3 5\n3 3 3\n1 3 2\n3 1 1\n1 1 5\n3 1 7\n";
	const int64_t row_start[] = {0, 2, 2, 5};
	const int32_t col[] = {0, 2, 0, 0, 2};
	const float val[] = {5, 2, 1, 7, 3};
	struct mtx_matrix m;

	parse_ok(text, &m);
	assert_int_equal(m.rows, 3);
	assert_int_equal(m.cols, 3);
	assert_int_equal(m.entries, 5);
	assert_int_equal(m.nnz, 5);
	assert_int_equal(m.field, MTX_REAL);
	assert_int_equal(m.symmetry, MTX_GENERAL);
	expect_csr(&m, row_start, col, val);
	mtx_free(&m);
}

/* Symmetric pattern: (2, 1) and (3, 2) mirrored, (3, 3) once; no final line
 * end. */
static void test_symmetric_pattern(void **state)
{
	const char *text = BANNER "pattern symmetric\n3 3 3\n2 1\n3 2\n3 3";
	const int64_t row_start[] = {0, 1, 3, 5};
	const int32_t col[] = {1, 0, 2, 1, 2};
	const float val[] = {1, 1, 1, 1, 1};
	struct mtx_matrix m;

	parse_ok(text, &m);
	assert_int_equal(m.entries, 3);
	assert_int_equal(m.nnz, 5);
	expect_csr(&m, row_start, col, val);
	mtx_free(&m);
}

/* A FILE gives the same matrix as the buffer. */
static void test_file(void **state)
{
	const char *text = BANNER "integer general\n2 4 3\n2 4 -9\n1 2 4\n2 1 6\n";
	const int64_t row_start[] = {0, 1, 3};
	const int32_t col[] = {1, 0, 3};
	const float val[] = {4, 6, -9};
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct mtx_matrix m;
	char err[256] = "";

	assert_non_null(f);
	assert_int_equal(mtx_read(f, "t.mtx", &m, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(m.field, MTX_INTEGER);
	expect_csr(&m, row_start, col, val);
	mtx_free(&m);
}

static void expect_reject(const char *text, size_t len, const char *prefix)
{
	struct mtx_matrix m;
	char err[256] = "";

	assert_int_equal(mtx_parse(text, len, "t.mtx", &m, err, sizeof(err)), -EINVAL);
	assert_null(m.row_start);
	assert_null(m.col);
	assert_null(m.val);
	assert_null(strchr(err, '\n'));
	if (strncmp(err, prefix, strlen(prefix)) != 0)
		fail_msg("'%s' does not start with '%s'", err, prefix);
}

/* A buffer without NUL bytes, whole. */
#define REJECT(text, prefix) expect_reject((text), strlen(text), (prefix))

static void test_malformed(void **state)
{
	static const char nul[] = BANNER "real general\n1 1 1\n1\0 1 1\n";

	REJECT("", "t.mtx:1: empty file");
	expect_reject(nul, sizeof(nul) - 1, "t.mtx:3: a NUL byte");
	REJECT(BANNER "real general\n2 2 2\n1 1 1\n", "t.mtx:4: file ends after 1 of the 2");
	REJECT(BANNER "real general\n2 2 1\n1 1 1\n2 2 2\n", "t.mtx:4: more entries");
	REJECT(BANNER "real general\n2 2 1\n1 3 1\n", "t.mtx:3: column '3'");
	REJECT(BANNER "complex general\n1 1 1\n1 1 1 1\n", "t.mtx:1: field 'complex'");
}

/* A short error buffer truncates the line; none at all is allowed. */
static void test_err_buffer(void **state)
{
	struct mtx_matrix m;
	char err[8];

	assert_int_equal(mtx_parse("x", 1, "t.mtx", &m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.mtx:1");
	assert_int_equal(mtx_parse("x", 1, "t.mtx", &m, NULL, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_general),    cmocka_unit_test(test_symmetric_pattern),
	    cmocka_unit_test(test_file),       cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_err_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
