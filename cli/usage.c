#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "usage.h"
#include "wrapper.h"

void usage_with_options(const char *const *usage, const struct rolling_option *options)
{
	rolling_print_usage(stderr, usage, options);
	exit(129);
}

static void show_manual(const char *command)
{
	char *page = xasprintf("rolling-%s", command);

	fflush(stdout);
	execlp("git", "git", "help", page, (char *)NULL);
	die("cannot run git help: %m");
}

int parse_options_or_usage(int argc, const char **argv, const char *command,
			   const struct rolling_option *options, const char *const *usage)
{
	int nr = rolling_parse_options(argc, argv, options);

	if (nr == ROLLING_PARSE_HELP_SHORT) {
		rolling_print_usage(stdout, usage, options);
		exit(129);
	}
	if (nr == ROLLING_PARSE_HELP_LONG)
		show_manual(command);
	if (nr == ROLLING_PARSE_COMPLETION) {
		rolling_print_completion(stdout, options);
		exit(0);
	}
	if (nr < 0) {
		error("%s", rolling_last_error());
		usage_with_options(usage, options);
	}
	return nr;
}
