#include <stdlib.h>
#include <string.h>
#include "step-count.h"
#include "commit-header.h"
#include "oidmap.h"
#include "alloc.h"
#include "error.h"

/*
 * Each commit seen maps to (owner << 1 | queued): the oldest step that
 * reaches it, and whether it still waits in the queue.
 */
#define QUEUED 1

struct entry {
	git_oid id;
	git_time_t time;
	uint64_t seq;        /* equal dates leave in the order they came */
	size_t parents;      /* its parents are pool[parents .. parents + parents_nr) */
	unsigned parents_nr;
};

struct walk {
	git_odb *odb;
	struct rolling_oidmap seen;
	struct entry *heap;
	size_t nr, alloc;
	uint64_t seq;
	struct rolling_parent_pool pool;  /* the parents of the commits read */
	size_t new_queued;   /* queued commits owned by the step being counted */
};

static int before(const struct entry *a, const struct entry *b)
{
	return a->time != b->time ? a->time > b->time : a->seq < b->seq;
}

static void swap(struct entry *a, struct entry *b)
{
	struct entry t = *a;

	*a = *b;
	*b = t;
}

static int heap_push(struct walk *w, const struct entry *e)
{
	size_t i;

	if (ALLOC_GROW(w->heap, w->nr + 1, w->alloc) < 0)
		return ROLLING_ERROR;
	i = w->nr++;
	w->heap[i] = *e;
	w->heap[i].seq = w->seq++;
	for (; i && before(&w->heap[i], &w->heap[(i - 1) / 2]); i = (i - 1) / 2)
		swap(&w->heap[i], &w->heap[(i - 1) / 2]);
	return 0;
}

static struct entry heap_pop(struct walk *w)
{
	struct entry top = w->heap[0];
	size_t i = 0;

	w->heap[0] = w->heap[--w->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;

		if (l < w->nr && before(&w->heap[l], &w->heap[best]))
			best = l;
		if (r < w->nr && before(&w->heap[r], &w->heap[best]))
			best = r;
		if (best == i)
			return top;
		swap(&w->heap[i], &w->heap[best]);
		i = best;
	}
}

static int parse_commit(struct walk *w, struct entry *e, const char *data, size_t size)
{
	e->parents = w->pool.nr;
	return rolling_commit_header_read(&w->pool, &e->parents_nr, &e->time, data, size);
}

static int read_commit(struct walk *w, struct entry *e, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_odb_object *object;
	int err;

	git_oid_cpy(&e->id, id);
	if ((err = git_odb_read(&object, w->odb, id)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), id));
	if (git_odb_object_type(object) != GIT_OBJECT_COMMIT)
		err = rolling_error("%s is not a commit", git_oid_tostr(hex, sizeof(hex), id));
	else if ((err = parse_commit(w, e, git_odb_object_data(object),
				     git_odb_object_size(object))) < 0)
		err = rolling_error_prefix(err, "cannot parse commit %s",
					   git_oid_tostr(hex, sizeof(hex), id));
	git_odb_object_free(object);
	return err;
}

/*
 * `owner` reaches `id`: queue a commit seen for the first time; lower
 * the owner of one still queued (an older step reaches it too, so it is
 * not new).  A commit already taken from the queue keeps its owner.
 */
static int reach(struct walk *w, const git_oid *id, size_t owner, size_t step)
{
	struct entry e;
	size_t value;

	if (rolling_oidmap_get(&w->seen, id, &value)) {
		if (!(value & QUEUED) || (value >> 1) <= owner)
			return 0;
		if ((value >> 1) == step)
			w->new_queued--;
		return rolling_oidmap_put(&w->seen, id, owner << 1 | QUEUED);
	}
	if (read_commit(w, &e, id) < 0 ||
	    rolling_oidmap_put(&w->seen, id, owner << 1 | QUEUED) < 0 || heap_push(w, &e) < 0)
		return ROLLING_ERROR;
	if (owner == step)
		w->new_queued++;
	return 0;
}

