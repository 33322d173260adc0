// SPDX-License-Identifier: MIT
/*
 * mesh.c - cfd's input: Rodinia's meshes (fvcorr.domn.*, missile.domn.*) are
 * tetrahedral meshes of the air around a body, each element with its volume,
 * 4 neighbours (or a wall or far-field marker) and 4 face normals. Those
 * files are not available here, so this builds a mesh of the same structure
 * from the seed:
 *
 * - a box of nx x m x m cubes of side 1/m, each cut into 6 tetrahedra
 *   sharing its main diagonal (Kuhn's subdivision, so that neighbouring
 *   cubes' faces match);
 * - the cubes whose centres lie inside an ellipsoid along x (the body; a
 *   quarter of the box long, 0.15 thick) are left out: faces towards them
 *   are walls, faces on the box's sides are far field;
 * - interior vertices moved by up to a tenth of a cube side, so that
 *   volumes, areas and normals differ from element to element;
 * - elements numbered cube by cube, then shuffled within windows of 4096, so
 *   that neighbours are near each other in memory but not in order (a mesh
 *   generator's numbering), and those across cube layers far apart.
 *
 * Normals point into the element, with the face's area as their length, as
 * the original uses them (the fluxes add +n.F). The element count is padded
 * to a multiple of 192 with copies of the last element, as the original.
 */
#include "cfd.h"

#include <stdlib.h>
#include <string.h>

#define CFD_SHUFFLE_WINDOW 4096
#define CFD_JITTER	   0.1 /* of a cube side */

struct grid {
	int nx, ny, nz; /* cubes per axis; ny = nz */
};

/* Kuhn's 6 tetrahedra of a cube: walk from corner (0,0,0) to (1,1,1) along
 * the axes in each order. */
static const int kuhn[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* Is cube (x, y, z) inside the body? */
static bool in_body(const struct grid *g, int x, int y, int z)
{
	/* In units of a cube side: centre and semi-axes of the ellipsoid. */
	const double cx = g->nx / 2.0, cy = g->ny / 2.0, cz = g->nz / 2.0;
	const double ax = g->nx / 4.0, ay = 0.15 * g->ny, az = 0.15 * g->nz;
	const double dx = (x + 0.5 - cx) / ax, dy = (y + 0.5 - cy) / ay, dz = (z + 0.5 - cz) / az;

	return dx * dx + dy * dy + dz * dz < 1.0;
}

static int64_t count_elements(const struct grid *g)
{
	int64_t cubes = 0;

	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++)
				cubes += !in_body(g, x, y, z);
	return 6 * cubes;
}

/* The grid whose element count comes closest to `target`. */
static struct grid plan(int64_t target)
{
	struct grid best = {0}, g;
	int64_t best_d = INT64_MAX;
	int m = (int)llround(cbrt((double)target / 12.0));
	int est;

	if (m < 3)
		m = 3;
	/* About 2.4% of the box is the body. */
	est = (int)llround((double)target / (6.0 * m * m * 0.976));
	for (int nx = est - 2; nx <= est + 2; nx++) {
		int64_t d;

		if (nx < 3)
			continue;
		g = (struct grid){nx, m, m};
		d = llabs(count_elements(&g) - target);
		if (d < best_d) {
			best_d = d;
			best = g;
		}
	}
	return best;
}

int64_t cfd_mesh_plan(int64_t target)
{
	struct grid g = plan(target);

	return count_elements(&g);
}

static size_t vertex_id(const struct grid *g, int x, int y, int z)
{
	return ((size_t)z * (size_t)(g->ny + 1) + (size_t)y) * (size_t)(g->nx + 1) + (size_t)x;
}

/* A face: its three vertices in increasing order, and which element's face
 * (element * 4 + the face's opposite corner) it is. */
struct face {
	uint32_t v[3];
	uint32_t owner;
};

