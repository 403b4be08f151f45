#ifndef ROLLING_BRANCH_H
#define ROLLING_BRANCH_H

#include <git2.h>
#include "config.h"
#include "pattern.h"
#include "tags.h"
#include "policy.h"

/* Everything needed to reason about one rolling branch. */
struct rolling_branch {
	struct rolling_config config;
	struct rolling_patterns patterns;
	struct rolling_policy policy;
	struct rolling_tags tags;
};

/*
 * Prepare a branch from its configuration, which the branch takes over
 * (it is freed with the branch, also on error): compile the patterns,
 * read the tags, check the policy; warn when tags match both patterns.
 */
int rolling_branch_prepare(struct rolling_branch *b, git_repository *repo,
			   struct rolling_config *config);

/* Read rolling.<name>.* and prepare the branch. */
int rolling_branch_load(struct rolling_branch *b, git_repository *repo, const char *name);

/*
 * The tip of refs/heads/<name>: ROLLING_ENOTFOUND when the branch does
 * not exist.
 */
int rolling_branch_tip(git_oid *tip, git_repository *repo, const char *name);

void rolling_branch_free(struct rolling_branch *b);

#endif
