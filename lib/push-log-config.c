#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "push-log-config.h"
#include "push-record.h"
#include "config.h"
#include "alloc.h"
#include "error.h"
#include "remote-config.h"
#include "run-command.h"
#include "git2-compat.h"
#include "strbuf.h"

static int read_key(char **out, git_config *config, const char *branch, const char *key)
{
	struct strbuf name = STRBUF_INIT;
	int err = rolling_config_get_string(out, config, rolling_config_key(&name, branch, key));

	strbuf_release(&name);
	return err;
}

static int read_pushers(struct rolling_push_log_config *cfg, git_config *config)
{
	struct strbuf name = STRBUF_INIT;
	git_config_iterator *iter = NULL;
	git_config_entry *entry;
	size_t alloc = 0;
	int err;

	rolling_config_key(&name, cfg->branch, "pusher");
	if (strbuf_oom(&name) || !(cfg->pushers_key = strdup(name.buf))) {
		strbuf_release(&name);
		return rolling_error_nomem();
	}
	strbuf_release(&name);
	if ((err = git_config_multivar_iterator_new(&iter, config, cfg->pushers_key, NULL)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	while (!(err = git_config_next(&entry, iter))) {
		if (ALLOC_GROW(cfg->pushers, cfg->pushers_nr + 1, alloc) < 0) {
			err = ROLLING_ERROR;
			break;
		}
		if (!(cfg->pushers[cfg->pushers_nr] = strdup(entry->value))) {
			err = rolling_error_nomem();
			break;
		}
		cfg->pushers_nr++;
	}
	git_config_iterator_free(iter);
	return err == GIT_ITEROVER ? 0 : err == ROLLING_ERROR ? err :
		rolling_git_error(err, "%s", cfg->pushers_key);
}

/* The remote and its branch of "refs/remotes/<remote>/<b>" or the verified ref. */
static int remote_of_ref(struct rolling_push_log_config *cfg, git_repository *repo,
			 const char *refname)
{
	static const char verified[] = "refs/rolling/verified/";
	const char *rest;
	char **remotes = NULL;
	size_t nr = 0, i, len;
	int err;

	if (!strncmp(refname, "refs/remotes/", 13)) {
		/* As init names a followed branch: the longest remote that prefixes it. */
		rest = refname + 13;
		if ((err = rolling_remote_longest_prefix(&len, repo, rest)) < 0 || !len)
			return err;
		if (!(cfg->remote = strndup(rest, len)) ||
		    !(cfg->remote_branch = strdup(rest + len + 1)))
			return rolling_error_nomem();
		return 0;
	}
	if (strncmp(refname, verified, sizeof(verified) - 1))
		return 0;
	rest = refname + sizeof(verified) - 1;
	/* The followed remotes, one of which prefixes the rest. */
	if ((err = rolling_remote_followed(&remotes, &nr, repo)) < 0)
		return err;
	for (i = 0; i < nr && !cfg->remote; i++) {
		len = strlen(remotes[i]);
		if (!strncmp(rest, remotes[i], len) && rest[len] == '/' && rest[len + 1] &&
		    (!(cfg->remote = strdup(remotes[i])) ||
		     !(cfg->remote_branch = strdup(rest + len + 1))))
			err = rolling_error_nomem();
	}
	rolling_remote_followed_free(remotes, nr);
	return err;
}

/* A local branch's upstream, else the remote that follows it. */
static int remote_of_branch(struct rolling_push_log_config *cfg, git_repository *repo,
			    const char *refname, const char *branch)
{
	git_buf remote = GIT_BUF_INIT, merge = GIT_BUF_INIT;
	char **remotes = NULL;
	size_t nr = 0, i, j;
	int err = 0;

	if (!git_branch_upstream_remote(&remote, repo, refname) &&
	    !git_branch_upstream_merge(&merge, repo, refname) &&
	    !strncmp(merge.ptr, "refs/heads/", 11)) {
		if (!(cfg->remote = strdup(remote.ptr)) ||
		    !(cfg->remote_branch = strdup(merge.ptr + 11)))
			err = rolling_error_nomem();
		git_buf_dispose(&remote);
		git_buf_dispose(&merge);
		return err;
	}
	git_buf_dispose(&remote);
	git_buf_dispose(&merge);
	git_error_clear();
	if ((err = rolling_remote_followed(&remotes, &nr, repo)) < 0)
		return err;
	for (i = 0; i < nr && !cfg->remote && !err; i++) {
		struct rolling_remote_config rc;

		if ((err = rolling_remote_config_read(&rc, repo, remotes[i])) < 0)
			break;
		for (j = 0; j < rc.branches_nr && !cfg->remote; j++)
			if (!strcmp(rc.branches[j], branch) &&
			    (!(cfg->remote = strdup(remotes[i])) ||
			     !(cfg->remote_branch = strdup(branch))))
				err = rolling_error_nomem();
		rolling_remote_config_release(&rc);
	}
	rolling_remote_followed_free(remotes, nr);
	/* No remote: the ref is still the branch's own name. */
	if (!err && !cfg->remote_branch && !(cfg->remote_branch = strdup(branch)))
		err = rolling_error_nomem();
	return err;
}

/* The short name and the remote of what the user named, when it is a branch. */
static int locate(struct rolling_push_log_config *cfg, git_repository *repo, const char *name)
{
	git_reference *ref = NULL;
	const char *refname;
	int err;

	if (git_reference_dwim(&ref, repo, name) < 0) {
		git_error_clear();
		return 0;
	}
	refname = git_reference_name(ref);
	if (!strncmp(refname, "refs/heads/", 11)) {
		if (!(cfg->branch = strdup(refname + 11)))
			err = rolling_error_nomem();
		else
			err = remote_of_branch(cfg, repo, refname, cfg->branch);
	} else {
		err = remote_of_ref(cfg, repo, refname);
		if (!err && cfg->remote_branch && !(cfg->branch = strdup(cfg->remote_branch)))
			err = rolling_error_nomem();
	}
	git_reference_free(ref);
	return err;
}

static int read_keys(struct rolling_push_log_config *cfg, git_repository *repo);

int rolling_push_log_config_read(struct rolling_push_log_config *cfg, git_repository *repo,
				 const char *name)
{
	int err;

	memset(cfg, 0, sizeof(*cfg));
	if ((err = locate(cfg, repo, name)) < 0 || !cfg->branch)
		return err;
	return read_keys(cfg, repo);
}

int rolling_push_log_config_for_remote(struct rolling_push_log_config *cfg,
				       git_repository *repo, const char *remote,
				       const char *branch)
{
	memset(cfg, 0, sizeof(*cfg));
	if (!(cfg->branch = strdup(branch)) || !(cfg->remote = strdup(remote)) ||
	    !(cfg->remote_branch = strdup(branch)))
		return rolling_error_nomem();
	return read_keys(cfg, repo);
}

static int read_keys(struct rolling_push_log_config *cfg, git_repository *repo)
{
	git_config *config = NULL;
	struct strbuf key = STRBUF_INIT;
	int err;

	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	if ((err = read_key(&cfg->log, config, cfg->branch, "pushLog")) < 0 ||
	    (err = read_key(&cfg->repo_name, config, cfg->branch, "pushLogRepo")) < 0 ||
	    (err = read_key(&cfg->ref, config, cfg->branch, "pushLogRef")) < 0 ||
	    (err = read_pushers(cfg, config)) < 0)
		goto out;
	err = git_config_get_bool(&cfg->require_latest, config,
				  rolling_config_key(&key, cfg->branch, "requireLatest"));
	if (err == GIT_ENOTFOUND)
		err = 0;
	else if (err < 0)
		err = rolling_git_error(err, "%s", key.buf);
out:
	strbuf_release(&key);
	git_config_free(config);
	return err;
}

static int underivable(const struct rolling_push_log_config *cfg, const char *option,
		       const char *key, const char *why)
{
	struct strbuf name = STRBUF_INIT;
	int err;

	if (cfg->branch)
		err = rolling_error("%s; give %s or set %s", why, option,
				    rolling_config_key(&name, cfg->branch, key));
	else
		err = rolling_error("%s; give %s", why, option);
	strbuf_release(&name);
	return err;
}

/*
 * The URL git fetches the remote from, url.<base>.insteadOf applied, as
 * git says it: git_remote_lookup() would read the remote through config
 * regexes that leak before libgit2 1.6.1 (lib/git2-compat.h).  NULL in
 * *url when git knows no such remote or no URL for it.
 */
static int remote_url(char **url, git_repository *repo, const char *remote)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	int err;

	*url = NULL;
	if (remote[0] == '-')
		return 0;
	rolling_strvec_pushl(&git.args, "--git-dir", git_repository_path(repo), "remote", "get-url",
			     remote, NULL);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	err = rolling_child_run(&git);
	if (err > 0) {
		err = 0;
	} else if (!err) {
		size_t len = strcspn(git.captured.buf, "\n");

		if (len && !(*url = strndup(git.captured.buf, len)))
			err = rolling_error_nomem();
	}
	rolling_child_release(&git);
	return err;
}

int rolling_push_log_config_defaults(struct rolling_push_log_config *cfg, git_repository *repo,
				     const char *repo_option, const char *ref_option)
{
	int err = 0;

	if (!cfg->repo_name) {
		char *url = NULL;

		if (!cfg->remote)
			return underivable(cfg, repo_option, "pushLogRepo",
					   "no remote to name the push log's repository");
		if ((err = remote_url(&url, repo, cfg->remote)) < 0)
			return err;
		cfg->repo_name = url ? rolling_push_log_repo_of_url(url) : NULL;
		free(url);
		if (!cfg->repo_name)
			return underivable(cfg, repo_option, "pushLogRepo",
					   "the remote's URL names no repository path");
	}
	if (!cfg->ref) {
		if (!cfg->remote_branch)
			return underivable(cfg, ref_option, "pushLogRef",
					   "no remote branch to name the pushed ref");
		if (!(cfg->ref = rolling_strfmt("refs/heads/%s", cfg->remote_branch)))
			return rolling_error_nomem();
	}
	return err;
}

void rolling_push_log_config_options(struct rolling_push_log_options *o,
				     const struct rolling_push_log_config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->log = cfg->log;
	o->repo_name = cfg->repo_name;
	o->ref = cfg->ref;
	o->pushers = (const char *const *)cfg->pushers;
	o->pushers_nr = cfg->pushers_nr;
	o->pushers_key = cfg->pushers_key;
	o->require_latest = cfg->require_latest;
}

void rolling_push_log_config_release(struct rolling_push_log_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->pushers_nr; i++)
		free(cfg->pushers[i]);
	free(cfg->pushers);
	free(cfg->pushers_key);
	free(cfg->branch);
	free(cfg->log);
	free(cfg->repo_name);
	free(cfg->ref);
	free(cfg->remote);
	free(cfg->remote_branch);
	memset(cfg, 0, sizeof(*cfg));
}

