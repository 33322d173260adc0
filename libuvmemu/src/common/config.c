// SPDX-License-Identifier: MIT
/* config.c - parse and validate the tunables of uvmemu_options.def. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/*
 * The choices of NAME rows, "|a|b|c" (the leading '|' is skipped where they
 * are used): the names of the rows of the tables declared once elsewhere.
 */
#define UVMEMU_POLICY(kind, name, ops) UVM_POLICY_NAME_##kind(name)
#define UVM_POLICY_NAME_evict(name)    "|" name
#define UVM_POLICY_NAME_prefetch(name)
#define UVM_POLICY_NAME_migrate(name)
static const char evict_names[] = ""
#include "policies.def"
    ;
#undef UVM_POLICY_NAME_evict
#undef UVM_POLICY_NAME_prefetch
#define UVM_POLICY_NAME_evict(name)
#define UVM_POLICY_NAME_prefetch(name) "|" name
static const char prefetch_names[] = ""
#include "policies.def"
    ;
/* --cpu-prefetch: a prefetcher, or "same" as the GPU's (the default). */
static const char cpu_prefetch_names[] = "|same"
#include "policies.def"
    ;
#undef UVM_POLICY_NAME_prefetch
#undef UVM_POLICY_NAME_migrate
#define UVM_POLICY_NAME_prefetch(name)
#define UVM_POLICY_NAME_migrate(name) "|" name
static const char migrate_names[] = ""
#include "policies.def"
    ;
#undef UVM_POLICY_NAME_evict
#undef UVM_POLICY_NAME_prefetch
#undef UVM_POLICY_NAME_migrate
#undef UVMEMU_POLICY

#define UVMEMU_PRESET(name, settings) "|" name
static const char preset_names[] = ""
#include "presets.def"
    ;
#undef UVMEMU_PRESET
#define UVMEMU_LINK(name, gbps, latency_us) "|" name
#define UVMEMU_LINK_CURVE(name, bytes, gbps)
#define UVMEMU_LINK_REMOTE(name, latency_ns, inflight)
static const char link_names[] = ""
#include "links.def"
    ;
#undef UVMEMU_LINK
#undef UVMEMU_LINK_CURVE
#undef UVMEMU_LINK_REMOTE
#define UVMEMU_GPU(name, sms, bytes_per_s) "|" name
static const char gpu_names[] = ""
#include "uvmemu_gpus.def"
    ;
#undef UVMEMU_GPU

double uvm_gpu_preset_bytes_per_s(const char *name)
{
	static const struct {
		const char *name;
		double bytes_per_s;
	} gpus[] = {
#define UVMEMU_GPU(name, sms, bytes_per_s) {name, bytes_per_s},
#include "uvmemu_gpus.def"
#undef UVMEMU_GPU
	};

	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++)
		if (strcmp(gpus[i].name, name) == 0)
			return gpus[i].bytes_per_s;
	return 0;
}

/* A NAME row is an ENUM whose choices come from a table. */
#define UVM_T_NAME	    UVM_T_ENUM
#define CHOICE(name, text)  "|" text
#define UVMEMU_NAMES(table) table##_names
/* Choices as "a|b|c", NULL for the types that have none. */
#define UVM_CHOICES_ENUM(choices)      ((choices) + 1)
#define UVM_CHOICES_NAME(choices)      ((choices) + 1)
#define UVM_CHOICES_SIZE(choices)      choices
#define UVM_CHOICES_BANDWIDTH(choices) choices
#define UVM_CHOICES_DURATION(choices)  choices
#define UVM_CHOICES_DOUBLE(choices)    choices
#define UVM_CHOICES_UINT(choices)      choices
#define UVM_CHOICES_INT(choices)       choices
#define UVM_CHOICES_PATH(choices)      choices
#define UVM_CHOICES_DILATION(choices)  choices

