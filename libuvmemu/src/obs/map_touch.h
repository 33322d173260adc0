/* SPDX-License-Identifier: MIT */
/*
 * map_touch.h - what this machine charges a thread for the first access to a
 * page whose page-table entry was just set.
 *
 * Every block the emulator maps, for the GPU or back for the CPU, is
 * touched next by a thread of the program. On bare metal that touch costs a
 * page walk (tens of ns). Under a hypervisor that shadows the guest's page
 * tables, the first access to a newly set entry exits to the hypervisor,
 * which builds its own entry: microseconds, charged to whichever instruction
 * touched the page, invisible to the guest's profilers as anything but user
 * time, and outside the model. The probe measures it so that runs on such a
 * machine can say how much of their time is that (the report, `uvmemu info`,
 * bench/scale).
 */
#ifndef UVM_MAP_TOUCH_H
#define UVM_MAP_TOUCH_H

#include <stdbool.h>
#include <stddef.h>

struct uvm_map_touch {
	bool measured;
	double first_us; /* per 64 KB block: a load of each page after the entries are set */
	double again_us; /* per 64 KB block: the same loads again */
	char why[96];	 /* when not measured */
};

/* A few ms on a shadowing hypervisor, far less on bare metal. Fills m
 * either way: m->measured says which. */
void uvm_map_touch_probe(struct uvm_map_touch *m);

/* First touch over its repeat by more than page walks cost (16 of them,
 * ~0.1 µs each at worst on bare metal): a cost worth a note, µs per block. */
#define UVM_MAP_TOUCH_NOTABLE_US 4.0

/* Writes a one-line reading of m to buf, which 384 bytes hold (the report's system.map_touch,
 * `uvmemu info`); true when the first touch costs a note's worth. */
bool uvm_map_touch_describe(const struct uvm_map_touch *m, char *buf, size_t len);

#endif
