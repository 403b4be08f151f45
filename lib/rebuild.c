#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebuild.h"
#include "merge.h"
#include "error.h"

#define QUOTE_MAX 60

/*
 * The mergetag header of a commit's headers, through its continuation
 * lines, with its length; NULL when there is none.
 */
static const char *mergetag_block(const char *headers, size_t *len)
{
	const char *p = headers, *end;

	while (*p && strncmp(p, "mergetag ", 9)) {
		if (!(p = strchr(p, '\n')) || p[1] == '\n')
			return NULL;
		p++;
	}
	if (!*p)
		return NULL;
	for (end = p; (end = strchr(end, '\n')) && end[1] == ' '; end++)
		;
	*len = end ? (size_t)(end + 1 - p) : strlen(p);
	return p;
}

/* The merge embeds no tag, or another one, than the recipe does. */
static int differing_mergetag(char **out, git_commit *merge, const char *expected_raw)
{
	size_t found_len = 0, expected_len = 0;
	const char *found = mergetag_block(git_commit_raw_header(merge), &found_len);
	const char *expected = mergetag_block(expected_raw, &expected_len);

	if (!found && !expected)
		return 0;
	if (!found)
		return asprintf(out, "no mergetag header: the recipe embeds the signed release"
				" tag") < 0 ? -1 : 1;
	if (!expected)
		return asprintf(out, "a mergetag header: the recipe embeds none, the release tag"
				" being no signed tag object") < 0 ? -1 : 1;
	if (found_len != expected_len || memcmp(found, expected, found_len))
		return asprintf(out, "its mergetag is not the release's tag object") < 0 ? -1 : 1;
	return 0;
}

/* The first header that the recipe does not write (gpgsig, encoding...). */
static int extra_header(char **out, git_commit *merge)
{
	const char *line = git_commit_raw_header(merge);

	while (line && *line) {
		const char *end = strchrnul(line, '\n');
		size_t key_len = strcspn(line, " \n");

		/* Continuation lines of a multi-line header start with a space. */
		if (*line != ' ' && !rolling_merge_is_recipe_header(line, key_len))
			return asprintf(out, "extra header '%.*s'", (int)key_len, line) < 0 ? -1 : 1;
		line = *end ? end + 1 : end;
	}
	return 0;
}

static int same_time(const git_time *a, const git_time *b)
{
	return a->time == b->time && a->offset == b->offset &&
	       (a->offset || a->sign == b->sign);
}

static int differing_date(char **out, const char *what, const git_time *found,
			  const git_time *expected)
{
	char f[ROLLING_TIME_MAX], e[ROLLING_TIME_MAX];

	rolling_merge_format_time(f, sizeof(f), found);
	rolling_merge_format_time(e, sizeof(e), expected);
	return asprintf(out, "%s date %s is not the release commit's %s", what, f, e) < 0 ? -1 : 1;
}

/* A message quoted on one line, shortened: enough to recognise it. */
static int quoted_message(char **out, const char *message)
{
	char quoted[2 * QUOTE_MAX + 8];
	size_t n = 0, i;

	for (i = 0; message[i] && n < 2 * QUOTE_MAX; i++) {
		if (message[i] == '\n') {
			quoted[n++] = '\\';
			quoted[n++] = 'n';
		} else {
			quoted[n++] = message[i];
		}
	}
	quoted[n] = '\0';
	return asprintf(out, "message \"%s%s\" is not the recipe's", quoted,
			message[i] ? "..." : "") < 0 ? -1 : 1;
}

/*
 * Say which part of the merge differs from the recipe's.  Returns 1 with
 * *out set, or -1 when out of memory.
 */
static int describe_difference(char **out, git_commit *merge, git_commit *release,
			       const char *expected_raw, const char *expected_message)
{
	const git_signature *author = git_commit_author(merge);
	const git_signature *committer = git_commit_committer(merge);
	int err;

	if ((err = extra_header(out, merge)) != 0 ||
	    (err = differing_mergetag(out, merge, expected_raw)) != 0)
		return err;
	if (strcmp(author->name, committer->name) || strcmp(author->email, committer->email))
		return asprintf(out, "author '%s <%s>' is not the committer '%s <%s>'",
				author->name, author->email, committer->name,
				committer->email) < 0 ? -1 : 1;
	if (!same_time(&author->when, &git_commit_author(release)->when))
		return differing_date(out, "author", &author->when,
				      &git_commit_author(release)->when);
	if (!same_time(&committer->when, &git_commit_committer(release)->when))
		return differing_date(out, "committer", &committer->when,
				      &git_commit_committer(release)->when);
	if (strcmp(git_commit_message_raw(merge), expected_message))
		return quoted_message(out, git_commit_message_raw(merge));
	return asprintf(out, "its bytes are not the recipe's") < 0 ? -1 : 1;
}

int rolling_merge_rebuild(git_oid *rebuilt, char **difference, git_repository *repo,
			  git_commit *merge, const struct rolling_release *release,
			  const struct rolling_tag_bytes *embedded)
{
	const git_signature *committer = git_commit_committer(merge);
	int signoff = rolling_merge_has_signoff(git_commit_message_raw(merge));
	struct rolling_ident ident = { NULL, NULL };
	git_commit *release_commit = NULL;
	char *expected_message = NULL, *raw = NULL;
	size_t len;
	int err;

	*difference = NULL;
	if (!(ident.name = strdup(committer->name)) || !(ident.email = strdup(committer->email))) {
		err = rolling_error("out of memory");
		goto out;
	}
	if ((err = rolling_merge_bytes(&raw, &len, repo, git_commit_parent_id(merge, 0), release,
				       &ident, signoff, embedded)) < 0)
		goto out;
	if ((err = git_odb_hash(rebuilt, raw, len, GIT_OBJECT_COMMIT)) < 0) {
		err = rolling_git_error(err, "cannot hash the merge of %s", release->name);
		goto out;
	}
	if (git_oid_equal(rebuilt, git_commit_id(merge)))
		goto out;
	if ((err = git_commit_lookup(&release_commit, repo, &release->commit)) < 0) {
		err = rolling_git_error(err, "cannot read %s", release->name);
		goto out;
	}
	if ((err = rolling_merge_message(&expected_message, release->name, &ident, signoff)) < 0)
		goto out;
	if ((err = describe_difference(difference, merge, release_commit, raw,
				       expected_message)) < 0) {
		*difference = NULL;
		err = rolling_error("out of memory");
	}
out:
	free(raw);
	free(expected_message);
	git_commit_free(release_commit);
	rolling_ident_free(&ident);
	return err;
}