const struct uvm_option_desc uvm_options[UVM_OPT_COUNT] = {
#define UVMEMU_OPTION(id_, name_, type_, def_, min_, max_, choices_, help_)                        \
	[UVM_OPT_##id_] = {                                                                        \
	    #id_, name_, UVM_T_##type_, def_, min_, max_, UVM_CHOICES_##type_(choices_), help_},
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
};
#undef UVMEMU_NAMES
#undef CHOICE
#undef UVM_T_NAME

/* Each ENUM option's value names, indexed by its enum uvm_<id>_choice. */
#define CHOICE(name, text)	[name] = text,
#define UVM_NAMES_ENUM(id, ...) static const char *const id##_names[] = {__VA_ARGS__};
#define UVM_NAMES_NAME(id, ...)
#define UVM_NAMES_SIZE(id, ...)
#define UVM_NAMES_BANDWIDTH(id, ...)
#define UVM_NAMES_DURATION(id, ...)
#define UVM_NAMES_DOUBLE(id, ...)
#define UVM_NAMES_UINT(id, ...)
#define UVM_NAMES_INT(id, ...)
#define UVM_NAMES_PATH(id, ...)
#define UVM_NAMES_DILATION(id, ...)
#define UVMEMU_NAMES(table)
#define UVMEMU_OPTION(id_, name_, type_, def_, min_, max_, choices_, help_)                        \
	UVM_NAMES_##type_(id_, choices_)
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
#undef UVM_NAMES_ENUM

#define UVM_NAMES_ENUM(id, ...)                                                                    \
	[UVM_OPT_##id] = {id##_names, sizeof(id##_names) / sizeof(id##_names[0])},
static const struct {
	const char *const *names;
	size_t n;
} choice_names[UVM_OPT_COUNT] = {
#define UVMEMU_OPTION(id_, name_, type_, def_, min_, max_, choices_, help_)                        \
	UVM_NAMES_##type_(id_, choices_)
#include "uvmemu_options.def"
#undef UVMEMU_OPTION
};
#undef UVM_NAMES_ENUM
#undef UVMEMU_NAMES
#undef CHOICE

const char *uvm_choice_name(enum uvm_opt_id id, long long value)
{
	if (value < 0 || (size_t)value >= choice_names[id].n)
		return "?";
	return choice_names[id].names[value];
}

/* The nvidia-uvm parameters accepted as names of options (aliases.def). */
enum alias_kind { ALIAS_SAME, ALIAS_USEC, ALIAS_MAP };

static const struct alias {
	const char *name;
	int id;
	enum alias_kind kind;
	const char *map; /* "driver=ours|..." */
} aliases[] = {
#define UVMEMU_ALIAS(name_, id_, kind_, map_) {name_, UVM_OPT_##id_, ALIAS_##kind_, map_},
#include "aliases.def"
#undef UVMEMU_ALIAS
};

#define NALIASES (sizeof(aliases) / sizeof(aliases[0]))

static const char *const accepted_text[] = {
    [UVM_T_SIZE] = "a size in bytes with an optional K, M, G or T suffix (powers of 1024), "
		   "e.g. 512M",
    [UVM_T_BANDWIDTH] = "bytes per second with an optional K, M, G or T suffix (powers of "
			"1000), e.g. 16G or 16GB/s",
    [UVM_T_DURATION] = "a duration with unit ns, us, ms or s (a bare number is "
		       "microseconds), e.g. 45us",
    [UVM_T_DOUBLE] = "a number",
    [UVM_T_UINT] = "a whole number",
    [UVM_T_INT] = "a whole number",
    [UVM_T_ENUM] = "one of",
    [UVM_T_PATH] = "a file path",
    [UVM_T_DILATION] = "a number >= 1, or auto",
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Option names compare with '-' and '_' as the same character, any case. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '_' ? '-' : (char)tolower((unsigned char)*a);
		char y = *b == '_' ? '-' : (char)tolower((unsigned char)*b);

		if (x != y)
			return false;
	}
	return *a == *b;
}

int uvm_option_find(const char *name)
{
	for (int i = 0; i < UVM_OPT_COUNT; i++)
		if (name_eq(name, uvm_options[i].name))
			return i;
	return -1;
}

static const struct alias *alias_find(const char *name)
{
	for (size_t i = 0; i < NALIASES; i++)
		if (name_eq(name, aliases[i].name))
			return &aliases[i];
	return NULL;
}

bool uvm_config_name_known(const char *name)
{
	return uvm_option_find(name) >= 0 || alias_find(name);
}

void uvm_option_env_name(int id, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "UVMEMU_");

	for (const char *p = uvm_options[id].name; *p && n + 1 < len; p++, n++)
		buf[n] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
	buf[n < len ? n : len - 1] = '\0';
}

static int enum_index(const char *choices, const char *value)
{
	size_t vlen = strlen(value);
	int idx = 0;

	for (const char *p = choices; *p; idx++) {
		size_t n = strcspn(p, "|");

		if (n == vlen && strncmp(p, value, n) == 0)
			return idx;
		p += n;
		if (*p == '|')
			p++;
	}
	return -1;
}

static bool out_of_bounds(const struct uvm_option_desc *d, double v)
{
	return v < d->min || (d->max != 0 && v > d->max);
}

/* Rules for one option beyond its type and bounds. */
static int check_special(int id, const struct uvm_optval *v, const char *origin, char *err,
			 size_t errlen)
{
	if (id == UVM_OPT_host_fill && (v->i & (v->i - 1)) != 0)
		return fail(err, errlen, "%s='%s': must be a power of two between 64K and 2M",
			    origin, v->s);
	if (id == UVM_OPT_device_mem && v->i != 0 && v->i < (2 << 20))
		return fail(err, errlen,
			    "%s='%s': device memory must be at least one 2 MB vablock (or 0 for "
			    "unlimited)",
			    origin, v->s);
	if (id == UVM_OPT_oversub && v->d != 0 && v->d < 0.01)
		return fail(
		    err, errlen,
		    "%s='%s': an oversubscription ratio must be at least 0.01 (or 0 for off)",
		    origin, v->s);
	return 0;
}

/* A bound in the option's unit: durations are in nanoseconds, bandwidths
 * read better as MB/s than as 1e+06. */
static void bound_text(const struct uvm_option_desc *d, double v, char *buf, size_t len)
{
	if (d->type == UVM_T_BANDWIDTH)
		uvm_fmt_bandwidth(buf, len, v);
	else
		snprintf(buf, len, "%g%s", v, d->type == UVM_T_DURATION ? " ns" : "");
}

