#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "alloc.h"
#include "error.h"
#include "git2-compat.h"

const char *rolling_config_key(struct strbuf *name, const char *branch, const char *key)
{
	strbuf_reset(name);
	strbuf_addf(name, "rolling.%s.%s", branch, key);
	/* Not a valid key: a lookup fails rather than read another one. */
	return strbuf_oom(name) ? "rolling.(out of memory)" : name->buf;
}

int rolling_config_get_string(char **value, git_config *config, const char *key)
{
	git_buf buf = GIT_BUF_INIT;
	int err = git_config_get_string_buf(&buf, config, key);

	*value = NULL;
	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0)
		return rolling_git_error(err, "%s", key);
	*value = strdup(buf.ptr);
	git_buf_dispose(&buf);
	return *value ? 0 : rolling_error_nomem();
}

/* Read rolling.<branch>.<key>: *out stays NULL when it is not set. */
static int read_string(char **out, git_config *config, const char *branch, const char *key)
{
	struct strbuf name = STRBUF_INIT;
	int err = rolling_config_get_string(out, config, rolling_config_key(&name, branch, key));

	strbuf_release(&name);
	return err;
}

static int require(const char *value, const char *branch, const char *key)
{
	struct strbuf name = STRBUF_INIT;
	int err;

	if (value)
		return 0;
	err = rolling_error("%s is not set", rolling_config_key(&name, branch, key));
	strbuf_release(&name);
	return err;
}

static int read_signoff(int *signoff, git_config *config, const char *branch)
{
	struct strbuf name = STRBUF_INIT;
	int err;

	err = git_config_get_bool(signoff, config, rolling_config_key(&name, branch, "signoff"));
	if (err == GIT_ENOTFOUND) {
		*signoff = 1;
		err = 0;
	} else if (err < 0) {
		err = rolling_git_error(err, "%s", name.buf);
	}
	strbuf_release(&name);
	return err;
}

int rolling_config_read(struct rolling_config *cfg, git_repository *repo, const char *branch)
{
	git_config *config = NULL;
	int err;

	memset(cfg, 0, sizeof(*cfg));
	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	if (!(cfg->branch = strdup(branch))) {
		err = rolling_error_nomem();
		goto out;
	}
	if ((err = read_string(&cfg->policy, config, branch, "policy")) < 0 ||
	    (err = read_string(&cfg->release_pattern, config, branch, "releasePattern")) < 0 ||
	    (err = read_string(&cfg->mainline_pattern, config, branch, "mainlinePattern")) < 0 ||
	    (err = read_string(&cfg->series, config, branch, "series")) < 0 ||
	    (err = read_string(&cfg->pin, config, branch, "pin")) < 0 ||
	    (err = read_string(&cfg->ident, config, branch, "ident")) < 0 ||
	    (err = read_string(&cfg->steps, config, branch, "steps")) < 0 ||
	    (err = read_string(&cfg->switch_rule, config, branch, "switch")) < 0 ||
	    (err = read_signoff(&cfg->signoff, config, branch)) < 0)
		goto out;
	if (!cfg->policy && !cfg->release_pattern && !cfg->mainline_pattern) {
		err = rolling_error_code(ROLLING_ENOTFOUND,
					 "'%s' is not a rolling branch (no rolling.%s.* configuration);"
					 " see git rolling init", branch, branch);
		goto out;
	}
	if ((err = require(cfg->policy, branch, "policy")) < 0 ||
	    (err = require(cfg->release_pattern, branch, "releasePattern")) < 0 ||
	    (err = require(cfg->mainline_pattern, branch, "mainlinePattern")) < 0)
		goto out;
out:
	git_config_free(config);
	if (err < 0)
		rolling_config_release(cfg);
	return err;
}

static int set_string(git_config *config, const char *branch, const char *key,
		      const char *value)
{
	struct strbuf name = STRBUF_INIT;
	int err;

	if (!value)
		return 0;
	err = git_config_set_string(config, rolling_config_key(&name, branch, key), value);
	if (err < 0)
		err = rolling_git_error(err, "cannot set %s", name.buf);
	strbuf_release(&name);
	return err;
}

/*
 * Unset a key the new section does not have.  Keys that get a new value
 * are only set: libgit2 1.5 loses a key that is deleted and set again
 * within one locked transaction.
 */
static int unset_if_absent(git_config *config, const char *branch, const char *key,
			   const char *value)
{
	struct strbuf name = STRBUF_INIT;
	int err;

	if (value)
		return 0;
	err = git_config_delete_entry(config, rolling_config_key(&name, branch, key));
	if (err == GIT_ENOTFOUND)
		err = 0;
	else if (err < 0)
		err = rolling_git_error(err, "cannot unset %s", name.buf);
	strbuf_release(&name);
	return err;
}

