#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "error.h"
#include "revision.h"

int rolling_branch_prepare(struct rolling_branch *b, git_repository *repo,
			   struct rolling_config *config)
{
	struct strbuf release_key = STRBUF_INIT, mainline_key = STRBUF_INIT;
	int err;

	memset(b, 0, sizeof(*b));
	b->config = *config;
	memset(config, 0, sizeof(*config));
	rolling_config_key(&release_key, b->config.branch, "releasePattern");
	rolling_config_key(&mainline_key, b->config.branch, "mainlinePattern");
	err = rolling_patterns_compile(&b->patterns, b->config.release_pattern, release_key.buf,
				       b->config.mainline_pattern, mainline_key.buf);
	if (err < 0 ||
	    (err = rolling_tags_load(&b->tags, repo, &b->patterns)) < 0 ||
	    (err = rolling_tags_check_unambiguous(&b->tags, release_key.buf,
						  mainline_key.buf)) < 0 ||
	    (err = rolling_policy_parse(&b->policy, &b->config, b->tags.forms)) < 0)
		rolling_branch_release(b);
	strbuf_release(&release_key);
	strbuf_release(&mainline_key);
	return err;
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

int rolling_branch_refname(struct strbuf *refname, const char *name)
{
	/*
	 * What git check-ref-format --branch refuses beyond the rules of
	 * every ref name, which init asks git: a hand-written
	 * rolling.HEAD.policy must not make refs/heads/HEAD.
	 */
	if (!strcmp(name, "HEAD") || name[0] == '-')
		return rolling_error("'%s' is not a valid branch name", name);
	strbuf_addf(refname, "refs/heads/%s", name);
	if (strbuf_oom(refname))
		return rolling_error_nomem();
	if (refname->len >= ROLLING_LIBGIT2_REFNAME_MAX)
		return rolling_error("branch name too long (%zu bytes): libgit2 takes ref names"
				     " of at most %d bytes, refs/heads/ included", strlen(name),
				     ROLLING_LIBGIT2_REFNAME_MAX - 1);
	return 0;
}

int rolling_branch_tip(git_oid *tip, git_repository *repo, const char *name)
{
	struct strbuf refname = STRBUF_INIT;
	int err;

	if ((err = rolling_branch_refname(&refname, name)) < 0)
		goto out;
	if ((err = git_reference_name_to_id(tip, repo, refname.buf)) == GIT_ENOTFOUND)
		err = rolling_error_code(ROLLING_ENOTFOUND, "branch '%s' does not exist", name);
	else if (err < 0)
		err = rolling_git_error(err, "cannot read %s", refname.buf);
out:
	strbuf_release(&refname);
	return err;
}

int rolling_branch_ident(struct rolling_ident *ident, git_repository *repo,
			 const struct rolling_branch *b)
{
	struct strbuf key = STRBUF_INIT;
	int err = rolling_ident_for(ident, repo, b->config.ident,
				    rolling_config_key(&key, b->config.branch, "ident"));

	strbuf_release(&key);
	return err;
}

void rolling_branch_release(struct rolling_branch *b)
{
	rolling_tags_release(&b->tags);
	rolling_policy_release(&b->policy);
	rolling_patterns_release(&b->patterns);
	rolling_config_release(&b->config);
}


static int unknown_preset(const char *name)
{
	struct strbuf known = STRBUF_INIT;
	int err;

	rolling_preset_names(&known);
	err = strbuf_oom(&known) ? rolling_error_nomem() :
	      rolling_error("unknown preset '%s' (known: %s)", name, known.buf);
	strbuf_release(&known);
	return err;
}

int rolling_patterns_from_options(const char **release_re, const char **mainline_re,
				  const struct rolling_scheme_options *o)
{
	const struct rolling_preset *p = NULL;

	*release_re = *mainline_re = NULL;
	if (o->preset && !(p = rolling_preset_find(o->preset)))
		return unknown_preset(o->preset);
	if (!p && !o->release_pattern && !o->mainline_pattern)
		return 0;
	*release_re = o->release_pattern ? o->release_pattern : p ? p->release_pattern : NULL;
	*mainline_re = o->mainline_pattern ? o->mainline_pattern : p ? p->mainline_pattern : NULL;
	if (!*release_re || !*mainline_re)
		return rolling_error("--%s-pattern is needed too (or --preset)",
				     *release_re ? "mainline" : "release");
	return 0;
}

int rolling_patterns_for_branch(const char **release_re, const char **mainline_re,
				const struct rolling_scheme_options *o, const char *branch)
{
	int err = rolling_patterns_from_options(release_re, mainline_re, o);

	if (!err && *release_re && !branch)
		return rolling_error("--preset and the patterns describe a branch given with"
				     " --branch");
	return err;
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
		rolling_config_release(&config);
		return rolling_error_nomem();
	}
	if ((err = rolling_resolve_commit(tip, repo, name)) < 0) {
		rolling_config_release(&config);
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
		rolling_branch_release(b);
	return err;
}

int rolling_branch_open_any(struct rolling_branch *b, git_oid *tip,
			    struct rolling_pattern_source *from, git_repository *repo,
			    const char *name, const struct rolling_scheme_options *scheme)
{
	const char *release_re, *mainline_re;
	struct rolling_config config;
	int err;

	memset(b, 0, sizeof(*b));
	from->preset = NULL;
	if ((err = rolling_patterns_from_options(&release_re, &mainline_re, scheme)) < 0)
		return err;
	if (release_re) {
		from->source = scheme->release_pattern || scheme->mainline_pattern ?
			       "options" : "preset";
		/* A pattern given overrides only its half of the preset. */
		if (!scheme->release_pattern || !scheme->mainline_pattern)
			from->preset = scheme->preset;
	} else if (!(err = rolling_config_read(&config, repo, name))) {
		rolling_config_release(&config);
		from->source = "config";
	} else if (err == ROLLING_ENOTFOUND) {
		const struct rolling_preset *p = rolling_preset_find(ROLLING_DEFAULT_PRESET);

		release_re = p->release_pattern;
		mainline_re = p->mainline_pattern;
		from->source = "default";
		from->preset = ROLLING_DEFAULT_PRESET;
	} else {
		return err;
	}
	return rolling_branch_open(b, tip, repo, name, release_re, mainline_re);
}
