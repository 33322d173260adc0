// SPDX-License-Identifier: MIT
/* config.c - parse and validate the tunables of options.def. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

const struct uvm_option_desc uvm_options[UVM_OPT_COUNT] = {
#define UVMEMU_OPTION(id_, name_, type_, def_, min_, max_, choices_, help_)                        \
	[UVM_OPT_##id_] = {#id_, name_, UVM_T_##type_, def_, min_, max_, choices_, help_},
#include "options.def"
#undef UVMEMU_OPTION
};

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

static int parse_value(const struct uvm_option_desc *d, const char *value, struct uvm_optval *v)
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
		if (*value)
			err = uvm_parse_bandwidth(value, &v->d);
		if (!err && *value && v->d <= 0)
			err = -EINVAL;
		break;
	case UVM_T_DURATION:
		v->i = -1;
		if (*value) {
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

int uvm_config_set(struct uvm_config *cfg, const char *name, const char *value, const char *origin,
		   char *err, size_t errlen)
{
	int id = uvm_option_find(name);
	const struct uvm_option_desc *d;
	struct uvm_optval v = {0};
	int rc;

	if (id < 0)
		return fail(err, errlen, "%s: unknown option '%s' (see uvmemu --help)", origin,
			    name);
	d = &uvm_options[id];
	if (strlen(value) >= sizeof(v.s))
		return fail(err, errlen, "%s: value longer than %zu characters", origin,
			    sizeof(v.s) - 1);
	strcpy(v.s, value);
	rc = parse_value(d, value, &v);
	if (rc == -ERANGE)
		return fail(err, errlen, "%s='%s': too large", origin, value);
	if (rc && d->type == UVM_T_ENUM)
		return fail(err, errlen, "%s='%s': accepted values are %s", origin, value,
			    d->choices);
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
		/* Bounds of a duration are in nanoseconds; say so. */
		const char *unit = d->type == UVM_T_DURATION ? " ns" : "";

		if (d->max != 0)
			return fail(err, errlen, "%s='%s': must be between %g%s and %g%s", origin,
				    value, d->min, unit, d->max, unit);
		return fail(err, errlen, "%s='%s': must be at least %g%s", origin, value, d->min,
			    unit);
	}
	rc = check_special(id, &v, origin, err, errlen);
	if (rc)
		return rc;
	v.given = true;
	cfg->v[id] = v;
	return 0;
}

void uvm_config_defaults(struct uvm_config *cfg)
{
	char err[UVM_ERRLEN];

	for (int i = 0; i < UVM_OPT_COUNT; i++) {
		int rc = uvm_config_set(cfg, uvm_options[i].name, uvm_options[i].def, "default",
					err, sizeof(err));

		/* A default that does not parse is a bug in options.def. */
		if (rc) {
			fprintf(stderr, "uvmemu: internal error in options.def: %s\n", err);
			abort();
		}
		cfg->v[i].given = false;
	}
}

int uvm_config_from_env(struct uvm_config *cfg, char *const *envp, char *err, size_t errlen)
{
	static const char prefix[] = "UVMEMU_";

	for (char *const *e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char var[128];
		size_t n;
		int rc;

		if (strncmp(*e, prefix, sizeof(prefix) - 1) != 0 || !eq)
			continue;
		n = (size_t)(eq - *e);
		if (n >= sizeof(var))
			n = sizeof(var) - 1;
		memcpy(var, *e, n);
		var[n] = '\0';
		if (uvm_option_find(var + sizeof(prefix) - 1) < 0) {
			int len =
			    snprintf(err, errlen, "unknown variable %s; known variables:", var);

			for (int i = 0; i < UVM_OPT_COUNT && len > 0 && (size_t)len < errlen; i++) {
				char ev[64];

				uvm_option_env_name(i, ev, sizeof(ev));
				len += snprintf(err + len, errlen - (size_t)len, "%s %s",
						i ? "," : "", ev);
			}
			return -EINVAL;
		}
		rc = uvm_config_set(cfg, var + sizeof(prefix) - 1, eq + 1, var, err, errlen);
		if (rc)
			return rc;
	}
	uvm_config_resolve(cfg);
	return uvm_config_check(cfg, err, errlen);
}

/*
 * Presets name the configurations of the papers and of the real driver, so
 * an experiment says one word. Sources: nvidia-uvm's defaults (release 595);
 * the adaptive-migration paper's GTX 1080 Ti / PCIe 3 baseline and its
 * Adaptive (t_s 8, p 8, LFU); CPC's 20 us fault latency, 16 GB/s and its two
 * switches; UVMMU's hardware migration (about 1.3 us a migration, random
 * victims, no prefetching).
 */
static const struct {
	const char *name;
	const char *const settings[12];
} presets[] = {
    {"nvidia",
     {"prefetch=tree", "prefetch-threshold=51", "evict=lru2m", "migrate=first-touch",
      "thrashing=on", "batch=256", "replay=batch_flush"}},
    {"uvmsmart-baseline",
     {"prefetch=tree", "prefetch-threshold=50", "evict=lru2m", "migrate=first-touch", "link=pcie3",
      "fault-latency=45us", "gpu=gtx1080ti", "thrashing=off"}},
    {"adaptive",
     {"prefetch=tree", "prefetch-threshold=50", "evict=lfu", "migrate=adaptive", "ts=8",
      "penalty=8", "link=pcie3", "fault-latency=45us", "gpu=gtx1080ti"}},
    {"cpc",
     {"evict=cpc", "dispatch=switch", "prefetch=none", "migrate=first-touch", "fault-latency=20us",
      "link-bw=16G"}},
    {"uvmmu",
     {"prefetch=none", "evict=random", "migrate=first-touch", "fault-latency=1300ns",
      "replay=block", "thrashing=off"}},
};

static void set_default(struct uvm_config *cfg, const char *setting)
{
	char name[64], err[UVM_ERRLEN];
	const char *eq = strchr(setting, '=');
	int id;

	snprintf(name, sizeof(name), "%.*s", (int)(eq - setting), setting);
	id = uvm_option_find(name);
	if (id < 0 || cfg->v[id].given)
		return;
	/* A preset that does not parse is a bug in this table. */
	if (uvm_config_set(cfg, name, eq + 1, "preset", err, sizeof(err))) {
		fprintf(stderr, "uvmemu: internal error in a preset: %s\n", err);
		abort();
	}
	cfg->v[id].given = false; /* still the preset's, not the user's */
}

void uvm_config_resolve(struct uvm_config *cfg)
{
	const char *preset = cfg->v[UVM_OPT_policy].s;

	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strcmp(presets[i].name, preset) == 0)
			for (const char *const *p = presets[i].settings; *p; p++)
				set_default(cfg, *p);
	if (strcmp(cfg->v[UVM_OPT_migrate].s, "adaptive") == 0)
		set_default(cfg, "evict=lfu");
}

int uvm_config_check(const struct uvm_config *cfg, char *err, size_t errlen)
{
	if (cfg->v[UVM_OPT_device_mem].i != 0 && cfg->v[UVM_OPT_oversub].d != 0)
		return fail(err, errlen,
			    "device memory is given twice: choose --device-mem (UVMEMU_DEVICE_MEM) "
			    "or --oversub (UVMEMU_OVERSUB), not both");
	return 0;
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
}
