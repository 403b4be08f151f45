#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "abbrev.h"
#include "contains.h"
#include "commit-header.h"
#include "run-command.h"
#include "strbuf.h"
#include "error.h"
#include "alloc.h"
#include "oidmap.h"
#include "odb-raw.h"

/*
 * Does the repository have a commit-graph file, of any version?  (Out of
 * memory, say no: the answer only chooses how ancestry is asked.)
 */
static int has_commit_graph(git_repository *repo)
{
	const char *const names[] = {
		"objects/info/commit-graph",
		"objects/info/commit-graphs/commit-graph-chain",
	};
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", git_repository_commondir(repo), names[i]);
		found = !strbuf_oom(&path) && !stat(path.buf, &st);
	}
	strbuf_release(&path);
	return found;
}

/*
 * Ask git: it reads every commit-graph version, where libgit2 1.5 skips
 * the files git >= 2.39 writes by default and then walks history.  On a
 * million commits that is milliseconds against a second per question.
 * Returns 1, 0, or -1 when git could not answer (the caller falls back).
 */
static int git_is_ancestor(const git_oid *ancestor, const git_oid *descendant)
{
	char a[GIT_OID_HEXSZ + 1], d[GIT_OID_HEXSZ + 1];
	/* The stored objects, as the libgit2 fallback reads them. */
	const char *args[] = { "--no-replace-objects", "merge-base", "--is-ancestor", a, d, NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	git_oid_tostr(a, sizeof(a), ancestor);
	git_oid_tostr(d, sizeof(d), descendant);
	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_DISCARD;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	return status == 0 ? 1 : status == 1 ? 0 : -1;
}

/* Does step `i` contain `commit`?  1, 0 or a negative error. */
static int step_contains(git_repository *repo, const struct rolling_steps *steps, size_t i,
			 const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	if (git_oid_equal(&steps->v[i].commit, commit))
		return 1;
	if (has_commit_graph(repo) && (err = git_is_ancestor(commit, &steps->v[i].commit)) >= 0)
		return err;
	err = git_graph_descendant_of(repo, &steps->v[i].commit, commit);
	if (err < 0)
		return rolling_git_error(err, "cannot tell whether %s contains %s",
					 steps->v[i].release->name,
					 rolling_abbrev(hex, repo, commit));
	return err;
}

/* --- one walk for every step (no commit-graph) ------------------------ */

#define NONE SIZE_MAX
#define QUEUED 1u
#define STALE 2u        /* an ancestor of the commit: it cannot lead to it */

struct node {
	git_oid id;
	git_time_t time;
	size_t label;        /* the oldest step known to reach it, or NONE */
	size_t parents;      /* its parents are pool[parents .. parents + parents_nr) */
	unsigned parents_nr;
	unsigned flags;
};

struct walk {
	git_odb *odb;
	struct rolling_oidmap seen;     /* id -> index in nodes[] */
	struct node *nodes;
	size_t nodes_nr, nodes_alloc;
	size_t *heap;                   /* indexes in nodes[], newest first */
	size_t heap_nr, heap_alloc;
	struct rolling_parent_pool pool;
	const git_oid *commit;          /* the commit asked about */
	size_t best;                    /* the oldest step known to contain it, or NONE */
	size_t live;                    /* queued nodes that are not STALE */
	struct rolling_progress *progress;
};

/* Newest first; equal dates in the order they were met. */
static int before(const struct walk *w, size_t a, size_t b)
{
	const struct node *x = &w->nodes[a], *y = &w->nodes[b];

	return x->time != y->time ? x->time > y->time : a < b;
}

static int heap_push(struct walk *w, size_t n)
{
	size_t i, up;

	if (ALLOC_GROW(w->heap, w->heap_nr + 1, w->heap_alloc) < 0)
		return ROLLING_ERROR;
	for (i = w->heap_nr++; i && before(w, n, w->heap[up = (i - 1) / 2]); i = up)
		w->heap[i] = w->heap[up];
	w->heap[i] = n;
	w->nodes[n].flags |= QUEUED;
	if (!(w->nodes[n].flags & STALE))
		w->live++;
	return 0;
}

static size_t heap_pop(struct walk *w)
{
	size_t top = w->heap[0], last = w->heap[--w->heap_nr], i = 0;

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= w->heap_nr)
			break;
		if (child + 1 < w->heap_nr && before(w, w->heap[child + 1], w->heap[child]))
			child++;
		if (!before(w, w->heap[child], last))
			break;
		w->heap[i] = w->heap[child];
		i = child;
	}
	if (w->heap_nr)
		w->heap[i] = last;
	w->nodes[top].flags &= ~QUEUED;
	if (!(w->nodes[top].flags & STALE))
		w->live--;
	return top;
}

