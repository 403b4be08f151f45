#include <stdlib.h>
#include <string.h>
#include "backfill.h"
#include "branch-plan.h"
#include "policy.h"
#include "alloc.h"
#include "error.h"

#define TAG_PREFIX "refs/tags/"

/* A tag's appearance. */
struct event {
	git_time_t time;
	struct rolling_version version;
	int is_release;
	const struct rolling_release *release;   /* in the branch's tags: all there are now */
};

struct timeline {
	struct event *v;
	size_t nr, alloc;
};

/* Version order across kinds: rcs, then the final, then the releases of a series. */
static int kind_rank(const struct event *e)
{
	return e->is_release ? 2 : e->version.prerelease ? 0 : 1;
}

static int cmp_event(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;
	int c;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if ((c = rolling_series_cmp(&a->version.series, &b->version.series)))
		return c;
	if (kind_rank(a) != kind_rank(b))
		return kind_rank(a) - kind_rank(b);
	if (a->is_release)
		return a->version.patch < b->version.patch ? -1 : a->version.patch > b->version.patch;
	return a->version.rc < b->version.rc ? -1 : a->version.rc > b->version.rc;
}

/*
 * When the tag the ref names appeared: the tagger date of an annotated
 * tag, else (a lightweight tag, a tag without tagger) the committer date
 * of the commit it leads to.
 */
static int tag_time(git_time_t *time, git_repository *repo, const char *refname)
{
	git_object *object = NULL, *peeled = NULL;
	int err;

	if ((err = git_revparse_single(&object, repo, refname)) < 0)
		return rolling_git_error(err, "cannot read %s", refname);
	if (git_object_type(object) == GIT_OBJECT_TAG &&
	    git_tag_tagger((git_tag *)object)) {
		*time = git_tag_tagger((git_tag *)object)->when.time;
	} else if ((err = git_object_peel(&peeled, object, GIT_OBJECT_COMMIT)) < 0) {
		err = rolling_git_error(err, "%s does not lead to a commit", refname);
	} else {
		*time = git_commit_time((git_commit *)peeled);
	}
	git_object_free(peeled);
	git_object_free(object);
	return err < 0 ? err : 0;
}

static int add_event(struct timeline *tl, const struct event *e)
{
	if (ALLOC_GROW(tl->v, tl->nr + 1, tl->alloc) < 0)
		return ROLLING_ERROR;
	tl->v[tl->nr++] = *e;
	return 0;
}

/* One event per release the branch's tags hold and per mainline tag. */
static int read_event(struct timeline *tl, git_repository *repo, struct rolling_branch *b,
		      const char *refname)
{
	const char *name = refname + strlen(TAG_PREFIX);
	enum rolling_tag_kind kind;
	struct event e;

	memset(&e, 0, sizeof(e));
	if (rolling_patterns_classify(&b->patterns, name, &kind, &e.version) < 0)
		return 0;   /* rolling_tags_load() warned about it already */
	if (kind == ROLLING_TAG_RELEASE) {
		/* Skipped tags (duplicates, not commits) are not events either. */
		e.release = rolling_tags_find_name(&b->tags, &b->patterns, name);
		if (!e.release || !rolling_release_is_commit(&b->tags, e.release))
			return 0;
		e.is_release = 1;
	} else if (kind != ROLLING_TAG_MAINLINE) {
		return 0;
	}
	if (tag_time(&e.time, repo, refname) < 0)
		return ROLLING_ERROR;
	return add_event(tl, &e);
}

static int read_timeline(struct timeline *tl, git_repository *repo, struct rolling_branch *b)
{
	git_reference_iterator *iter;
	git_reference *ref;
	int err;

	memset(tl, 0, sizeof(*tl));
	if ((err = git_reference_iterator_glob_new(&iter, repo, TAG_PREFIX "*")) < 0)
		return rolling_git_error(err, "cannot read tags");
	while (!(err = git_reference_next(&ref, iter))) {
		err = read_event(tl, repo, b, git_reference_name(ref));
		git_reference_free(ref);
		if (err < 0)
			break;
	}
	git_reference_iterator_free(iter);
	if (err != GIT_ITEROVER)
		return err < 0 && err != ROLLING_ERROR ? rolling_git_error(err, "cannot read tags") :
		       ROLLING_ERROR;
	if (tl->nr)
		qsort(tl->v, tl->nr, sizeof(*tl->v), cmp_event);
	return 0;
}

