#ifndef ROLLING_PUSH_LOG_CONFIG_H
#define ROLLING_PUSH_LOG_CONFIG_H

#include <git2.h>
#include "push-log.h"

/*
 * Where a branch's push log is and what it records it as, from the
 * keys rolling.<branch>.pushLog, .pushLogRepo, .pushLogRef, .pusher
 * (multi-valued) and .requireLatest, overridden by the command line,
 * with defaults derived from the remote the branch comes from:
 *
 *  - <branch> is the branch's short name: "linux-rolling-stable" for
 *    the local branch, for the remote-tracking "origin/linux-rolling-
 *    stable" and for fetch's refs/rolling/verified/origin/linux-rolling-
 *    stable alike;
 *  - the repository defaults to the path of the remote's URL (scheme and
 *    host dropped, leading '/' and trailing ".git" removed): the remote
 *    of a remote-tracking or verified ref, else the local branch's
 *    upstream, else the remote whose rolling.remote.<remote>.branches
 *    follows it;
 *  - the ref defaults to refs/heads/<the remote's branch>.
 *
 * A default that cannot be derived is an error that names the option
 * and the key that would give it.
 */
struct rolling_push_log_config {
	char *branch;                /* the config section, NULL for a bare revision */
	char *log, *repo_name, *ref;
	char **pushers;
	size_t pushers_nr;
	char *pushers_key;           /* "rolling.<branch>.pusher" */
	int require_latest;
	/* Derivation, for the defaults. */
	char *remote, *remote_branch;
};

/*
 * Read the keys for the revision `name` as the user typed it.  Returns
 * 0 (cfg->log NULL when no push log is configured) or a negative error.
 */
int rolling_push_log_config_read(struct rolling_push_log_config *cfg, git_repository *repo,
				 const char *name);

/* The same for <remote>'s <branch>, as fetch follows it. */
int rolling_push_log_config_for_remote(struct rolling_push_log_config *cfg,
				       git_repository *repo, const char *remote,
				       const char *branch);

/*
 * Fill the repository and ref not given, from the remote; an error
 * naming `repo_option` or `ref_option` (and the key) when one cannot be.
 */
int rolling_push_log_config_defaults(struct rolling_push_log_config *cfg, git_repository *repo,
				     const char *repo_option, const char *ref_option);

/* The options of rolling_push_log_check() pointing into cfg. */
void rolling_push_log_config_options(struct rolling_push_log_options *o,
				     const struct rolling_push_log_config *cfg);

/* What init --follow <remote>/<branch> --push-log=... was given; NULL: not given. */
struct rolling_push_log_follow {
	const char *log, *repo_name, *ref, *pusher;
	int require_latest;          /* -1: not given */
};

/*
 * Write rolling.<branch>.pushLog (the log's absolute path), and
 * pushLogRepo, pushLogRef and requireLatest as given, under the config
 * lock, then add the pusher to rolling.<branch>.pusher unless listed.
 * The repository and ref left to their defaults must be derivable from
 * the remote now; else the error names the option, and nothing is
 * written.
 */
int rolling_push_log_config_follow(git_repository *repo, const char *remote, const char *branch,
				   const struct rolling_push_log_follow *given);

void rolling_push_log_config_release(struct rolling_push_log_config *cfg);

#endif
