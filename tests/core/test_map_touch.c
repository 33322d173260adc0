// SPDX-License-Identifier: MIT
/*
 * Description: the first-access probe (map_touch.h). It measures on any
 * kernel with MADV_POPULATE_READ (5.14; before, it says why not and the
 * first test skips) and gives finite, positive costs per block; its reading names the cost as page
 * walks below the notable mark and as the hypervisor's above it, and an unmeasured probe reads as
 * its reason. Figures are not judged: only what they are and how they read.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "map_touch.h"

static void test_probe_measures(void **state)
{
	struct uvm_map_touch m;
	char buf[384];

	(void)state;
	uvm_map_touch_probe(&m);
	if (!m.measured) { /* a kernel before 5.14: the reason is the reading */
		uvm_map_touch_describe(&m, buf, sizeof(buf));
		assert_non_null(strstr(buf, "not measured: "));
		print_message("probe %s\n", buf);
		skip();
	}
	assert_true(isfinite(m.first_us) && m.first_us > 0);
	assert_true(isfinite(m.again_us) && m.again_us > 0);
	uvm_map_touch_describe(&m, buf, sizeof(buf));
	assert_non_null(strstr(buf, "us per 64 KB block"));
}

static void test_reading(void **state)
{
	struct uvm_map_touch walk = {.measured = true, .first_us = 1.5, .again_us = 0.1};
	struct uvm_map_touch shadow = {
	    .measured = true, .first_us = UVM_MAP_TOUCH_NOTABLE_US + 0.6, .again_us = 0.5};
	struct uvm_map_touch edge = {
	    .measured = true, .first_us = UVM_MAP_TOUCH_NOTABLE_US + 0.4, .again_us = 0.5};
	struct uvm_map_touch none = {.measured = false, .first_us = 0, .again_us = 0};
	char buf[384];

	(void)state;
	assert_false(uvm_map_touch_describe(&walk, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "1.50 us per 64 KB block"));
	assert_non_null(strstr(buf, "page walks"));
	assert_true(uvm_map_touch_describe(&shadow, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "hypervisor"));
	assert_non_null(strstr(buf, "the model does not charge"));
	/* Notable is the excess over the repeat, not the first touch alone. */
	assert_false(uvm_map_touch_describe(&edge, buf, sizeof(buf)));
	snprintf(none.why, sizeof(none.why), "not measured: Invalid argument");
	assert_false(uvm_map_touch_describe(&none, buf, sizeof(buf)));
	assert_string_equal(buf, "not measured: Invalid argument");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_probe_measures),
	    cmocka_unit_test(test_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
