#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch-open.h"
#include "error.h"
#include "preset.h"

/* How git expands a short ref name, in its order (refs.c, ref_rev_parse_rules). */
static const struct {
	const char *prefix, *suffix;
} rev_parse_rules[] = {
	{ "", "" },
	{ "refs/", "" },
	{ "refs/tags/", "" },
	{ "refs/heads/", "" },
	{ "refs/remotes/", "" },
	{ "refs/remotes/", "/HEAD" },
};

/* The ref name part of a revision: what comes before "~", "^", ":" or "@{". */
static size_t ref_part_len(const char *rev)
{
	size_t len = strcspn(rev, "~^:");
	const char *at = strstr(rev, "@{");

	return at && (size_t)(at - rev) < len ? (size_t)(at - rev) : len;
}

/* Does the ref exist and lead somewhere, as git's dwim_ref() counts it? */
static int ref_resolves(git_repository *repo, const char *refname)
{
	git_reference *ref, *resolved;
	int found = 0;

	if (!git_reference_lookup(&ref, repo, refname)) {
		if (!git_reference_resolve(&resolved, ref)) {
			found = 1;
			git_reference_free(resolved);
		}
		git_reference_free(ref);
	}
	git_error_clear();
	return found;
}

/*
 * git picks the first of several refs a short name can mean and only
 * warns ("refname is ambiguous"); a command that proves or reports
 * something must not pick for the user, so that is an error that lists
 * the full names.
 */
static int check_ambiguous(git_repository *repo, const char *rev)
{
	size_t len = ref_part_len(rev), i, found = 0, listed = 0;
	char refname[1024], list[4096] = "";

	if (!len || len > 900)
		return 0;
	for (i = 0; i < sizeof(rev_parse_rules) / sizeof(rev_parse_rules[0]); i++) {
		snprintf(refname, sizeof(refname), "%s%.*s%s", rev_parse_rules[i].prefix, (int)len,
			 rev, rev_parse_rules[i].suffix);
		if (!ref_resolves(repo, refname))
			continue;
		found++;
		listed += (size_t)snprintf(list + listed, sizeof(list) - listed, "%s%s",
					   found > 1 ? ", " : "", refname);
		if (listed >= sizeof(list))
			listed = sizeof(list) - 1;
	}
	if (found < 2)
		return 0;
	return rolling_error("refname '%.*s' is ambiguous: %s; name one in full", (int)len, rev,
			     list);
}

int rolling_resolve_commit(git_oid *commit, git_repository *repo, const char *rev)
{
	git_object *object = NULL, *peeled = NULL;
	int err;

	if ((err = check_ambiguous(repo, rev)) < 0)
		return err;
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
		rolling_config_free(&config);
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