static int face_cmp(const void *pa, const void *pb)
{
	const struct face *a = pa, *b = pb;

	for (int i = 0; i < 3; i++)
		if (a->v[i] != b->v[i])
			return a->v[i] < b->v[i] ? -1 : 1;
	return 0;
}

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Vertex positions: the grid, interior vertices jittered. */
static double *place_vertices(const struct grid *g, uint64_t seed)
{
	const size_t nv = vertex_id(g, g->nx, g->ny, g->nz) + 1;
	const double h = 1.0 / g->ny;
	double *p = malloc(3 * nv * sizeof(double));
	struct wl_rng rng;

	if (!p)
		return NULL;
	wl_rng_seed(&rng, mix(seed) ^ 0x6d657368ull);
	for (int z = 0; z <= g->nz; z++)
		for (int y = 0; y <= g->ny; y++)
			for (int x = 0; x <= g->nx; x++) {
				const size_t v = vertex_id(g, x, y, z);
				const bool inner =
				    x > 0 && x < g->nx && y > 0 && y < g->ny && z > 0 && z < g->nz;
				const int c[3] = {x, y, z};

				for (int d = 0; d < 3; d++)
					p[3 * v + d] =
					    h * (c[d] +
						 (inner ? CFD_JITTER * (2 * wl_rng_unit(&rng) - 1)
							: 0));
			}
	return p;
}

/* Is the face with these vertices on a side of the box? */
static bool on_box(const struct grid *g, const uint32_t v[3])
{
	const int n[3] = {g->nx, g->ny, g->nz};
	int c[3][3];

	for (int i = 0; i < 3; i++) {
		size_t id = v[i];

		c[i][0] = (int)(id % (size_t)(g->nx + 1));
		id /= (size_t)(g->nx + 1);
		c[i][1] = (int)(id % (size_t)(g->ny + 1));
		c[i][2] = (int)(id / (size_t)(g->ny + 1));
	}
	for (int d = 0; d < 3; d++)
		if ((c[0][d] == 0 && c[1][d] == 0 && c[2][d] == 0) ||
		    (c[0][d] == n[d] && c[1][d] == n[d] && c[2][d] == n[d]))
			return true;
	return false;
}

static void sub(const double *a, const double *b, double *out)
{
	for (int d = 0; d < 3; d++)
		out[d] = a[d] - b[d];
}

/* Element t's volume and inward face normals (face j opposite corner j). */
static void geometry(const double *pos, const uint32_t tv[4], float *volume, double n[4][3])
{
	double e1[3], e2[3], e3[3];

	sub(&pos[3 * tv[1]], &pos[3 * tv[0]], e1);
	sub(&pos[3 * tv[2]], &pos[3 * tv[0]], e2);
	sub(&pos[3 * tv[3]], &pos[3 * tv[0]], e3);
	*volume = (float)(fabs(e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
			       e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
			       e1[2] * (e2[0] * e3[1] - e2[1] * e3[0])) /
			  6.0);
	for (int j = 0; j < 4; j++) {
		const double *a = &pos[3 * tv[(j + 1) % 4]], *b = &pos[3 * tv[(j + 2) % 4]];
		const double *c = &pos[3 * tv[(j + 3) % 4]], *opp = &pos[3 * tv[j]];
		double u[3], v[3], w[3];

		sub(b, a, u);
		sub(c, a, v);
		sub(opp, a, w);
		n[j][0] = 0.5 * (u[1] * v[2] - u[2] * v[1]);
		n[j][1] = 0.5 * (u[2] * v[0] - u[0] * v[2]);
		n[j][2] = 0.5 * (u[0] * v[1] - u[1] * v[0]);
		/* Towards the opposite corner: into the element. */
		if (n[j][0] * w[0] + n[j][1] * w[1] + n[j][2] * w[2] < 0)
			for (int d = 0; d < 3; d++)
				n[j][d] = -n[j][d];
	}
}

static void out_of_memory(void)
{
	fprintf(stderr, "cfd: out of memory building the mesh\n");
	exit(1);
}

/* The corners of every element, cube by cube. */
static uint32_t (*make_elements(const struct grid *g, size_t nel))[4]
{
	uint32_t(*tv)[4] = malloc(nel * sizeof(*tv));
	size_t t = 0;

	if (!tv)
		out_of_memory();
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++) {
				if (in_body(g, x, y, z))
					continue;
				for (int k = 0; k < 6; k++) {
					int c[3] = {x, y, z};

					tv[t][0] = (uint32_t)vertex_id(g, c[0], c[1], c[2]);
					for (int s = 0; s < 3; s++) {
						c[kuhn[k][s]]++;
						tv[t][s + 1] =
						    (uint32_t)vertex_id(g, c[0], c[1], c[2]);
					}
					t++;
				}
			}
	return tv;
}

