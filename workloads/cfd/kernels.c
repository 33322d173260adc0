// SPDX-License-Identifier: MIT
/*
 * kernels.c - cfd's kernels (CTAs of 192 threads, one thread per element,
 * nelr / 192 CTAs) and the host loop of the original's euler3d:
 *
 *   initialize_variables x 3 (variables, old variables, fluxes) and a
 *   cudaMemset of the step factors; then per iteration a device-to-device
 *   copy of the variables, cuda_compute_step_factor, and 3 x
 *   (cuda_compute_flux, cuda_time_step).
 *
 * cuda_compute_flux gathers the variables of each element's 4 neighbours
 * through the neighbour array: the irregular part of the access pattern.
 * The other kernels stream over the arrays.
 */
#include "cfd.h"

#include "emugpu.h"

struct initialize_variables_args {
	float *variables;
	int64_t nelr;
	struct cfd_far_field ff;
};

struct compute_step_factor_args {
	const float *variables, *areas;
	float *step_factors;
	int64_t nelr;
};

struct compute_flux_args {
	const int32_t *neighbours;
	const float *normals, *variables;
	float *fluxes;
	int64_t nelr;
	struct cfd_far_field ff;
};

struct time_step_args {
	const float *old_variables, *step_factors, *fluxes;
	float *variables;
	int64_t j, nelr;
};

EMU_KERNEL(initialize_variables, struct initialize_variables_args)
{
	EMU_FOR_THREADS {
		const size_t i = (size_t)blockDim.x * blockIdx.x + threadIdx.x;

		for (size_t j = 0; j < CFD_NVAR; j++)
			st_global(&args->variables[i + j * (size_t)args->nelr],
				  args->ff.variables[j]);
	}
}

/* Element i's state from the variables array. */
static inline struct cfd_element load_element(EMU_DEVICE_PARAMS, const float *v, size_t i,
					      size_t nelr)
{
	struct cfd_float3 m = {ld_global(&v[i + (CFD_VAR_MOMENTUM + 0) * nelr]),
			       ld_global(&v[i + (CFD_VAR_MOMENTUM + 1) * nelr]),
			       ld_global(&v[i + (CFD_VAR_MOMENTUM + 2) * nelr])};

	return cfd_element_of(ld_global(&v[i + CFD_VAR_DENSITY * nelr]), m,
			      ld_global(&v[i + CFD_VAR_DENSITY_ENERGY * nelr]));
}

EMU_KERNEL(cuda_compute_step_factor, struct compute_step_factor_args)
{
	const size_t nelr = (size_t)args->nelr;

	EMU_FOR_THREADS {
		const size_t i = (size_t)blockDim.x * blockIdx.x + threadIdx.x;
		const struct cfd_element e =
		    load_element(EMU_DEVICE_ARGS, args->variables, i, nelr);

		st_global(&args->step_factors[i], cfd_step_factor(&e, ld_global(&args->areas[i])));
	}
}

EMU_KERNEL(cuda_compute_flux, struct compute_flux_args)
{
	const size_t nelr = (size_t)args->nelr;
	const float *v = args->variables;

	EMU_FOR_THREADS {
		const size_t i = (size_t)blockDim.x * blockIdx.x + threadIdx.x;
		const struct cfd_element self = load_element(EMU_DEVICE_ARGS, v, i, nelr);
		struct cfd_flux f = {0};

		for (size_t j = 0; j < CFD_NNB; j++) {
			const int nb = ld_global(&args->neighbours[i + j * nelr]);
			const struct cfd_float3 normal = {
			    ld_global(&args->normals[i + (j + 0 * CFD_NNB) * nelr]),
			    ld_global(&args->normals[i + (j + 1 * CFD_NNB) * nelr]),
			    ld_global(&args->normals[i + (j + 2 * CFD_NNB) * nelr])};
			struct cfd_element other;

			/* The neighbour's variables: a gather anywhere in the
			 * arrays. */
			if (nb >= 0)
				other = load_element(EMU_DEVICE_ARGS, v, (size_t)nb, nelr);
			cfd_face(&f, &self, nb, normal, nb >= 0 ? &other : NULL, &args->ff);
		}
		st_global(&args->fluxes[i + CFD_VAR_DENSITY * nelr], f.density);
		st_global(&args->fluxes[i + (CFD_VAR_MOMENTUM + 0) * nelr], f.momentum.x);
		st_global(&args->fluxes[i + (CFD_VAR_MOMENTUM + 1) * nelr], f.momentum.y);
		st_global(&args->fluxes[i + (CFD_VAR_MOMENTUM + 2) * nelr], f.momentum.z);
		st_global(&args->fluxes[i + CFD_VAR_DENSITY_ENERGY * nelr], f.density_energy);
	}
}

EMU_KERNEL(cuda_time_step, struct time_step_args)
{
	const size_t nelr = (size_t)args->nelr;

	EMU_FOR_THREADS {
		const size_t i = (size_t)blockDim.x * blockIdx.x + threadIdx.x;
		const float factor = cfd_rk_factor(ld_global(&args->step_factors[i]), (int)args->j);

		for (size_t v = 0; v < CFD_NVAR; v++) {
			const size_t k = i + v * nelr;

			st_global(&args->variables[k], ld_global(&args->old_variables[k]) +
							   factor * ld_global(&args->fluxes[k]));
		}
	}
}

