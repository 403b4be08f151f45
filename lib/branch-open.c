#include <stdlib.h>
#include <string.h>
#include "branch-open.h"
#include "error.h"
#include "preset.h"

int rolling_resolve_commit(git_oid *commit, git_repository *repo, const char *rev)
{
	git_object *object = NULL, *peeled = NULL;
	int err;

	if ((err = git_revparse_single(&object, repo, rev)) < 0) {
		if (err == GIT_ENOTFOUND || err == GIT_EAMBIGUOUS || err == GIT_EINVALIDSPEC)
			return rolling_error_code(ROLLING_ENOTFOUND, "bad revision '%s'", rev);
		return rolling_git_error(err, "cannot resolve '%s'", rev);
	}
	err = git_object_peel(&peeled, object, GIT_OBJECT_COMMIT);
	git_object_free(object);
	if (err < 0)
		return rolling_error_code(ROLLING_ENOTFOUND, "'%s' does not name a commit", rev);
	git_oid_cpy(commit, git_object_id(peeled));
	git_object_free(peeled);
	return 0;
}

int rolling_patterns_from_options(const char **release_re, const char **mainline_re,
				  const struct rolling_scheme_options *o)
{
	const struct rolling_preset *p = NULL;

	*release_re = *mainline_re = NULL;
	if (o->preset && !(p = rolling_preset_find(o->preset)))
		return rolling_error("unknown preset '%s' (known: %s)", o->preset,
				     rolling_preset_names());
	if (!p && !o->release_pattern && !o->mainline_pattern)
		return 0;
	*release_re = o->release_pattern ? o->release_pattern : p ? p->release_pattern : NULL;
	*mainline_re = o->mainline_pattern ? o->mainline_pattern : p ? p->mainline_pattern : NULL;
	if (!*release_re || !*mainline_re)
		return rolling_error("--%s-pattern is needed too (or --preset)",
				     *release_re ? "mainline" : "release");
	return 0;
}

static int open_unmanaged(struct rolling_branch *b, git_oid *tip, git_repository *repo,
			  const char *name, const char *release_re, const char *mainline_re)
{
	struct rolling_config config;
	int err;

	memset(&config, 0, sizeof(config));
	/* The policy is never used to read a branch; "stable" just satisfies the parser. */
	if (!(config.branch = strdup(name)) || !(config.policy = strdup("stable")) ||
	    !(config.release_pattern = strdup(release_re)) ||
	    !(config.mainline_pattern = strdup(mainline_re))) {
		rolling_config_free(&config);
		return rolling_error("out of memory");
	}
	if ((err = rolling_resolve_commit(tip, repo, name)) < 0) {
		rolling_config_free(&config);
		return err;
	}
	return rolling_branch_prepare(b, repo, &config);
}

int rolling_branch_open(struct rolling_branch *b, git_oid *tip, git_repository *repo,
			const char *name, const char *release_re, const char *mainline_re)
{
	int err;

	memset(b, 0, sizeof(*b));
	if (release_re && mainline_re)
		return open_unmanaged(b, tip, repo, name, release_re, mainline_re);
	if ((err = rolling_branch_load(b, repo, name)) < 0)
		return err;
	if ((err = rolling_branch_tip(tip, repo, name)) < 0)
		rolling_branch_free(b);
	return err;
}
