#ifndef ROLLING_REMOTE_CONFIG_H
#define ROLLING_REMOTE_CONFIG_H

#include <git2.h>

/*
 * What `git rolling fetch <remote>` follows: the rolling.remote.<remote>.*
 * keys, which `git rolling init --follow <remote>/<branch>` writes.
 */
struct rolling_remote_config {
	char **branches;             /* rolling.remote.<remote>.branches, one per value */
	size_t branches_nr;
	int signatures;              /* rolling.remote.<remote>.signatures, default 0 */
	char *release_pattern;       /* rolling.remote.<remote>.releasePattern, or NULL */
	char *mainline_pattern;      /* rolling.remote.<remote>.mainlinePattern, or NULL */
};

/* Read the keys; absent keys leave their defaults.  Returns 0 or a negative error. */
int rolling_remote_config_read(struct rolling_remote_config *rc, git_repository *repo,
			       const char *remote);

/*
 * Follow <remote>/<branch>: add the branch to rolling.remote.<remote>.branches
 * unless it is there, and set the patterns (both or neither) and, when
 * signatures is 0 or 1, .signatures.  Written under the config lock, all
 * or nothing, but for a second branch, which git config --add appends
 * afterwards.
 */
int rolling_remote_config_follow(git_repository *repo, const char *remote, const char *branch,
				 const char *release_re, const char *mainline_re, int signatures);

void rolling_remote_config_release(struct rolling_remote_config *rc);

/*
 * The remotes that have branches followed (rolling.remote.<remote>.branches),
 * in the order of the configuration (rolling_config_names()), to free
 * with rolling_remote_followed_free().  Returns 0 or a negative error.
 */
int rolling_remote_followed(char ***remotes, size_t *nr, git_repository *repo);
void rolling_remote_followed_free(char **remotes, size_t nr);

/*
 * In *best, the length of the longest configured remote (one with a
 * remote.<name>.url) that `followed`, "<remote>/<branch>", starts with,
 * 0 when none.  git_remote_list() and git_branch_remote_name() would
 * match the remotes with a regex, which leaks before libgit2 1.6.1
 * (lib/git2-compat.h): the keys are read here.  Returns 0 or a negative
 * error.
 */
int rolling_remote_longest_prefix(size_t *best, git_repository *repo, const char *followed);

/*
 * The ref where fetch keeps the tip of <remote>'s <branch> it verified
 * last, and pull reads it: a format for the remote and the branch, in
 * that order.
 */
#define ROLLING_VERIFIED_REF_FORMAT "refs/rolling/verified/%s/%s"

#endif
