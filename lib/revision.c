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
 * git picks the first of several refs a short name can mean and only
 * warns ("refname is ambiguous"); a command that proves or reports
 * something must not pick for the user, so that is an error that lists
 * the full names.
 */
static int check_ambiguous(git_repository *repo, const char *rev)
{
	struct strbuf refname = STRBUF_INIT, list = STRBUF_INIT;
	size_t len = ref_part_len(rev), i, found = 0;
	int err = 0;

	for (i = 0; len && i < sizeof(rev_parse_rules) / sizeof(rev_parse_rules[0]); i++) {
		strbuf_setlen(&refname, 0);
		strbuf_addstr(&refname, rev_parse_rules[i].prefix);
		strbuf_add(&refname, rev, len);
		strbuf_addstr(&refname, rev_parse_rules[i].suffix);
		if (strbuf_oom(&refname) || !ref_resolves(repo, refname.buf))
			continue;
		strbuf_addf(&list, "%s%s", found++ ? ", " : "", refname.buf);
	}
	if (strbuf_oom(&refname) || strbuf_oom(&list))
		err = rolling_error_nomem();
	else if (found > 1)
		err = rolling_error("refname '%.*s' is ambiguous: %s; name one in full", (int)len,
				    rev, list.buf);
	strbuf_release(&refname);
	strbuf_release(&list);
	return err;
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