static int parse_commit(struct walk *w, struct node *n, const char *data, size_t size)
{
	n->parents = w->pool.nr;
	return rolling_commit_header_read(&w->pool, &n->parents_nr, &n->time, data, size);
}

/* The raw commit, read once: odb-raw.h says why not through git_odb_read(). */
static int read_raw(struct walk *w, struct rolling_raw_object *raw, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	if ((err = rolling_odb_read_raw(raw, w->odb, id)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), id));
	if (raw->type != GIT_OBJECT_COMMIT) {
		rolling_raw_object_release(raw);
		return rolling_error("%s is not a commit", git_oid_tostr(hex, sizeof(hex), id));
	}
	return 0;
}

/* The node of a commit, read when first met; its index in *n. */
static int node_of(struct walk *w, size_t *n, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct rolling_raw_object raw = ROLLING_RAW_OBJECT_INIT;
	struct node *node;
	int err;

	if (rolling_oidmap_get(&w->seen, id, n))
		return 0;
	if (ALLOC_GROW(w->nodes, w->nodes_nr + 1, w->nodes_alloc) < 0)
		return ROLLING_ERROR;
	node = &w->nodes[w->nodes_nr];
	memset(node, 0, sizeof(*node));
	git_oid_cpy(&node->id, id);
	node->label = NONE;
	if ((err = read_raw(w, &raw, id)) < 0)
		return err;
	if ((err = parse_commit(w, node, raw.data, raw.size)) < 0)
		err = rolling_error_prefix(err, "cannot parse commit %s",
					   git_oid_tostr(hex, sizeof(hex), id));
	rolling_raw_object_release(&raw);
	if (err < 0 || (err = rolling_oidmap_put(&w->seen, id, w->nodes_nr)) < 0)
		return err;
	*n = w->nodes_nr++;
	if (!(w->nodes_nr % 4096))
		rolling_progress_update(w->progress, w->nodes_nr);
	return 0;
}

/*
 * Step `label` reaches `id` (label NONE with `stale`: the commit asked
 * about does).  A commit that gets a new mark is queued to pass it on.
 */
static int reach(struct walk *w, const git_oid *id, size_t label, int stale)
{
	struct node *node;
	size_t n;
	int err;

	if (!stale && label >= w->best)
		return 0;       /* an older step is known to contain the commit */
	if (!stale && git_oid_equal(id, w->commit)) {
		w->best = label;
		return 0;
	}
	if ((err = node_of(w, &n, id)) < 0)
		return err;
	node = &w->nodes[n];
	if (node->flags & STALE)
		return 0;
	if (stale) {
		node->flags |= STALE;
		if (node->flags & QUEUED)
			w->live--;
		else if ((err = heap_push(w, n)) < 0)
			return err;
		return 0;
	}
	if (label >= node->label)
		return 0;
	node->label = label;
	return node->flags & QUEUED ? 0 : heap_push(w, n);
}

/* Pass the newest queued commit's mark on to its parents. */
static int walk_one(struct walk *w)
{
	size_t n = heap_pop(w), i;
	int stale = !!(w->nodes[n].flags & STALE);
	int err = 0;

	if (!stale && w->nodes[n].label >= w->best)
		return 0;
	for (i = 0; i < w->nodes[n].parents_nr && !err; i++) {
		/* reach() may move the pool and the nodes */
		git_oid parent = w->pool.oids[w->nodes[n].parents + i];

		err = reach(w, &parent, stale ? NONE : w->nodes[n].label, stale);
	}
	return err;
}

/*
 * The oldest step below `best` that contains the commit, or `best`.  One
 * walk answers for every step at once, as git's paint_down_to_common()
 * answers for one: every step is queued with its index as its label,
 * and commits are taken newest first, each passing the oldest label that
 * reaches it on to its parents; the commit asked about passes on that
 * its ancestors are stale, since they cannot lead to it.  A label is
 * dropped once an older step is known to contain the commit, and the
 * walk ends when no commit that could still change the answer is
 * queued.  Dates only order the walk: a commit that gets an older label
 * after it was taken is queued again, so clock skew costs time, never
 * the answer.
 */
