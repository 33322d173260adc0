// SPDX-License-Identifier: MIT
/*
 * Description: cfd's generated mesh is a consistent tetrahedral mesh: every
 * neighbour relation is mutual and the shared face's normals are opposite,
 * every element's face normals sum to zero (a closed surface) and its volume
 * is positive, walls and far-field faces both occur, the padding repeats the
 * last element, the element count is close to the request and does not
 * depend on the seed, while the geometry and numbering do.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cfd.h"

#define TARGET 6000

struct fixture {
	struct wl w;
	struct cfd_mesh m;
};

static int setup(void **state)
{
	static struct fixture f;

	f.w.name = "mesh-test";
	cfd_mesh_build(&f.w, &f.m, TARGET, 7);
	*state = &f;
	return 0;
}

static float normal(const struct cfd_mesh *m, size_t i, size_t j, size_t d)
{
	return m->normals[i + (j + d * CFD_NNB) * (size_t)m->nelr];
}

static int32_t neighbour(const struct cfd_mesh *m, size_t i, size_t j)
{
	return m->neighbours[i + j * (size_t)m->nelr];
}

static void test_sizes(void **state)
{
	const struct cfd_mesh *m = &((struct fixture *)*state)->m;

	assert_int_equal(m->nelr % CFD_BLOCK, 0);
	assert_true(m->nel <= m->nelr && m->nelr < m->nel + CFD_BLOCK);
	assert_int_equal(m->nel % 6, 0); /* whole cubes */
	assert_true(fabs((double)m->nel - TARGET) < 0.1 * TARGET);
	assert_int_equal(cfd_mesh_plan(TARGET), m->nel);
}

static void test_mutual_neighbours(void **state)
{
	const struct cfd_mesh *m = &((struct fixture *)*state)->m;
	size_t walls = 0, far = 0, shared = 0;

	for (size_t i = 0; i < (size_t)m->nel; i++)
		for (size_t j = 0; j < CFD_NNB; j++) {
			const int32_t nb = neighbour(m, i, j);
			int back = 0;

			if (nb == CFD_WALL) {
				walls++;
				continue;
			}
			if (nb == CFD_FAR_FIELD) {
				far++;
				continue;
			}
			assert_true(nb >= 0 && nb < m->nel && (size_t)nb != i);
			shared++;
			for (size_t k = 0; k < CFD_NNB; k++) {
				if (neighbour(m, (size_t)nb, k) != (int32_t)i)
					continue;
				back++;
				/* The same face seen from both sides. */
				for (size_t d = 0; d < CFD_NDIM; d++) {
					const float a = normal(m, i, j, d),
						    b = normal(m, (size_t)nb, k, d);

					assert_true(fabsf(a + b) <= 1e-5f * (fabsf(a) + 1e-3f));
				}
			}
			assert_int_equal(back, 1);
		}
	assert_true(walls > 0);
	assert_true(far > 0);
	assert_true(shared > walls + far);
}

static void test_closed_elements(void **state)
{
	const struct cfd_mesh *m = &((struct fixture *)*state)->m;

	for (size_t i = 0; i < (size_t)m->nel; i++) {
		double area = 0;

		assert_true(m->areas[i] > 0);
		for (size_t d = 0; d < CFD_NDIM; d++) {
			double sum = 0;

			for (size_t j = 0; j < CFD_NNB; j++) {
				sum += normal(m, i, j, d);
				area += fabs(normal(m, i, j, d));
			}
			assert_true(fabs(sum) <= 1e-5 * area + 1e-9);
		}
	}
}

static void test_padding(void **state)
{
	const struct cfd_mesh *m = &((struct fixture *)*state)->m;
	const size_t last = (size_t)m->nel - 1;

	for (size_t i = (size_t)m->nel; i < (size_t)m->nelr; i++) {
		assert_true(m->areas[i] == m->areas[last]);
		for (size_t j = 0; j < CFD_NNB; j++) {
			assert_int_equal(neighbour(m, i, j), neighbour(m, last, j));
			for (size_t d = 0; d < CFD_NDIM; d++)
				assert_true(normal(m, i, j, d) == normal(m, last, j, d));
		}
	}
}

static void test_seed(void **state)
{
	const struct cfd_mesh *m = &((struct fixture *)*state)->m;
	struct wl w = {.name = "mesh-test"};
	struct cfd_mesh other;
	size_t same_area = 0;

	cfd_mesh_build(&w, &other, TARGET, 8);
	assert_int_equal(other.nel, m->nel);
	for (size_t i = 0; i < (size_t)m->nel; i++)
		same_area += other.areas[i] == m->areas[i];
	assert_true(same_area < (size_t)m->nel / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_mutual_neighbours),
	    cmocka_unit_test(test_closed_elements),
	    cmocka_unit_test(test_padding),
	    cmocka_unit_test(test_seed),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
