/* SPDX-License-Identifier: MIT */
/*
 * profile.h - the object profile: per kernel launch, the allocations
 * ("objects", as the SC'19 paper calls them) it used, how many bytes of each
 * it touched, how densely, and in how many launches each is used again.
 *
 * `uvmemu profile` builds one from a recorded run and writes it as text; the
 * object managers (--objects-profile) read it back. The text format, one
 * record a line, fields separated by single spaces, '#' lines and blank lines
 * ignored:
 *
 *   uvmemu-objects 1                      first: the format and its version
 *   object ID BYTES NAME                  an allocation: id as in the traces'
 *                                         allocations.csv, size, label ('-': none)
 *   launch INDEX KERNEL                   a launch: 0, 1, 2, ... in order
 *   use LAUNCH OBJECT TOUCHED ACCESSES DENSITY REUSE
 *                                         object OBJECT in launch LAUNCH (the
 *                                         last `launch` line): bytes of it the
 *                                         launch touched (whole 64 KB blocks,
 *                                         the last one cut at the object's
 *                                         end), accesses counted in them,
 *                                         TOUCHED / BYTES, and the launches
 *                                         until its next use ('-': none)
 *
 * An object is used by a launch that received a pointer into it (argument or
 * EMU_DEV) or touched it. Objects come before the uses naming them; a
 * launch's uses follow its `launch` line in ascending object order. DENSITY
 * and REUSE are derived from the rest and must agree with it (to 1e-6 and
 * exactly): a file that disagrees was edited or is not the program's.
 * Malformed input gives one line naming the file and the line.
 */
#ifndef UVM_OBJ_PROFILE_H
#define UVM_OBJ_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define UVM_OBJPROF_NEVER   UINT64_MAX /* reuse: not used again */
#define UVM_OBJPROF_NAMELEN 48

struct uvm_objprof_object {
	uint32_t id;	   /* allocation id of the run */
	uint64_t bytes;	   /* its size */
	uint64_t accesses; /* over every launch: the global locality GL of Eq. 1 */
	char name[UVM_OBJPROF_NAMELEN];
};

struct uvm_objprof_use {
	uint64_t launch;
	uint32_t obj;	    /* index into objects[] */
	uint64_t touched;   /* bytes */
	uint64_t accesses;  /* the regional locality RL */
	double density;	    /* touched / bytes */
	uint64_t reuse;	    /* launches until the next use, UVM_OBJPROF_NEVER */
	unsigned long line; /* where a file stated it (0: built) */
	double stated_density;
	uint64_t stated_reuse;
};

struct uvm_objprof_launch {
	char kernel[UVM_OBJPROF_NAMELEN];
	size_t first, n; /* its uses: use[first .. first + n), ascending object id */
};

struct uvm_objprof {
	struct uvm_objprof_object *obj;
	size_t nobj, capobj;
	struct uvm_objprof_launch *launch;
	size_t nlaunch, caplaunch;
	struct uvm_objprof_use *use;
	size_t nuse, capuse;
};

/* Building: objects (by ascending id) and launches, then uses (which may
 * repeat a (launch, object) pair: they add up), then finish. */
void uvm_objprof_init(struct uvm_objprof *p);
void uvm_objprof_free(struct uvm_objprof *p);
/* -EEXIST for an id given twice, -ENOMEM. */
int uvm_objprof_add_object(struct uvm_objprof *p, uint32_t id, uint64_t bytes, const char *name);
/* Appends launch nlaunch. */
int uvm_objprof_add_launch(struct uvm_objprof *p, const char *kernel);
/* -ENOENT for an unknown object id, -ERANGE for a launch not added. */
int uvm_objprof_add_use(struct uvm_objprof *p, uint64_t launch, uint32_t id, uint64_t touched,
			uint64_t accesses);
/* Sorts and merges the uses, then derives densities, reuse distances and
 * global locality. -ERANGE (with the use's index in *bad) when uses of one
 * object in one launch add up to more bytes than it has; -EINVAL when the
 * objects were not added by ascending id. */
int uvm_objprof_finish(struct uvm_objprof *p, size_t *bad);

/* A name as the profile keeps it (dst has UVM_OBJPROF_NAMELEN bytes): one
 * token, blanks made '_', "" for none or "-". */
void uvm_objprof_name(char *dst, const char *src);
/* Index of allocation id in obj[], or -1. */
long uvm_objprof_find(const struct uvm_objprof *p, uint32_t id);

/* Writes the text form. 0 or -errno. */
int uvm_objprof_write(const struct uvm_objprof *p, FILE *f);
/* Reads the text form; a malformed file leaves "PATH:LINE: reason" in err. */
int uvm_objprof_read(struct uvm_objprof *p, const char *path, char *err, size_t errlen);

#endif
