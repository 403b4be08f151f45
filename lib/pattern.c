#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pattern.h"
#include "error.h"
#include "strbuf.h"

static int compile_one(pcre2_code **out, const char *re, const char *key)
{
	int errcode;
	PCRE2_SIZE offset;
	PCRE2_UCHAR message[256];

	*out = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			     PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_UTF | PCRE2_DUPNAMES,
			     &errcode, &offset, NULL);
	if (!*out) {
		pcre2_get_error_message(errcode, message, sizeof(message));
		return rolling_error("%s: %s at offset %zu", key, (char *)message,
				     (size_t)offset);
	}
	/* JIT is an optimisation: where it is unavailable we match without it. */
	pcre2_jit_compile(*out, PCRE2_JIT_COMPLETE);
	return 0;
}

static int has_group(const pcre2_code *code, const char *name)
{
	int number = pcre2_substring_nametable_scan(code, (PCRE2_SPTR)name, NULL, NULL);

	return number > 0 || number == PCRE2_ERROR_NOUNIQUESUBSTRING;
}

static int in_both(const struct rolling_patterns *p, const char *name)
{
	return has_group(p->release, name) == has_group(p->mainline, name);
}

static int check_groups(struct rolling_patterns *p, const char *release_key,
			const char *mainline_key)
{
	if (!has_group(p->release, "major") || !has_group(p->release, "patch"))
		return rolling_error("%s: needs named groups (?<major>...) and (?<patch>...)",
				     release_key);
	if (!has_group(p->mainline, "major"))
		return rolling_error("%s: needs a named group (?<major>...)", mainline_key);
	if (!in_both(p, "minor"))
		return rolling_error("%s and %s: (?<minor>...) must be in both patterns or in neither",
				     release_key, mainline_key);
	/* (?<sub>) may be in one only: overriding one pattern of a preset. */
	if (has_group(p->release, "sub") && !has_group(p->release, "minor"))
		return rolling_error("%s: (?<sub>...) needs (?<minor>...)", release_key);
	if (has_group(p->mainline, "sub") && !has_group(p->mainline, "minor"))
		return rolling_error("%s: (?<sub>...) needs (?<minor>...)", mainline_key);
	if (has_group(p->mainline, "patch"))
		return rolling_error("%s: a mainline tag has no (?<patch>...) group",
				     mainline_key);
	/* Which sizes each era has shows only in the tags (see tags.h). */
	p->forms = ROLLING_SERIES_FORM(has_group(p->release, "minor") ? 2 : 1);
	return 0;
}

static uint32_t max_captures(const struct rolling_patterns *p)
{
	uint32_t release = 0, mainline = 0;

	pcre2_pattern_info(p->release, PCRE2_INFO_CAPTURECOUNT, &release);
	pcre2_pattern_info(p->mainline, PCRE2_INFO_CAPTURECOUNT, &mainline);
	return release > mainline ? release : mainline;
}

static char *source(const char *key, const char *re)
{
	return rolling_strfmt("%s '%s'", key, re);
}

int rolling_patterns_compile(struct rolling_patterns *p,
			     const char *release_re, const char *release_key,
			     const char *mainline_re, const char *mainline_key)
{
	int err;

	memset(p, 0, sizeof(*p));
	if (!(p->release_source = source(release_key, release_re)) ||
	    !(p->mainline_source = source(mainline_key, mainline_re)) ||
	    !(p->context = pcre2_match_context_create(NULL))) {
		rolling_patterns_release(p);
		return rolling_error_nomem();
	}
	if ((err = compile_one(&p->release, release_re, release_key)) < 0 ||
	    (err = compile_one(&p->mainline, mainline_re, mainline_key)) < 0 ||
	    (err = check_groups(p, release_key, mainline_key)) < 0) {
		rolling_patterns_release(p);
		return err;
	}
	/* One match block sized for whichever pattern has more groups. */
	p->match = pcre2_match_data_create(1 + max_captures(p), NULL);
	if (!p->match) {
		rolling_patterns_release(p);
		return rolling_error_nomem();
	}
	return 0;
}

/*
 * Where the group of that name that took part in the match is: with
 * duplicate names the name table lists every group of the name.
 * Returns 0 when none did.
 */
