#include <stdlib.h>
#include <string.h>
#include "repo-format.h"
#include "error.h"
#include "refdb-reftable.h"

/*
 * git reads the repository format from the repository's own config file
 * only (its common directory's), never from the global or system ones:
 * so does this.  NULL (no value) or the value, which the caller frees;
 * *err negative when the config cannot be read.
 */
static char *format_value(git_repository *repo, const char *name, int *err)
{
	git_config *config = NULL;
	git_config_entry *entry = NULL;
	char *value = NULL;

	*err = 0;
	if (git_repository_config_snapshot(&config, repo) < 0) {
		*err = rolling_git_error(-1, "cannot read the configuration");
		return NULL;
	}
	if (!git_config_get_entry(&entry, config, name) && entry->level == GIT_CONFIG_LEVEL_LOCAL &&
	    entry->value && !(value = strdup(entry->value)))
		*err = rolling_error_nomem();
	git_config_entry_free(entry);
	git_config_free(config);
	return value;
}

int rolling_repo_is_reftable(git_repository *repo)
{
	int err, is;
	char *format = format_value(repo, "extensions.refstorage", &err);

	is = format && !strcasecmp(format, "reftable");
	free(format);
	return is;
}

static int check_objects(git_repository *repo)
{
	int err = 0;
	char *format = format_value(repo, "extensions.objectformat", &err);

	if (format && strcasecmp(format, "sha1"))
		err = rolling_error("'%s' stores its objects in the %s format"
				    " (extensions.objectFormat): git rolling reads SHA-1"
				    " repositories only", git_repository_commondir(repo), format);
	free(format);
	return err;
}

int rolling_repo_format_check(git_repository *repo)
{
	int err;
	char *format;

	if ((err = check_objects(repo)) < 0)
		return err;
	format = format_value(repo, "extensions.refstorage", &err);
	if (err < 0 || !format || !strcasecmp(format, "files")) {
		free(format);
		return err;
	}
	if (!strcasecmp(format, "reftable"))
		err = rolling_refdb_reftable_install(repo);
	else
		err = rolling_error("'%s' stores its refs in the '%s' format"
				    " (extensions.refStorage), which git rolling cannot read;"
				    " git 2.46 or later converts it with"
				    " 'git refs migrate --ref-format=files'",
				    git_repository_commondir(repo), format);
	free(format);
	return err;
}