static int walk_steps(size_t *best, git_repository *repo, const struct rolling_steps *steps,
		      const git_oid *commit, struct rolling_progress *progress)
{
	struct walk w;
	size_t i, n;
	int err;

	memset(&w, 0, sizeof(w));
	w.commit = commit;
	w.best = *best;
	w.progress = progress;
	if ((err = git_repository_odb(&w.odb, repo)) < 0)
		return rolling_git_error(err, "cannot read the object database");
	/* Its own mark is the one its ancestors get: a way back to it, none. */
	if (!(err = node_of(&w, &n, commit))) {
		w.nodes[n].flags |= STALE;
		err = heap_push(&w, n);
	}
	for (i = 0; i < steps->nr && i < w.best && !err; i++)
		err = reach(&w, &steps->v[i].commit, i, 0);
	while (!err && w.live)
		err = walk_one(&w);
	rolling_progress_update(progress, w.nodes_nr);
	*best = w.best;
	free(w.heap);
	free(w.pool.oids);
	free(w.nodes);
	rolling_oidmap_release(&w.seen);
	git_odb_free(w.odb);
	return err;
}

/* --- one question per step (a commit-graph answers each at once) ------- */

/*
 * The search: no step before lo contains the commit; step hi does when
 * hi_contains is set (else hi is the newest step, not asked yet).
 */
struct search {
	git_repository *repo;
	const struct rolling_steps *steps;
	const git_oid *commit;
	size_t lo, hi;
	int hi_contains;
	struct rolling_progress *progress;
	size_t queries;
};

/* step_contains(), counted for the progress meter. */
static int ask(struct search *s, size_t i)
{
	int err = step_contains(s->repo, s->steps, i, s->commit);

	rolling_progress_update(s->progress, ++s->queries);
	return err;
}

/*
 * Ask whether step i is the first to contain the commit, and narrow the
 * range with the answers: 1 when it is (lo == hi == i), 0 when not, or
 * a negative error.
 */
static int probe(struct search *s, size_t i)
{
	int err;

	if (i < s->lo || i > s->hi)
		return 0;
	if (s->hi_contains && i == s->hi)
		err = 1;
	else if ((err = ask(s, i)) < 0)
		return err;
	if (!err) {
		s->lo = i + 1;
		return 0;
	}
	s->hi = i;
	s->hi_contains = 1;
	if (i == s->lo)
		return 1;
	if ((err = ask(s, i - 1)) < 0)
		return err;
	if (!err) {
		s->lo = i;
		return 1;
	}
	s->hi = i - 1;
	return 0;
}

int rolling_steps_first_containing(size_t *index, git_repository *repo,
				   const struct rolling_steps *steps, const git_oid *commit,
				   struct rolling_progress *progress)
{
	struct search s = { repo, steps, commit, 0, 0, 0, progress, 0 };
	char hex[GIT_OID_HEXSZ + 1];
	size_t known, i;
	git_commit *c;
	git_time_t when;
	int err;

	if (!steps->nr)
		return 0;
	/* A step, or a release a step merged: no graph walk at all. */
	if (rolling_oidmap_get(&steps->by_commit, commit, &known)) {
		*index = known;
		return 1;
	}
	s.hi = steps->nr - 1;
	if (rolling_oidmap_get(&steps->by_release, commit, &known)) {
		s.hi = known;     /* that step contains it; an earlier one may too */
		s.hi_contains = 1;
	}
	if (!has_commit_graph(repo)) {
		size_t best = s.hi_contains ? s.hi : NONE;

		if ((err = walk_steps(&best, repo, steps, commit, progress)) < 0)
			return err;
		*index = best;
		return best != NONE;
	}
	if ((err = git_commit_lookup(&c, repo, commit)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), commit));
	when = git_commit_time(c);
	git_commit_free(c);

	/*
	 * Two guesses first, each settled by two questions.  Dates and
	 * series only choose which steps are asked about, never the answer,
	 * so clock skew costs queries but cannot make the result wrong.
	 *
	 * A stable commit is usually first in the first step released after
	 * it was made.
	 */
	for (i = s.lo; i < s.hi && steps->v[i].time < when; i++)
		;
	if ((err = probe(&s, i)) != 0)
		goto out;
	/* A mainline commit usually comes with the next series switch. */
	for (i = s.lo; i < s.hi && !steps->v[i].series_switch; i++)
		;
	if ((err = probe(&s, i)) != 0)
		goto out;
	if (s.lo > s.hi)
		return 0;
	if (!s.hi_contains) {
		/* Not even the newest step, then? */
		if ((err = ask(&s, s.hi)) <= 0)
			return err;
	}
	while (s.lo < s.hi) {
		size_t mid = s.lo + (s.hi - s.lo) / 2;

		if ((err = ask(&s, mid)) < 0)
			return err;
		if (err)
			s.hi = mid;
		else
			s.lo = mid + 1;
	}
	err = 1;
out:
	if (err > 0)
		*index = s.hi;
	return err;
}
