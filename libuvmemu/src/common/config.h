/* SPDX-License-Identifier: MIT */
/*
 * config.h - run-time configuration, derived from the table in uvmemu_options.def.
 *
 * One table gives each tunable's variable (UVMEMU_NAME), its `uvmemu run`
 * option (--name), its parsing and bounds, its --help line and its entry in
 * every report. Values come from defaults, then the environment; the CLI
 * validates the same way before it starts a program.
 */
#ifndef UVM_CONFIG_H
#define UVM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uvmemu.h" /* UVMEMU_PAGE_SIZE_BUILT, a default of the table */
#include "uvmemu_options.h"

enum uvm_opt_type {
	UVM_T_SIZE,
	UVM_T_BANDWIDTH,
	UVM_T_DURATION,
	UVM_T_DOUBLE,
	UVM_T_UINT,
	UVM_T_INT,
	UVM_T_ENUM,
	UVM_T_PATH,
	UVM_T_DILATION,
};

/* The public ids under the library's names: uvm_options[] and a
 * configuration's values are indexed by either. */
enum uvm_opt_id {
#define UVMEMU_OPTION(id, name, type, def, min, max, choices, help) UVM_OPT_##id = UVMEMU_OPT_##id,
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
	UVM_OPT_COUNT = UVMEMU_OPT_COUNT
};

/* The values of each ENUM option by name, enum uvm_<id>_choice, come with
 * the option ids in the public uvmemu_options.h. uvm_cfg_i(cfg,
 * UVM_OPT_<id>) is one of them; code compares with the names, so reordering
 * a row's choices changes nothing. */

struct uvm_option_desc {
	const char *id;	  /* snake_case: the report's key */
	const char *name; /* kebab-case: --name */
	enum uvm_opt_type type;
	const char *def;
	double min, max;     /* inclusive; max 0 = unbounded */
	const char *choices; /* "a|b|c" for enums (ENUM and NAME rows) */
	const char *help;
};

/*
 * A resolved value. Integers (SIZE, UINT, INT, DURATION in ns, ENUM index)
 * are in .i, reals (BANDWIDTH in bytes/s, DOUBLE, DILATION with 0 = auto) in
 * .d, and .s keeps the text as given (the enum's name, the path). .given is
 * false while the default stands; empty text means "not set" for BANDWIDTH
 * and DURATION (.i = -1, .d = 0) in the table's defaults (a user's empty
 * value is refused).
 */
struct uvm_optval {
	long long i;
	double d;
	char s[256];
	bool given;
};

#define UVM_CONFIG_FILE_MAX 16384 /* bytes of a --config file */

/*
 * Options that take a value per device (--gpus N): --gpu, --sms,
 * --device-mem and --oversub. A single value applies to every device; a
 * comma-separated list gives one value per device (its length must be N,
 * uvm_config_check). v[id] holds the whole text and device 0's value, so
 * readers of one value read device 0's; uvm_cfg_dev_* read any device's.
 */
#define UVM_DEV_OPTS 4
struct uvm_devval {
	long long i;
	double d;
	char s[32]; /* the element's text */
};

struct uvm_config {
	struct uvm_optval v[UVM_OPT_COUNT];
	/* The lists of per-device options (n 0: a single value), in the order
	 * of uvm_dev_opt_slot. */
	struct {
		unsigned n;
		struct uvm_devval e[UVMEMU_MAX_DEVICES];
	} list[UVM_DEV_OPTS];
	char file_text[UVM_CONFIG_FILE_MAX]; /* the --config file as read ("" if none) */
	char notes[1024]; /* warnings about the file, a line each (the first few) */
};

#define UVM_ERRLEN 512

extern const struct uvm_option_desc uvm_options[UVM_OPT_COUNT];

/* Fills every option with its default. */
void uvm_config_defaults(struct uvm_config *cfg);
/*
 * Sets option `name` (kebab or snake case) from text. `origin` names where it
 * came from in messages ("UVMEMU_DEVICE_MEM" or "--device-mem"). Returns 0 or
 * -EINVAL with a one-line message in err that names the option, the value and
 * the accepted values.
 */