/* The tags as they were: one more tag has appeared. */
static int apply(struct rolling_tags *now, const struct event *e)
{
	if (!e->is_release)
		return rolling_tags_add_mainline(now, &e->version);
	return rolling_tags_add_release(now, e->release);
}

/*
 * What advance would do now, as it plans (lib/branch-plan.c) with the
 * tags of this moment; `current` is the version the branch stands at,
 * updated as merges are made.
 */
static int advance_now(struct rolling_backfill *r, git_repository *repo, struct rolling_branch *b,
		       const struct rolling_tags *now, struct rolling_version *current,
		       const struct rolling_ident *ident)
{
	struct rolling_branch_plan plan = { 0 };
	int err;

	plan.tip = r->tip;
	plan.current = rolling_tags_find_version(now, current);
	if (!(err = rolling_branch_plan_steps(&plan, repo, b, now, NULL, ident, 1)) &&
	    plan.steps.nr) {
		r->tip = plan.new_tip;
		*current = plan.steps.steps[plan.steps.nr - 1]->version;
		r->steps += plan.steps.nr;
	}
	rolling_branch_plan_release(&plan);
	return err;
}

/*
 * Replay events until the branch can start: at `at` once it appeared,
 * else at the first moment the policy has a series.  Returns the index
 * of the event the branch starts at, in *next the one after.
 */
static int find_start(size_t *next, struct rolling_version *version, struct rolling_backfill *r,
		      struct rolling_branch *b, struct rolling_tags *now, const struct timeline *tl,
		      const char *at)
{
	const struct rolling_release *start = NULL;
	const struct rolling_series_info *series;
	size_t i;

	for (i = 0; i < tl->nr && !start; i++) {
		if (apply(now, &tl->v[i]) < 0)
			return ROLLING_ERROR;
		if (at) {
			if (tl->v[i].is_release && !strcmp(tl->v[i].release->name, at))
				start = tl->v[i].release;
		} else if (!rolling_policy_series(&series, &b->policy, now)) {
			start = rolling_series_newest(now, series);
		}
	}
	if (!start)
		return at ? rolling_error_code(ROLLING_ENOTFOUND,
					       "'%s' is not a release tag matching "
					       "rolling.%s.releasePattern", at, b->config.branch)
			  : rolling_error_code(ROLLING_ENOTFOUND,
					       "no series ever qualified under the policy");
	if (!(r->start = strdup(start->name)))
		return rolling_error_nomem();
	git_oid_cpy(&r->start_commit, &start->commit);
	git_oid_cpy(&r->tip, &start->commit);
	*version = start->version;
	*next = i;
	return 0;
}

int rolling_backfill_run(struct rolling_backfill *r, git_repository *repo,
			 struct rolling_branch *b, const struct rolling_ident *ident,
			 const char *at, int show_progress)
{
	struct rolling_progress *progress = NULL;
	struct rolling_version current;
	struct rolling_tags now;
	struct timeline tl;
	size_t i = 0;
	int err;

	memset(r, 0, sizeof(*r));
	memset(&tl, 0, sizeof(tl));
	rolling_tags_init_empty(&now, repo, b->tags.forms);
	if ((err = read_timeline(&tl, repo, b)) < 0 ||
	    (err = find_start(&i, &current, r, b, &now, &tl, at)) < 0)
		goto out;
	progress = rolling_progress_start("Replaying tags", tl.nr - i + 1, show_progress);
	/* The moment the branch starts is a moment advance runs, too. */
	err = advance_now(r, repo, b, &now, &current, ident);
	for (; !err && i < tl.nr; i++) {
		r->events++;
		if ((err = apply(&now, &tl.v[i])) < 0 ||
		    (err = advance_now(r, repo, b, &now, &current, ident)) < 0)
			break;
		rolling_progress_update(progress, r->events + 1);
	}
	rolling_progress_stop(&progress);
out:
	free(tl.v);
	rolling_tags_release(&now);
	if (err < 0)
		rolling_backfill_release(r);
	return err < 0 ? err : 0;
}

void rolling_backfill_release(struct rolling_backfill *r)
{
	free(r->start);
	r->start = NULL;
}
