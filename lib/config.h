#ifndef ROLLING_CONFIG_H
#define ROLLING_CONFIG_H

#include <git2.h>
#include "strbuf.h"

/*
 * The rolling.<branch>.* section of the repository configuration, as
 * plain strings: it is read and written by `git config` as well, so
 * everything is validated where it is used, with the key in the message.
 */
struct rolling_config {
	char *branch;
	char *policy;            /* "stable" or "lts" */
	char *series;            /* long-term series, space separated */
	char *pin;               /* a series, or NULL */
	char *release_pattern;
	char *mainline_pattern;
	char *ident;             /* "Name <email>", or NULL for user.name/user.email */
	char *steps;             /* "newest" or "each", or NULL for the default */
	char *switch_rule;       /* rolling.<branch>.switch, or NULL for the default */
	int signoff;
};

/*
 * Read the section for `branch`.  Returns ROLLING_ENOTFOUND when the
 * branch is not configured at all, another negative error when a key
 * is missing or unreadable.
 */
int rolling_config_read(struct rolling_config *cfg, git_repository *repo, const char *branch);

/* A staged change of the repository's config file, held under its lock. */
struct rolling_config_tx {
	git_config *local;
	git_transaction *tx;
};

/*
 * Lock the repository's own config file and stage the section (replacing
 * whatever it held).  Nothing is written until rolling_config_commit();
 * rolling_config_abort() leaves the file as it was.
 */
int rolling_config_stage(struct rolling_config_tx *tx, git_repository *repo,
			 const struct rolling_config *cfg);
int rolling_config_commit(struct rolling_config_tx *tx);
void rolling_config_abort(struct rolling_config_tx *tx);

/*
 * The names `name_of` reads from the configuration's keys (a copy the
 * walk frees, or NULL for a key that names none), each once, in the
 * order of the keys; every entry is read without a regex, which libgit2
 * before 1.6.1 leaks (git2-compat.h).  Free with
 * rolling_config_free_branches().  Returns 0 or a negative error.
 */
int rolling_config_names(char ***names, size_t *nr, git_repository *repo,
			 char *(*name_of)(const char *key));

/* The configured branches (rolling.<branch>.policy), in config order. */
int rolling_config_branches(char ***branches, size_t *nr, git_repository *repo);

/*
 * Read any string key: *value is NULL when it is not set, else a copy the
 * caller frees.
 */
int rolling_config_get_string(char **value, git_config *config, const char *key);

/*
 * The branches a command works on: copies of the `named` ones, or every
 * configured rolling branch when none is named; ROLLING_ENOTFOUND when
 * that is none.  Free with rolling_config_free_branches().
 */
int rolling_config_branches_or_named(char ***branches, size_t *nr, git_repository *repo,
				     const char *const *named, size_t named_nr);

/*
 * "rolling.<branch>.<key>", formatted into `name` (emptied first) and
 * returned, for lookups and messages alike.
 */
const char *rolling_config_key(struct strbuf *name, const char *branch, const char *key);

void rolling_config_release(struct rolling_config *cfg);
void rolling_config_free_branches(char **branches, size_t nr);

#endif