static int find_group(PCRE2_SIZE *start, PCRE2_SIZE *end, const pcre2_code *code,
		      pcre2_match_data *match, const char *group)
{
	PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(match);
	uint32_t count = pcre2_get_ovector_count(match), entry_size = 0;
	PCRE2_SPTR first, last;

	if (pcre2_substring_nametable_scan(code, (PCRE2_SPTR)group, &first, &last) < 0)
		return 0;
	pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
	for (; first <= last; first += entry_size) {
		uint32_t number = (uint32_t)first[0] << 8 | first[1];

		if (number < count && ovector[2 * number] != PCRE2_UNSET) {
			*start = ovector[2 * number];
			*end = ovector[2 * number + 1];
			return 1;
		}
	}
	return 0;
}

/*
 * Read an optional numeric group: returns 1 when it took part in the
 * match, 0 when not (*out is then 0), or a negative error.
 */
static int group_u32(uint32_t *out, const pcre2_code *code, pcre2_match_data *match,
		     const char *subject, const char *group)
{
	PCRE2_SIZE start, end;

	*out = 0;
	if (!find_group(&start, &end, code, match, group))
		return 0;
	if (rolling_parse_u32(out, subject + start, end - start) < 0)
		return rolling_error("tag '%s': %s number is not a decimal number of at most 32 bits",
				     subject, group);
	return 1;
}

int rolling_patterns_check(const struct rolling_patterns *p)
{
	return p->failure ? rolling_error_code(ROLLING_PATTERN_ELIMIT, "%s", p->failure) : 0;
}

static int fail(struct rolling_patterns *p, const char *fmt, ...) ROLLING_PRINTF(2, 3);

/* Record why matching stopped, for this call and every later one. */
static int fail(struct rolling_patterns *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	p->failure = rolling_vstrfmt(fmt, ap);
	va_end(ap);
	if (!p->failure)
		return rolling_error_nomem();
	return rolling_patterns_check(p);
}

static int over_limit(int rc)
{
	return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	       rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT;
}

static int bounded_match(struct rolling_patterns *p, const pcre2_code *code, const char *name,
			 uint32_t steps)
{
	pcre2_set_match_limit(p->context, steps);
	pcre2_set_depth_limit(p->context, steps);
	return pcre2_match(code, (PCRE2_SPTR)name, strlen(name), 0, 0, p->match, p->context);
}

/*
 * 1 when `code` matches the whole name, 0 when not (a name that is not
 * UTF-8 matches nothing), or ROLLING_PATTERN_ELIMIT (see pattern.h).
 */
static int matches(struct rolling_patterns *p, const pcre2_code *code, const char *name)
{
	const char *source = code == p->release ? p->release_source : p->mainline_source;
	int rc;

	if (p->failure)
		return rolling_patterns_check(p);
	rc = bounded_match(p, code, name, ROLLING_PATTERN_CHEAP_STEPS);
	if (!over_limit(rc))
		return rc > 0;
	if (++p->expensive > ROLLING_PATTERN_MAX_EXPENSIVE)
		return fail(p, "%s: more than %d tag names each need more than %d steps to match;"
			    " the pattern backtracks too much, simplify it", source,
			    ROLLING_PATTERN_MAX_EXPENSIVE, ROLLING_PATTERN_CHEAP_STEPS);
	rc = bounded_match(p, code, name, ROLLING_PATTERN_MAX_STEPS);
	if (over_limit(rc))
		return fail(p, "%s: matching the tag '%s' takes more than %d steps (PCRE2 %s limit);"
			    " the pattern backtracks too much, simplify it", source, name,
			    ROLLING_PATTERN_MAX_STEPS,
			    rc == PCRE2_ERROR_MATCHLIMIT ? "match" :
			    rc == PCRE2_ERROR_DEPTHLIMIT ? "depth" :
			    rc == PCRE2_ERROR_HEAPLIMIT ? "heap" : "JIT stack");
	return rc > 0;
}

static int read_version(struct rolling_version *v, const pcre2_code *code,
			pcre2_match_data *match, const char *name)
{
	int minor, sub;

	if (group_u32(&v->series.major, code, match, name, "major") < 0 ||
	    (minor = group_u32(&v->series.minor, code, match, name, "minor")) < 0 ||
	    (sub = group_u32(&v->series.sub, code, match, name, "sub")) < 0 ||
	    group_u32(&v->patch, code, match, name, "patch") < 0 ||
	    (v->prerelease = group_u32(&v->rc, code, match, name, "rc")) < 0)
		return ROLLING_ERROR;
	/* An era's series are as long as the numbers it names, minor before sub. */
	v->series.parts = 1 + (unsigned)minor + (unsigned)(minor && sub);
	if (!minor)
		v->series.sub = 0;
	return 0;
}

