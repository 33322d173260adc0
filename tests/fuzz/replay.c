// SPDX-License-Identifier: MIT
/*
 * replay.c - runs a fuzz target once on each file named (or in each directory
 * named), without libFuzzer: the corpus, crash regressions included, replays
 * in every build, under the sanitizers in CI's.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (size == cap) {
			cap = cap ? 2 * cap : 4096;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		struct dirent **names;
		int n;

		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			if (replay_file(argv[i]))
				return 1;
			files++;
			continue;
		}
		n = scandir(argv[i], &names, NULL, alphasort);
		if (n < 0) {
			perror(argv[i]);
			return 1;
		}
		for (int k = 0; k < n; k++) {
			char path[4096];

			if (names[k]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]->d_name);
				if (replay_file(path))
					return 1;
				files++;
			}
			free(names[k]);
		}
		free(names);
	}
	printf("replayed %d input(s)\n", files);
	return files ? 0 : 1;
}