/* Another value of the multi-valued pusher key, as git config --add writes it. */
static int add_pusher(git_repository *repo, const char *key, const char *pusher)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	rolling_strvec_pushl(&git.args, "--git-dir", git_repository_path(repo), "config", "--add",
			     key, pusher, NULL);
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	if (status > 0)
		return rolling_error("git config --add %s failed (exit status %d)", key, status);
	return status;
}

/* Add `pusher` to rolling.<branch>.pusher unless it is listed there. */
static int follow_pusher(git_repository *repo, const char *branch, const char *pusher)
{
	struct strbuf name = STRBUF_INIT;
	git_config *config = NULL;
	git_config_iterator *iter = NULL;
	git_config_entry *entry;
	int err, listed = 0;

	rolling_config_key(&name, branch, "pusher");
	if (strbuf_oom(&name))
		return rolling_error_nomem();
	if ((err = git_repository_config_snapshot(&config, repo)) < 0 ||
	    (err = git_config_multivar_iterator_new(&iter, config, name.buf, NULL)) < 0) {
		err = rolling_git_error(err, "cannot read the configuration");
		goto out;
	}
	while (!(err = git_config_next(&entry, iter)))
		listed |= !strcmp(entry->value, pusher);
	err = err == GIT_ITEROVER ? 0 : rolling_git_error(err, "%s", name.buf);
	if (!err && !listed)
		err = add_pusher(repo, name.buf, pusher);
out:
	git_config_iterator_free(iter);
	git_config_free(config);
	strbuf_release(&name);
	return err;
}

