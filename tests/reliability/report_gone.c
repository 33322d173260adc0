// SPDX-License-Identifier: MIT
/*
 * report_gone - removes the directory its --report file was to go to, then
 * ends with status 0: the report cannot be written at exit (the start's check
 * found the directory), and the run's status must say so.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "uvmemu.h"

int main(void)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", uvmemu_option_str("report"));
	slash = strrchr(dir, '/');
	if (!slash) {
		fprintf(stderr, "report_gone: --report names no directory\n");
		return 3;
	}
	*slash = '\0';
	if (rmdir(dir)) {
		perror(dir);
		return 3;
	}
	return 0;
}