/* Empty text stands for "not set" (the preset's value) in the table's
 * defaults only: given by a user it is a mistake, as for every other type. */
static int parse_value(const struct uvm_option_desc *d, const char *value, bool from_table,
		       struct uvm_optval *v)
{
	uint64_t u;
	int64_t ns;
	long long ll;
	int err = 0;

	switch (d->type) {
	case UVM_T_SIZE:
		err = uvm_parse_size(value, &u);
		v->i = (long long)u;
		v->d = (double)u;
		break;
	case UVM_T_BANDWIDTH:
		v->i = -1;
		v->d = 0;
		if (*value || !from_table)
			err = uvm_parse_bandwidth(value, &v->d);
		if (!err && *value && v->d <= 0)
			err = -EINVAL;
		break;
	case UVM_T_DURATION:
		v->i = -1;
		if (*value || !from_table) {
			err = uvm_parse_duration(value, &ns);
			v->i = ns;
		}
		v->d = (double)v->i;
		break;
	case UVM_T_DOUBLE:
		err = uvm_parse_double(value, &v->d);
		break;
	case UVM_T_UINT:
	case UVM_T_INT:
		err = uvm_parse_int(value, &ll);
		if (!err && d->type == UVM_T_UINT && ll < 0)
			err = -EINVAL;
		v->i = ll;
		v->d = (double)ll;
		break;
	case UVM_T_ENUM:
		v->i = enum_index(d->choices, value);
		if (v->i < 0)
			err = -EINVAL;
		break;
	case UVM_T_PATH:
		break;
	case UVM_T_DILATION:
		if (strcmp(value, "auto") == 0)
			v->d = 0;
		else
			err = uvm_parse_double(value, &v->d);
		break;
	}
	return err;
}

/*
 * The driver's value of alias a as our option's text, into out: the same
 * text (SAME), microseconds made explicit (USEC), or looked up in the map.
 */
static int alias_value(const struct alias *a, const char *value, const char *origin, char *out,
		       size_t outlen, char *err, size_t errlen)
{
	size_t vlen = strlen(value);
	long long usec;

	switch (a->kind) {
	case ALIAS_SAME:
		snprintf(out, outlen, "%s", value);
		return 0;
	case ALIAS_USEC:
		if (uvm_parse_int(value, &usec) || usec < 0)
			return fail(
			    err, errlen,
			    "%s='%s': expected a whole number of microseconds (as nvidia-uvm "
			    "takes it)",
			    origin, value);
		snprintf(out, outlen, "%lldus", usec);
		return 0;
	case ALIAS_MAP:
		for (const char *p = a->map; *p;) {
			size_t n = strcspn(p, "|"), k = strcspn(p, "=");

			if (k == vlen && strncmp(p, value, k) == 0) {
				snprintf(out, outlen, "%.*s", (int)(n - k - 1), p + k + 1);
				return 0;
			}
			p += n;
			if (*p == '|')
				p++;
		}
		return fail(err, errlen,
			    "%s='%s': accepted values are %s (nvidia-uvm's values for --%s)",
			    origin, value, a->map, uvm_options[a->id].name);
	}
	return -EINVAL;
}

static int set_option(struct uvm_config *cfg, int id, const char *value, const char *origin,
		      bool from_table, char *err, size_t errlen);

int uvm_config_set(struct uvm_config *cfg, const char *name, const char *value, const char *origin,
		   char *err, size_t errlen)
{
	int id = uvm_option_find(name);
	const struct alias *a;
	char text[sizeof(cfg->v[0].s)];
	int rc;

	if (id >= 0)
		return set_option(cfg, id, value, origin, false, err, errlen);
	a = alias_find(name);
	if (!a)
		return fail(err, errlen, "%s: unknown option '%s' (see uvmemu --help)", origin,
			    name);
	rc = alias_value(a, value, origin, text, sizeof(text), err, errlen);
	return rc ? rc : set_option(cfg, a->id, text, origin, false, err, errlen);
}

/* The per-device options, in the order of cfg->list. */
static const enum uvm_opt_id dev_opts[UVM_DEV_OPTS] = {UVM_OPT_gpu, UVM_OPT_sms, UVM_OPT_device_mem,
						       UVM_OPT_oversub};

int uvm_dev_opt_slot(enum uvm_opt_id id)
{
	for (int k = 0; k < UVM_DEV_OPTS; k++)
		if (dev_opts[k] == id)
			return k;
	return -1;
}

/* Device dev's element of option id's list, NULL when it has none. */
static const struct uvm_devval *dev_val(const struct uvm_config *c, enum uvm_opt_id id,
					unsigned dev)
{
	int k = uvm_dev_opt_slot(id);

	return k >= 0 && c->list[k].n > 1 && dev < c->list[k].n ? &c->list[k].e[dev] : NULL;
}

long long uvm_cfg_dev_i(const struct uvm_config *c, enum uvm_opt_id id, unsigned dev)
{
	const struct uvm_devval *e = dev_val(c, id, dev);

	return e ? e->i : c->v[id].i;
}

double uvm_cfg_dev_d(const struct uvm_config *c, enum uvm_opt_id id, unsigned dev)
{
	const struct uvm_devval *e = dev_val(c, id, dev);

	return e ? e->d : c->v[id].d;
}