void cfd_far_field_init(struct cfd_far_field *ff)
{
	/* The original's constants: Mach 1.2 at an angle of attack of 0. */
	const float ff_mach = 1.2f, deg_angle_of_attack = 0.0f;
	const float angle_of_attack = (float)(3.1415926535897931 / 180.0f) * deg_angle_of_attack;
	const float ff_pressure = 1.0f;
	float ff_speed_of_sound, ff_speed;
	struct cfd_float3 ff_velocity, ff_momentum;
	struct cfd_element e;

	ff->variables[CFD_VAR_DENSITY] = 1.4f;
	ff_speed_of_sound = sqrtf(CFD_GAMMA * ff_pressure / ff->variables[CFD_VAR_DENSITY]);
	ff_speed = ff_mach * ff_speed_of_sound;
	ff_velocity = (struct cfd_float3){ff_speed * (float)cos((float)angle_of_attack),
					  ff_speed * (float)sin((float)angle_of_attack), 0.0f};
	ff->variables[CFD_VAR_MOMENTUM + 0] = ff->variables[CFD_VAR_DENSITY] * ff_velocity.x;
	ff->variables[CFD_VAR_MOMENTUM + 1] = ff->variables[CFD_VAR_DENSITY] * ff_velocity.y;
	ff->variables[CFD_VAR_MOMENTUM + 2] = ff->variables[CFD_VAR_DENSITY] * ff_velocity.z;
	ff->variables[CFD_VAR_DENSITY_ENERGY] =
	    ff->variables[CFD_VAR_DENSITY] * (0.5f * (ff_speed * ff_speed)) +
	    (ff_pressure / (CFD_GAMMA - 1.0f));
	ff_momentum = (struct cfd_float3){ff->variables[CFD_VAR_MOMENTUM + 0],
					  ff->variables[CFD_VAR_MOMENTUM + 1],
					  ff->variables[CFD_VAR_MOMENTUM + 2]};
	/* The far field's flux contributions, from its own pressure and
	 * velocity rather than ones derived again from its variables. */
	e.density = ff->variables[CFD_VAR_DENSITY];
	e.momentum = ff_momentum;
	e.density_energy = ff->variables[CFD_VAR_DENSITY_ENERGY];
	e.pressure = ff_pressure;
	e.velocity = ff_velocity;
	cfd_flux_contribution(&e);
	ff->fc_momentum_x = e.fc_momentum_x;
	ff->fc_momentum_y = e.fc_momentum_y;
	ff->fc_momentum_z = e.fc_momentum_z;
	ff->fc_density_energy = e.fc_density_energy;
}

void cfd_init_gpu(const struct wl *w, const struct cfd_solution *s, int64_t nelr,
		  const struct cfd_far_field *ff)
{
	const dim3 grid = emu_dim3((unsigned)(nelr / CFD_BLOCK), 1, 1);
	const dim3 block = emu_dim3(CFD_BLOCK, 1, 1);

	WL_CHECK(w, EMU_LAUNCH(initialize_variables, grid, block, 0, s->variables, nelr, *ff));
	WL_CHECK(w, EMU_LAUNCH(initialize_variables, grid, block, 0, s->old_variables, nelr, *ff));
	WL_CHECK(w, EMU_LAUNCH(initialize_variables, grid, block, 0, s->fluxes, nelr, *ff));
	WL_CHECK(w, cudaDeviceSynchronize());
	WL_CHECK(w, cudaMemset(s->step_factors, 0, (size_t)nelr * sizeof(float)));
}

void cfd_run_gpu(const struct wl *w, const struct cfd_mesh *m, const struct cfd_solution *s,
		 const struct cfd_far_field *ff, int iterations)
{
	const int64_t nelr = m->nelr;
	const dim3 grid = emu_dim3((unsigned)(nelr / CFD_BLOCK), 1, 1);
	const dim3 block = emu_dim3(CFD_BLOCK, 1, 1);

	for (int it = 0; it < iterations; it++) {
		/* The original's copy is a cudaMemcpy on the same stream,
		 * ordered after the last time step: wait for it here, since
		 * the copy runs at once. */
		WL_CHECK(w, cudaDeviceSynchronize());
		WL_CHECK(w, cudaMemcpy(s->old_variables, s->variables,
				       (size_t)nelr * CFD_NVAR * sizeof(float),
				       cudaMemcpyDeviceToDevice));
		WL_CHECK(w, EMU_LAUNCH(cuda_compute_step_factor, grid, block, 0, s->variables,
				       m->areas, s->step_factors, nelr));
		for (int64_t j = 0; j < CFD_RK; j++) {
			WL_CHECK(w, EMU_LAUNCH(cuda_compute_flux, grid, block, 0, m->neighbours,
					       m->normals, s->variables, s->fluxes, nelr, *ff));
			WL_CHECK(w, EMU_LAUNCH(cuda_time_step, grid, block, 0, s->old_variables,
					       s->step_factors, s->fluxes, s->variables, j, nelr));
		}
	}
	WL_CHECK(w, cudaDeviceSynchronize());
}
