// SPDX-License-Identifier: MIT
/*
 * Description: the trace's queue keeps what is data. Four threads push far
 * more access records than the queue holds, faster than the writer formats
 * them: none is dropped, and accesses.csv has every row (uvmemu profile
 * refused its trace in CI when a starved writer dropped some).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include "config.h"
#include "trace.h"
#include "trace_files.h"

enum { PRODUCERS = 4, RECORDS = 60000 };

struct producer {
	struct uvm_trace *t;
	uint32_t id;
};

static void *produce(void *arg)
{
	struct producer *p = arg;

	for (uint64_t i = 0; i < RECORDS; i++)
		uvm_trace_access(p->t, p->id, "k", p->id, i, 1, true);
	return NULL;
}

static void test_accesses_never_dropped(void **state)
{
	char dir[] = "/tmp/uvmemu-trace-queue-XXXXXX", err[512], *rows;
	struct producer p[PRODUCERS];
	pthread_t th[PRODUCERS];
	struct uvm_config cfg;
	struct uvm_trace *t = NULL;
	uint64_t written, dropped;
	long lines = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	uvm_config_defaults(&cfg);
	assert_int_equal(uvm_config_set(&cfg, "trace", dir, "test", err, sizeof(err)), 0);
	assert_int_equal(uvm_trace_open(&t, &cfg, 0, NULL, err, sizeof(err)), 0);
	assert_non_null(t);
	for (uint32_t i = 0; i < PRODUCERS; i++) {
		p[i] = (struct producer){t, i};
		assert_int_equal(pthread_create(&th[i], NULL, produce, &p[i]), 0);
	}
	for (uint32_t i = 0; i < PRODUCERS; i++)
		pthread_join(th[i], NULL);
	uvm_trace_flush(t);
	uvm_trace_counts(t, &written, &dropped);
	assert_int_equal(dropped, 0);
	uvm_trace_close(t);
	rows = tf_slurp(dir, "accesses.csv");
	/* A character loop: sanitizers check the whole rest of the string at
	 * each strstr, which over 240,000 rows would take minutes. */
	for (const char *c = rows; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 1 + PRODUCERS * RECORDS);
	free(rows);
	tf_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_accesses_never_dropped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