/* Take the newest commit from the queue, count it if new, reach its parents. */
static int walk_one(struct walk *w, size_t step, size_t *count)
{
	struct entry e = heap_pop(w);
	size_t value, owner, i;
	int err;

	rolling_oidmap_get(&w->seen, &e.id, &value);
	owner = value >> 1;
	if ((err = rolling_oidmap_put(&w->seen, &e.id, owner << 1)) < 0)
		return err;
	if (owner == step) {
		w->new_queued--;
		(*count)++;
	}
	for (i = 0; i < e.parents_nr && !err; i++) {
		git_oid parent = w->pool.oids[e.parents + i];   /* reach() may move the pool */

		err = reach(w, &parent, owner, step);
	}
	return err;
}

/* How far back a release is looked for on the first-parent chain of the next one. */
#define NESTED_LIMIT 100000
/* Its first-parent chain goes down by date; allow for clock skew before giving up. */
#define NESTED_SLACK (2 * 86400)

/*
 * Is `older` on the first-parent chain of `newer`?  A stable series'
 * releases follow each other on one chain; a release of another series
 * does not, and the walk gives up once the chain is older than `older`
 * (less some clock skew) or after NESTED_LIMIT commits.  Returns 1, 0
 * (also when it gave up: "not known to be nested" is always safe here),
 * or a negative error.
 */
static int first_parent_ancestor(git_odb *odb, const git_oid *older, const git_oid *newer)
{
	struct walk scratch;
	struct entry e, bottom;
	git_oid id;
	size_t n;
	int err, found = 0;

	memset(&scratch, 0, sizeof(scratch));
	scratch.odb = odb;
	if ((err = read_commit(&scratch, &bottom, older)) < 0)
		goto out;
	git_oid_cpy(&id, newer);
	for (n = 0; n < NESTED_LIMIT && !found; n++) {
		if ((found = git_oid_equal(&id, older)))
			break;
		scratch.pool.nr = 0;
		if ((err = read_commit(&scratch, &e, &id)) < 0)
			goto out;
		if (!e.parents_nr || e.time < bottom.time - NESTED_SLACK)
			break;
		git_oid_cpy(&id, &scratch.pool.oids[e.parents]);
	}
out:
	free(scratch.pool.oids);
	return err < 0 ? err : found;
}

static void walk_free(struct walk *w)
{
	free(w->heap);
	free(w->pool.oids);
	rolling_oidmap_release(&w->seen);
	w->heap = NULL;
	memset(&w->pool, 0, sizeof(w->pool));
	w->nr = w->alloc = 0;
	w->seq = 0;
	w->new_queued = 0;
	memset(&w->seen, 0, sizeof(w->seen));
}

/*
 * Start the walk over at `base`: its history is what the next step is
 * counted against.  Owners are step numbers, so `base` is one below the
 * step to count.
 */
static int walk_restart(struct walk *w, const struct rolling_steps *steps, size_t base)
{
	walk_free(w);
	return reach(w, &steps->v[base].release->commit, base, base + 1);
}

int rolling_steps_count(size_t *counts, git_repository *repo, const struct rolling_steps *steps,
			size_t from, size_t to, struct rolling_progress *progress)
{
	struct walk w;
	size_t step;
	int err;

	memset(&w, 0, sizeof(w));
	if ((err = git_repository_odb(&w.odb, repo)) < 0)
		return rolling_git_error(err, "cannot read the object database");
	err = walk_restart(&w, steps, from);
	for (step = from + 1; !err && step <= to; step++) {
		const git_oid *previous = &steps->v[step - 1].release->commit;

		/*
		 * Crediting a commit to the oldest step that reaches it counts
		 * <previous>..<release> only while each release holds the one
		 * before.  One that does not (the first release of a series
		 * after the last of another) may share commits with an older
		 * step and not with the step before: count it afresh.
		 */
		if (step > from + 1 &&
		    (err = first_parent_ancestor(w.odb, previous,
						 &steps->v[step].release->commit)) <= 0 &&
		    (err < 0 || (err = walk_restart(&w, steps, step - 1)) < 0))
			break;
		counts[step] = 0;
		err = reach(&w, &steps->v[step].release->commit, step, step);
		while (!err && w.new_queued)
			err = walk_one(&w, step, &counts[step]);
		rolling_progress_update(progress, step - from);
	}
	walk_free(&w);
	git_odb_free(w.odb);
	return err;
}
