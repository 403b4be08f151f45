#include <ctype.h>
#include <string.h>
#include "backport.h"
#include "error.h"
#include "alloc.h"

#define MIN_ABBREV 12

/* Backports are made after their upstream commit; allow for clock skew. */
#define CLOCK_SLACK (2 * 86400)

/* Skip blanks backwards from `end`; then does `word` end there, as a word? */
static const char *word_before(const char *start, const char *end, const char *word)
{
	size_t len = strlen(word);

	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if ((size_t)(end - start) < len || strncasecmp(end - len, word, len))
		return NULL;
	end -= len;
	if (end > start && isalnum((unsigned char)end[-1]))
		return NULL;
	return end;
}

/* Skip blanks forwards from `p`; then does `word` start there, as a word? */
static int word_after(const char *p, const char *word)
{
	size_t len = strlen(word);

	while (*p == ' ' || *p == '\t')
		p++;
	return !strncasecmp(p, word, len) && !isalnum((unsigned char)p[len]);
}

/* The number of hex digits at `p`, when it could name a commit (MIN_ABBREV or more). */
static size_t hex_run(const char *p)
{
	size_t len = 0;

	while (isxdigit((unsigned char)p[len]))
		len++;
	return len < MIN_ABBREV || len > GIT_OID_HEXSZ ? 0 : len;
}

/*
 * The next commit id that `message` names in one of the ways backport.h
 * lists, from *pos on: its hex digits (*len of them), or NULL.
 */
static const char *next_named(const char *message, const char **pos, size_t *len)
{
	const char *p;

	for (p = *pos; (p = strcasestr(p, "commit"));) {
		const char *after = p + strlen("commit"), *digits = after;

		if (p > message && isalnum((unsigned char)p[-1])) {
			p = after;
			continue;
		}
		while (*digits == ' ' || *digits == '\t')
			digits++;
		if (digits == after || !(*len = hex_run(digits))) {
			p = after;
			continue;
		}
		*pos = digits + *len;
		if (word_after(digits + *len, "upstream") ||
		    word_before(message, p, "upstream") ||
		    word_before(message, p, "cherry picked from"))
			return digits;
		p = digits + *len;
	}
	return NULL;
}

/* Does `message` name `upstream` in one of the ways backport.h lists? */
static int names_upstream(const char *message, const git_oid *upstream)
{
	char hex[GIT_OID_HEXSZ + 1];
	const char *pos = message, *digits;
	size_t len;

	git_oid_tostr(hex, sizeof(hex), upstream);
	while ((digits = next_named(message, &pos, &len)))
		if (!strncasecmp(digits, hex, len))
			return 1;
	return 0;
}

/* What a walk looks for. */
struct search {
	git_repository *repo;
	const struct rolling_mainline *mainline;
	const git_oid *upstream;            /* a commit naming it (a backport) */
	const git_oid *exact;               /* else this very commit */
	struct rolling_fix *fix;            /* else any copy of the fix */
	git_time_t oldest;
	struct rolling_oidmap seen;
	size_t read, limit;
};

/* --- a fix and its copies ------------------------------------------------ */

static int add_id(struct rolling_fix *f, const git_oid *id)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (git_oid_equal(&f->ids[i], id))
			return 0;
	if (ALLOC_GROW(f->ids, f->nr + 1, f->alloc) < 0)
		return ROLLING_ERROR;
	git_oid_cpy(&f->ids[f->nr++], id);
	return 0;
}

/*
 * The commits `commit`'s message names as its upstream: the ids it
 * gives that are commits of this repository (an abbreviated one that is
 * not, or is ambiguous, is no help and is skipped).
 */
static int add_named(struct rolling_fix *f, git_repository *repo, git_commit *commit)
{
	const char *message = git_commit_message(commit), *pos = message, *digits;
	size_t len;
	int err = 0;

	while (!err && (digits = next_named(message, &pos, &len))) {
		git_commit *named;
		git_oid prefix;

		if (git_oid_fromstrn(&prefix, digits, len) < 0 ||
		    git_commit_lookup_prefix(&named, repo, &prefix, len) < 0)
			continue;
		err = add_id(f, git_commit_id(named));
		if (!err && git_commit_author(named)->when.time < f->oldest)
			f->oldest = git_commit_author(named)->when.time;
		git_commit_free(named);
	}
	return err;
}

/*
 * The patch-id of a commit with one parent: its diff, numbers and
 * white space aside, as git patch-id sees it.  Returns 1 with *out set,
 * 0 for a root commit or a merge (they have none), or an error.
 */
