#include <stdio.h>
#include <sys/stat.h>
#include "contains.h"
#include "run-command.h"
#include "strbuf.h"
#include "error.h"

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
	int status;

	git_oid_tostr(a, sizeof(a), ancestor);
	git_oid_tostr(d, sizeof(d), descendant);
	status = rolling_run_git(args, NULL, ROLLING_RUN_NO_STDOUT | ROLLING_RUN_NO_STDERR);
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
					 git_oid_tostr(hex, 13, commit));
	return err;
}

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
