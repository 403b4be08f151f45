#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "merge.h"
#include "error.h"

#define SUBJECT_PREFIX "Merge "

int rolling_merge_message(char **message, const char *tag_name,
			  const struct rolling_ident *ident, int signoff)
{
	int len;

	if (signoff)
		len = asprintf(message, SUBJECT_PREFIX "%s\n\nSigned-off-by: %s <%s>\n",
			       tag_name, ident->name, ident->email);
	else
		len = asprintf(message, SUBJECT_PREFIX "%s\n", tag_name);
	if (len < 0) {
		*message = NULL;
		return rolling_error("out of memory");
	}
	return 0;
}

/*
 * Write the commit, or with `dry_run` only compute the id it would have:
 * the id depends on nothing but the bytes, so a dry run can show it.
 */
static int store(git_oid *merge, git_repository *repo, const char *data, size_t size,
		 int dry_run)
{
	git_odb *odb;
	int err;

	if (dry_run)
		return git_odb_hash(merge, data, size, GIT_OBJECT_COMMIT);
	if ((err = git_repository_odb(&odb, repo)) < 0)
		return err;
	err = git_odb_write(merge, odb, data, size, GIT_OBJECT_COMMIT);
	git_odb_free(odb);
	return err;
}

/* "Name <email> 1700000000 +0100", as git writes identities in commits. */
static int format_ident(char *buf, size_t size, const struct rolling_ident *ident,
			const git_time *when)
{
	int offset = when->offset < 0 ? -when->offset : when->offset;
	char sign = when->offset < 0 || (when->offset == 0 && when->sign == '-') ? '-' : '+';
	int n = snprintf(buf, size, "%s <%s> %lld %c%02d%02d", ident->name, ident->email,
			 (long long)when->time, sign, offset / 60, offset % 60);

	return n < 0 || (size_t)n >= size ? rolling_error("identity too long") : 0;
}

int rolling_merge_create(git_oid *merge, git_repository *repo, const git_oid *tip,
			 const struct rolling_release *release,
			 const struct rolling_ident *ident, int signoff, int dry_run)
{
	char author[1024], committer[1024];
	char tree_hex[GIT_OID_HEXSZ + 1], tip_hex[GIT_OID_HEXSZ + 1], release_hex[GIT_OID_HEXSZ + 1];
	git_commit *release_commit = NULL;
	char *message = NULL, *raw = NULL;
	int len, err;

	if ((err = git_commit_lookup(&release_commit, repo, &release->commit)) < 0)
		return rolling_git_error(err, "cannot read %s", release->name);
	if ((err = format_ident(author, sizeof(author), ident,
				&git_commit_author(release_commit)->when)) < 0 ||
	    (err = format_ident(committer, sizeof(committer), ident,
				&git_commit_committer(release_commit)->when)) < 0 ||
	    (err = rolling_merge_message(&message, release->name, ident, signoff)) < 0)
		goto out;
	/*
	 * Written by hand rather than through git_commit_create() so that a
	 * dry run can chain merges that were never stored: the bytes are
	 * exactly those git writes for a commit without encoding or signature.
	 */
	len = asprintf(&raw, "tree %s\nparent %s\nparent %s\nauthor %s\ncommitter %s\n\n%s",
		       git_oid_tostr(tree_hex, sizeof(tree_hex), git_commit_tree_id(release_commit)),
		       git_oid_tostr(tip_hex, sizeof(tip_hex), tip),
		       git_oid_tostr(release_hex, sizeof(release_hex), &release->commit),
		       author, committer, message);
	if (len < 0) {
		raw = NULL;
		err = rolling_error("out of memory");
		goto out;
	}
	if ((err = store(merge, repo, raw, (size_t)len, dry_run)) < 0)
		err = rolling_git_error(err, "cannot write the merge of %s", release->name);
out:
	free(raw);
	free(message);
	git_commit_free(release_commit);
	return err;
}

/* The tag named by a subject "Merge <tag>", copied into buf; NULL if none. */
static const char *subject_tag(char *buf, size_t size, git_commit *commit)
{
	const char *summary = git_commit_summary(commit);
	size_t len;

	if (!summary || strncmp(summary, SUBJECT_PREFIX, strlen(SUBJECT_PREFIX)))
		return NULL;
	summary += strlen(SUBJECT_PREFIX);
	len = strlen(summary);
	if (!len || len >= size)
		return NULL;
	memcpy(buf, summary, len + 1);
	return buf;
}

int rolling_merge_identify(const struct rolling_release **release, git_commit *commit,
			   const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	const struct rolling_release *named;
	git_commit *merged = NULL;
	char name[256];
	int err;

	*release = NULL;
	if (git_commit_parentcount(commit) != 2 || !subject_tag(name, sizeof(name), commit))
		return 0;
	named = rolling_tags_find_name(tags, patterns, name);
	if (!named || !git_oid_equal(&named->commit, git_commit_parent_id(commit, 1)))
		return 0;
	if ((err = git_commit_parent(&merged, commit, 1)) < 0)
		return rolling_git_error(err, "cannot read %s", named->name);
	if (git_oid_equal(git_commit_tree_id(commit), git_commit_tree_id(merged)))
		*release = named;
	git_commit_free(merged);
	return *release != NULL;
}

int rolling_tip_release(const struct rolling_release **release, git_repository *repo,
			const git_oid *tip, const struct rolling_tags *tags,
			struct rolling_patterns *patterns)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit;
	int err;

	if ((*release = rolling_tags_find_commit(tags, tip)))
		return 0;
	if ((err = git_commit_lookup(&commit, repo, tip)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), tip));
	err = rolling_merge_identify(release, commit, tags, patterns);
	git_commit_free(commit);
	if (err < 0)
		return err;
	if (!err)
		return rolling_error("%s is neither a rolling merge nor a release commit;"
				     " refusing to build on it",
				     git_oid_tostr(hex, 8, tip));
	return 0;
}