static int patch_id(git_oid *out, git_repository *repo, git_commit *commit)
{
	git_commit *parent = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_diff *diff = NULL;
	int err;

	if (git_commit_parentcount(commit) != 1)
		return 0;
	if ((err = git_commit_parent(&parent, commit, 0)) < 0 ||
	    (err = git_commit_tree(&old_tree, parent)) < 0 ||
	    (err = git_commit_tree(&new_tree, commit)) < 0 ||
	    (err = git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, NULL)) < 0 ||
	    (err = git_diff_patchid(out, diff, NULL)) < 0)
		err = rolling_git_error(err, "cannot diff %s", git_commit_summary(commit));
	git_diff_free(diff);
	git_tree_free(new_tree);
	git_tree_free(old_tree);
	git_commit_free(parent);
	return err < 0 ? err : 1;
}

int rolling_fix_init(struct rolling_fix *f, git_repository *repo, const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *c;
	int err;

	memset(f, 0, sizeof(*f));
	if ((err = git_commit_lookup(&c, repo, commit)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), commit));
	/* A copy keeps its author date: nothing older than the fix's can be one. */
	f->oldest = git_commit_author(c)->when.time;
	if ((err = add_id(f, commit)) < 0 || (err = add_named(f, repo, c)) < 0)
		goto out;
	if (!(f->subject = strdup(git_commit_summary(c) ? git_commit_summary(c) : ""))) {
		err = rolling_error_nomem();
		goto out;
	}
	if ((err = patch_id(&f->patch_id, repo, c)) > 0)
		f->has_patch_id = 1;
	err = err < 0 ? err : 0;
out:
	f->oldest -= CLOCK_SLACK;
	git_commit_free(c);
	return err;
}

void rolling_fix_release(struct rolling_fix *f)
{
	free(f->ids);
	free(f->subject);
	memset(f, 0, sizeof(*f));
}

/*
 * Is `commit` a copy of the fix: one of its commits, a commit that names
 * one of them as its upstream, or one with the same subject and diff?
 * (The subject only spares diffing every commit: two commits with the
 * same subject and different changes are different fixes.)
 */
static int is_copy(struct search *s, git_commit *commit)
{
	const struct rolling_fix *f = s->fix;
	git_oid id;
	size_t i;
	int err;

	for (i = 0; i < f->nr; i++)
		if (git_oid_equal(git_commit_id(commit), &f->ids[i]) ||
		    names_upstream(git_commit_message(commit), &f->ids[i]))
			return 1;
	if (!f->has_patch_id || !git_commit_summary(commit) ||
	    strcmp(git_commit_summary(commit), f->subject))
		return 0;
	if ((err = patch_id(&id, s->repo, commit)) <= 0)
		return err;
	return git_oid_equal(&id, &f->patch_id);
}

/* Does the walk look for this commit?  1, 0, or an error. */
static int wanted(struct search *s, git_commit *commit)
{
	if (s->fix)
		return is_copy(s, commit);
	if (s->exact)
		return git_oid_equal(git_commit_id(commit), s->exact);
	return names_upstream(git_commit_message(commit), s->upstream);
}

/* --- walking a series' chain --------------------------------------------- */

/*
 * Read the commit at *id on a first-parent walk and move *id to its
 * parent.  A commit the search wants is kept in *found and counted in
 * *hits: walking down, the last one kept is the oldest.  Returns 1 while
 * the walk goes on (the commit is not older than the search and has a
 * parent), 0 at its end, or a negative error.
 */
static int walk_one(struct search *s, git_oid *id, git_oid *found, int *hits)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit;
	int err, recent, more, want = 0;

	s->read++;
	if ((err = git_commit_lookup(&commit, s->repo, id)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), id));
	recent = git_commit_time(commit) >= s->oldest;
	more = recent && git_commit_parentcount(commit);
	if (recent && (want = wanted(s, commit)) > 0) {
		git_oid_cpy(found, id);
		(*hits)++;
	}
	if (more)
		git_oid_cpy(id, git_commit_parent_id(commit, 0));
	git_commit_free(commit);
	return want < 0 ? want : more;
}

/* Backports are not older than the upstream commit (less some clock skew). */
static int set_oldest(struct search *s, const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *c;
	int err;

	if ((err = git_commit_lookup(&c, s->repo, commit)) < 0)
		return rolling_git_error(err, "cannot read %s",
					 git_oid_tostr(hex, sizeof(hex), commit));
	s->oldest = git_commit_time(c) - CLOCK_SLACK;
	git_commit_free(c);
	return 0;
}

/*
 * Walk one released series' first-parent chain down from `start`.
 * Returns 1 with *found set to the oldest commit wanted on it, else 0.
 */
static int search_chain(struct search *s, const git_oid *start, git_oid *found)
{
	git_oid id;
	size_t dummy;
	int err = 0, hits = 0;

	git_oid_cpy(&id, start);
	do {
		if (rolling_oidmap_get(&s->seen, &id, &dummy) ||
		    rolling_mainline_find(s->mainline, &id) || s->read == s->limit)
			break;
		if ((err = rolling_oidmap_put(&s->seen, &id, 0)) < 0)
			return err;
	} while ((err = walk_one(s, &id, found, &hits)) > 0);
	return err < 0 ? err : hits > 0;
}