const char *uvm_cfg_dev_s(const struct uvm_config *c, enum uvm_opt_id id, unsigned dev)
{
	const struct uvm_devval *e = dev_val(c, id, dev);

	return e ? e->s : c->v[id].s;
}

static int parse_checked(int id, const char *value, const char *origin, bool from_table,
			 struct uvm_optval *v, char *err, size_t errlen);

/*
 * A per-device option given as a list, "a,b,...": each element is checked as
 * a value of its own (a bad one names its device), v takes the first's
 * value and the whole text, cfg->list[k] every element.
 */
static int set_list(struct uvm_config *cfg, int id, int k, const char *value, const char *origin,
		    struct uvm_optval *v, char *err, size_t errlen)
{
	unsigned n = 0;

	for (const char *p = value;; n++) {
		size_t len = strcspn(p, ",");
		struct uvm_optval e = {0};
		char o[160], text[sizeof(e.s)];
		int rc;

		if (n == UVMEMU_MAX_DEVICES)
			return fail(err, errlen,
				    "%s='%s': at most %d values, one per device (or one for every "
				    "device)",
				    origin, value, UVMEMU_MAX_DEVICES);
		snprintf(text, sizeof(text), "%.*s", (int)len, p);
		snprintf(o, sizeof(o), "%s (device %u)", origin, n);
		rc = parse_checked(id, text, o, false, &e, err, errlen);
		if (rc)
			return rc;
		if (len >= sizeof(cfg->list[k].e[n].s))
			return fail(err, errlen, "%s='%s': value longer than %zu characters", o,
				    text, sizeof(cfg->list[k].e[n].s) - 1);
		cfg->list[k].e[n] = (struct uvm_devval){e.i, e.d, ""};
		strcpy(cfg->list[k].e[n].s, text);
		if (n == 0) {
			v->i = e.i;
			v->d = e.d;
		}
		p += len;
		if (!*p)
			break;
		p++;
	}
	cfg->list[k].n = n + 1;
	return 0;
}

/* from_table: a default or a preset (uvmemu_options.def, presets.def). */
static int set_option(struct uvm_config *cfg, int id, const char *value, const char *origin,
		      bool from_table, char *err, size_t errlen)
{
	struct uvm_optval v = {0};
	int k = uvm_dev_opt_slot((enum uvm_opt_id)id), rc;

	if (k >= 0 && strchr(value, ',')) {
		if (strlen(value) >= sizeof(v.s))
			return fail(err, errlen, "%s: value longer than %zu characters", origin,
				    sizeof(v.s) - 1);
		rc = set_list(cfg, id, k, value, origin, &v, err, errlen);
		if (rc)
			return rc;
		strcpy(v.s, value);
	} else {
		rc = parse_checked(id, value, origin, from_table, &v, err, errlen);
		if (rc)
			return rc;
		if (k >= 0)
			cfg->list[k].n = 0;
	}
	v.given = true;
	cfg->v[id] = v;
	return 0;
}

/* One value of option id, parsed and checked into v. */
static int parse_checked(int id, const char *value, const char *origin, bool from_table,
			 struct uvm_optval *vp, char *err, size_t errlen)
{
	const struct uvm_option_desc *d;
	struct uvm_optval v = {0};
	int rc;

	d = &uvm_options[id];
	if (strlen(value) >= sizeof(v.s))
		return fail(err, errlen, "%s: value longer than %zu characters", origin,
			    sizeof(v.s) - 1);
	strcpy(v.s, value);
	rc = parse_value(d, value, from_table, &v);
	if (rc == -ERANGE)
		return fail(err, errlen, "%s='%s': too large", origin, value);
	if (rc && d->type == UVM_T_ENUM)
		return fail(err, errlen, "%s='%s': accepted values are %s", origin, value,
			    d->choices);
	/* A bounded count names its bounds: "-1" and "abc" are refused as 0 is. */
	if (rc && (d->type == UVM_T_UINT || d->type == UVM_T_INT) && d->max != 0)
		return fail(err, errlen, "%s='%s': expected a whole number between %.15g and %.15g",
			    origin, value, d->min, d->max);
	if (rc)
		return fail(err, errlen, "%s='%s': expected %s", origin, value,
			    accepted_text[d->type]);
	/* A dilation is "auto" or a number in bounds: 0 is a number like any
	 * other here, although .d = 0 stands for auto once parsed. */
	if (d->type == UVM_T_DILATION && strcmp(value, "auto") != 0 && out_of_bounds(d, v.d))
		return fail(err, errlen, "%s='%s': must be between %.15g and %.15g, or auto",
			    origin, value, d->min, d->max);
	if (d->type != UVM_T_ENUM && d->type != UVM_T_PATH && d->type != UVM_T_DILATION && *value &&
	    out_of_bounds(d, d->type == UVM_T_SIZE ? (double)v.i : v.d)) {
		char lo[32], hi[32];

		bound_text(d, d->min, lo, sizeof(lo));
		bound_text(d, d->max, hi, sizeof(hi));
		if (d->max != 0)
			return fail(err, errlen, "%s='%s': must be between %s and %s", origin,
				    value, lo, hi);
		return fail(err, errlen, "%s='%s': must be at least %s", origin, value, lo);
	}
	rc = check_special(id, &v, origin, err, errlen);
	if (rc)
		return rc;
	*vp = v;
	return 0;
}

