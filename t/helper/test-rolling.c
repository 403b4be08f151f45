/*
 * test-rolling: exposes library functions to the test suite, as git's
 * test-tool does, so that pattern and version handling can be tested
 * without building a repository for every case.
 *
 *   test-rolling classify <preset> <tag>...
 *   test-rolling classify-re <release-re> <mainline-re> <tag>...
 *   test-rolling series <forms> <text>...   (forms: "12" for 1 or 2 numbers)
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "../../lib/pattern.h"
#include "../../lib/preset.h"
#include "../../lib/error.h"

static void print_version(const char *kind, const struct rolling_version *v)
{
	char buf[ROLLING_SERIES_BUFSZ];

	printf("%s %s", kind, rolling_series_format(buf, sizeof(buf), &v->series));
	if (v->patch)
		printf(" patch %u", (unsigned)v->patch);
	if (v->prerelease)
		printf(" rc %u", (unsigned)v->rc);
	putchar('\n');
}

static int classify(const char *release_re, const char *mainline_re, int n, char **names)
{
	struct rolling_patterns p;
	int i;

	if (rolling_patterns_compile(&p, release_re, "release", mainline_re, "mainline") < 0) {
		printf("error: %s\n", rolling_last_error());
		return 1;
	}
	for (i = 0; i < n; i++) {
		struct rolling_version v;
		enum rolling_tag_kind kind;

		printf("%s: ", names[i]);
		if (rolling_patterns_classify(&p, names[i], &kind, &v) < 0)
			printf("error: %s\n", rolling_last_error());
		else if (kind == ROLLING_TAG_RELEASE)
			print_version("release", &v);
		else if (kind == ROLLING_TAG_MAINLINE)
			print_version("mainline", &v);
		else
			printf("other\n");
	}
	rolling_patterns_free(&p);
	return 0;
}

static int series(const char *sizes, int n, char **texts)
{
	char buf[ROLLING_SERIES_BUFSZ];
	unsigned forms = 0;
	int i;

	for (; *sizes; sizes++)
		forms |= ROLLING_SERIES_FORM((unsigned)(*sizes - '0'));

	for (i = 0; i < n; i++) {
		struct rolling_series s;

		if (rolling_series_parse(&s, texts[i], forms, "series") < 0)
			printf("error: %s\n", rolling_last_error());
		else
			printf("%s\n", rolling_series_format(buf, sizeof(buf), &s));
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct rolling_preset *preset;

	if (argc >= 3 && !strcmp(argv[1], "classify")) {
		if (!(preset = rolling_preset_find(argv[2]))) {
			fprintf(stderr, "unknown preset %s\n", argv[2]);
			return 1;
		}
		return classify(preset->release_pattern, preset->mainline_pattern,
				argc - 3, argv + 3);
	}
	if (argc >= 4 && !strcmp(argv[1], "classify-re"))
		return classify(argv[2], argv[3], argc - 4, argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "series"))
		return series(argv[2], argc - 3, argv + 3);
	fprintf(stderr, "usage: test-rolling (classify <preset> | classify-re <re> <re> |"
		" series <forms>) <arg>...\n");
	return 129;
}
