// SPDX-License-Identifier: MIT
/*
 * main.c - cfd (Rodinia euler3d): an unstructured-mesh Euler solver on a
 * generated tetrahedral mesh in managed memory. Per iteration a copy, the
 * step factors and 3 x (fluxes, time step); the variables, fluxes and step
 * factors are checked bit for bit against a CPU reference doing the same
 * float operations.
 */
#include "cfd.h"

#include <stdlib.h>

/* The size of Rodinia's fvcorr.domn.097K mesh. */
#define CFD_DEFAULT_ELEMENTS   97046
#define CFD_DEFAULT_ITERATIONS 10
#define CFD_MAX_ELEMENTS       (1ll << 30)

static void *alloc_or_die(size_t bytes)
{
	void *p = malloc(bytes);

	if (!p) {
		fprintf(stderr, "cfd: out of memory for the CPU reference\n");
		exit(1);
	}
	return p;
}

static bool check(const struct wl *w, const struct cfd_mesh *m, const struct cfd_solution *s,
		  const struct cfd_far_field *ff, int iterations)
{
	const size_t nv = (size_t)m->nelr * CFD_NVAR;
	struct cfd_solution r = {alloc_or_die(nv * sizeof(float)), alloc_or_die(nv * sizeof(float)),
				 alloc_or_die(nv * sizeof(float)),
				 alloc_or_die((size_t)m->nelr * sizeof(float))};
	bool pass;

	cfd_reference(m, &r, ff, iterations);
	pass = wl_check_f32_exact(w, "variables", s->variables, r.variables, nv);
	pass &= wl_check_f32_exact(w, "fluxes", s->fluxes, r.fluxes, nv);
	pass &=
	    wl_check_f32_exact(w, "step factors", s->step_factors, r.step_factors, (size_t)m->nelr);
	free(r.variables);
	free(r.old_variables);
	free(r.fluxes);
	free(r.step_factors);
	return pass;
}

int main(int argc, char **argv)
{
	static const char *const names[CFD_NVAR] = {"density", "momentum_x", "momentum_y",
						    "momentum_z", "density_energy"};
	long long elements = 0, iterations = CFD_DEFAULT_ITERATIONS;
	const struct wl_opt opts[] = {
	    {"elements", WL_INT, &elements, 1000, CFD_MAX_ELEMENTS,
	     "mesh elements, about (default 97046, fvcorr.domn.097K's)"},
	    {"iterations", WL_INT, &iterations, 1, 1 << 20,
	     "iterations, 8 operations each (default 10; the original runs 2000)"},
	    {0},
	};
	struct cfd_far_field ff;
	struct cfd_mesh m;
	struct cfd_solution s;
	struct wl w;
	size_t nv;
	double mass = 0;
	bool pass;

	wl_init(&w, "cfd", "Rodinia cfd: Euler solver on an unstructured tetrahedral mesh", argc,
		argv, opts);
	if (w.footprint && elements)
		wl_usage_error(&w, "--footprint and --elements both set the mesh size; give one");
	if (w.footprint) {
		elements = (long long)(w.footprint / cfd_footprint_bytes(1));
		if (elements < 1000 || elements > CFD_MAX_ELEMENTS)
			wl_usage_error(
			    &w, "--footprint %llu gives %lld elements; accepted 1000 to %lld",
			    (unsigned long long)w.footprint, elements, CFD_MAX_ELEMENTS);
	}
	if (!elements)
		elements = CFD_DEFAULT_ELEMENTS;

	cfd_mesh_build(&w, &m, elements, w.seed);
	nv = (size_t)m.nelr * CFD_NVAR;
	s.variables = wl_managed(&w, nv * sizeof(float), "variables");
	s.old_variables = wl_managed(&w, nv * sizeof(float), "old_variables");
	s.fluxes = wl_managed(&w, nv * sizeof(float), "fluxes");
	s.step_factors = wl_managed(&w, (size_t)m.nelr * sizeof(float), "step_factors");
	wl_footprint(&w, cfd_footprint_bytes((uint64_t)m.nelr));
	uvmemu_report_value("elements", (double)m.nel);
	uvmemu_report_value("iterations", (double)iterations);
	wl_log(&w,
	       "%lld elements (%lld padded to a multiple of %d), %lld iterations: %lld launches "
	       "and %lld copies",
	       (long long)m.nel, (long long)m.nelr, CFD_BLOCK, iterations, 3 + 7 * iterations,
	       iterations);

	cfd_far_field_init(&ff);
	cfd_init_gpu(&w, &s, m.nelr, &ff);
	uvmemu_roi_begin();
	cfd_run_gpu(&w, &m, &s, &ff, (int)iterations);
	uvmemu_roi_end();

	for (int64_t i = 0; i < m.nel; i++)
		mass += s.variables[i + CFD_VAR_DENSITY * m.nelr] * m.areas[i];
	wl_log(&w, "total mass (density x volume) = %.9g", mass);
	/* The reference runs after the GPU run (it needs no input of its own
	 * beyond the mesh); it is not part of the region of interest. */
	pass = check(&w, &m, &s, &ff, (int)iterations);
	for (int v = 0; v < CFD_NVAR; v++)
		wl_output_f32(&w, names[v], s.variables + (size_t)v * (size_t)m.nelr,
			      (size_t)m.nel);
	WL_CHECK(&w, cudaFree(m.areas));
	WL_CHECK(&w, cudaFree(m.neighbours));
	WL_CHECK(&w, cudaFree(m.normals));
	WL_CHECK(&w, cudaFree(s.variables));
	WL_CHECK(&w, cudaFree(s.old_variables));
	WL_CHECK(&w, cudaFree(s.fluxes));
	WL_CHECK(&w, cudaFree(s.step_factors));
	return wl_finish(&w, pass);
}
