#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bisect.h"
#include "branch.h"
#include "error.h"
#include "git-features.h"
#include "mainline.h"
#include "run-command.h"
#include "revision.h"

static void close_branch(struct rolling_bisect *bs)
{
	if (!bs->have_branch)
		return;
	rolling_steps_release(&bs->steps);
	rolling_branch_release(&bs->branch);
	bs->have_branch = 0;
}

/*
 * Read a rolling branch and its steps, from `from` down (default: its
 * tip), replacing the branch read before, if any.
 */
static int open_branch(struct rolling_bisect *bs, const char *name, const git_oid *from)
{
	int err;

	close_branch(bs);
	if ((err = rolling_branch_open(&bs->branch, &bs->tip, bs->repo, name, bs->release_re,
				       bs->mainline_re)) < 0)
		return err;
	if ((err = rolling_steps_list(&bs->steps, bs->repo, from ? from : &bs->tip,
				      &bs->branch.tags, &bs->branch.patterns)) < 0) {
		rolling_branch_release(&bs->branch);
		return rolling_error_prefix(ROLLING_ERROR, "%s", name);
	}
	bs->have_branch = 1;
	return 0;
}

/* The configured branch that has `commit` as a step or a merged release. */
static int infer_branch(char **found, struct rolling_bisect *bs, const char *rev,
			const git_oid *commit, char **branches, size_t nr)
{
	size_t i, index;

	*found = NULL;
	for (i = 0; i < nr; i++) {
		/* A configured branch that cannot be read is not the one meant. */
		if (open_branch(bs, branches[i], NULL) < 0)
			continue;
		if (rolling_steps_find(&bs->steps, commit, &index)) {
			if (*found)
				return rolling_error("'%s' is on both %s and %s; choose one with --branch",
						     rev, *found, branches[i]);
			*found = branches[i];
		}
		close_branch(bs);
	}
	if (!*found)
		return rolling_error("'%s' is not a step of any configured rolling branch, nor a"
				     " release one merged; name the branch with --branch", rev);
	return 0;
}

int rolling_bisect_choose(struct rolling_bisect *bs, const char *name, const char *rev)
{
	char **branches, *found;
	git_oid commit;
	size_t nr;
	int err;

	if (name)
		return open_branch(bs, name, NULL);
	if (rev && (err = rolling_resolve_commit(&commit, bs->repo, rev)) < 0)
		return err;
	if ((err = rolling_config_branches(&branches, &nr, bs->repo)) < 0)
		return err;
	if (rev && !nr)
		err = rolling_error("no rolling branches are configured; name one with --branch "
				    "(and --preset for a branch git rolling does not manage)");
	else if (!rev && nr != 1)
		err = rolling_error("%s; name one with --branch",
				    nr ? "several rolling branches are configured"
				       : "no rolling branches are configured");
	else if (!rev)
		err = open_branch(bs, branches[0], NULL);
	else if (!(err = infer_branch(&found, bs, rev, &commit, branches, nr)))
		err = open_branch(bs, found, NULL);
	rolling_config_free_branches(branches, nr);
	return err;
}

/* The step a revision stands for: a rolling merge, or a release one merged. */
static int step_of_rev(size_t *index, struct rolling_bisect *bs, const char *rev)
{
	git_oid commit;
	int err;

	if ((err = rolling_resolve_commit(&commit, bs->repo, rev)) < 0)
		return err;
	if (!rolling_steps_find(&bs->steps, &commit, index))
		return rolling_error("'%s' is neither a step of %s nor a release it merged", rev,
				     bs->branch.config.branch);
	return 0;
}

int rolling_bisect_range(size_t *good_index, size_t *bad_index, struct rolling_bisect *bs,
			 const char *good, const char *bad)
{
	int err;

	*good_index = 0;
	*bad_index = bs->steps.nr - 1;
	if ((good && (err = step_of_rev(good_index, bs, good)) < 0) ||
	    (bad && (err = step_of_rev(bad_index, bs, bad)) < 0))
		return err;
	if (*good_index >= *bad_index)
		return rolling_error("%s (%s) is not older than %s (%s) on %s",
				     good ? good : "the base",
				     bs->steps.v[*good_index].release->name, bad ? bad : "the tip",
				     bs->steps.v[*bad_index].release->name, bs->branch.config.branch);
	return 0;
}

