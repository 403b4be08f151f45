#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebuild.h"
#include "merge.h"
#include "strbuf.h"
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
static int differing_mergetag(struct strbuf *out, git_commit *merge, const char *expected_raw)
{
	size_t found_len = 0, expected_len = 0;
	const char *found = mergetag_block(git_commit_raw_header(merge), &found_len);
	const char *expected = mergetag_block(expected_raw, &expected_len);

	if (!found && !expected)
		return 0;
	if (!found)
		strbuf_addstr(out, "no mergetag header: the recipe embeds the signed release tag");
	else if (!expected)
		strbuf_addstr(out, "a mergetag header: the recipe embeds none, the release tag"
			      " being no signed tag object");
	else if (found_len != expected_len || memcmp(found, expected, found_len))
		strbuf_addstr(out, "its mergetag is not the release's tag object");
	else
		return 0;
	return 1;
}

/* The first header that the recipe does not write (gpgsig, encoding...). */
static int extra_header(struct strbuf *out, git_commit *merge)
{
	const char *line = git_commit_raw_header(merge);

	while (line && *line) {
		const char *end = strchrnul(line, '\n');
		size_t key_len = strcspn(line, " \n");

		/* Continuation lines of a multi-line header start with a space. */
		if (*line != ' ' && !rolling_merge_is_recipe_header(line, key_len)) {
			strbuf_addf(out, "extra header '%.*s'", (int)key_len, line);
			return 1;
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

/* Does the merge carry the release commit's date as git writes it (-0000 as +0000)? */
static int same_time(const git_time *merge, const git_time *release)
{
	return merge->time == release->time && merge->offset == release->offset &&
	       (merge->offset || merge->sign != '-');
}

static void differing_date(struct strbuf *out, const char *what, const git_time *found,
			   const git_time *expected)
{
	strbuf_addf(out, "%s date ", what);
	rolling_merge_add_time(out, found);
	strbuf_addstr(out, " is not the release commit's ");
	rolling_merge_add_written_time(out, expected);
}

/* A message quoted on one line, shortened: enough to recognise it. */
static void quoted_message(struct strbuf *out, const char *message)
{
	size_t start, i;

	strbuf_addstr(out, "message \"");
	start = out->len;
	for (i = 0; message[i] && out->len - start < 2 * QUOTE_MAX; i++) {
		if (message[i] == '\n')
			strbuf_addstr(out, "\\n");
		else
			strbuf_addch(out, message[i]);
		if (strbuf_oom(out))
			return;
	}
	strbuf_addf(out, "%s\" is not the recipe's", message[i] ? "..." : "");
}

/* Say which part of the merge differs from the recipe's. */
static void describe_difference(struct strbuf *out, git_commit *merge, git_commit *release,
				const char *expected_raw, const char *expected_message)
{
	const git_signature *author = git_commit_author(merge);
	const git_signature *committer = git_commit_committer(merge);

	if (extra_header(out, merge) || differing_mergetag(out, merge, expected_raw))
		return;
	if (strcmp(author->name, committer->name) || strcmp(author->email, committer->email))
		strbuf_addf(out, "author '%s <%s>' is not the committer '%s <%s>'",
			    author->name, author->email, committer->name, committer->email);
	else if (!same_time(&author->when, &git_commit_author(release)->when))
		differing_date(out, "author", &author->when, &git_commit_author(release)->when);
	else if (!same_time(&committer->when, &git_commit_committer(release)->when))
		differing_date(out, "committer", &committer->when,
			       &git_commit_committer(release)->when);
	else if (strcmp(git_commit_message_raw(merge), expected_message))
		quoted_message(out, git_commit_message_raw(merge));
	else
		strbuf_addstr(out, "its bytes are not the recipe's");
}

int rolling_merge_rebuild(git_oid *rebuilt, char **difference, git_repository *repo,
			  git_commit *merge, const struct rolling_release *release,
			  const struct rolling_tag_bytes *embedded)
{
	const git_signature *committer = git_commit_committer(merge);
	int signoff = rolling_merge_has_signoff(git_commit_message_raw(merge));
	struct rolling_ident ident = { NULL, NULL };
	struct strbuf expected_message = STRBUF_INIT, described = STRBUF_INIT;
	git_commit *release_commit = NULL;
	char *raw = NULL;
	size_t len;
	int err;

	*difference = NULL;
	if (!(ident.name = strdup(committer->name)) || !(ident.email = strdup(committer->email))) {
		err = rolling_error_nomem();
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
	rolling_merge_add_message(&expected_message, release->name, &ident, signoff);
	describe_difference(&described, merge, release_commit, raw, expected_message.buf);
	if (strbuf_oom(&expected_message) || !(*difference = strbuf_detach(&described)))
		err = rolling_error_nomem();
	else
		err = 1;
out:
	free(raw);
	strbuf_release(&expected_message);
	strbuf_release(&described);
	git_commit_free(release_commit);
	rolling_ident_release(&ident);
	return err;
}
