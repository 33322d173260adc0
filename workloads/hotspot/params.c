// SPDX-License-Identifier: MIT
/*
 * params.c - hotspot's thermal model constants (the original's values: a
 * 16 mm x 16 mm silicon chip, 0.5 mm thick) and the per-cell capacitance and
 * resistances derived from the grid size. The products are formed in double
 * and stored as float, as the original does; both the kernel and the
 * reference read the stored floats, so their exact values do not affect the
 * bit-for-bit check.
 */
#include "hotspot.h"

#define MAX_PD	     3.0e6  /* maximum power density (W/m^3) */
#define PRECISION    0.001  /* required precision (degrees) */
#define SPEC_HEAT_SI 1.75e6 /* specific heat of silicon */
#define K_SI	     100    /* thermal conductivity of silicon (an int in the original) */
#define FACTOR_CHIP  0.5    /* capacitance fitting factor */

static const float t_chip = 0.0005f;
static const float chip_height = 0.016f;
static const float chip_width = 0.016f;

void hs_params_init(struct hs_params *p, int rows, int cols)
{
	float grid_height = chip_height / (float)rows;
	float grid_width = chip_width / (float)cols;
	/* The time step is chosen so that no cell can rise faster than the
	 * precision allows at the maximum power density. */
	float max_slope = (float)(MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI));

	p->cap = (float)(FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height);
	p->rx = (float)(grid_width / (2.0 * K_SI * t_chip * grid_height));
	p->ry = (float)(grid_height / (2.0 * K_SI * t_chip * grid_width));
	p->rz = (float)(t_chip / (K_SI * grid_height * grid_width));
	p->step = (float)(PRECISION / max_slope);
}
