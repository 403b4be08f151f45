#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote-config.h"
#include "config.h"
#include "alloc.h"
#include "error.h"
#include "git2-compat.h"
#include "run-command.h"
#include "strbuf.h"

static char *key(const char *remote, const char *name)
{
	return rolling_strfmt("rolling.remote.%s.%s", remote, name);
}

static int add_branch(struct rolling_remote_config *rc, const char *value, size_t *alloc)
{
	if (ALLOC_GROW(rc->branches, rc->branches_nr + 1, *alloc) < 0)
		return ROLLING_ERROR;
	if (!(rc->branches[rc->branches_nr] = strdup(value)))
		return rolling_error_nomem();
	rc->branches_nr++;
	return 0;
}

/*
 * Every value of the multi-valued key `name` ("rolling.remote.<remote>.branches").
 * Without a value regex the iterator matches no regex, so it leaks
 * nothing even where libgit2's regexes do (see git2-compat.h).
 */
static int read_branches(struct rolling_remote_config *rc, git_config *config,
			 const char *name)
{
	git_config_iterator *iter;
	git_config_entry *entry;
	size_t alloc = 0;
	int err;

	if ((err = git_config_multivar_iterator_new(&iter, config, name, NULL)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	while (!(err = git_config_next(&entry, iter)))
		if ((err = add_branch(rc, entry->value, &alloc)) < 0)
			break;
	git_config_iterator_free(iter);
	if (err == GIT_ITEROVER)
		return 0;
	return err == ROLLING_ERROR ? err : rolling_git_error(err, "%s", name);
}

static int read_bool(int *value, git_config *config, const char *name)
{
	int err = git_config_get_bool(value, config, name);

	if (err == GIT_ENOTFOUND) {
		*value = 0;
		return 0;
	}
	return err < 0 ? rolling_git_error(err, "%s", name) : 0;
}

int rolling_remote_config_read(struct rolling_remote_config *rc, git_repository *repo,
			       const char *remote)
{
	char *branches = key(remote, "branches"), *signatures = key(remote, "signatures");
	char *release = key(remote, "releasePattern"), *mainline = key(remote, "mainlinePattern");
	git_config *config = NULL;
	int err;

	memset(rc, 0, sizeof(*rc));
	if (!branches || !signatures || !release || !mainline) {
		err = rolling_error_nomem();
		goto out;
	}
	if ((err = git_repository_config_snapshot(&config, repo)) < 0) {
		err = rolling_git_error(err, "cannot read the configuration");
		goto out;
	}
	if ((err = read_branches(rc, config, branches)) < 0 ||
	    (err = read_bool(&rc->signatures, config, signatures)) < 0 ||
	    (err = rolling_config_get_string(&rc->release_pattern, config, release)) < 0 ||
	    (err = rolling_config_get_string(&rc->mainline_pattern, config, mainline)) < 0)
		goto out;
	if (!rc->release_pattern != !rc->mainline_pattern)
		err = rolling_error("%s needs %s too", rc->release_pattern ? release : mainline,
				    rc->release_pattern ? mainline : release);
out:
	git_config_free(config);
	free(branches);
	free(signatures);
	free(release);
	free(mainline);
	if (err < 0)
		rolling_remote_config_release(rc);
	return err;
}

static int has_branch(const struct rolling_remote_config *rc, const char *branch)
{
	size_t i;

	for (i = 0; i < rc->branches_nr; i++)
		if (!strcmp(rc->branches[i], branch))
			return 1;
	return 0;
}

static int set(git_config *config, const char *remote, const char *name, const char *value)
{
	char *k = key(remote, name);
	int err;

	if (!k)
		return rolling_error_nomem();
	err = git_config_set_string(config, k, value);
	if (err < 0)
		err = rolling_git_error(err, "cannot set %s", k);
	free(k);
	return err;
}

/*
 * Another value of a multi-valued key: git config --add.  libgit2 appends
 * only through a value regex (git_config_set_multivar()), which leaks
 * before 1.6.1 (git2-compat.h).
 */
static int add_branch_value(git_repository *repo, const char *remote, const char *branch)
{
	char *k = key(remote, "branches");
	const char *args[] = { "--git-dir", git_repository_path(repo), "config", "--add",
			       k, branch, NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	if (!k)
		return rolling_error_nomem();
	rolling_strvec_pushv(&git.args, args);
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	free(k);
	if (status > 0)
		return rolling_error("git config --add failed (exit status %d)", status);
	return status;
}

static int stage(git_config *local, const struct rolling_remote_config *rc, const char *remote,
		 const char *branch, const char *release_re, const char *mainline_re,
		 int signatures)
{
	int err = 0;

	if (!rc->branches_nr)
		err = set(local, remote, "branches", branch);
	if (!err && release_re && mainline_re &&
	    !(err = set(local, remote, "releasePattern", release_re)))
		err = set(local, remote, "mainlinePattern", mainline_re);
	if (!err && signatures >= 0)
		err = set(local, remote, "signatures", signatures ? "true" : "false");
	return err;
}

int rolling_remote_config_follow(git_repository *repo, const char *remote, const char *branch,
				 const char *release_re, const char *mainline_re, int signatures)
{
	struct rolling_remote_config rc;
	git_config *config = NULL, *local = NULL;
	git_transaction *tx = NULL;
	int commit_tried = 0, err;

	if ((err = rolling_remote_config_read(&rc, repo, remote)) < 0)
		return err;
	if ((err = git_repository_config(&config, repo)) < 0 ||
	    (err = git_config_open_level(&local, config, GIT_CONFIG_LEVEL_LOCAL)) < 0 ||
	    (err = git_config_lock(&tx, local)) < 0) {
		err = rolling_git_error(err, "cannot lock the repository configuration");
		goto out;
	}
	if ((err = stage(local, &rc, remote, branch, release_re, mainline_re, signatures)) < 0)
		goto out;
	commit_tried = 1;
	if ((err = git_transaction_commit(tx)) < 0)
		err = rolling_git_error(err, "cannot write the repository configuration");
	if (!err && rc.branches_nr && !has_branch(&rc, branch))
		err = add_branch_value(repo, remote, branch);
out:
	rolling_git_config_unlock_free(tx, local, commit_tried);
	git_config_free(config);
	rolling_remote_config_release(&rc);
	return err;
}

void rolling_remote_config_release(struct rolling_remote_config *rc)
{
	size_t i;

	for (i = 0; i < rc->branches_nr; i++)
		free(rc->branches[i]);
	free(rc->branches);
	free(rc->release_pattern);
	free(rc->mainline_pattern);
	memset(rc, 0, sizeof(*rc));
}

/* <remote> of "rolling.remote.<remote>.branches", else NULL. */
static char *followed_remote(const char *name)
{
	static const char prefix[] = "rolling.remote.", suffix[] = ".branches";
	size_t len = strlen(name), p = sizeof(prefix) - 1, q = sizeof(suffix) - 1;

	if (len <= p + q || strncmp(name, prefix, p) || strcmp(name + len - q, suffix))
		return NULL;
	return strndup(name + p, len - p - q);
}

int rolling_remote_followed(char ***remotes, size_t *nr, git_repository *repo)
{
	return rolling_config_names(remotes, nr, repo, followed_remote);
}

void rolling_remote_followed_free(char **remotes, size_t nr)
{
	rolling_config_free_branches(remotes, nr);
}

/* The length of a remote named by "remote.<name>.url" that `followed` starts with. */
static size_t remote_prefix(const char *config_name, const char *followed)
{
	const char *name = config_name + strlen("remote.");
	size_t len = strlen(config_name);

	if (strncmp(config_name, "remote.", strlen("remote.")) || len < strlen("remote..url") ||
	    strcmp(config_name + len - strlen(".url"), ".url"))
		return 0;
	len = (size_t)(config_name + len - strlen(".url") - name);
	return !strncmp(followed, name, len) && followed[len] == '/' && followed[len + 1] ? len : 0;
}

/* The remotes are read as config keys: remote-config.h says why. */
int rolling_remote_longest_prefix(size_t *best, git_repository *repo, const char *followed)
{
	git_config *config;
	git_config_iterator *iter;
	git_config_entry *entry;

	*best = 0;
	if (git_repository_config_snapshot(&config, repo) < 0)
		return rolling_error("cannot read the configuration");
	if (git_config_iterator_new(&iter, config) < 0) {
		git_config_free(config);
		return rolling_error("cannot read the configuration");
	}
	while (!git_config_next(&entry, iter)) {
		size_t len = remote_prefix(entry->name, followed);

		if (len > *best)
			*best = len;
	}
	git_config_iterator_free(iter);
	git_config_free(config);
	return 0;
}