int rolling_config_stage(struct rolling_config_tx *tx, git_repository *repo,
			 const struct rolling_config *cfg)
{
	git_config *config = NULL;
	struct strbuf signoff_key = STRBUF_INIT;
	int err;

	memset(tx, 0, sizeof(*tx));
	/* The transaction writes through `local`: it lives until commit or abort. */
	if ((err = git_repository_config(&config, repo)) < 0 ||
	    (err = git_config_open_level(&tx->local, config, GIT_CONFIG_LEVEL_LOCAL)) < 0 ||
	    (err = git_config_lock(&tx->tx, tx->local)) < 0) {
		err = rolling_git_error(err, "cannot lock the repository configuration");
		goto out;
	}
	if ((err = unset_if_absent(tx->local, cfg->branch, "series", cfg->series)) < 0 ||
	    (err = unset_if_absent(tx->local, cfg->branch, "pin", cfg->pin)) < 0 ||
	    (err = unset_if_absent(tx->local, cfg->branch, "ident", cfg->ident)) < 0 ||
	    (err = unset_if_absent(tx->local, cfg->branch, "steps", cfg->steps)) < 0 ||
	    (err = unset_if_absent(tx->local, cfg->branch, "switch", cfg->switch_rule)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "policy", cfg->policy)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "series", cfg->series)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "pin", cfg->pin)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "releasePattern", cfg->release_pattern)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "mainlinePattern", cfg->mainline_pattern)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "ident", cfg->ident)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "steps", cfg->steps)) < 0 ||
	    (err = set_string(tx->local, cfg->branch, "switch", cfg->switch_rule)) < 0)
		goto out;
	if ((err = git_config_set_bool(tx->local, rolling_config_key(&signoff_key, cfg->branch,
									"signoff"),
				       cfg->signoff)) < 0)
		err = rolling_git_error(err, "cannot set %s", signoff_key.buf);
out:
	if (err < 0)
		rolling_config_abort(tx);
	strbuf_release(&signoff_key);
	git_config_free(config);
	return err;
}

/*
 * Who frees `local` after an uncommitted transaction changed in libgit2
 * 1.8: rolling_git_config_unlock_free() knows.
 */
int rolling_config_commit(struct rolling_config_tx *tx)
{
	int err = git_transaction_commit(tx->tx);

	if (err < 0)
		err = rolling_git_error(err, "cannot write the repository configuration");
	rolling_git_config_unlock_free(tx->tx, tx->local, 1);
	memset(tx, 0, sizeof(*tx));
	return err;
}

void rolling_config_abort(struct rolling_config_tx *tx)
{
	rolling_git_config_unlock_free(tx->tx, tx->local, 0);
	memset(tx, 0, sizeof(*tx));
}

/* Config names come lower-cased in section and key, subsection as written. */
static int is_policy_key(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, "rolling.", strlen("rolling.")) &&
	       len > strlen("rolling..policy") &&
	       !strcmp(name + len - strlen(".policy"), ".policy");
}

/* "rolling.<branch>.policy" -> "<branch>"; branch names may hold dots. */
static char *branch_of_key(const char *name)
{
	const char *start = name + strlen("rolling.");
	const char *end = strrchr(name, '.');

	if (end <= start)
		return NULL;
	return strndup(start, (size_t)(end - start));
}

/* <branch> of "rolling.<branch>.policy", else NULL. */
static char *branch_of_policy_key(const char *name)
{
	return is_policy_key(name) ? branch_of_key(name) : NULL;
}

static int has_name(char **names, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

int rolling_config_names(char ***names, size_t *nr, git_repository *repo,
			 char *(*name_of)(const char *key))
{
	git_config *config = NULL;
	git_config_iterator *iter = NULL;
	git_config_entry *entry;
	size_t alloc = 0;
	int err;

	*names = NULL;
	*nr = 0;
	if ((err = git_repository_config_snapshot(&config, repo)) < 0 ||
	    (err = git_config_iterator_new(&iter, config)) < 0) {
		err = rolling_git_error(err, "cannot read the configuration");
		goto out;
	}
	/*
	 * Filtered here rather than with git_config_iterator_glob_new(),
	 * which leaks before libgit2 1.6.1 (git2-compat.h).
	 */
	while (!(err = git_config_next(&entry, iter))) {
		char *name = name_of(entry->name);

		if (!name || has_name(*names, *nr, name)) {
			free(name);
			continue;
		}
		if ((err = ALLOC_GROW(*names, *nr + 1, alloc)) < 0) {
			free(name);
			goto out;
		}
		(*names)[(*nr)++] = name;
	}
	err = err == GIT_ITEROVER ? 0 : rolling_git_error(err, "cannot read the configuration");
out:
	git_config_iterator_free(iter);
	git_config_free(config);
	if (err < 0) {
		rolling_config_free_branches(*names, *nr);
		*names = NULL;
		*nr = 0;
	}
	return err;
}

int rolling_config_branches(char ***branches, size_t *nr, git_repository *repo)
{
	return rolling_config_names(branches, nr, repo, branch_of_policy_key);
}

int rolling_config_branches_or_named(char ***branches, size_t *nr, git_repository *repo,
				     const char *const *named, size_t named_nr)
{
	size_t i;
	int err;

	if (!named_nr) {
		if ((err = rolling_config_branches(branches, nr, repo)) < 0)
			return err;
		if (!*nr)
			return rolling_error_code(ROLLING_ENOTFOUND,
						  "no rolling branches are configured");
		return 0;
	}
	*nr = 0;
	if (!(*branches = calloc(named_nr, sizeof(**branches))))
		return rolling_error_nomem();
	for (i = 0; i < named_nr; i++) {
		if (!((*branches)[i] = strdup(named[i]))) {
			rolling_config_free_branches(*branches, i);
			*branches = NULL;
			return rolling_error_nomem();
		}
	}
	*nr = named_nr;
	return 0;
}

void rolling_config_release(struct rolling_config *cfg)
{
	free(cfg->branch);
	free(cfg->policy);
	free(cfg->series);
	free(cfg->pin);
	free(cfg->release_pattern);
	free(cfg->mainline_pattern);
	free(cfg->ident);
	free(cfg->steps);
	free(cfg->switch_rule);
	memset(cfg, 0, sizeof(*cfg));
}

void rolling_config_free_branches(char **branches, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(branches[i]);
	free(branches);
}
