/* SPDX-License-Identifier: MIT */
/*
 * calibration.h - a machine's executor bandwidth, measured once and reused.
 *
 * --dilation auto sets D = target GPU bandwidth / the executor's measured
 * stream bandwidth. Measured anew in every run, D swings with whatever else
 * the machine does at that moment (13.5 to 33.5 in consecutive runs on one
 * idle VM), and runs at different D cannot be compared. `uvmemu calibrate`
 * measures many times, in separate processes, and writes the median to a
 * file; later runs on the same machine and build read it, so D repeats
 * exactly, and the report names the file.
 *
 * The file is text, `name = value` lines:
 *   machine = HOST/CPU MODEL/N cpus/RAM
 *   build = the executor's build (optimisation, sanitizer, GMMU accessors,
 *           and the calibration kernel's code generation: "+kN",
 *           CALIB_KERNEL_VERSION in emu-gpu/src/calibrate.c)
 *   bytes_per_s = the median        runs = N
 *   min_bytes_per_s, max_bytes_per_s = the spread       date = ISO 8601
 *   block_ns = the median CPU time per basic block of the calibration
 *              kernel (builds that count blocks, EMUGPU_COUNT_BLOCKS)
 * A file from another machine or build is ignored, and the report says why.
 */
#ifndef UVM_CALIBRATION_H
#define UVM_CALIBRATION_H

#include <stddef.h>

struct uvm_calib {
	char machine[160], build[64], date[32];
	double bytes_per_s, min_bytes_per_s, max_bytes_per_s;
	double block_ns; /* CPU ns per counted block (a counting build's); 0: none */
	unsigned runs;
};

/* This machine's identity: host name, CPU model, online CPUs, memory. */
void uvm_calib_machine(char *out, size_t len);
/*
 * The file --calibration names: its value, or under $XDG_CACHE_HOME (else
 * ~/.cache) uvmemu/calibration when empty. -ENOENT for "none"; -EPERM when
 * empty and there is no private cache directory (both variables unset, or
 * the directory is another user's or writable by anyone, where another user
 * could plant a file): why says which, and the run calibrates in memory.
 */
int uvm_calib_path(const char *option, char *out, size_t len, char *why, size_t whylen);
/*
 * Reads path. 0: it applies to this machine and `build`; -ENOENT: no file;
 * -ESTALE: from another machine or build (why says which); -EINVAL: not a
 * calibration file, or a value that is not a finite number > 0 (why names
 * the line).
 */
int uvm_calib_read(const char *path, const char *build, struct uvm_calib *out, char *why,
		   size_t whylen);
/* Writes c to path, creating its directory; 0 or -errno. */
int uvm_calib_write(const char *path, const struct uvm_calib *c);

#endif
