#ifndef ROLLING_VERSION_H
#define ROLLING_VERSION_H

#include <stdint.h>
#include <stddef.h>

/*
 * A release series: "6.6" for Linux, "255" for systemd (minor unused).
 * Whether a scheme has a minor number is decided by its patterns.
 */
struct rolling_series {
	uint32_t major;
	uint32_t minor;
};

/*
 * A version read from a tag name.  Release tags fill `patch` (>= 1);
 * mainline tags leave it 0 and set `rc` for release candidates
 * (rc == 0 means the final mainline release).
 */
struct rolling_version {
	struct rolling_series series;
	uint32_t patch;
	uint32_t rc;
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
 * Parse a series given by the user or the configuration ("6.6" when
 * has_minor, else "255").  `what` names the source for the message.
 */
int rolling_series_parse(struct rolling_series *out, const char *s, int has_minor,
			 const char *what);

/* Format a series into buf ("6.6" or "255"). */
const char *rolling_series_format(char *buf, size_t size, const struct rolling_series *s,
				  int has_minor);

#define ROLLING_SERIES_BUFSZ 24

#endif
