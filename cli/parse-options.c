#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"
#include "../lib/error.h"
#include "wrapper.h"

static const struct rolling_option *find_long(const struct rolling_option *o, const char *name,
					      size_t len)
{
	for (; o->type != ROLLING_OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct rolling_option *find_short(const struct rolling_option *o, int c)
{
	for (; o->type != ROLLING_OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int parse_int(int *out, const char *arg, const char *spelled)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (!*arg || *end || errno || n < INT_MIN || n > INT_MAX)
		return rolling_error("option `%s' expects a numerical value", spelled);
	*out = (int)n;
	return 0;
}

/* Whether the option takes a value: attached, or the next word. */
static int takes_value(const struct rolling_option *o)
{
	return o->type == ROLLING_OPTION_STRING || o->type == ROLLING_OPTION_INTEGER;
}

/*
 * Apply one option.  `arg` is the attached argument ("--x=arg", "-xarg")
 * or NULL; `next` the following word, consumed through *used.
 */
static int apply(const struct rolling_option *o, int negated, const char *arg,
		 const char *next, int *used, const char *spelled)
{
	if (takes_value(o) && !arg) {
		if (!next)
			return rolling_error("option `%s' requires a value", spelled);
		arg = next;
		*used = 1;
	}
	switch (o->type) {
	case ROLLING_OPTION_BOOL:
	case ROLLING_OPTION_SET_INT:
		if (arg)
			return rolling_error("option `%s' takes no value", spelled);
		*(int *)o->value = negated ? 0 : (o->type == ROLLING_OPTION_BOOL ? 1 : o->defval);
		return 0;
	case ROLLING_OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case ROLLING_OPTION_INTEGER:
		return parse_int(o->value, arg, spelled);
	default:
		return rolling_error("internal error: bad option type");
	}
}

static int parse_long(const char *word, const char *next, int *used,
		      const struct rolling_option *options)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct rolling_option *o = find_long(options, name, len);
	int negated = 0;

	if (!o && len > 3 && !strncmp(name, "no-", 3)) {
		o = find_long(options, name + 3, len - 3);
		negated = 1;
	}
	if (!o || (negated && (o->flags & ROLLING_OPTION_NONEG)))
		return rolling_error("unknown option `%.*s'", (int)len, name);
	return apply(o, negated, eq ? eq + 1 : NULL, next, used, o->long_name);
}

static const struct rolling_option *find_digits(const struct rolling_option *o)
{
	for (; o->type != ROLLING_OPTION_END; o++)
		if (o->flags & ROLLING_OPTION_DIGITS)
			return o;
	return NULL;
}

static int parse_short(const char *word, const char *next, int *used,
		       const struct rolling_option *options)
{
	const struct rolling_option *digits = find_digits(options);
	const char *p;

	if (digits && word[1] >= '0' && word[1] <= '9')
		return parse_int(digits->value, word + 1, word);

	for (p = word + 1; *p; p++) {
		const struct rolling_option *o = find_short(options, *p);
		char spelled[2] = { *p, 0 };

		if (!o)
			return rolling_error("unknown switch `%c'", *p);
		if (takes_value(o))
			return apply(o, 0, p[1] ? p + 1 : NULL, next, used, spelled);
		if (apply(o, 0, NULL, NULL, used, spelled) < 0)
			return ROLLING_ERROR;
	}
	return 0;
}

int rolling_parse_options(int argc, const char **argv, const struct rolling_option *options)
{
	int i, nr = 0, only_args = 0;

	for (i = 1; i < argc; i++) {
		const char *word = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		int used = 0, err;

		if (only_args || word[0] != '-' || !word[1]) {
			argv[nr++] = word;
			continue;
		}
		if (!strcmp(word, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(word, "-h"))
			return ROLLING_PARSE_HELP_SHORT;
		if (!strcmp(word, "--help"))
			return ROLLING_PARSE_HELP_LONG;
		if (!strcmp(word, "--git-completion-helper"))
			return ROLLING_PARSE_COMPLETION;
		err = word[1] == '-' ? parse_long(word, next, &used, options)
				     : parse_short(word, next, &used, options);
		if (err < 0)
			return err;
		i += used;
	}
	argv[nr] = NULL;
	return nr;
}

/* As git's usage_with_options(): an option wider than this gets a line of its own. */
#define USAGE_OPTS_WIDTH 24

void rolling_print_usage(FILE *out, const char *const *usage, const struct rolling_option *o)
{
	struct strbuf left = STRBUF_INIT;
	const char *prefix = "usage: ";

	for (; *usage; usage++, prefix = "   or: ")
		fprintf(out, "%s%s\n", prefix, *usage);
	fputc('\n', out);
	for (; o->type != ROLLING_OPTION_END; o++) {
		strbuf_reset(&left);
		if (o->short_name)
			strbuf_addf(&left, "-%c%s", o->short_name, o->long_name ? ", " : "");
		if (o->long_name)
			strbuf_addf(&left, "--%s%s",
				    o->flags & ROLLING_OPTION_NONEG ? "" : "[no-]", o->long_name);
		if (o->argh)
			strbuf_addf(&left, " <%s>", o->argh);
		if (left.len > USAGE_OPTS_WIDTH)
			fprintf(out, "    %s\n%*s%s\n", xstrbuf(&left), USAGE_OPTS_WIDTH + 6, "",
				o->help);
		else
			fprintf(out, "    %-*s  %s\n", USAGE_OPTS_WIDTH, xstrbuf(&left), o->help);
	}
	strbuf_release(&left);
	fputc('\n', out);
}

void rolling_print_completion(FILE *out, const struct rolling_option *options)
{
	const struct rolling_option *o;
	const char *sep = "";

	/* Options that take a value end in '=', as git's helper prints them. */
	for (o = options; o->type != ROLLING_OPTION_END; o++) {
		if (!o->long_name)
			continue;
		fprintf(out, "%s--%s%s", sep, o->long_name,
			takes_value(o) ? "=" : "");
		sep = " ";
	}
	for (o = options; o->type != ROLLING_OPTION_END; o++)
		if (o->long_name && !(o->flags & ROLLING_OPTION_NONEG))
			fprintf(out, " --no-%s", o->long_name);
	fputc('\n', out);
}
