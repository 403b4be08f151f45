#include <stdio.h>
#include <string.h>
#include "version.h"
#include "error.h"

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

int rolling_series_cmp(const struct rolling_series *a, const struct rolling_series *b)
{
	int c = cmp_u32(a->major, b->major);

	return c ? c : cmp_u32(a->minor, b->minor);
}

int rolling_version_cmp(const struct rolling_version *a, const struct rolling_version *b)
{
	int c = rolling_series_cmp(&a->series, &b->series);

	return c ? c : cmp_u32(a->patch, b->patch);
}

int rolling_parse_u32(uint32_t *out, const char *s, size_t len)
{
	uint64_t value = 0;
	size_t i;

	if (!len)
		return ROLLING_ERROR;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return ROLLING_ERROR;
		value = value * 10 + (uint64_t)(s[i] - '0');
		if (value > UINT32_MAX)
			return ROLLING_ERROR;
	}
	*out = (uint32_t)value;
	return 0;
}

int rolling_series_parse(struct rolling_series *out, const char *s, int has_minor,
			 const char *what)
{
	const char *dot = strchr(s, '.');
	size_t major_len = dot ? (size_t)(dot - s) : strlen(s);

	memset(out, 0, sizeof(*out));
	if (has_minor && !dot)
		return rolling_error("%s: '%s' is not a series of the form <major>.<minor>",
				     what, s);
	if (!has_minor && dot)
		return rolling_error("%s: '%s' is not a series of the form <major>", what, s);
	if (rolling_parse_u32(&out->major, s, major_len) < 0 ||
	    (dot && rolling_parse_u32(&out->minor, dot + 1, strlen(dot + 1)) < 0))
		return rolling_error("%s: '%s' is not a valid series "
				     "(decimal numbers of at most 32 bits)", what, s);
	return 0;
}

const char *rolling_series_format(char *buf, size_t size, const struct rolling_series *s,
				  int has_minor)
{
	if (has_minor)
		snprintf(buf, size, "%u.%u", (unsigned)s->major, (unsigned)s->minor);
	else
		snprintf(buf, size, "%u", (unsigned)s->major);
	return buf;
}