void uvm_config_defaults(struct uvm_config *cfg)
{
	char err[UVM_ERRLEN];

	cfg->file_text[0] = '\0';
	cfg->notes[0] = '\0';
	for (int i = 0; i < UVM_OPT_COUNT; i++) {
		int rc = set_option(cfg, i, uvm_options[i].def, "default", true, err, sizeof(err));

		/* A default that does not parse is a bug in uvmemu_options.def. */
		if (rc) {
			fprintf(stderr, "uvmemu: internal error in uvmemu_options.def: %s\n", err);
			abort();
		}
		cfg->v[i].given = false;
	}
}

/* "unknown variable VAR; known: A, B, ..." listing the names of that kind. */
static int unknown_variable(const char *var, bool driver, char *err, size_t errlen)
{
	int len = snprintf(err, errlen, "unknown variable %s; known %s:", var,
			   driver ? "nvidia-uvm parameters" : "variables");
	int n = driver ? (int)NALIASES : UVM_OPT_COUNT;

	for (int i = 0; i < n && len > 0 && (size_t)len < errlen; i++) {
		char ev[64];

		if (driver)
			snprintf(ev, sizeof(ev), "%s", aliases[i].name);
		else
			uvm_option_env_name(i, ev, sizeof(ev));
		len += snprintf(err + len, errlen - (size_t)len, "%s %s", i ? "," : "", ev);
	}
	return -EINVAL;
}

/*
 * Sets every variable of envp that starts with prefix: UVMEMU_NAME names an
 * option (or an alias) after the prefix; the nvidia-uvm parameters are named
 * whole, as modprobe takes them.
 */