/*
 * git bisect checks out commits: refuse bare repositories up front, and
 * learn from git itself where it keeps its bisection state (a linked
 * work tree has its own) and whether it bisects with --first-parent and
 * from the current directory (git-features.h).
 */
int rolling_bisect_locate(struct rolling_bisect *bs)
{
	static const char *const args[] = {
		"rev-parse", "--is-inside-work-tree",
		"--git-path", "BISECT_START", "--git-path", "ROLLING_BISECT", NULL,
	};
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *inside, *start, *state, *save = NULL;
	int status;

	if (git_repository_is_bare(bs->repo))
		return rolling_error("this operation must be run in a work tree");
	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	if ((status = rolling_child_run(&git)) < 0) {
		rolling_child_release(&git);
		return status;
	}
	inside = strtok_r(git.captured.buf, "\n", &save);
	start = strtok_r(NULL, "\n", &save);
	state = strtok_r(NULL, "\n", &save);
	if (status || !inside || strcmp(inside, "true") || !start || !state) {
		rolling_child_release(&git);
		return rolling_error("this operation must be run in a work tree");
	}
	bs->bisect_start = strdup(start);
	bs->state_path = strdup(state);
	rolling_child_release(&git);
	if (!bs->bisect_start || !bs->state_path)
		return rolling_error_nomem();
	if ((status = rolling_git_bisects_first_parent()) < 0)
		return status;
	return rolling_git_bisects_here(git_repository_workdir(bs->repo));
}

int rolling_bisect_running(const struct rolling_bisect *bs)
{
	struct stat st;

	return !stat(bs->bisect_start, &st) && st.st_size > 0;
}

int rolling_bisect_found(git_oid *bad, int first_parent)
{
	const char *count_args[] = {
		"rev-list", "--count", "refs/bisect/bad", "--not", "--glob=refs/bisect/good-*",
		first_parent ? "--first-parent" : NULL, NULL,
	};
	static const char *const bad_args[] = {
		"rev-parse", "--verify", "-q", "refs/bisect/bad", NULL,
	};
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *line;
	int status, found = 0;

	rolling_strvec_pushv(&git.args, bad_args);
	git.out = ROLLING_CHILD_CAPTURE;
	if ((status = rolling_child_run(&git)) != 0) {
		found = status < 0 ? status : 0;
		goto out;
	}
	line = git.captured.buf;
	line[strcspn(line, "\n")] = '\0';
	if (git_oid_fromstr(bad, line) < 0) {
		found = rolling_error("git rev-parse printed '%s' for refs/bisect/bad", line);
		goto out;
	}
	rolling_child_release(&git);
	rolling_strvec_pushv(&git.args, count_args);
	git.out = ROLLING_CHILD_CAPTURE;
	if ((status = rolling_child_run(&git)) != 0)
		found = status < 0 ? status :
			rolling_error("git rev-list failed (exit status %d)", status);
	else
		found = !strcmp(git.captured.buf, "1\n");
out:
	rolling_child_release(&git);
	return found;
}

int rolling_bisect_head_step(size_t *index, struct rolling_bisect *bs)
{
	git_oid head;

	return !git_reference_name_to_id(&head, bs->repo, "HEAD") &&
	       rolling_steps_find(&bs->steps, &head, index) &&
	       git_oid_equal(&head, &bs->steps.v[*index].commit);
}

int rolling_bisect_resume(struct rolling_bisect *bs, struct rolling_bisect_state *state)
{
	int err = rolling_bisect_state_read(state, bs->state_path);

	if (err == ROLLING_ENOTFOUND) {
		if (rolling_bisect_running(bs))
			return rolling_error_code(ROLLING_ENOTFOUND,
				"this bisection was not started by git rolling bisect-helper start;"
				" carry on with git bisect, or end it with git bisect reset");
		return rolling_error_code(ROLLING_ENOTFOUND, "no rolling bisection in progress;"
					  " see git rolling bisect-helper start");
	}
	if (err < 0)
		return err;
	if (!rolling_bisect_running(bs)) {
		rolling_bisect_state_remove(bs->state_path);
		rolling_bisect_state_release(state);
		return rolling_error_code(ROLLING_ENOTFOUND,
			"the bisection has ended (git bisect reset?); start again with"
			" git rolling bisect-helper start");
	}
	bs->release_re = state->release_pattern;
	bs->mainline_re = state->mainline_pattern;
	/* The branch may have moved on since: its steps are read from where stage one began. */
	if ((err = open_branch(bs, state->branch, &state->bad)) < 0)
		rolling_bisect_state_release(state);
	return err;
}

