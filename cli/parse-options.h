#ifndef ROLLING_PARSE_OPTIONS_H
#define ROLLING_PARSE_OPTIONS_H

#include <stdio.h>

/*
 * A small option parser in Git's style: an options table per command,
 * long options with "--name value" or "--name=value", short options,
 * automatic "--no-<name>" for booleans, and "--" ending the options.
 */
enum rolling_option_type {
	ROLLING_OPTION_END,
	ROLLING_OPTION_BOOL,     /* int: 1, or 0 with --no-<name> */
	ROLLING_OPTION_SET_INT,  /* int: set to defval */
	ROLLING_OPTION_STRING,   /* const char *: the argument; --no-<name> resets to NULL */
	ROLLING_OPTION_INTEGER,  /* int: a decimal argument */
};

struct rolling_option {
	enum rolling_option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int defval;
	int flags;
};

/* A switch with no sensible opposite: --no-<name> is refused. */
#define ROLLING_OPTION_NONEG 1
/* An integer that "-<number>" sets too, as `git log -3` sets --max-count. */
#define ROLLING_OPTION_DIGITS 2

#define OPT_END()                  { ROLLING_OPTION_END, 0, NULL, NULL, NULL, NULL, 0, 0 }
#define OPT_BOOL(s, l, v, h)       { ROLLING_OPTION_BOOL, (s), (l), (v), NULL, (h), 0, 0 }
#define OPT_SWITCH(s, l, v, h)     { ROLLING_OPTION_BOOL, (s), (l), (v), NULL, (h), 0, \
				     ROLLING_OPTION_NONEG }
#define OPT_SET_INT(s, l, v, h, i) { ROLLING_OPTION_SET_INT, (s), (l), (v), NULL, (h), (i), \
				     ROLLING_OPTION_NONEG }
#define OPT_STRING(s, l, v, a, h)  { ROLLING_OPTION_STRING, (s), (l), (v), (a), (h), 0, \
				     ROLLING_OPTION_NONEG }
#define OPT_MAX_COUNT(v)           { ROLLING_OPTION_INTEGER, 'n', "max-count", (v), "number", \
				     "show only the newest <number> (also -<number>)", 0, \
				     ROLLING_OPTION_NONEG | ROLLING_OPTION_DIGITS }
#define OPT__QUIET(v)              OPT_SWITCH('q', "quiet", (v), "print only errors")
#define OPT__DRY_RUN(v)            OPT_SWITCH('n', "dry-run", (v), \
				      "show what would be done, change nothing")
#define OPT__FORCE(v, h)           OPT_SWITCH('f', "force", (v), (h))

/* The tag scheme's options, into a struct rolling_scheme_options (preset.h). */
#define OPT_TAG_SCHEME(o, preset_help) \
	OPT_STRING(0, "preset", &(o)->preset, "name", (preset_help)), \
	OPT_STRING(0, "release-pattern", &(o)->release_pattern, "regex", \
		   "PCRE2 pattern of release tags (instead of the preset's)"), \
	OPT_STRING(0, "mainline-pattern", &(o)->mainline_pattern, "regex", \
		   "PCRE2 pattern of mainline tags (instead of the preset's)")

/*
 * The tag scheme of the commands that read a branch whatever its origin
 * (verify, fetch, pull): the options say how its tags are named, over
 * what is configured.
 */
#define OPT_TAG_SCHEME_READ(o) \
	OPT_TAG_SCHEME((o), "read release tags as this project names them " \
		       "(see git rolling init --list-presets)")

/* fetch's --[no-]signatures, which pull passes on to fetch (-1: as configured). */
#define OPT_FETCH_SIGNATURES(v) \
	OPT_BOOL(0, "signatures", (v), "verify the release tags' signatures " \
		 "(default: rolling.remote.<remote>.signatures)")

#define ROLLING_PARSE_HELP_SHORT  -2   /* -h */
#define ROLLING_PARSE_HELP_LONG   -3   /* --help */
#define ROLLING_PARSE_COMPLETION  -4   /* --git-completion-helper */

/*
 * Parse argv[1..argc) against `options`.  Arguments that are not options
 * are moved to the front of argv, in order, and their count is returned.
 * Returns ROLLING_ERROR (with a message) for an unknown option or a
 * missing argument, or one of the ROLLING_PARSE_HELP_* codes, or
 * ROLLING_PARSE_COMPLETION.
 */
int rolling_parse_options(int argc, const char **argv, const struct rolling_option *options);

/* The long options, space separated, for the bash completion. */
void rolling_print_completion(FILE *out, const struct rolling_option *options);

/* Print "usage: ..." lines and the options table to `out`. */
void rolling_print_usage(FILE *out, const char *const *usage, const struct rolling_option *options);

#endif