/* Neighbours by matching faces: two elements sharing three corners. */
static int32_t (*find_neighbours(const struct grid *g, uint32_t (*tv)[4], size_t nel))[4]
{
	struct face *f = malloc(4 * nel * sizeof(*f));
	int32_t(*nb)[4] = malloc(nel * sizeof(*nb));
	size_t nf = 4 * nel;

	if (!f || !nb)
		out_of_memory();
	for (size_t t = 0; t < nel; t++)
		for (int j = 0; j < 4; j++) {
			struct face *x = &f[4 * t + (size_t)j];
			uint32_t a = tv[t][(j + 1) % 4], b = tv[t][(j + 2) % 4],
				 c = tv[t][(j + 3) % 4];
			uint32_t tmp;

			if (a > b)
				tmp = a, a = b, b = tmp;
			if (b > c)
				tmp = b, b = c, c = tmp;
			if (a > b)
				tmp = a, a = b, b = tmp;
			*x = (struct face){{a, b, c}, (uint32_t)(4 * t + (size_t)j)};
		}
	qsort(f, nf, sizeof(*f), face_cmp);
	for (size_t i = 0; i < nf;) {
		const uint32_t o = f[i].owner;

		if (i + 1 < nf && face_cmp(&f[i], &f[i + 1]) == 0) {
			const uint32_t p = f[i + 1].owner;

			nb[o / 4][o % 4] = (int32_t)(p / 4);
			nb[p / 4][p % 4] = (int32_t)(o / 4);
			i += 2;
		} else {
			nb[o / 4][o % 4] = on_box(g, f[i].v) ? CFD_FAR_FIELD : CFD_WALL;
			i++;
		}
	}
	free(f);
	return nb;
}

void cfd_mesh_build(const struct wl *w, struct cfd_mesh *m, int64_t target, uint64_t seed)
{
	const struct grid g = plan(target);
	const size_t nel = (size_t)count_elements(&g);
	const size_t nelr = (nel + CFD_BLOCK - 1) / CFD_BLOCK * CFD_BLOCK;
	uint32_t(*tv)[4] = make_elements(&g, nel);
	int32_t(*nb)[4] = find_neighbours(&g, tv, nel);
	uint32_t *slot = malloc(nel * sizeof(uint32_t)), *elem = malloc(nel * sizeof(uint32_t));
	double *pos = place_vertices(&g, seed);
	struct wl_rng rng;

	if (!slot || !elem || !pos)
		out_of_memory();
	/* The numbering: shuffled within windows. */
	wl_rng_seed(&rng, seed);
	for (size_t i = 0; i < nel; i++)
		elem[i] = (uint32_t)i;
	for (size_t lo = 0; lo < nel; lo += CFD_SHUFFLE_WINDOW) {
		size_t n = nel - lo < CFD_SHUFFLE_WINDOW ? nel - lo : CFD_SHUFFLE_WINDOW;

		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)wl_rng_below(&rng, i + 1);
			uint32_t tmp = elem[lo + i];

			elem[lo + i] = elem[lo + j];
			elem[lo + j] = tmp;
		}
	}
	for (size_t i = 0; i < nel; i++)
		slot[elem[i]] = (uint32_t)i;

	m->nel = (int64_t)nel;
	m->nelr = (int64_t)nelr;
	m->areas = wl_managed(w, nelr * sizeof(float), "areas");
	m->neighbours = wl_managed(w, CFD_NNB * nelr * sizeof(int32_t), "neighbours");
	m->normals = wl_managed(w, CFD_NDIM * CFD_NNB * nelr * sizeof(float), "normals");
	for (size_t i = 0; i < nelr; i++) {
		/* Padding repeats the last element, as the original. */
		const size_t t = elem[i < nel ? i : nel - 1];
		double n[4][3];
		float volume;

		geometry(pos, tv[t], &volume, n);
		m->areas[i] = volume;
		for (size_t j = 0; j < CFD_NNB; j++) {
			const int32_t e = nb[t][j];

			m->neighbours[i + j * nelr] = e >= 0 ? (int32_t)slot[e] : e;
			for (size_t d = 0; d < CFD_NDIM; d++)
				m->normals[i + (j + d * CFD_NNB) * nelr] = (float)n[j][d];
		}
	}
	free(tv);
	free(nb);
	free(slot);
	free(elem);
	free(pos);
}
