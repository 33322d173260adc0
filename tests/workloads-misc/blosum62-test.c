// SPDX-License-Identifier: MIT
/*
 * Description: nw's BLOSUM62 table is the published matrix: its symbol order,
 * its whole diagonal and a spread of off-diagonal entries match the values
 * distributed with BLAST, and it is symmetric.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blosum62.h"

static void test_order(void **state)
{
	assert_string_equal(nw_blosum62_order, "ARNDCQEGHILKMFPSTWYVBZX*");
}

static void test_symmetric(void **state)
{
	for (int i = 0; i < NW_BLOSUM62_SYMBOLS; i++)
		for (int j = 0; j < i; j++)
			assert_int_equal(nw_blosum62[i][j], nw_blosum62[j][i]);
}

/* Self-substitution scores of the 20 amino acids, in table order. */
static void test_diagonal(void **state)
{
	static const int diag[20] = {4, 5, 6, 6, 9, 5, 5, 6, 8, 4, 4, 5, 5, 6, 7, 4, 5, 11, 7, 4};

	for (int i = 0; i < 20; i++)
		assert_int_equal(nw_blosum62[i][i], diag[i]);
}

static void test_spot_values(void **state)
{
	static const struct {
		char a, b;
		int score;
	} spots[] = {
	    {'A', 'R', -1}, {'A', 'S', 1},  {'R', 'K', 2},  {'N', 'D', 1},  {'D', 'E', 2},
	    {'C', 'W', -2}, {'C', 'E', -4}, {'Q', 'E', 2},  {'G', 'I', -4}, {'H', 'Y', 2},
	    {'I', 'V', 3},  {'I', 'L', 2},  {'F', 'Y', 3},  {'F', 'W', 1},  {'P', 'F', -4},
	    {'W', 'N', -4}, {'W', 'Y', 2},  {'S', 'T', 1},  {'B', 'D', 4},  {'B', 'N', 3},
	    {'Z', 'E', 4},  {'Z', 'Q', 3},  {'X', 'X', -1}, {'X', 'C', -2}, {'*', 'A', -4},
	    {'*', '*', 1},
	};

	for (size_t k = 0; k < sizeof(spots) / sizeof(spots[0]); k++) {
		int ok;

		assert_int_equal(nw_blosum62_score(spots[k].a, spots[k].b, &ok), spots[k].score);
		assert_true(ok);
	}
}

static void test_unknown_symbol(void **state)
{
	int ok = 1;

	assert_int_equal(nw_blosum62_score('J', 'A', &ok), 0);
	assert_false(ok);
	assert_int_equal(nw_blosum62_score('A', '\0', &ok), 0);
	assert_false(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_order),	   cmocka_unit_test(test_symmetric),
	    cmocka_unit_test(test_diagonal),	   cmocka_unit_test(test_spot_values),
	    cmocka_unit_test(test_unknown_symbol),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
