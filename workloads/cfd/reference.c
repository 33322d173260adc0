// SPDX-License-Identifier: MIT
/*
 * reference.c - cfd on the CPU: the same iterations over the same arrays
 * (copy, step factors, 3 x (fluxes, time step)), each element computed with
 * the kernels' arithmetic (cfd.h). Every kernel reads only arrays it does
 * not write, so the order of elements does not matter and the results agree
 * bit for bit.
 */
#include "cfd.h"

#include <string.h>

static struct cfd_element element(const float *v, size_t i, size_t nelr)
{
	struct cfd_float3 m = {v[i + (CFD_VAR_MOMENTUM + 0) * nelr],
			       v[i + (CFD_VAR_MOMENTUM + 1) * nelr],
			       v[i + (CFD_VAR_MOMENTUM + 2) * nelr]};

	return cfd_element_of(v[i + CFD_VAR_DENSITY * nelr], m,
			      v[i + CFD_VAR_DENSITY_ENERGY * nelr]);
}

static void fluxes(const struct cfd_mesh *m, const float *v, float *out,
		   const struct cfd_far_field *ff)
{
	const size_t nelr = (size_t)m->nelr;

	for (size_t i = 0; i < nelr; i++) {
		const struct cfd_element self = element(v, i, nelr);
		struct cfd_flux f = {0};

		for (size_t j = 0; j < CFD_NNB; j++) {
			const int nb = m->neighbours[i + j * nelr];
			const struct cfd_float3 normal = {m->normals[i + (j + 0 * CFD_NNB) * nelr],
							  m->normals[i + (j + 1 * CFD_NNB) * nelr],
							  m->normals[i + (j + 2 * CFD_NNB) * nelr]};
			struct cfd_element other;

			if (nb >= 0)
				other = element(v, (size_t)nb, nelr);
			cfd_face(&f, &self, nb, normal, nb >= 0 ? &other : NULL, ff);
		}
		out[i + CFD_VAR_DENSITY * nelr] = f.density;
		out[i + (CFD_VAR_MOMENTUM + 0) * nelr] = f.momentum.x;
		out[i + (CFD_VAR_MOMENTUM + 1) * nelr] = f.momentum.y;
		out[i + (CFD_VAR_MOMENTUM + 2) * nelr] = f.momentum.z;
		out[i + CFD_VAR_DENSITY_ENERGY * nelr] = f.density_energy;
	}
}

void cfd_reference(const struct cfd_mesh *m, const struct cfd_solution *s,
		   const struct cfd_far_field *ff, int iterations)
{
	const size_t nelr = (size_t)m->nelr;

	for (size_t i = 0; i < nelr; i++)
		for (size_t j = 0; j < CFD_NVAR; j++) {
			s->variables[i + j * nelr] = ff->variables[j];
			s->old_variables[i + j * nelr] = ff->variables[j];
			s->fluxes[i + j * nelr] = ff->variables[j];
		}
	memset(s->step_factors, 0, nelr * sizeof(float));
	for (int it = 0; it < iterations; it++) {
		memcpy(s->old_variables, s->variables, nelr * CFD_NVAR * sizeof(float));
		for (size_t i = 0; i < nelr; i++) {
			const struct cfd_element e = element(s->variables, i, nelr);

			s->step_factors[i] = cfd_step_factor(&e, m->areas[i]);
		}
		for (int j = 0; j < CFD_RK; j++) {
			fluxes(m, s->variables, s->fluxes, ff);
			for (size_t i = 0; i < nelr; i++) {
				const float factor = cfd_rk_factor(s->step_factors[i], j);

				for (size_t v = 0; v < CFD_NVAR; v++) {
					const size_t k = i + v * nelr;

					s->variables[k] =
					    s->old_variables[k] + factor * s->fluxes[k];
				}
			}
		}
	}
}
