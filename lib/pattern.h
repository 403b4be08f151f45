#ifndef ROLLING_PATTERN_H
#define ROLLING_PATTERN_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "release-number.h"

/*
 * The two patterns that recognise a project's tags.  They use named
 * groups: the release pattern needs (?<major>) and (?<patch>), the
 * mainline pattern (?<major>) and optionally (?<rc>), which marks a
 * pre-release whatever its number; (?<minor>), a series' second
 * number, must be in both or in neither, and (?<sub>), its third,
 * needs (?<minor>).  A name may be given to several groups in
 * alternatives ("v(?:(?<major>2)\.(?<minor>6)\.(?<sub>\d+)|...)"): the
 * one that took part in the match counts, so a series may have fewer
 * numbers in one era than in another.  Patterns must match the whole
 * tag name (they are compiled anchored at both ends), so look-alikes
 * such as "v6.6.4-rc1" or "v5.5-test" never match by accident.
 */
struct rolling_patterns {
	pcre2_code *release;
	pcre2_code *mainline;
	pcre2_match_data *match;
	unsigned forms;    /* ROLLING_SERIES_FORM bits the groups allow for sure */
	/* The bounds of each match, below. */
	pcre2_match_context *context;
	/* Each pattern named for messages: "<key> '<pattern>'". */
	char *release_source, *mainline_source;
	size_t expensive;  /* names that needed more than the cheap bound */
	char *failure;     /* set once a bound was hit: every later match fails */
};

/*
 * Tag names come from whoever publishes the repository, and a custom
 * pattern may backtrack catastrophically ("v(a|aa)*b" takes seconds on
 * one long name), so every match is bounded.  A match first runs with
 * PCRE2 match and depth limits of ROLLING_PATTERN_CHEAP_STEPS, which
 * every pattern of the presets stays far below on a name of any sane
 * length; a name that needs more is matched again with
 * ROLLING_PATTERN_MAX_STEPS.  Past that, or once more than
 * ROLLING_PATTERN_MAX_EXPENSIVE names of one scan needed the second
 * try, the match fails with ROLLING_PATTERN_ELIMIT and a message naming
 * the pattern, and so does every later match with these patterns: the
 * whole scan of a repository's tags costs at most about
 * tags * CHEAP + MAX_EXPENSIVE * MAX steps, whatever the server named.
 */
#define ROLLING_PATTERN_CHEAP_STEPS    10000
#define ROLLING_PATTERN_MAX_STEPS      1000000
#define ROLLING_PATTERN_MAX_EXPENSIVE  100
#define ROLLING_PATTERN_ELIMIT         -40


enum rolling_tag_kind {
	ROLLING_TAG_OTHER = 0,
	ROLLING_TAG_RELEASE,
	ROLLING_TAG_MAINLINE,
};

/*
 * Compile both patterns.  release_key and mainline_key name where the
 * patterns came from ("rolling.<branch>.releasePattern" or an option) so
 * that errors point at the right place.
 */
int rolling_patterns_compile(struct rolling_patterns *p,
			     const char *release_re, const char *release_key,
			     const char *mainline_re, const char *mainline_key);

/*
 * Classify a tag name (without "refs/tags/").  Returns 0 with *kind set
 * (ROLLING_TAG_OTHER when neither pattern matches), or a negative error:
 * ROLLING_PATTERN_ELIMIT when matching hit a bound (above), which the
 * caller must not take for "no match", or another when a pattern
 * matches but a number does not fit its type.
 */
int rolling_patterns_classify(struct rolling_patterns *p, const char *name,
			      enum rolling_tag_kind *kind, struct rolling_version *version);

/*
 * Whether a tag name matches both patterns: rolling_patterns_classify()
 * reads it as a release, which is seldom what the user meant (a
 * release pattern that takes "v2.44.0" for a release of 2.44).  1 or
 * 0, or ROLLING_PATTERN_ELIMIT.
 */
int rolling_patterns_match_both(struct rolling_patterns *p, const char *name);

/*
 * 0, or ROLLING_PATTERN_ELIMIT with its message recorded again when a
 * match with these patterns hit a bound: for a caller that took every
 * failed match for "not a release" during a scan, to check once after.
 */
int rolling_patterns_check(const struct rolling_patterns *p);

struct strbuf;

/*
 * A tag name for `want` in the scheme of `example`, a tag the patterns
 * read as `kind`: the example with the numbers of its groups replaced
 * by want's ("v2.55.0" and 2.56 give "v2.56.0"; "v6.8-rc1" and 6.10
 * give "v6.10-rc1").  Returns 1 with the name added to `out` when it
 * reads back as exactly `want` and `kind`, 0 when the example cannot
 * spell it (another era, numbers outside the groups), or a negative
 * error.  So status names a tag to come in the project's own words, or
 * none.
 */
int rolling_patterns_spell(struct strbuf *out, struct rolling_patterns *p,
			   enum rolling_tag_kind kind, const char *example,
			   const struct rolling_version *want);

void rolling_patterns_release(struct rolling_patterns *p);

#endif
