#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "revision.h"
#include "error.h"
#include "git2-compat.h"
#include "strbuf.h"

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
 * Add to `list` ("a, b") each full ref name that name[0..len) resolves
 * to by git's rules, but for the rule whose prefix is `except`; count
 * them in *found.
 */
static int list_meanings(struct strbuf *list, size_t *found, git_repository *repo,
			 const char *name, size_t len, const char *except)
{
	struct strbuf refname = STRBUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; len && i < sizeof(rev_parse_rules) / sizeof(rev_parse_rules[0]); i++) {
		if (except && !strcmp(rev_parse_rules[i].prefix, except) &&
		    !*rev_parse_rules[i].suffix)
			continue;
		strbuf_setlen(&refname, 0);
		strbuf_addstr(&refname, rev_parse_rules[i].prefix);
		strbuf_add(&refname, name, len);
		strbuf_addstr(&refname, rev_parse_rules[i].suffix);
		if (strbuf_oom(&refname) || !ref_resolves(repo, refname.buf))
			continue;
		strbuf_addf(list, "%s%s", (*found)++ ? ", " : "", refname.buf);
	}
	if (strbuf_oom(&refname) || strbuf_oom(list))
		err = rolling_error_nomem();
	strbuf_release(&refname);
	return err;
}

/*
 * git picks the first of several refs a short name can mean and only
 * warns ("refname is ambiguous"); a command that proves or reports
 * something must not pick for the user, so that is an error that lists
 * the full names.
 */
static int check_ambiguous(git_repository *repo, const char *rev)
{
	struct strbuf list = STRBUF_INIT;
	size_t len = ref_part_len(rev), found = 0;
	int err = list_meanings(&list, &found, repo, rev, len, NULL);

	if (!err && found > 1)
		err = rolling_error("refname '%.*s' is ambiguous: %s; name one in full", (int)len,
				    rev, list.buf);
	strbuf_release(&list);
	return err;
}

int rolling_ref_other_meanings(struct strbuf *list, size_t *found, git_repository *repo,
			       const char *name, const char *except)
{
	*found = 0;
	return list_meanings(list, found, repo, name, strlen(name), except);
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