static int set_key(git_config *local, const char *branch, const char *key, const char *value)
{
	struct strbuf name = STRBUF_INIT;
	int err = 0;

	if (value && (err = git_config_set_string(local, rolling_config_key(&name, branch, key),
						  value)) < 0)
		err = rolling_git_error(err, "cannot set %s", name.buf);
	strbuf_release(&name);
	return err;
}

int rolling_push_log_config_follow(git_repository *repo, const char *remote, const char *branch,
				   const struct rolling_push_log_follow *given)
{
	struct rolling_push_log_config check;
	git_config *config = NULL, *local = NULL;
	git_transaction *tx = NULL;
	char *log = NULL;
	int commit_tried = 0, err;

	/* What verify would derive must be derivable now: refuse the keys otherwise. */
	memset(&check, 0, sizeof(check));
	if (!(check.branch = strdup(branch)) || !(check.remote = strdup(remote)) ||
	    !(check.remote_branch = strdup(branch)) ||
	    (given->repo_name && !(check.repo_name = strdup(given->repo_name))) ||
	    (given->ref && !(check.ref = strdup(given->ref)))) {
		err = rolling_error_nomem();
		goto out;
	}
	if ((err = rolling_push_log_config_defaults(&check, repo, "--push-log-repo",
						    "--push-log-ref")) < 0)
		goto out;
	if (!(log = realpath(given->log, NULL))) {
		err = rolling_error("cannot open the push log %s: %s", given->log, strerror(errno));
		goto out;
	}
	if ((err = git_repository_config(&config, repo)) < 0 ||
	    (err = git_config_open_level(&local, config, GIT_CONFIG_LEVEL_LOCAL)) < 0 ||
	    (err = git_config_lock(&tx, local)) < 0) {
		err = rolling_git_error(err, "cannot lock the repository configuration");
		goto out;
	}
	if ((err = set_key(local, branch, "pushLog", log)) < 0 ||
	    (err = set_key(local, branch, "pushLogRepo", given->repo_name)) < 0 ||
	    (err = set_key(local, branch, "pushLogRef", given->ref)) < 0 ||
	    (err = set_key(local, branch, "requireLatest",
			   given->require_latest < 0 ? NULL :
			   given->require_latest ? "true" : "false")) < 0)
		goto out;
	commit_tried = 1;
	if ((err = git_transaction_commit(tx)) < 0) {
		err = rolling_git_error(err, "cannot write the repository configuration");
		goto out;
	}
	if (given->pusher)
		err = follow_pusher(repo, branch, given->pusher);
out:
	rolling_git_config_unlock_free(tx, local, commit_tried);
	git_config_free(config);
	free(log);
	rolling_push_log_config_release(&check);
	return err;
}