int rolling_bisect_enter_stage_two(size_t *index, struct rolling_bisect *bs,
				   struct rolling_bisect_state *state, const git_oid *bad)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (!rolling_steps_find(&bs->steps, bad, index) ||
	    !git_oid_equal(bad, &bs->steps.v[*index].commit) || !*index)
		return rolling_error("stage one ended at %s, which is not a step of %s after the"
				     " good one; see git bisect log",
				     git_oid_tostr(hex, sizeof(hex), bad), bs->branch.config.branch);
	state->stage = 2;
	git_oid_cpy(&state->first_bad_step, &bs->steps.v[*index].commit);
	return 0;
}

static int copy(char **to, const char *from)
{
	*to = NULL;
	return !from || (*to = strdup(from)) ? 0 : rolling_error_nomem();
}

int rolling_bisect_start_state(struct rolling_bisect_state *s, const struct rolling_bisect *bs,
			       const char *name, size_t good_index, size_t bad_index)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->stage = 1;
	if ((err = copy(&s->branch, name ? name : bs->branch.config.branch)) < 0 ||
	    (err = copy(&s->release_pattern, bs->release_re)) < 0 ||
	    (err = copy(&s->mainline_pattern, bs->mainline_re)) < 0)
		return err;
	git_oid_cpy(&s->good, &bs->steps.v[good_index].commit);
	git_oid_cpy(&s->bad, &bs->steps.v[bad_index].commit);
	return 0;
}

int rolling_bisect_stage_one(size_t *index, struct rolling_bisect *bs)
{
	git_oid bad;
	int err = rolling_bisect_found(&bad, 1);

	if (err < 0)
		return err;
	if (err)
		return rolling_steps_find(&bs->steps, &bad, index) ?
		       ROLLING_BISECT_OVER : ROLLING_BISECT_OVER_ELSEWHERE;
	return rolling_bisect_head_step(index, bs) ? ROLLING_BISECT_TESTING :
	       ROLLING_BISECT_WAITING;
}

int rolling_bisect_stage_two_base(git_oid *base, struct rolling_bisect *bs, size_t index)
{
	const struct rolling_step *bad = &bs->steps.v[index], *good = &bs->steps.v[index - 1];
	char good_hex[GIT_OID_HEXSZ + 1], bad_hex[GIT_OID_HEXSZ + 1];
	int err;

	if (!bad->series_switch)
		return 0;
	err = git_merge_base(base, bs->repo, &bad->release->commit, &good->release->commit);
	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0)
		return rolling_git_error(err, "cannot find the merge base of %s and %s",
					 git_oid_tostr(good_hex, sizeof(good_hex), &good->release->commit),
					 git_oid_tostr(bad_hex, sizeof(bad_hex), &bad->release->commit));
	return !git_oid_equal(base, &good->release->commit);
}

int rolling_bisect_tag_name(char **name, struct rolling_bisect *bs, const git_oid *commit)
{
	const struct rolling_release *release = rolling_tags_find_commit(&bs->branch.tags, commit);
	struct rolling_mainline mainline;
	int err;

	*name = NULL;
	if ((err = rolling_mainline_load(&mainline, bs->repo, &bs->branch.patterns)) < 0)
		return err;
	err = copy(name, release ? release->name : rolling_mainline_find(&mainline, commit));
	rolling_mainline_release(&mainline);
	return err;
}

void rolling_bisect_release(struct rolling_bisect *bs)
{
	close_branch(bs);
	free(bs->bisect_start);
	free(bs->state_path);
	bs->bisect_start = bs->state_path = NULL;
}
