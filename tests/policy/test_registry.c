// SPDX-License-Identifier: MIT
/*
 * Description: the tables declared once. Every row of policies.def is found
 * by its kind and name, carries that name and a help line, and is a choice
 * of its option in the row's order (the choices are made from the table);
 * a name of another kind is not found. Every preset of presets.def is a
 * choice of --policy, and resolving it sets every option it names to its
 * value (a setting skipped or misparsed fails here; one naming an option
 * that does not exist fails to compile); options given explicitly win.
 * Every rule of implied.def sets its settings when its option has its value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "policy.h"

/* Whether name is the i-th choice of option id ("a|b|c"). */
static bool nth_choice(enum uvm_opt_id id, size_t i, const char *name)
{
	const char *p = uvm_options[id].choices;

	for (; i > 0 && p; i--) {
		p = strchr(p, '|');
		p = p ? p + 1 : NULL;
	}
	return p && strncmp(p, name, strlen(name)) == 0 &&
	       (p[strlen(name)] == '|' || p[strlen(name)] == '\0');
}

/* The found policy's name and help, or NULL. */
static const char *const *found(enum uvm_policy_kind kind, const char *name)
{
	static const char *nh[2];
	const struct uvm_evict_ops *e = uvm_evict_find(name);
	const struct uvm_prefetch_ops *p = uvm_prefetch_find(name);
	const struct uvm_migrate_ops *m = uvm_migrate_find(name);

	if (uvm_policy_find(kind, name) == NULL)
		return NULL;
	if (kind == UVM_POLICY_evict && e)
		nh[0] = e->name, nh[1] = e->help;
	else if (kind == UVM_POLICY_prefetch && p)
		nh[0] = p->name, nh[1] = p->help;
	else if (kind == UVM_POLICY_migrate && m)
		nh[0] = m->name, nh[1] = m->help;
	else
		return NULL;
	return nh;
}

static void test_policies(void **state)
{
	static const struct row {
		enum uvm_policy_kind kind;
		enum uvm_opt_id option;
		const char *name;
	} rows[] = {
#define UVMEMU_POLICY(kind, name, ops) {UVM_POLICY_##kind, UVM_OPT_##kind, name},
#include "policies.def"
#undef UVMEMU_POLICY
	};
	size_t nth[3] = {0};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const char *const *name_help = found(r->kind, r->name);

		assert_non_null(name_help);
		assert_string_equal(name_help[0], r->name);
		assert_non_null(name_help[1]);
		assert_true(strlen(name_help[1]) > 10);
		assert_true(nth_choice(r->option, nth[r->kind]++, r->name));
	}
	/* No choice beyond the table's rows. */
	assert_false(nth_choice(UVM_OPT_evict, nth[UVM_POLICY_evict], ""));
	assert_null(uvm_evict_find("first-touch"));
	assert_null(uvm_migrate_find("lru2m"));
	assert_null(uvm_prefetch_find("no-such-policy"));
}

static void test_presets(void **state)
{
	static const struct setting {
		const char *preset;
		enum uvm_opt_id id;
		const char *value;
	} settings[] = {
/* A preset's own row, then its settings. */
#define SET(id, value)		      {NULL, UVM_OPT_##id, value},
#define UVMEMU_PRESET(name, settings) {name, UVM_OPT_COUNT, NULL}, settings
#include "presets.def"
#undef UVMEMU_PRESET
#undef SET
	};
	static struct uvm_config cfg;
	const char *preset = NULL;
	char err[UVM_ERRLEN];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		const struct setting *s = &settings[i];

		if (s->id == UVM_OPT_COUNT) {
			preset = s->preset;
			assert_true(nth_choice(UVM_OPT_policy, n, preset));
			assert_string_equal(uvm_preset_name(n), preset);
			n++;
			uvm_config_defaults(&cfg);
			assert_int_equal(
			    uvm_config_set(&cfg, "policy", preset, "test", err, sizeof(err)), 0);
			uvm_config_resolve(&cfg);
			continue;
		}
		assert_non_null(preset);
		assert_string_equal(cfg.v[s->id].s, s->value);
		assert_false(cfg.v[s->id].given);
	}
	assert_int_equal(n, uvm_preset_count());
	/* An option given explicitly wins over the preset. */
	uvm_config_defaults(&cfg);
	assert_int_equal(uvm_config_set(&cfg, "evict", "random", "test", err, sizeof(err)), 0);
	assert_int_equal(uvm_config_set(&cfg, "policy", "adaptive", "test", err, sizeof(err)), 0);
	uvm_config_resolve(&cfg);
	assert_string_equal(cfg.v[UVM_OPT_evict].s, "random");
	assert_string_equal(cfg.v[UVM_OPT_migrate].s, "adaptive");
}

/*
 * Every rule of implied.def, its option set alone, makes each of its
 * settings that option's default; given explicitly, the option wins. (A
 * preset contradicting a rule it triggers fails test_presets: the rule is
 * applied last.)
 */
static void test_implied(void **state)
{
	static const struct rule {
		enum uvm_opt_id when;
		const char *value;
		enum uvm_opt_id id;
		const char *sets;
	} rules[] = {
/* A rule's own row (id UVM_OPT_COUNT), then its settings. */
#define SET(id, value)			    {UVM_OPT_COUNT, NULL, UVM_OPT_##id, value},
#define UVMEMU_IMPLIED(id, value, settings) {UVM_OPT_##id, value, UVM_OPT_COUNT, NULL}, settings
#include "implied.def"
#undef UVMEMU_IMPLIED
#undef SET
	};
	static struct uvm_config cfg, mine;
	const struct rule *head = NULL;
	char err[UVM_ERRLEN];
	size_t settings = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];
		const char *name;

		if (r->id == UVM_OPT_COUNT) {
			head = r;
			name = uvm_options[head->when].name;
			uvm_config_defaults(&cfg);
			assert_int_equal(
			    uvm_config_set(&cfg, name, head->value, "test", err, sizeof(err)), 0);
			uvm_config_resolve(&cfg);
			continue;
		}
		assert_non_null(head);
		settings++;
		assert_string_equal(cfg.v[r->id].s, r->sets);
		assert_false(cfg.v[r->id].given);
		/* The same rule with its setting's option given: the user's value stays. */
		uvm_config_defaults(&mine);
		assert_int_equal(uvm_config_set(&mine, uvm_options[r->id].name,
						uvm_options[r->id].def, "test", err, sizeof(err)),
				 0);
		assert_int_equal(uvm_config_set(&mine, uvm_options[head->when].name, head->value,
						"test", err, sizeof(err)),
				 0);
		uvm_config_resolve(&mine);
		assert_string_equal(mine.v[r->id].s, uvm_options[r->id].def);
		assert_true(mine.v[r->id].given);
	}
	assert_true(settings > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_policies),
	    cmocka_unit_test(test_presets),
	    cmocka_unit_test(test_implied),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
