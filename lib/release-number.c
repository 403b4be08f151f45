#include <stdio.h>
#include <string.h>
#include "release-number.h"
#include "error.h"
#include "strbuf.h"

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

int rolling_series_cmp(const struct rolling_series *a, const struct rolling_series *b)
{
	int c = cmp_u32(a->major, b->major);

	if (!c)
		c = cmp_u32(a->minor, b->minor);
	if (!c)
		c = cmp_u32(a->sub, b->sub);
	return c ? c : cmp_u32(a->parts, b->parts);
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

/* "<major>.<minor> or <major>.<minor>.<sub>", for messages. */
static void describe_forms(struct strbuf *sb, unsigned forms)
{
	static const char *const names[] = {
		NULL, "<major>", "<major>.<minor>", "<major>.<minor>.<sub>",
	};
	unsigned parts;

	for (parts = 1; parts <= 3; parts++)
		if (forms & ROLLING_SERIES_FORM(parts))
			strbuf_addf(sb, "%s%s", sb->len ? " or " : "", names[parts]);
}

static int form_error(const char *what, const char *s, unsigned forms)
{
	struct strbuf expected = STRBUF_INIT;
	int err;

	describe_forms(&expected, forms);
	err = strbuf_oom(&expected) ? rolling_error_nomem() :
	      rolling_error("%s: '%s' is not a series of the form %s", what, s, expected.buf);
	strbuf_release(&expected);
	return err;
}

int rolling_series_parse(struct rolling_series *out, const char *s, unsigned forms,
			 const char *what)
{
	uint32_t *numbers[] = { &out->major, &out->minor, &out->sub };
	unsigned parts = 1, i;
	const char *p;

	memset(out, 0, sizeof(*out));
	for (p = s; (p = strchr(p, '.')); p++)
		parts++;
	/* The shape first, so "six" is told what a series looks like. */
	if (parts > 3 || !*s || !(forms & ROLLING_SERIES_FORM(parts)))
		return form_error(what, s, forms);
	for (i = 0, p = s; i < parts; i++) {
		size_t len = strcspn(p, ".");

		if (rolling_parse_u32(numbers[i], p, len) < 0)
			return rolling_error("%s: '%s' is not a valid series "
					     "(decimal numbers of at most 32 bits)", what, s);
		p += len + 1;
	}
	out->parts = parts;
	return 0;
}

const char *rolling_series_format(char buf[ROLLING_SERIES_BUFSZ], const struct rolling_series *s)
{
	const size_t size = ROLLING_SERIES_BUFSZ;

	if (s->parts >= 3)
		snprintf(buf, size, "%u.%u.%u", (unsigned)s->major, (unsigned)s->minor,
			 (unsigned)s->sub);
	else if (s->parts == 2)
		snprintf(buf, size, "%u.%u", (unsigned)s->major, (unsigned)s->minor);
	else
		snprintf(buf, size, "%u", (unsigned)s->major);
	return buf;
}
