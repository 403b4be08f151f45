#include <stdio.h>
#include <string.h>
#include "branch.h"
#include "error.h"

#define KEY_MAX 1024

int rolling_branch_prepare(struct rolling_branch *b, git_repository *repo,
			   struct rolling_config *config)
{
	char release_key[KEY_MAX], mainline_key[KEY_MAX];
	int err;

	memset(b, 0, sizeof(*b));
	b->config = *config;
	memset(config, 0, sizeof(*config));
	rolling_config_key(release_key, sizeof(release_key), b->config.branch, "releasePattern");
	rolling_config_key(mainline_key, sizeof(mainline_key), b->config.branch, "mainlinePattern");
	if ((err = rolling_patterns_compile(&b->patterns, b->config.release_pattern, release_key,
					    b->config.mainline_pattern, mainline_key)) < 0 ||
	    (err = rolling_tags_load(&b->tags, repo, &b->patterns)) < 0 ||
	    (err = rolling_policy_parse(&b->policy, &b->config, b->tags.forms)) < 0) {
		rolling_branch_free(b);
		return err;
	}
	if (b->tags.both_nr)
		rolling_warning("%zu tag%s ('%s'%s) match%s both the release and the mainline "
				"pattern; read as release%s", b->tags.both_nr,
				b->tags.both_nr > 1 ? "s" : "", b->tags.both_example,
				b->tags.both_nr > 1 ? ", ..." : "", b->tags.both_nr > 1 ? "" : "es",
				b->tags.both_nr > 1 ? "s" : "");
	return 0;
}

int rolling_branch_load(struct rolling_branch *b, git_repository *repo, const char *name)
{
	struct rolling_config config;
	int err;

	memset(b, 0, sizeof(*b));
	if ((err = rolling_config_read(&config, repo, name)) < 0)
		return err;
	return rolling_branch_prepare(b, repo, &config);
}

int rolling_branch_tip(git_oid *tip, git_repository *repo, const char *name)
{
	char refname[KEY_MAX];
	int err;

	snprintf(refname, sizeof(refname), "refs/heads/%s", name);
	err = git_reference_name_to_id(tip, repo, refname);
	if (err == GIT_ENOTFOUND)
		return rolling_error_code(ROLLING_ENOTFOUND, "branch '%s' does not exist", name);
	return err < 0 ? rolling_git_error(err, "cannot read %s", refname) : 0;
}

void rolling_branch_free(struct rolling_branch *b)
{
	rolling_tags_free(&b->tags);
	rolling_policy_free(&b->policy);
	rolling_patterns_free(&b->patterns);
	rolling_config_free(&b->config);
}
