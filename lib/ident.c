#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "ident.h"
#include "config.h"
#include "error.h"

static char *trimmed(const char *start, const char *end)
{
	while (start < end && isspace((unsigned char)*start))
		start++;
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	return strndup(start, (size_t)(end - start));
}

/* Git refuses these in identities: they would corrupt the commit header. */
static int valid_part(const char *s)
{
	return *s && !strpbrk(s, "<>\n");
}

int rolling_ident_parse(struct rolling_ident *ident, const char *text, const char *what)
{
	const char *open = strchr(text, '<');
	const char *close = open ? strchr(open, '>') : NULL;

	memset(ident, 0, sizeof(*ident));
	if (!open || !close || close[1] != '\0')
		goto bad;
	ident->name = trimmed(text, open);
	ident->email = trimmed(open + 1, close);
	if (!ident->name || !ident->email) {
		rolling_ident_release(ident);
		return rolling_error_nomem();
	}
	if (valid_part(ident->name) && valid_part(ident->email))
		return 0;
	rolling_ident_release(ident);
bad:
	return rolling_error("%s: '%s' is not an identity of the form 'Name <email>'", what, text);
}

int rolling_ident_for(struct rolling_ident *ident, git_repository *repo,
		      const char *configured, const char *what)
{
	git_config *config = NULL;
	int err;

	memset(ident, 0, sizeof(*ident));
	if (configured)
		return rolling_ident_parse(ident, configured, what);
	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	if ((err = rolling_config_get_string(&ident->name, config, "user.name")) < 0 ||
	    (err = rolling_config_get_string(&ident->email, config, "user.email")) < 0)
		goto out;
	if (!ident->name || !ident->email || !valid_part(ident->name) ||
	    !valid_part(ident->email))
		err = rolling_error("no identity for the rolling merges: set %s, or user.name "
				    "and user.email", what);
out:
	git_config_free(config);
	if (err < 0)
		rolling_ident_release(ident);
	return err;
}

void rolling_ident_release(struct rolling_ident *ident)
{
	free(ident->name);
	free(ident->email);
	memset(ident, 0, sizeof(*ident));
}
