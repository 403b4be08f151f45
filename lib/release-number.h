#ifndef ROLLING_RELEASE_NUMBER_H
#define ROLLING_RELEASE_NUMBER_H

#include <stdint.h>
#include <stddef.h>

/*
 * A release series of one to three numbers: "255" for systemd, "6.6"
 * for Linux, "2.6.32" for Linux before 3.0.  `parts` says how many of
 * major, minor and sub it has (the others are 0): a scheme's patterns
 * decide, tag by tag, so one scheme may have series of two sizes
 * (PostgreSQL's "9.6" and "16").
 */
struct rolling_series {
	uint32_t major;
	uint32_t minor;
	uint32_t sub;
	unsigned parts;
};

/*
 * The sizes of series a scheme has, as a bit mask: bit n set when its
 * series may have n numbers.
 */
#define ROLLING_SERIES_FORM(parts) (1u << (parts))

/*
 * A version read from a tag name.  Release tags fill `patch` (>= 1);
 * mainline tags leave it 0 and set `prerelease` for release candidates
 * and other pre-releases (betas, alphas), whose number is `rc`; git
 * counts from rc0, so only `prerelease` tells a candidate from a final.
 */
struct rolling_version {
	struct rolling_series series;
	uint32_t patch;
	uint32_t rc;
	int prerelease;
};

int rolling_series_cmp(const struct rolling_series *a, const struct rolling_series *b);

/* Release order: series, then patch level. */
int rolling_version_cmp(const struct rolling_version *a, const struct rolling_version *b);

/*
 * Parse the decimal digits in s[0..len) into *out.  Returns 0, or a
 * negative error if there are no digits, a non-digit, or the value does
 * not fit in 32 bits.
 */
int rolling_parse_u32(uint32_t *out, const char *s, size_t len);

/*
 * Parse a series given by the user or the configuration ("6.6", "255")
 * of one of the sizes in `forms` (ROLLING_SERIES_FORM bits).  `what`
 * names the source for the message.
 */
int rolling_series_parse(struct rolling_series *out, const char *s, unsigned forms,
			 const char *what);

/* Room for any series: three 32-bit numbers, two dots and the NUL. */
#define ROLLING_SERIES_BUFSZ 36

/* Format a series into buf ("6.6", "255" or "2.6.32") and return buf. */
const char *rolling_series_format(char buf[ROLLING_SERIES_BUFSZ], const struct rolling_series *s);

#endif
