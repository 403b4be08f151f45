#ifndef ROLLING_USAGE_H
#define ROLLING_USAGE_H

/*
 * The usage of the commands in builtin/: their options parsed, -h and
 * --help answered, mistakes met with the usage and exit 129.  It sits
 * above the option parser, the allocation wrappers and the reporter;
 * their headers come with it, since every command uses all three.
 */
#include "parse-options.h"
#include "report.h"

/* Usage on stderr and exit 129, like git's usage_with_options(). */
void usage_with_options(const char *const *usage, const struct rolling_option *options)
	__attribute__((noreturn));

/*
 * Parse the command line, or handle -h (usage on stdout, exit 129),
 * --help (the manual page through `git help`) and mistakes (error and
 * usage, exit 129).  `command` is "init", "advance", ...
 */
int parse_options_or_usage(int argc, const char **argv, const char *command,
			   const struct rolling_option *options, const char *const *usage);

#endif
