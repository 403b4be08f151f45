#include <ctype.h>
#include <string.h>
#include "backport.h"
#include "error.h"

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

/* The hex digits at `p` spell a long enough prefix of `hex`, and no more. */
static size_t hex_token(const char *p, const char *hex)
{
	size_t len = 0;

	while (isxdigit((unsigned char)p[len]))
		len++;
	if (len < MIN_ABBREV || len > GIT_OID_HEXSZ || strncasecmp(p, hex, len))
		return 0;
	return len;
}

/* Does `message` name `upstream` in one of the ways backport.h lists? */
static int names_upstream(const char *message, const git_oid *upstream)
{
	char hex[GIT_OID_HEXSZ + 1];
	const char *p;

	git_oid_tostr(hex, sizeof(hex), upstream);
	for (p = message; (p = strcasestr(p, "commit"));) {
		const char *after = p + strlen("commit"), *digits = after;
		size_t len;

		if (p > message && isalnum((unsigned char)p[-1])) {
			p = after;
			continue;
		}
		while (*digits == ' ' || *digits == '\t')
			digits++;
		if (digits == after || !(len = hex_token(digits, hex))) {
			p = after;
			continue;
		}
		if (word_after(digits + len, "upstream") ||
		    word_before(message, p, "upstream") ||
		    word_before(message, p, "cherry picked from"))
			return 1;
		p = digits + len;
	}
	return 0;
}

struct search {
	git_repository *repo;
	const struct rolling_mainline *mainline;
	const git_oid *upstream;
	git_time_t oldest;
	struct rolling_oidmap seen;
	size_t read, limit;
};

/*
 * Read the commit at *id on a first-parent walk and move *id to its
 * parent.  A backport of the upstream commit is kept in *found and
 * counted in *hits: walking down, the last one kept is the oldest.
 * Returns 1 while the walk goes on (the commit is not older than the
 * search and has a parent), 0 at its end, or a negative error.
 */
static int walk_one(struct search *s, git_oid *id, git_oid *found, int *hits)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit;
	int err, recent, more;

	s->read++;
	if ((err = git_commit_lookup(&commit, s->repo, id)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), id));
	recent = git_commit_time(commit) >= s->oldest;
	more = recent && git_commit_parentcount(commit);
	if (recent && names_upstream(git_commit_message(commit), s->upstream)) {
		git_oid_cpy(found, id);
		(*hits)++;
	}
	if (more)
		git_oid_cpy(id, git_commit_parent_id(commit, 0));
	git_commit_free(commit);
	return more;
}

/* Backports are not older than the upstream commit (less some clock skew). */
static int set_oldest(struct search *s)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit;
	int err;

	if ((err = git_commit_lookup(&commit, s->repo, s->upstream)) < 0)
		return rolling_git_error(err, "cannot read %s",
					 git_oid_tostr(hex, sizeof(hex), s->upstream));
	s->oldest = git_commit_time(commit) - CLOCK_SLACK;
	git_commit_free(commit);
	return 0;
}

/*
 * Walk one released series' first-parent chain down from `start`.
 * Returns 1 with *found set to the oldest backport on it, else 0.
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

int rolling_backport_find(git_oid *found, int *truncated, git_repository *repo,
			  const struct rolling_steps *steps, const struct rolling_mainline *mainline,
			  const git_oid *upstream, size_t limit)
{
	struct search s = { repo, mainline, upstream, 0, { 0 }, 0, limit };
	size_t i;
	int err = 0;

	*truncated = 0;
	if ((err = set_oldest(&s)) < 0)
		return err;
	for (i = 0; i < steps->nr && !err; i++) {
		if (steps->v[i].time < s.oldest)
			continue;
		err = search_chain(&s, &steps->v[i].release->commit, found);
	}
	*truncated = err == 0 && s.read == s.limit;
	rolling_oidmap_free(&s.seen);
	return err;
}

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

int rolling_backport_find_left(git_oid *found, const struct rolling_release **release,
			       int *truncated, git_repository *repo,
			       const struct rolling_steps *steps, const struct rolling_tags *tags,
			       const struct rolling_mainline *mainline, const git_oid *upstream,
			       size_t limit)
{
	struct search s = { repo, mainline, upstream, 0, { 0 }, 0, limit };
	const struct rolling_series *tip_series;
	size_t i;
	int err = 0;

	*truncated = 0;
	if (!steps->nr)
		return 0;
	if ((err = set_oldest(&s)) < 0)
		return err;
	tip_series = &steps->v[steps->nr - 1].release->version.series;
	for (i = 0; i < tags->series_nr && !err; i++) {
		const struct rolling_series_info *info = &tags->series[i];
		const struct rolling_release *merged, *newest;

		if (!rolling_series_cmp(&info->series, tip_series) ||
		    !(merged = last_merged(steps, &info->series)) ||
		    !(newest = rolling_series_newest(tags, info)) ||
		    rolling_version_cmp(&newest->version, &merged->version) <= 0)
			continue;
		err = search_left_chain(&s, tags, newest, merged, found, release);
	}
	*truncated = err == 0 && s.read == s.limit;
	return err;
}
