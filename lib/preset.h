#ifndef ROLLING_PRESET_H
#define ROLLING_PRESET_H

#include <stddef.h>

/*
 * Tag schemes of well-known projects, so users need not write patterns.
 * This table is the one place that names them: usage, completion
 * (`git rolling init --list-presets`) and the tests read it from here.
 */
struct rolling_preset {
	const char *name;
	const char *project;          /* what the scheme is for, for listings */
	const char *example_release;  /* a release tag of the scheme */
	const char *example_mainline; /* a mainline tag (pre-release) of it */
	const char *release_pattern;
	const char *mainline_pattern;
	const char *lts_series;       /* default rolling.<branch>.series for --lts */
	/*
	 * When the stable policy moves to a new series, as the project's
	 * own stable branch does (rolling.<branch>.switch, policy.h): init
	 * writes it into the configuration with the patterns.  A preset
	 * whose rule is "first-release" reads the series' first release
	 * (v2.44.0, REL_17_0) with its release pattern, as patch 0, and
	 * only the pre-releases with its mainline pattern.
	 */
	const char *switch_rule;
	/*
	 * What a series switch takes in, in the project's words, for log
	 * ("the 6.8 merge window", "the 18 development cycle"): the kernel's
	 * two weeks of merges are its own term.  Patterns of no preset get
	 * ROLLING_DEFAULT_CYCLE.
	 */
	const char *cycle;
};

#define ROLLING_DEFAULT_CYCLE "development cycle"

/*
 * The tag scheme as the commands take it: --preset, --release-pattern,
 * --mainline-pattern (OPT_TAG_SCHEME in parse-options.h).
 */
struct rolling_scheme_options {
	const char *preset;
	const char *release_pattern;
	const char *mainline_pattern;
};

/* NULL when there is no preset of that name. */
const struct rolling_preset *rolling_preset_find(const char *name);

/*
 * The preset whose two patterns these are, or NULL (custom patterns):
 * a preset's series follow one another, custom ones need not (nginx's
 * odd minor versions are development, never stable).
 */
const struct rolling_preset *rolling_preset_find_patterns(const char *release_re,
							  const char *mainline_re);

/* All presets in listing order; *nr is set to their number. */
const struct rolling_preset *rolling_presets(size_t *nr);

struct strbuf;

/* Add "linux, systemd, ..." to `names`, for messages. */
void rolling_preset_names(struct strbuf *names);

/* The preset commands read an unconfigured branch with by default. */
#define ROLLING_DEFAULT_PRESET "linux"

#endif
