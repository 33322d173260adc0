/* SPDX-License-Identifier: MIT */
/*
 * cfd.h - Rodinia cfd (euler3d): a finite-volume solver of the 3-D Euler
 * equations on an unstructured mesh of elements with 4 faces each, advanced
 * by a 3-stage Runge-Kutta scheme. Declarations and the per-element
 * arithmetic shared by the kernels and the CPU reference, so that both do
 * the same float operations in the same order.
 *
 * Arrays are the original's structure of arrays over nelr elements (the
 * element count padded to a multiple of 192): variable v of element i at
 * [i + v nelr], neighbour j at [i + j nelr], component d of face j's normal
 * at [i + (j + d NNB) nelr].
 */
#ifndef CFD_H
#define CFD_H

#include <math.h>
#include <stddef.h>

#include "wl.h"

#define CFD_BLOCK     192 /* the original's BLOCK_SIZE_0..4: threads per CTA, padding */
#define CFD_NDIM      3
#define CFD_NNB	      4 /* faces (neighbours) per element */
#define CFD_RK	      3 /* Runge-Kutta stages per iteration */
#define CFD_GAMMA     1.4f
#define CFD_SMOOTHING 0.2f /* artificial viscosity coefficient */

enum cfd_var {
	CFD_VAR_DENSITY = 0,
	CFD_VAR_MOMENTUM = 1, /* x, y, z: 1, 2, 3 */
	CFD_VAR_DENSITY_ENERGY = 1 + CFD_NDIM,
	CFD_NVAR
};

/* Neighbour markers of boundary faces (the original's file values minus 1). */
#define CFD_WALL      (-1) /* a solid wall: the body in the flow */
#define CFD_FAR_FIELD (-2) /* the outer boundary */

struct cfd_float3 {
	float x, y, z;
};

/* The far-field state and its flux contributions (constant memory in the
 * original; here passed by value in the kernels' arguments). */
struct cfd_far_field {
	float variables[CFD_NVAR];
	struct cfd_float3 fc_momentum_x, fc_momentum_y, fc_momentum_z, fc_density_energy;
};

/* The managed mesh. */
struct cfd_mesh {
	int64_t nel, nelr;
	float *areas;	     /* nelr: element volumes (the original's "areas") */
	int32_t *neighbours; /* NNB nelr */
	float *normals;	     /* NDIM NNB nelr: face normals, length = face area */
};

/* The managed solution arrays. */
struct cfd_solution {
	float *variables, *old_variables, *fluxes; /* NVAR nelr each */
	float *step_factors;			   /* nelr */
};

/* An element's state and what the flux needs from it. */
struct cfd_element {
	float density, density_energy;
	struct cfd_float3 momentum, velocity;
	float speed_sqd, speed, pressure, speed_of_sound;
	struct cfd_float3 fc_momentum_x, fc_momentum_y, fc_momentum_z, fc_density_energy;
};

