#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "color.h"
#include "../lib/config.h"
#include "../lib/error.h"

static int stdout_is_color_terminal(void)
{
	const char *term = getenv("TERM");

	return isatty(1) && term && strcmp(term, "dumb");
}

/* Returns 1 or 0 for a decided value, -1 for "auto", -2 if invalid. */
static int parse_color_value(const char *value)
{
	if (!strcasecmp(value, "always"))
		return 1;
	if (!strcasecmp(value, "never") || !strcasecmp(value, "false") ||
	    !strcasecmp(value, "no") || !strcasecmp(value, "off") || !strcmp(value, "0"))
		return 0;
	if (!strcasecmp(value, "auto") || !strcasecmp(value, "true") ||
	    !strcasecmp(value, "yes") || !strcasecmp(value, "on") || !strcmp(value, "1"))
		return -1;
	return -2;
}

static int read_setting(int *setting, git_config *config, const char *key)
{
	char *value;
	int err = rolling_config_get_string(&value, config, key);

	if (err < 0 || !value)
		return err;
	*setting = parse_color_value(value);
	if (*setting == -2)
		err = rolling_error("%s: invalid color value '%s'", key, value);
	free(value);
	return err;
}

int rolling_want_color(int *want, git_repository *repo)
{
	git_config *config;
	int setting = -1, err;

	*want = 0;
	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	err = read_setting(&setting, config, "color.ui");
	if (!err)
		err = read_setting(&setting, config, "color.rolling");
	git_config_free(config);
	if (err < 0)
		return err;
	*want = setting == -1 ? stdout_is_color_terminal() : setting;
	return 0;
}

int rolling_color_printf(int want, const char *color, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (want)
		fputs(color, stdout);
	n = vprintf(fmt, ap);
	if (want)
		fputs(ROLLING_COLOR_RESET, stdout);
	va_end(ap);
	return n;
}