int rolling_fix_find(git_oid *found, int *truncated, git_repository *repo,
		     const struct rolling_steps *steps, const struct rolling_mainline *mainline,
		     struct rolling_fix *fix, size_t limit)
{
	struct search s = { repo, mainline, NULL, NULL, fix, fix->oldest, { 0 }, 0, limit };
	size_t i;
	int err = 0;

	*truncated = 0;
	for (i = 0; i < steps->nr && !err; i++) {
		if (steps->v[i].time < s.oldest)
			continue;
		err = search_chain(&s, &steps->v[i].release->commit, found);
	}
	*truncated = err == 0 && s.read == s.limit;
	rolling_oidmap_release(&s.seen);
	return err;
}

/* --- the series a branch has left ---------------------------------------- */

/* The newest release of `series` that a step merged (steps are oldest first). */
static const struct rolling_release *last_merged(const struct rolling_steps *steps,
						 const struct rolling_series *series)
{
	const struct rolling_release *last = NULL;
	size_t i;

	for (i = 0; i < steps->nr; i++)
		if (!rolling_series_cmp(&steps->v[i].release->version.series, series))
			last = steps->v[i].release;
	return last;
}

/*
 * Walk a left series' chain from its newest release down to the last
 * release merged.  Going down, the release tag passed last is the first
 * release that holds the commit at hand.
 */
static int search_left_chain(struct search *s, const struct rolling_tags *tags,
			     const struct rolling_release *newest,
			     const struct rolling_release *merged, git_oid *found,
			     const struct rolling_release **release)
{
	const struct rolling_release *holder = newest;
	git_oid id;
	int err, hits = 0, before;

	git_oid_cpy(&id, &newest->commit);
	while (!git_oid_equal(&id, &merged->commit) && !rolling_mainline_find(s->mainline, &id) &&
	       s->read < s->limit) {
		const struct rolling_release *tagged = rolling_tags_find_commit(tags, &id);

		if (tagged && !rolling_series_cmp(&tagged->version.series,
						  &newest->version.series))
			holder = tagged;
		before = hits;
		if ((err = walk_one(s, &id, found, &hits)) < 0)
			return err;
		if (hits > before)
			*release = holder;
		if (!err)
			break;
	}
	return hits > 0;
}

/*
 * Search the part of each series the branch followed and left that came
 * after it left: for `s` (what it wants), the first series where it is
 * found, with *left the release the branch left it at.
 */
static int search_left(struct search *s, git_oid *found, const struct rolling_release **release,
		       const struct rolling_release **left, int *truncated,
		       const struct rolling_steps *steps, const struct rolling_tags *tags)
{
	const struct rolling_series *tip_series;
	size_t i;
	int err = 0;

	*truncated = 0;
	if (!steps->nr)
		return 0;
	tip_series = &steps->v[steps->nr - 1].release->version.series;
	for (i = 0; i < tags->series_nr && !err; i++) {
		const struct rolling_series_info *info = &tags->series[i];
		const struct rolling_release *merged, *newest;

		if (!rolling_series_cmp(&info->series, tip_series) ||
		    !(merged = last_merged(steps, &info->series)) ||
		    !(newest = rolling_series_newest(tags, info)) ||
		    rolling_version_cmp(&newest->version, &merged->version) <= 0)
			continue;
		err = search_left_chain(s, tags, newest, merged, found, release);
		if (err > 0 && left)
			*left = merged;
	}
	*truncated = err == 0 && s->read == s->limit;
	rolling_oidmap_release(&s->seen);
	return err;
}

int rolling_backport_find_left(git_oid *found, const struct rolling_release **release,
			       int *truncated, git_repository *repo,
			       const struct rolling_steps *steps, const struct rolling_tags *tags,
			       const struct rolling_mainline *mainline, const git_oid *upstream,
			       size_t limit)
{
	struct search s = { repo, mainline, upstream, NULL, NULL, 0, { 0 }, 0, limit };
	int err;

	*truncated = 0;
	if ((err = set_oldest(&s, upstream)) < 0)
		return err;
	return search_left(&s, found, release, NULL, truncated, steps, tags);
}

int rolling_left_series_holding(const struct rolling_release **left,
				const struct rolling_release **release, int *truncated,
				git_repository *repo, const struct rolling_steps *steps,
				const struct rolling_tags *tags,
				const struct rolling_mainline *mainline, const git_oid *commit,
				size_t limit)
{
	struct search s = { repo, mainline, NULL, commit, NULL, 0, { 0 }, 0, limit };
	git_oid found;
	int err;

	*truncated = 0;
	if ((err = set_oldest(&s, commit)) < 0)
		return err;
	return search_left(&s, &found, release, left, truncated, steps, tags);
}
