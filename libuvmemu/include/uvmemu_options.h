/* SPDX-License-Identifier: MIT */
/*
 * uvmemu_options.h - the run-time options by id, from the one table of them
 * (uvmemu_options.def), for an executor or a program that reads options
 * without spelling their names: UVMEMU_OPT_<id> for each row, and for each
 * option with a fixed list of values (type ENUM) `enum uvm_<id>_choice`
 * naming them, so that code compares with names, never with positions.
 *
 * The values were validated when the runtime started (the same parsing and
 * bounds as `uvmemu run`), so reading them cannot fail.
 */
#ifndef UVMEMU_OPTIONS_H
#define UVMEMU_OPTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

enum uvmemu_option {
#define UVMEMU_OPTION(id, name, type, def, min, max, choices, help) UVMEMU_OPT_##id,
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
	UVMEMU_OPT_COUNT
};

/* enum uvm_<id>_choice for each ENUM row, from its CHOICE()s. */
#define UVMEMU_CHOICE_ENUM_ENUM(id, ...) enum uvm_##id##_choice{__VA_ARGS__};
#define UVMEMU_CHOICE_ENUM_NAME(id, ...)
#define UVMEMU_CHOICE_ENUM_SIZE(id, ...)
#define UVMEMU_CHOICE_ENUM_BANDWIDTH(id, ...)
#define UVMEMU_CHOICE_ENUM_DURATION(id, ...)
#define UVMEMU_CHOICE_ENUM_DOUBLE(id, ...)
#define UVMEMU_CHOICE_ENUM_UINT(id, ...)
#define UVMEMU_CHOICE_ENUM_INT(id, ...)
#define UVMEMU_CHOICE_ENUM_PATH(id, ...)
#define UVMEMU_CHOICE_ENUM_DILATION(id, ...)
#define CHOICE(name, text) name,
#define UVMEMU_NAMES(table)
#define UVMEMU_OPTION(id, name, type, def, min, max, choices, help)                                \
	UVMEMU_CHOICE_ENUM_##type(id, choices)
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
#undef UVMEMU_NAMES
#undef CHOICE

/*
 * An option's resolved value: integers (sizes in bytes, durations in ns,
 * counts, an ENUM's enum uvm_<id>_choice) as int, reals (bandwidths in
 * bytes/s, ratios, the dilation with 0 = auto) as double, and the text as
 * given (a NAME option's name, a path) as str. As uvmemu_option_int() and its
 * kin in uvmemu.h, which take the option's name instead.
 */
/* Exported from the runtime libraries, which build with -fvisibility=hidden. */
#pragma GCC visibility push(default)
long long uvmemu_opt_int(enum uvmemu_option id);
double uvmemu_opt_double(enum uvmemu_option id);
const char *uvmemu_opt_str(enum uvmemu_option id);
/* Device dev's value of an option that takes one per device (--gpu, --sms,
 * --device-mem, --oversub: a comma-separated list gives one per device, a
 * single value applies to every device); any other option's one value. */
long long uvmemu_opt_dev_int(enum uvmemu_option id, unsigned dev);
double uvmemu_opt_dev_double(enum uvmemu_option id, unsigned dev);
const char *uvmemu_opt_dev_str(enum uvmemu_option id, unsigned dev);
#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