static inline float cfd_pressure(float density, float density_energy, float speed_sqd)
{
	return (CFD_GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

static inline float cfd_speed_of_sound(float density, float pressure)
{
	return sqrtf(CFD_GAMMA * pressure / density);
}

/* The flux contributions of a state (the original's
 * compute_flux_contribution). */
static inline void cfd_flux_contribution(struct cfd_element *e)
{
	const struct cfd_float3 v = e->velocity, m = e->momentum;
	const float de_p = e->density_energy + e->pressure;

	e->fc_momentum_x = (struct cfd_float3){v.x * m.x + e->pressure, v.x * m.y, v.x * m.z};
	e->fc_momentum_y =
	    (struct cfd_float3){e->fc_momentum_x.y, v.y * m.y + e->pressure, v.y * m.z};
	e->fc_momentum_z =
	    (struct cfd_float3){e->fc_momentum_x.z, e->fc_momentum_y.z, v.z * m.z + e->pressure};
	e->fc_density_energy = (struct cfd_float3){v.x * de_p, v.y * de_p, v.z * de_p};
}

/* Everything derived from an element's five variables. */
static inline struct cfd_element cfd_element_of(float density, struct cfd_float3 momentum,
						float density_energy)
{
	struct cfd_element e;

	e.density = density;
	e.momentum = momentum;
	e.density_energy = density_energy;
	e.velocity =
	    (struct cfd_float3){momentum.x / density, momentum.y / density, momentum.z / density};
	e.speed_sqd =
	    e.velocity.x * e.velocity.x + e.velocity.y * e.velocity.y + e.velocity.z * e.velocity.z;
	e.speed = sqrtf(e.speed_sqd);
	e.pressure = cfd_pressure(density, density_energy, e.speed_sqd);
	e.speed_of_sound = cfd_speed_of_sound(density, e.pressure);
	cfd_flux_contribution(&e);
	return e;
}

/* compute_step_factor's element: 0.5 / (sqrt(area) (|v| + c)). */
static inline float cfd_step_factor(const struct cfd_element *e, float area)
{
	return 0.5f / (sqrtf(area) * (sqrtf(e->speed_sqd) + e->speed_of_sound));
}

/* The five flux sums of an element. */
struct cfd_flux {
	float density, density_energy;
	struct cfd_float3 momentum;
};

/* Adds the cell-centred flux through a face with normal n: half the normal
 * times the sum of both sides' fluxes, one component of n at a time. */
static inline void cfd_add_central(struct cfd_flux *f, float n, float mom_nb, float mom_i,
				   float de_nb, float de_i, float mx_nb, float mx_i, float my_nb,
				   float my_i, float mz_nb, float mz_i)
{
	const float factor = 0.5f * n;

	f->density += factor * (mom_nb + mom_i);
	f->density_energy += factor * (de_nb + de_i);
	f->momentum.x += factor * (mx_nb + mx_i);
	f->momentum.y += factor * (my_nb + my_i);
	f->momentum.z += factor * (mz_nb + mz_i);
}

/* One face of element i (compute_flux's loop body): `nb` is the neighbour
 * index or a boundary marker, `e` the neighbour's state when nb >= 0. */
static inline void cfd_face(struct cfd_flux *f, const struct cfd_element *i, int nb,
			    struct cfd_float3 normal, const struct cfd_element *e,
			    const struct cfd_far_field *ff)
{
	const float normal_len =
	    sqrtf(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);

	if (nb >= 0) {
		/* Artificial viscosity: the difference of the states. */
		const float factor =
		    -normal_len * CFD_SMOOTHING * 0.5f *
		    (i->speed + sqrtf(e->speed_sqd) + i->speed_of_sound + e->speed_of_sound);

		f->density += factor * (i->density - e->density);
		f->density_energy += factor * (i->density_energy - e->density_energy);
		f->momentum.x += factor * (i->momentum.x - e->momentum.x);
		f->momentum.y += factor * (i->momentum.y - e->momentum.y);
		f->momentum.z += factor * (i->momentum.z - e->momentum.z);
		cfd_add_central(f, normal.x, e->momentum.x, i->momentum.x, e->fc_density_energy.x,
				i->fc_density_energy.x, e->fc_momentum_x.x, i->fc_momentum_x.x,
				e->fc_momentum_y.x, i->fc_momentum_y.x, e->fc_momentum_z.x,
				i->fc_momentum_z.x);
		cfd_add_central(f, normal.y, e->momentum.y, i->momentum.y, e->fc_density_energy.y,
				i->fc_density_energy.y, e->fc_momentum_x.y, i->fc_momentum_x.y,
				e->fc_momentum_y.y, i->fc_momentum_y.y, e->fc_momentum_z.y,
				i->fc_momentum_z.y);
		cfd_add_central(f, normal.z, e->momentum.z, i->momentum.z, e->fc_density_energy.z,
				i->fc_density_energy.z, e->fc_momentum_x.z, i->fc_momentum_x.z,
				e->fc_momentum_y.z, i->fc_momentum_y.z, e->fc_momentum_z.z,
				i->fc_momentum_z.z);
	} else if (nb == CFD_WALL) {
		/* Only the pressure acts on a wall. */
		f->momentum.x += normal.x * i->pressure;
		f->momentum.y += normal.y * i->pressure;
		f->momentum.z += normal.z * i->pressure;
	} else if (nb == CFD_FAR_FIELD) {
		const float *v = ff->variables;

		cfd_add_central(f, normal.x, v[CFD_VAR_MOMENTUM + 0], i->momentum.x,
				ff->fc_density_energy.x, i->fc_density_energy.x,
				ff->fc_momentum_x.x, i->fc_momentum_x.x, ff->fc_momentum_y.x,
				i->fc_momentum_y.x, ff->fc_momentum_z.x, i->fc_momentum_z.x);
		cfd_add_central(f, normal.y, v[CFD_VAR_MOMENTUM + 1], i->momentum.y,
				ff->fc_density_energy.y, i->fc_density_energy.y,
				ff->fc_momentum_x.y, i->fc_momentum_x.y, ff->fc_momentum_y.y,
				i->fc_momentum_y.y, ff->fc_momentum_z.y, i->fc_momentum_z.y);
		cfd_add_central(f, normal.z, v[CFD_VAR_MOMENTUM + 2], i->momentum.z,
				ff->fc_density_energy.z, i->fc_density_energy.z,
				ff->fc_momentum_x.z, i->fc_momentum_x.z, ff->fc_momentum_y.z,
				i->fc_momentum_y.z, ff->fc_momentum_z.z, i->fc_momentum_z.z);
	}
}

/* time_step's factor for Runge-Kutta stage j. */
static inline float cfd_rk_factor(float step_factor, int j)
{
	return step_factor / (float)(CFD_RK + 1 - j);
}

/* The mesh footprint and the solution's, for nelr elements. */
static inline uint64_t cfd_footprint_bytes(uint64_t nelr)
{
	return nelr * (sizeof(float) * (1 + CFD_NDIM * CFD_NNB + 3 * CFD_NVAR + 1) +
		       sizeof(int32_t) * CFD_NNB);
}

/* The far-field state (Mach 1.2, angle of attack 0), as the original
 * computes it (kernels.c). */
void cfd_far_field_init(struct cfd_far_field *ff);

/*
 * mesh.c: a tetrahedral mesh of a box around an elongated body, about
 * `target` elements, from the seed; cfd_mesh_plan gives the element count
 * without building it. The arrays are allocated with wl_managed.
 */
int64_t cfd_mesh_plan(int64_t target);
void cfd_mesh_build(const struct wl *w, struct cfd_mesh *m, int64_t target, uint64_t seed);

/* kernels.c: initialize_variables (three arrays) and the step factors set to
 * 0, then `iterations` of copy, step factor and 3 x (flux, time step). */
void cfd_init_gpu(const struct wl *w, const struct cfd_solution *s, int64_t nelr,
		  const struct cfd_far_field *ff);
void cfd_run_gpu(const struct wl *w, const struct cfd_mesh *m, const struct cfd_solution *s,
		 const struct cfd_far_field *ff, int iterations);

/* reference.c: the same on the CPU, on arrays of the same layout. */
void cfd_reference(const struct cfd_mesh *m, const struct cfd_solution *s,
		   const struct cfd_far_field *ff, int iterations);

#endif
