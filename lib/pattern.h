#ifndef ROLLING_PATTERN_H
#define ROLLING_PATTERN_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "version.h"

/*
 * The two patterns that recognise a project's tags.  They use named
 * groups: the release pattern needs (?<major>) and (?<patch>), the
 * mainline pattern (?<major>) and optionally (?<rc>); (?<minor>) must be
 * in both or in neither.  Patterns must match the whole tag name (they
 * are compiled anchored at both ends), so look-alikes such as
 * "v6.6.4-rc1" or "v5.5-test" never match by accident.
 */
struct rolling_patterns {
	pcre2_code *release;
	pcre2_code *mainline;
	pcre2_match_data *match;
	int has_minor;
};

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
 * (ROLLING_TAG_OTHER when neither pattern matches), or a negative error
 * when a pattern matches but a number does not fit its type.
 */
int rolling_patterns_classify(struct rolling_patterns *p, const char *name,
			      enum rolling_tag_kind *kind, struct rolling_version *version);

void rolling_patterns_free(struct rolling_patterns *p);

#endif