int uvm_config_set(struct uvm_config *cfg, const char *name, const char *value, const char *origin,
		   char *err, size_t errlen);
/*
 * Reads the settings that come before a program's own options, lowest first:
 * the config file (`file`, or UVMEMU_CONFIG when file is NULL), then the
 * nvidia-uvm parameters given as variables (uvm_perf_...=VALUE), then every
 * UVMEMU_* variable. An unknown variable of either kind is an error.
 */
int uvm_config_load(struct uvm_config *cfg, char *const *envp, const char *file, char *err,
		    size_t errlen);
/* uvm_config_load without a file option, then resolve and check. */
int uvm_config_from_env(struct uvm_config *cfg, char *const *envp, char *err, size_t errlen);
/*
 * Applies a config file: `name = value` lines, names as options or aliases,
 * '#' to the end of a line a comment. Keeps the text in cfg->file_text. A bad
 * line is a one-line error "FILE:LINE: ...".
 */
int uvm_config_read_file(struct uvm_config *cfg, const char *path, char *err, size_t errlen);
/* Checks rules that involve more than one option. */
int uvm_config_check(const struct uvm_config *cfg, char *err, size_t errlen);
/* Says on f, a line each, what a configuration that passed its checks
 * asks for in vain (a setting that is not read, an option a --config file
 * sets twice). Printed once per run, by the runtime. */
void uvm_config_print_notes(const struct uvm_config *cfg, FILE *f);
/*
 * --page-size: the emulator library built for the asked unit (libuvmemu.so,
 * libuvmemu_4k.so), and whether this build is that one (a one-line error
 * naming both sizes if not: the unit is fixed when the library is compiled).
 */
const char *uvm_page_size_library(const struct uvm_config *cfg);
int uvm_page_size_check(const struct uvm_config *cfg, char *err, size_t errlen);
/*
 * Applies the --policy preset and the defaults one option implies for
 * another (adaptive migration pairs with LFU eviction), to options not given
 * explicitly. Idempotent; called after the environment and options are read.
 */
void uvm_config_resolve(struct uvm_config *cfg);
/* The name of value `value` of ENUM option id ("?" if out of range). */
const char *uvm_choice_name(enum uvm_opt_id id, long long value);
/* The presets of --policy (presets.def), for tests and help. */
size_t uvm_preset_count(void);
const char *uvm_preset_name(size_t i);
/* A --gpu preset's peak DRAM bandwidth (uvmemu_gpus.def), 0 for a name it
 * lacks. */
double uvm_gpu_preset_bytes_per_s(const char *name);
/* Index of an option by name (kebab or snake), or -1. */
int uvm_option_find(const char *name);
/* Whether name is an option or an alias of one (aliases.def). */
bool uvm_config_name_known(const char *name);
/* "UVMEMU_DEVICE_MEM" for an option. */
void uvm_option_env_name(int id, char *buf, size_t len);
/* The --help block for every option, then the nvidia-uvm aliases. */
void uvm_config_print_help(FILE *f);

static inline long long uvm_cfg_i(const struct uvm_config *c, enum uvm_opt_id id)
{
	return c->v[id].i;
}
static inline double uvm_cfg_d(const struct uvm_config *c, enum uvm_opt_id id)
{
	return c->v[id].d;
}
static inline const char *uvm_cfg_s(const struct uvm_config *c, enum uvm_opt_id id)
{
	return c->v[id].s;
}

/* Option id's place among the per-device options (-1: it takes one value). */
int uvm_dev_opt_slot(enum uvm_opt_id id);
/* Device dev's value of option id: its element of a list, else the one
 * value (every option answers: one that takes one value gives it). */
long long uvm_cfg_dev_i(const struct uvm_config *c, enum uvm_opt_id id, unsigned dev);
double uvm_cfg_dev_d(const struct uvm_config *c, enum uvm_opt_id id, unsigned dev);
const char *uvm_cfg_dev_s(const struct uvm_config *c, enum uvm_opt_id id, unsigned dev);

#endif