int rolling_patterns_classify(struct rolling_patterns *p, const char *name,
			      enum rolling_tag_kind *kind, struct rolling_version *version)
{
	int m;

	memset(version, 0, sizeof(*version));
	*kind = ROLLING_TAG_OTHER;
	if ((m = matches(p, p->release, name)) < 0)
		return m;
	if (m) {
		*kind = ROLLING_TAG_RELEASE;
		return read_version(version, p->release, p->match, name);
	}
	if ((m = matches(p, p->mainline, name)) < 0)
		return m;
	if (m) {
		*kind = ROLLING_TAG_MAINLINE;
		return read_version(version, p->mainline, p->match, name);
	}
	return 0;
}

int rolling_patterns_match_both(struct rolling_patterns *p, const char *name)
{
	int m = matches(p, p->release, name);

	return m <= 0 ? m : matches(p, p->mainline, name);
}

/* Where a number of the version goes in a tag name. */
struct span {
	PCRE2_SIZE start, end;
	uint32_t value;
};

static const char *const number_groups[] = { "major", "minor", "sub", "patch", "rc" };

static uint32_t number_of(const struct rolling_version *v, size_t group)
{
	switch (group) {
	case 0: return v->series.major;
	case 1: return v->series.minor;
	case 2: return v->series.sub;
	case 3: return v->patch;
	default: return v->rc;
	}
}

/* The spans of the groups that took part in the last match, in order. */
static size_t number_spans(struct span spans[5], const pcre2_code *code,
			   pcre2_match_data *match, const struct rolling_version *want)
{
	size_t i, j, nr = 0;

	for (i = 0; i < sizeof(number_groups) / sizeof(number_groups[0]); i++) {
		struct span sp;

		if (!find_group(&sp.start, &sp.end, code, match, number_groups[i]))
			continue;
		sp.value = number_of(want, i);
		for (j = nr; j > 0 && spans[j - 1].start > sp.start; j--)
			spans[j] = spans[j - 1];
		spans[j] = sp;
		nr++;
	}
	return nr;
}

static int same_version(const struct rolling_version *a, const struct rolling_version *b)
{
	return !rolling_series_cmp(&a->series, &b->series) && a->series.parts == b->series.parts &&
	       a->patch == b->patch && a->prerelease == b->prerelease &&
	       (!a->prerelease || a->rc == b->rc);
}

int rolling_patterns_spell(struct strbuf *out, struct rolling_patterns *p,
			   enum rolling_tag_kind kind, const char *example,
			   const struct rolling_version *want)
{
	const pcre2_code *code = kind == ROLLING_TAG_RELEASE ? p->release : p->mainline;
	struct strbuf name = STRBUF_INIT;
	struct rolling_version read;
	enum rolling_tag_kind read_kind;
	struct span spans[5];
	PCRE2_SIZE at = 0;
	size_t nr, i;
	int ok;

	if ((ok = matches(p, code, example)) <= 0)
		return ok;
	ok = 0;
	nr = number_spans(spans, code, p->match, want);
	for (i = 0; i < nr; i++) {
		strbuf_add(&name, example + at, spans[i].start - at);
		strbuf_addf(&name, "%" PRIu32, spans[i].value);
		at = spans[i].end;
	}
	strbuf_addstr(&name, example + at);
	if (strbuf_oom(&name))
		ok = rolling_error_nomem();
	else if ((ok = rolling_patterns_classify(p, name.buf, &read_kind, &read)) >= 0)
		ok = read_kind == kind && same_version(&read, want);
	if (ok > 0)
		strbuf_addstr(out, name.buf);
	strbuf_release(&name);
	return ok;
}

void rolling_patterns_release(struct rolling_patterns *p)
{
	pcre2_match_data_free(p->match);
	pcre2_match_context_free(p->context);
	pcre2_code_free(p->release);
	pcre2_code_free(p->mainline);
	free(p->release_source);
	free(p->mainline_source);
	free(p->failure);
	memset(p, 0, sizeof(*p));
}