static int env_pass(struct uvm_config *cfg, char *const *envp, const char *prefix, char *err,
		    size_t errlen)
{
	bool driver = strcmp(prefix, "UVMEMU_") != 0;
	size_t plen = strlen(prefix);

	for (char *const *e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		const char *name;
		char var[128];
		size_t n;
		int rc;

		if (strncmp(*e, prefix, plen) != 0 || !eq)
			continue;
		n = (size_t)(eq - *e);
		if (n >= sizeof(var))
			n = sizeof(var) - 1;
		memcpy(var, *e, n);
		var[n] = '\0';
		name = driver ? var : var + plen;
		if (driver ? !alias_find(name) : !uvm_config_name_known(name))
			return unknown_variable(var, driver, err, errlen);
		rc = uvm_config_set(cfg, name, eq + 1, var, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int uvm_config_load(struct uvm_config *cfg, char *const *envp, const char *file, char *err,
		    size_t errlen)
{
	static const char var[] = "UVMEMU_CONFIG=";
	int rc;

	for (char *const *e = envp; !file && e && *e; e++)
		if (strncmp(*e, var, sizeof(var) - 1) == 0)
			file = *e + sizeof(var) - 1;
	if (file && *file) {
		rc = uvm_config_read_file(cfg, file, err, errlen);
		if (rc)
			return rc;
	}
	/* The driver's names first, so that UVMEMU_ variables win over them. */
	rc = env_pass(cfg, envp, "uvm_perf_", err, errlen);
	return rc ? rc : env_pass(cfg, envp, "UVMEMU_", err, errlen);
}

int uvm_config_from_env(struct uvm_config *cfg, char *const *envp, char *err, size_t errlen)
{
	int rc = uvm_config_load(cfg, envp, NULL, err, errlen);

	if (rc)
		return rc;
	uvm_config_resolve(cfg);
	return uvm_config_check(cfg, err, errlen);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* An option's id, by its name or an alias's. */
static int option_id(const char *name)
{
	const struct alias *a = alias_find(name);

	return a ? a->id : uvm_option_find(name);
}

/* Appends one line to the configuration's notes, while there is room. */
static void note(struct uvm_config *cfg, const char *fmt, ...)
{
	size_t n = strlen(cfg->notes);
	char line[UVM_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n + strlen(line) + 2 <= sizeof(cfg->notes))
		snprintf(cfg->notes + n, sizeof(cfg->notes) - n, "%s\n", line);
}

/* Which line of the file set each option, and under which name. */
struct file_seen {
	unsigned line[UVM_OPT_COUNT];
	char name[UVM_OPT_COUNT][48];
};

/* One line of a config file: blank, a comment, or name = value. The same
 * option twice is allowed, the later line winning as among variables and
 * options, but said: in one file it is more likely a slip. */
static int file_line(struct uvm_config *cfg, const char *path, unsigned lineno, char *line,
		     struct file_seen *seen, char *err, size_t errlen)
{
	char origin[UVM_ERRLEN / 2];
	char *eq, *name, *value;
	int id, rc;

	line[strcspn(line, "#")] = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return fail(err, errlen, "%s:%u: expected 'name = value', got '%s'", path, lineno,
			    line);
	*eq = '\0';
	name = trim(line);
	value = trim(eq + 1);
	if (!*name)
		return fail(err, errlen, "%s:%u: no name before '='", path, lineno);
	if (!uvm_config_name_known(name))
		return fail(err, errlen, "%s:%u: unknown option '%s' (see uvmemu --help)", path,
			    lineno, name);
	if (uvm_option_find(name) == UVM_OPT_config)
		return fail(err, errlen, "%s:%u: a config file cannot name another one", path,
			    lineno);
	snprintf(origin, sizeof(origin), "%s:%u: %s", path, lineno, name);
	rc = uvm_config_set(cfg, name, value, origin, err, errlen);
	if (rc)
		return rc;
	id = option_id(name);
	if (seen->line[id])
		note(cfg, "%s:%u: %s sets --%s again (line %u: %s); line %u wins", path, lineno,
		     name, uvm_options[id].name, seen->line[id], seen->name[id], lineno);
	seen->line[id] = lineno;
	snprintf(seen->name[id], sizeof(seen->name[id]), "%s", name);
	return 0;
}

int uvm_config_read_file(struct uvm_config *cfg, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = cfg->file_text, *line, *next;
	struct file_seen *seen;
	size_t n;
	unsigned lineno = 1;
	int rc = 0;

	if (!f)
		return fail(err, errlen, "--config %s: cannot read it: %s", path, strerror(errno));
	errno = 0;
	n = fread(text, 1, sizeof(cfg->file_text), f);
	if (ferror(f) || n == sizeof(cfg->file_text)) {
		/* fopen opens a directory; the read says why it is no file. */
		const char *why = n == sizeof(cfg->file_text) ? "too long (16383 bytes at most)"
							      : strerror(errno ? errno : EIO);

		fclose(f);
		text[0] = '\0';
		return fail(err, errlen, "--config %s: %s%s", path,
			    n == sizeof(cfg->file_text) ? "" : "cannot read it: ", why);
	}
	fclose(f);
	text[n] = '\0';
	if (strlen(text) != n) {
		text[0] = '\0';
		return fail(err, errlen, "--config %s: not a text file (it holds a NUL byte)",
			    path);
	}
	/* Lines are parsed in a copy: the text is kept as the file has it. */
	line = strdup(text);
	if (!line)
		return fail(err, errlen, "--config %s: out of memory", path);
	seen = calloc(1, sizeof(*seen));
	if (!seen) {
		free(line);
		return fail(err, errlen, "--config %s: out of memory", path);
	}
	for (char *p = line; p && !rc; p = next, lineno++) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		rc = file_line(cfg, path, lineno, p, seen, err, errlen);
	}
	free(seen);
	free(line);
	return rc;
}

/* The presets of --policy (presets.def): option ids, so a wrong one does not compile. */
struct preset_setting {
	enum uvm_opt_id id; /* UVM_OPT_COUNT ends a preset */
	const char *value;
};

static const struct {
	const char *name;
	struct preset_setting settings[12];
} presets[] = {
#define SET(id, value)		      {UVM_OPT_##id, value},
#define UVMEMU_PRESET(name, settings) {name, {settings{UVM_OPT_COUNT, NULL}}},
#include "presets.def"
#undef UVMEMU_PRESET
#undef SET
};

/* What a value of one option needs of the others (implied.def). */
static const struct {
	enum uvm_opt_id id;
	const char *value;
	struct preset_setting settings[4];
} implied[] = {
#define SET(id, value) {UVM_OPT_##id, value},
#define UVMEMU_IMPLIED(id, value, settings)                                                        \
	{UVM_OPT_##id, value, {settings{UVM_OPT_COUNT, NULL}}},
#include "implied.def"
#undef UVMEMU_IMPLIED
#undef SET
};

static void set_default(struct uvm_config *cfg, enum uvm_opt_id id, const char *value)
{
	char err[UVM_ERRLEN];

	if (cfg->v[id].given)
		return;
	/* A preset that does not parse is a bug in presets.def. */
	if (set_option(cfg, id, value, "preset", true, err, sizeof(err))) {
		fprintf(stderr, "uvmemu: internal error in a preset: %s\n", err);
		abort();
	}
	cfg->v[id].given = false; /* still the preset's, not the user's */
}

static void set_defaults(struct uvm_config *cfg, const struct preset_setting *p)
{
	for (; p->id != UVM_OPT_COUNT; p++)
		set_default(cfg, p->id, p->value);
}

void uvm_config_resolve(struct uvm_config *cfg)
{
	const char *preset = cfg->v[UVM_OPT_policy].s;

	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strcmp(presets[i].name, preset) == 0)
			set_defaults(cfg, presets[i].settings);
	for (size_t i = 0; i < sizeof(implied) / sizeof(implied[0]); i++)
		if (strcmp(cfg->v[implied[i].id].s, implied[i].value) == 0)
			set_defaults(cfg, implied[i].settings);
}

size_t uvm_preset_count(void)
{
	return sizeof(presets) / sizeof(presets[0]);
}

const char *uvm_preset_name(size_t i)
{
	return presets[i].name;
}

/* Whether any device's value of option id is not 0. */
static bool any_device_set(const struct uvm_config *cfg, enum uvm_opt_id id)
{
	for (unsigned g = 0; g < UVMEMU_MAX_DEVICES; g++)
		if (uvm_cfg_dev_d(cfg, id, g) != 0)
			return true;
	return false;
}

/* A list of per-device values is as long as --gpus. */
static int check_lists(const struct uvm_config *cfg, char *err, size_t errlen)
{
	long long gpus = cfg->v[UVM_OPT_gpus].i;

	for (int k = 0; k < UVM_DEV_OPTS; k++) {
		enum uvm_opt_id id = dev_opts[k];
		char env[64];

		if (cfg->list[k].n <= 1 || (long long)cfg->list[k].n == gpus)
			continue;
		uvm_option_env_name(id, env, sizeof(env));
		return fail(err, errlen,
			    "--%s %s (%s) lists %u values for --gpus %lld: give one value for "
			    "every device, or one per device (%lld, comma-separated)",
			    uvm_options[id].name, cfg->v[id].s, env, cfg->list[k].n, gpus, gpus);
	}
	return 0;
}

/* The first of ids[0..n) given (an option or variable), or -1. */
static int first_given(const struct uvm_config *cfg, const enum uvm_opt_id *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cfg->v[ids[i]].given)
			return (int)i;
	return -1;
}

/* Options the model clock alone reads, and what --clock real does instead. */
static const enum uvm_opt_id model_only_opts[] = {
    UVM_OPT_cpu_fault_latency, UVM_OPT_fetch_window, UVM_OPT_fault_gap,	  UVM_OPT_vablock_cost,
    UVM_OPT_compute,	       UVM_OPT_late_hits,    UVM_OPT_launch_cost, UVM_OPT_schedule,
};
static const char *const model_only_instead[] = {
    "a CPU fault costs its real service",
    "the driver reads the faults that reached it",
    "the driver reads the faults as they reached it",
    "a vablock's service costs what it really took",
    "a kernel takes the real time it takes",
    "a block is there when the real driver mapped it",
    "a launch takes the host the real time it takes",
    "the workers' order is the host's, which is the clock",
};

_Static_assert(sizeof(model_only_opts) / sizeof(model_only_opts[0]) ==
		   sizeof(model_only_instead) / sizeof(model_only_instead[0]),
	       "one reason for each model-only option");

/* The driver's fault buffer and batches, which UVMMU's path does without:
 * its faults go one by one, each its own migration. */
static const enum uvm_opt_id buffer_opts[] = {UVM_OPT_fetch_window, UVM_OPT_fault_gap,
					      UVM_OPT_vablock_cost};

#define NOPTS(a) (sizeof(a) / sizeof((a)[0]))

/* Under --clock real: refuses the first model-only option given. */
static int model_only(const struct uvm_config *cfg, char *err, size_t errlen)
{
	int i = first_given(cfg, model_only_opts, NOPTS(model_only_opts));
	char env[64];

	if (cfg->v[UVM_OPT_clock].i != UVM_CLOCK_REAL || i < 0)
		return 0;
	uvm_option_env_name(model_only_opts[i], env, sizeof(env));
	return fail(err, errlen,
		    "--%s (%s) is read only under --clock model: under --clock real %s",
		    uvm_options[model_only_opts[i]].name, env, model_only_instead[i]);
}

/* Under --fault-path uvmmu: refuses the first buffer option given. */
static int uvmmu_has_no_buffer(const struct uvm_config *cfg, char *err, size_t errlen)
{
	int i = first_given(cfg, buffer_opts, NOPTS(buffer_opts));
	char env[64];

	if (cfg->v[UVM_OPT_fault_path].i != UVM_FAULT_PATH_UVMMU || i < 0)
		return 0;
	uvm_option_env_name(buffer_opts[i], env, sizeof(env));
	return fail(err, errlen,
		    "--%s (%s) cannot go with --fault-path uvmmu: UVMMU's hardware has no fault "
		    "buffer and no batches (each fault is its own migration); use --fault-path "
		    "driver",
		    uvm_options[buffer_opts[i]].name, env);
}

int uvm_config_check(const struct uvm_config *cfg, char *err, size_t errlen)
{
	int rc = check_lists(cfg, err, errlen);

	if (rc)
		return rc;
	if (any_device_set(cfg, UVM_OPT_device_mem) && any_device_set(cfg, UVM_OPT_oversub))
		return fail(err, errlen,
			    "device memory is given twice: choose --device-mem (UVMEMU_DEVICE_MEM) "
			    "or --oversub (UVMEMU_OVERSUB), not both");
	/* Every manager plans from a profile. */
	if (cfg->v[UVM_OPT_objects].i != UVM_OBJ_NONE && !*cfg->v[UVM_OPT_objects_profile].s)
		return fail(err, errlen,
			    "--objects %s (UVMEMU_OBJECTS) needs --objects-profile FILE "
			    "(UVMEMU_OBJECTS_PROFILE), written by `uvmemu profile --out FILE -- "
			    "PROGRAM ARGS`",
			    cfg->v[UVM_OPT_objects].s);
	if ((rc = model_only(cfg, err, errlen)))
		return rc;
	if (cfg->v[UVM_OPT_compute].i == UVM_COMPUTE_BLOCKS && cfg->v[UVM_OPT_dilation].d != 0)
		return fail(err, errlen,
			    "--compute blocks (UVMEMU_COMPUTE) needs --dilation auto: a block's "
			    "price is the calibration kernel's CPU time per block");
	if (cfg->v[UVM_OPT_fault_path].i == UVM_FAULT_PATH_UVMMU &&
	    cfg->v[UVM_OPT_page_size].i == UVM_PAGE_SIZE_4K)
		return fail(err, errlen,
			    "--fault-path uvmmu cannot go with --page-size 4k (UVMEMU_PAGE_SIZE): "
			    "UVMMU's hardware migrates 64 KB page-groups; use --page-size 64k");
	if (cfg->v[UVM_OPT_fault_path].i == UVM_FAULT_PATH_UVMMU &&
	    strcmp(cfg->v[UVM_OPT_prefetch].s, "none") != 0)
		return fail(err, errlen,
			    "--prefetch %s (UVMEMU_PREFETCH) cannot go with --fault-path uvmmu: "
			    "UVMMU's hardware migrates each faulted 64 KB page-group alone and "
			    "prefetches nothing; use --prefetch none",
			    cfg->v[UVM_OPT_prefetch].s);
	if (cfg->v[UVM_OPT_evict_to].i == UVM_EVICT_TO_PEER && cfg->v[UVM_OPT_gpus].i < 2)
		return fail(
		    err, errlen,
		    "--evict-to peer (UVMEMU_EVICT_TO) needs --gpus 2 or more (UVMEMU_GPUS, "
		    "1..8; here %lld): with one GPU there is no peer to evict to; use "
		    "--evict-to host",
		    cfg->v[UVM_OPT_gpus].i);
	if (cfg->v[UVM_OPT_fault_path].i == UVM_FAULT_PATH_UVMMU && cfg->v[UVM_OPT_gpus].i > 1)
		return fail(err, errlen,
			    "--fault-path uvmmu cannot go with --gpus %lld (UVMEMU_GPUS): UVMMU's "
			    "hardware path models one GPU; use --gpus 1 or --fault-path driver",
			    cfg->v[UVM_OPT_gpus].i);
	if (cfg->v[UVM_OPT_fault_path].i == UVM_FAULT_PATH_UVMMU &&
	    cfg->v[UVM_OPT_proactive_evict].i != 0)
		return fail(
		    err, errlen,
		    "--proactive-evict (UVMEMU_PROACTIVE_EVICT) cannot go with --fault-path "
		    "uvmmu: UVMMU's hardware keeps free frames of its own (its destination "
		    "candidate queue), and its path has no batches to evict after");
	return uvmmu_has_no_buffer(cfg, err, errlen);
}

void uvm_config_print_notes(const struct uvm_config *cfg, FILE *f)
{
	const char *p = cfg->notes;

	/* A sweep varies --objects over one profile: none leaves it unread. */
	if (cfg->v[UVM_OPT_objects].i == UVM_OBJ_NONE && *cfg->v[UVM_OPT_objects_profile].s)
		fprintf(f, "uvmemu: note: --objects-profile %s is not read: --objects is none\n",
			cfg->v[UVM_OPT_objects_profile].s);
	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "uvmemu: warning: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

const char *uvm_page_size_library(const struct uvm_config *cfg)
{
	return cfg->v[UVM_OPT_page_size].i == UVM_PAGE_SIZE_4K ? "libuvmemu_4k.so" : "libuvmemu.so";
}

int uvm_page_size_check(const struct uvm_config *cfg, char *err, size_t errlen)
{
	const char *asked = cfg->v[UVM_OPT_page_size].s;

	if (strcmp(asked, UVMEMU_PAGE_SIZE_BUILT) == 0)
		return 0;
	return fail(err, errlen,
		    "--page-size %s (UVMEMU_PAGE_SIZE): this library is built for %s only; page "
		    "sizes are 4k and 64k, and `uvmemu run --page-size %s` preloads %s",
		    asked, UVMEMU_PAGE_SIZE_BUILT, asked, uvm_page_size_library(cfg));
}

void uvm_config_print_help(FILE *f)
{
	for (int i = 0; i < UVM_OPT_COUNT; i++) {
		const struct uvm_option_desc *d = &uvm_options[i];
		char env[64];

		uvm_option_env_name(i, env, sizeof(env));
		fprintf(f, "  --%-16s %s\n", d->name, d->help);
		if (d->choices)
			fprintf(f, "  %-18s values: %s; ", "", d->choices);
		else
			fprintf(f, "  %-18s ", "");
		fprintf(f, "default: %s; variable: %s\n", *d->def ? d->def : "(preset)", env);
	}
	fprintf(f, "\nnvidia-uvm module parameters, accepted wherever an option name is (config "
		   "files,\nvariables NAME=VALUE, options) with the driver's values and units:\n");
	for (size_t i = 0; i < NALIASES; i++) {
		const struct alias *a = &aliases[i];

		fprintf(f, "  %-40s --%s", a->name, uvm_options[a->id].name);
		if (a->kind == ALIAS_USEC)
			fprintf(f, " (whole microseconds)");
		else if (a->kind == ALIAS_MAP)
			fprintf(f, " (%s)", a->map);
		fputc('\n', f);
	}
}
