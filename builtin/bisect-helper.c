/*
 * git rolling bisect-helper: find a regression across a rolling branch
 * with the user's own `git bisect`, in two stages.  Stage one bisects
 * the rolling steps with --first-parent, so that every point tested is
 * a released tree; stage two bisects the commits of the one bad step,
 * between the release it merged and the release merged before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>
#include "../lib/usage.h"
#include "../lib/setup.h"
#include "../lib/bisect-state.h"
#include "../lib/branch-open.h"
#include "../lib/contains.h"
#include "../lib/mainline.h"
#include "../lib/repo.h"
#include "../lib/run-command.h"
#include "../lib/step-format.h"
#include "../lib/steps.h"

static const char *const bisect_helper_usage[] = {
	"git rolling bisect-helper steps [<branch-options>] [<good> [<bad>]]",
	"git rolling bisect-helper start [<branch-options>] <bad> <good>",
	"git rolling bisect-helper next",
	"git rolling bisect-helper run <cmd> [<args>...]",
	"git rolling bisect-helper reset\n"
	"\n"
	"where <branch-options> are [-b | --branch <branch>] [--preset <name>]\n"
	"                           [--release-pattern <regex>] [--mainline-pattern <regex>]",
	NULL,
};

/* `git bisect start --first-parent` is new in git 2.29. */
#define GIT_MIN_MAJOR 2
#define GIT_MIN_MINOR 29

struct helper_options {
	const char *branch;
	const char *preset;
	const char *release_pattern;
	const char *mainline_pattern;
};

static struct helper_options opts;

static const struct rolling_option options[] = {
	OPT_STRING('b', "branch", &opts.branch, "branch",
		   "the rolling branch (default: the one <bad> is on)"),
	OPT_STRING(0, "preset", &opts.preset, "name",
		   "read --branch, an unconfigured rolling branch, with a preset's tags"),
	OPT_STRING(0, "release-pattern", &opts.release_pattern, "regex",
		   "release tags of an unconfigured branch"),
	OPT_STRING(0, "mainline-pattern", &opts.mainline_pattern, "regex",
		   "mainline tags of an unconfigured branch"),
	OPT_END(),
};

static const struct rolling_option no_options[] = { OPT_END() };

static void __attribute__((noreturn)) usage_error(void)
{
	usage_with_options(bisect_helper_usage, options);
}

struct helper {
	git_repository *repo;
	struct rolling_branch b;
	int have_branch;
	const char *branch_name;
	const char *release_re, *mainline_re;
	git_oid tip;
	struct rolling_steps steps;
	char *bisect_start;     /* git's marker of a running bisection */
	char *state_path;       /* our own state, next to it */
	FILE *progress;         /* where stage messages go */
};

/* --- the repository and git ------------------------------------------- */

static void open_repository(struct helper *h)
{
	if (rolling_repo_open(&h->repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(h->repo) < 0)
		die_last_error();
}

static void check_git_version(void)
{
	static const char *const args[] = { "version", NULL };
	unsigned major, minor;
	char *line;

	if (rolling_git_output(&line, args) < 0)
		die_last_error();
	if (sscanf(line, "git version %u.%u", &major, &minor) != 2)
		die("cannot tell the version of git from '%s'", line);
	if (major < GIT_MIN_MAJOR || (major == GIT_MIN_MAJOR && minor < GIT_MIN_MINOR))
		die("git %d.%d or later is needed for first-parent bisection (this is %s)",
		    GIT_MIN_MAJOR, GIT_MIN_MINOR, line + strlen("git version "));
	free(line);
}

/*
 * git bisect checks out commits: refuse bare repositories up front, and
 * learn from git itself where it keeps its bisection state.
 */
static void require_work_tree(struct helper *h)
{
	static const char *const args[] = {
		"rev-parse", "--is-inside-work-tree",
		"--git-path", "BISECT_START", "--git-path", "ROLLING_BISECT", NULL,
	};
	char *out, *inside, *start, *state, *save = NULL;
	int status;

	if (git_repository_is_bare(h->repo))
		die("this operation must be run in a work tree");
	status = rolling_run_git(args, &out, ROLLING_RUN_CAPTURE);
	if (status < 0)
		die_last_error();
	inside = strtok_r(out, "\n", &save);
	start = strtok_r(NULL, "\n", &save);
	state = strtok_r(NULL, "\n", &save);
	if (status || !inside || strcmp(inside, "true") || !start || !state)
		die("this operation must be run in a work tree");
	if (!(h->bisect_start = strdup(start)) || !(h->state_path = strdup(state)))
		die("out of memory");
	free(out);
	check_git_version();
}

static int bisecting(const struct helper *h)
{
	struct stat st;

	return !stat(h->bisect_start, &st) && st.st_size > 0;
}

/* Run git, dying when it cannot be run at all; returns its exit status. */
static int git(const struct helper *h, unsigned flags, const char *const *args)
{
	int status;

	if (h->progress == stderr)
		flags |= ROLLING_RUN_STDOUT_TO_STDERR;
	status = rolling_run_git(args, NULL, flags);
	if (status < 0)
		die_last_error();
	return status;
}

/* End a bisection this command started, quietly, before it reports an error. */
static void bisect_reset_quietly(const struct helper *h)
{
	static const char *const args[] = { "bisect", "reset", NULL };

	if (bisecting(h))
		git(h, ROLLING_RUN_NO_STDOUT | ROLLING_RUN_NO_STDERR, args);
}

/* --- the rolling branch ----------------------------------------------- */

/* Read a rolling branch and its steps, from `from` down (default: its tip). */
static int try_branch(struct helper *h, const char *name, const git_oid *from)
{
	int err;

	if ((err = rolling_branch_open(&h->b, &h->tip, h->repo, name, h->release_re,
				       h->mainline_re)) < 0)
		return err;
	if ((err = rolling_steps_list(&h->steps, h->repo, from ? from : &h->tip, &h->b.tags,
				      &h->b.patterns)) < 0) {
		char why[1024];

		snprintf(why, sizeof(why), "%s", rolling_last_error());
		rolling_branch_free(&h->b);
		return rolling_error("%s: %s", name, why);
	}
	h->have_branch = 1;
	h->branch_name = h->b.config.branch;
	return 0;
}

static void use_branch(struct helper *h, const char *name, const git_oid *from)
{
	if (try_branch(h, name, from) < 0)
		die_last_error();
}

static void drop_branch(struct helper *h)
{
	if (!h->have_branch)
		return;
	rolling_steps_free(&h->steps);
	rolling_branch_free(&h->b);
	h->have_branch = 0;
}

/*
 * No --branch: the configured rolling branch that `rev` is a step of
 * (or that merged the release `rev` names).  It must be exactly one.
 */
static void infer_branch(struct helper *h, const char *rev)
{
	char **branches, *found = NULL;
	size_t nr, i, index;
	git_oid commit;

	if (rolling_resolve_commit(&commit, h->repo, rev) < 0)
		die_last_error();
	if (rolling_config_branches(&branches, &nr, h->repo) < 0)
		die_last_error();
	if (!nr)
		die("no rolling branches are configured; name one with --branch "
		    "(and --preset for a branch git rolling does not manage)");
	for (i = 0; i < nr; i++) {
		/* A configured branch that cannot be read is not the one meant. */
		if (try_branch(h, branches[i], NULL) < 0)
			continue;
		if (rolling_steps_find(&h->steps, &commit, &index)) {
			if (found)
				die("'%s' is on both %s and %s; choose one with --branch",
				    rev, found, branches[i]);
			found = branches[i];
		}
		drop_branch(h);
	}
	if (!found)
		die("'%s' is not a step of any configured rolling branch, nor a release one "
		    "merged; name the branch with --branch", rev);
	use_branch(h, found, NULL);
	rolling_config_free_branches(branches, nr);
}

static void choose_branch(struct helper *h, const struct helper_options *o, const char *rev)
{
	if (rolling_patterns_from_options(&h->release_re, &h->mainline_re, o->preset,
					  o->release_pattern, o->mainline_pattern) < 0)
		die_last_error();
	if (h->release_re && !o->branch)
		die("--preset and the patterns describe a branch given with --branch");
	if (o->branch) {
		use_branch(h, o->branch, NULL);
	} else if (rev) {
		infer_branch(h, rev);
	} else {
		char **branches;
		size_t nr;

		if (rolling_config_branches(&branches, &nr, h->repo) < 0)
			die_last_error();
		if (nr != 1)
			die("%s; name one with --branch",
			    nr ? "several rolling branches are configured"
			       : "no rolling branches are configured");
		use_branch(h, branches[0], NULL);
		rolling_config_free_branches(branches, nr);
	}
}

/* The step a revision stands for: a rolling merge, or a release one merged. */
static size_t resolve_point(struct helper *h, const char *rev)
{
	git_oid commit;
	size_t index;

	if (rolling_resolve_commit(&commit, h->repo, rev) < 0)
		die_last_error();
	if (!rolling_steps_find(&h->steps, &commit, &index))
		die("'%s' is neither a step of %s nor a release it merged", rev, h->branch_name);
	return index;
}

static void resolve_range(struct helper *h, const char *good, const char *bad,
			  size_t *g, size_t *b)
{
	*g = good ? resolve_point(h, good) : 0;
	*b = bad ? resolve_point(h, bad) : h->steps.nr - 1;
	if (*g >= *b)
		die("%s (%s) is not older than %s (%s) on %s", good ? good : "the base",
		    h->steps.v[*g].release->name, bad ? bad : "the tip",
		    h->steps.v[*b].release->name, h->branch_name);
}

static const char *series_name(char *buf, const struct helper *h, const struct rolling_step *step)
{
	return rolling_series_format(buf, ROLLING_SERIES_BUFSZ, &step->release->version.series,
				     h->b.tags.has_minor);
}

static const char *step_name(char *buf, const struct helper *h, size_t i)
{
	return rolling_step_format(buf, ROLLING_STEP_BUFSZ, h->repo, &h->steps.v[i]);
}

/* --- git's bisection as seen from here -------------------------------- */

/*
 * Has git's bisection narrowed down to one commit?  Returns 1 with *bad
 * set to it (refs/bisect/bad), else 0.  The candidates are what git
 * itself still considers: refs/bisect/bad but none of the good ones.
 */
static int bisect_done(git_oid *bad, int first_parent)
{
	const char *count_args[] = {
		"rev-list", "--count", "refs/bisect/bad", "--not", "--glob=refs/bisect/good-*",
		first_parent ? "--first-parent" : NULL, NULL,
	};
	static const char *const bad_args[] = {
		"rev-parse", "--verify", "-q", "refs/bisect/bad", NULL,
	};
	char *line;
	int done;

	if (rolling_run_git(bad_args, &line, ROLLING_RUN_CAPTURE) != 0) {
		free(line);
		return 0;
	}
	line[strcspn(line, "\n")] = '\0';
	if (git_oid_fromstr(bad, line) < 0)
		die("git rev-parse printed '%s' for refs/bisect/bad", line);
	free(line);
	if (rolling_git_output(&line, count_args) < 0)
		die_last_error();
	done = !strcmp(line, "1");
	free(line);
	return done;
}

static int current_step(struct helper *h, size_t *index)
{
	git_oid head;

	return !git_reference_name_to_id(&head, h->repo, "HEAD") &&
	       rolling_steps_find(&h->steps, &head, index) &&
	       git_oid_equal(&head, &h->steps.v[*index].commit);
}

/* --- state between the stages ----------------------------------------- */

static void load_state(struct helper *h, struct rolling_bisect_state *s)
{
	int err = rolling_bisect_state_read(s, h->state_path);

	if (err == ROLLING_ENOTFOUND) {
		if (bisecting(h))
			die("this bisection was not started by git rolling bisect-helper start;"
			    " carry on with git bisect, or end it with git bisect reset");
		die("no rolling bisection in progress; see git rolling bisect-helper start");
	}
	if (err < 0)
		die_last_error();
	if (!bisecting(h)) {
		rolling_bisect_state_remove(h->state_path);
		die("the bisection has ended (git bisect reset?); start again with"
		    " git rolling bisect-helper start");
	}
	h->release_re = s->release_pattern;
	h->mainline_re = s->mainline_pattern;
	use_branch(h, s->branch, &s->bad);
}

static void save_state(struct helper *h, const struct rolling_bisect_state *s)
{
	if (rolling_bisect_state_write(s, h->state_path) < 0) {
		bisect_reset_quietly(h);
		rolling_bisect_state_remove(h->state_path);
		die_last_error();
	}
}

/* --- steps ------------------------------------------------------------ */

static int cmd_steps(struct helper *h, const struct helper_options *o, int argc,
		     const char **argv)
{
	char hex[GIT_OID_HEXSZ + 1], series[ROLLING_SERIES_BUFSZ], from[ROLLING_SERIES_BUFSZ];
	size_t g, b, i;

	if (argc > 2)
		usage_error();
	open_repository(h);
	choose_branch(h, o, argc == 2 ? argv[1] : argc ? argv[0] : NULL);
	resolve_range(h, argc ? argv[0] : NULL, argc == 2 ? argv[1] : NULL, &g, &b);
	for (i = g + 1; i <= b; i++) {
		const struct rolling_step *step = &h->steps.v[i];

		printf("%s %s %s", git_oid_tostr(hex, sizeof(hex), &step->commit),
		       step->release->name, series_name(series, h, step));
		if (step->series_switch)
			printf(" (series switch from %s)", series_name(from, h, &h->steps.v[i - 1]));
		putchar('\n');
	}
	return 0;
}

/* --- start ------------------------------------------------------------ */

static void announce(struct helper *h, size_t g, size_t b)
{
	char name[ROLLING_STEP_BUFSZ];
	git_oid bad;
	size_t at;

	if (bisect_done(&bad, 1)) {
		fprintf(h->progress, "stage one is over: the first bad step is %s\n"
			"next: git rolling bisect-helper next\n",
			rolling_steps_find(&h->steps, &bad, &at) ? step_name(name, h, at) : "?");
		return;
	}
	if (current_step(h, &at))
		fprintf(h->progress, "testing %s, step %zu of %zu; mark it with git bisect good"
			" or git bisect bad\n", step_name(name, h, at), at - g, b - g);
}

static int cmd_start(struct helper *h, const struct helper_options *o, int argc,
		     const char **argv)
{
	char good_hex[GIT_OID_HEXSZ + 1], bad_hex[GIT_OID_HEXSZ + 1];
	char good_name[ROLLING_STEP_BUFSZ], bad_name[ROLLING_STEP_BUFSZ];
	const char *args[] = { "bisect", "start", "--first-parent", bad_hex, good_hex, "--", NULL };
	struct rolling_bisect_state s = { 0 };
	size_t g, b;

	if (argc != 2)
		usage_error();
	open_repository(h);
	require_work_tree(h);
	if (bisecting(h))
		die("a bisection is already in progress (see git bisect log);"
		    " end it with git bisect reset first");
	choose_branch(h, o, argv[0]);
	resolve_range(h, argv[1], argv[0], &g, &b);

	s.stage = 1;
	s.branch = (char *)(o->branch ? o->branch : h->branch_name);
	s.release_pattern = (char *)h->release_re;
	s.mainline_pattern = (char *)h->mainline_re;
	git_oid_cpy(&s.good, &h->steps.v[g].commit);
	git_oid_cpy(&s.bad, &h->steps.v[b].commit);
	save_state(h, &s);

	fprintf(h->progress, "stage one: bisecting the %zu steps of %s after %s (good) up to %s (bad)\n",
		b - g, h->branch_name, step_name(good_name, h, g), step_name(bad_name, h, b));
	git_oid_tostr(bad_hex, sizeof(bad_hex), &s.bad);
	git_oid_tostr(good_hex, sizeof(good_hex), &s.good);
	if (git(h, 0, args)) {
		bisect_reset_quietly(h);
		rolling_bisect_state_remove(h->state_path);
		die("git bisect start failed; no bisection is left behind");
	}
	announce(h, g, b);
	return 0;
}

/* --- next: from stage one to stage two, and the result ---------------- */

/* Name a merge base for the user: its mainline tag, else its abbreviation. */
static const char *merge_base_name(char *buf, size_t size, struct helper *h, const git_oid *base)
{
	char abbrev[ROLLING_ABBREV_BUFSZ];
	struct rolling_mainline mainline;
	const struct rolling_release *release = rolling_tags_find_commit(&h->b.tags, base);
	const char *tag = NULL;

	if (rolling_mainline_load(&mainline, h->repo, &h->b.patterns) < 0)
		die_last_error();
	tag = release ? release->name : rolling_mainline_find(&mainline, base);
	rolling_abbrev(abbrev, h->repo, base);
	if (tag)
		snprintf(buf, size, "%s (%s)", abbrev, tag);
	else
		snprintf(buf, size, "%s", abbrev);
	rolling_mainline_free(&mainline);
	return buf;
}

static void explain_stage_two(struct helper *h, size_t b, const char *good_hex,
			      const char *bad_hex)
{
	const struct rolling_step *bad = &h->steps.v[b], *good = &h->steps.v[b - 1];
	char from[ROLLING_SERIES_BUFSZ], to[ROLLING_SERIES_BUFSZ], base_name[256];
	git_oid base;
	int err;

	if (!bad->series_switch) {
		fprintf(h->progress, "stage two: bisecting the %s stable commits from %s (good)"
			" to %s (bad)\n", series_name(to, h, bad), good->release->name,
			bad->release->name);
		return;
	}
	fprintf(h->progress, "stage two: %s switches series %s -> %s, so git bisects the %s"
		" mainline and stable commits from %s (good) to %s (bad)\n",
		bad->release->name, series_name(from, h, good), series_name(to, h, bad),
		to, good->release->name, bad->release->name);
	err = git_merge_base(&base, h->repo, &bad->release->commit, &good->release->commit);
	if (err == GIT_ENOTFOUND)
		return;
	if (err < 0) {
		rolling_git_error(err, "cannot find the merge base of %s and %s", good_hex, bad_hex);
		die_last_error();
	}
	if (!git_oid_equal(&base, &good->release->commit))
		fprintf(h->progress, "git first asks to test their merge base %s\n",
			merge_base_name(base_name, sizeof(base_name), h, &base));
}

static void start_stage_two(struct helper *h, struct rolling_bisect_state *s, const git_oid *bad)
{
	char good_hex[GIT_OID_HEXSZ + 1], bad_hex[GIT_OID_HEXSZ + 1], name[ROLLING_STEP_BUFSZ];
	const char *reset[] = { "bisect", "reset", NULL };
	const char *args[] = { "bisect", "start", bad_hex, good_hex, "--", NULL };
	size_t b;

	if (!rolling_steps_find(&h->steps, bad, &b) || !git_oid_equal(bad, &h->steps.v[b].commit) ||
	    !b)
		die("stage one ended at %s, which is not a step of %s after the good one;"
		    " see git bisect log", git_oid_tostr(bad_hex, sizeof(bad_hex), bad),
		    h->branch_name);
	fprintf(h->progress, "stage one: the first bad step is %s\n", step_name(name, h, b));
	git_oid_tostr(bad_hex, sizeof(bad_hex), &h->steps.v[b].release->commit);
	git_oid_tostr(good_hex, sizeof(good_hex), &h->steps.v[b - 1].release->commit);

	if (git(h, ROLLING_RUN_NO_STDOUT, reset))
		die("git bisect reset failed; stage one is still in place");
	s->stage = 2;
	git_oid_cpy(&s->first_bad_step, &h->steps.v[b].commit);
	save_state(h, s);
	explain_stage_two(h, b, good_hex, bad_hex);
	if (git(h, 0, args)) {
		bisect_reset_quietly(h);
		rolling_bisect_state_remove(h->state_path);
		die("git bisect start failed for stage two; no bisection is left behind"
		    " (by hand: git bisect start %s %s)", bad_hex, good_hex);
	}
}

/* The end: what git found, and where the rolling branch first shipped it. */
static void report(struct helper *h, const git_oid *culprit)
{
	char hex[GIT_OID_HEXSZ + 1], name[ROLLING_STEP_BUFSZ];
	git_commit *commit;
	size_t k;
	int err;

	if (git_commit_lookup(&commit, h->repo, culprit) < 0)
		die("cannot read the first bad commit %s", git_oid_tostr(hex, sizeof(hex), culprit));
	printf("first bad commit: %s %s\n", git_oid_tostr(hex, sizeof(hex), culprit),
	       git_commit_summary(commit));
	git_commit_free(commit);
	if ((err = rolling_steps_first_containing(&k, h->repo, &h->steps, culprit)) < 0)
		die_last_error();
	if (!err) {
		printf("first shipped: not on %s\n", h->branch_name);
	} else {
		printf("first shipped: %s at %s\n", h->branch_name, step_name(name, h, k));
		if (k)
			printf("previous release: %s\n", h->steps.v[k - 1].release->name);
	}
	fflush(stdout);
	fprintf(h->progress, "hint: git bisect reset ends the bisection\n");
	rolling_bisect_state_remove(h->state_path);
}

static int cmd_next(struct helper *h, int argc)
{
	struct rolling_bisect_state s;
	git_oid bad;

	if (argc)
		usage_error();
	open_repository(h);
	require_work_tree(h);
	load_state(h, &s);
	if (s.stage == 1) {
		if (!bisect_done(&bad, 1))
		{
			error("stage one is not over yet: mark the step checked out with"
			      " git bisect good or git bisect bad");
			rolling_bisect_state_free(&s);
			return 1;
		}
		start_stage_two(h, &s, &bad);
		if (bisect_done(&bad, 0))
			report(h, &bad);
	} else if (bisect_done(&bad, 0)) {
		report(h, &bad);
	} else {
		error("stage two is not over yet: mark the commit checked out with"
		      " git bisect good or git bisect bad");
		rolling_bisect_state_free(&s);
		return 1;
	}
	rolling_bisect_state_free(&s);
	return 0;
}

/* --- run --------------------------------------------------------------- */

static int bisect_run(struct helper *h, int argc, const char **argv)
{
	const char **args = calloc((size_t)argc + 3, sizeof(*args));
	int i, status;

	if (!args)
		die("out of memory");
	args[0] = "bisect";
	args[1] = "run";
	for (i = 0; i < argc; i++)
		args[i + 2] = argv[i];
	status = git(h, 0, args);
	free(args);
	/* git bisect run does not end its last line. */
	fputc('\n', h->progress);
	return status;
}

static int cmd_run(struct helper *h, int argc, const char **argv)
{
	struct rolling_bisect_state s;
	git_oid bad;

	if (argc && !strcmp(argv[0], "--")) {
		argc--;
		argv++;
	}
	if (!argc)
		usage_error();
	h->progress = stderr;
	open_repository(h);
	require_work_tree(h);
	load_state(h, &s);
	if (s.stage == 1) {
		if (!bisect_done(&bad, 1) &&
		    (bisect_run(h, argc, argv) || !bisect_done(&bad, 1))) {
			error("git bisect run did not single out a step; see git bisect log,"
			      " carry on by hand, then git rolling bisect-helper next");
			rolling_bisect_state_free(&s);
			return 1;
		}
		start_stage_two(h, &s, &bad);
	}
	if (!bisect_done(&bad, 0) &&
	    (bisect_run(h, argc, argv) || !bisect_done(&bad, 0))) {
		error("git bisect run did not single out a commit; see git bisect log,"
		      " carry on by hand, then git rolling bisect-helper next");
		rolling_bisect_state_free(&s);
		return 1;
	}
	report(h, &bad);
	rolling_bisect_state_free(&s);
	return 0;
}

/* --- reset ------------------------------------------------------------- */

static int cmd_reset(struct helper *h, int argc)
{
	static const char *const args[] = { "bisect", "reset", NULL };
	int status;

	if (argc)
		usage_error();
	open_repository(h);
	require_work_tree(h);
	status = git(h, 0, args);
	if (rolling_bisect_state_remove(h->state_path) < 0)
		die_last_error();
	return status ? 128 : 0;
}

static int cmd_bisect_helper(int argc, const char **argv)
{
	struct helper h = { 0 };
	const char *cmd;
	int ret;

	h.progress = stdout;
	if (argc < 2)
		usage_error();
	cmd = argv[1];
	if (!strcmp(cmd, "run") && argc == 3 && !strcmp(argv[2], "-h")) {
		rolling_print_usage(stdout, bisect_helper_usage, options);
		exit(129);
	} else if (!strcmp(cmd, "run")) {
		/* Everything after "run" is the user's command, options and all. */
		ret = cmd_run(&h, argc - 2, argv + 2);
	} else if (!strcmp(cmd, "steps")) {
		argc = parse_options_or_usage(argc - 1, argv + 1, "bisect-helper", options,
					      bisect_helper_usage);
		ret = cmd_steps(&h, &opts, argc, argv + 1);
	} else if (!strcmp(cmd, "start")) {
		argc = parse_options_or_usage(argc - 1, argv + 1, "bisect-helper", options,
					      bisect_helper_usage);
		ret = cmd_start(&h, &opts, argc, argv + 1);
	} else if (!strcmp(cmd, "next")) {
		argc = parse_options_or_usage(argc - 1, argv + 1, "bisect-helper", no_options,
					      bisect_helper_usage);
		ret = cmd_next(&h, argc);
	} else if (!strcmp(cmd, "reset")) {
		argc = parse_options_or_usage(argc - 1, argv + 1, "bisect-helper", no_options,
					      bisect_helper_usage);
		ret = cmd_reset(&h, argc);
	} else {
		/* -h, --help, and mistakes. */
		parse_options_or_usage(argc, argv, "bisect-helper", options, bisect_helper_usage);
		error("unknown subcommand '%s'", cmd);
		usage_error();
	}
	drop_branch(&h);
	free(h.bisect_start);
	free(h.state_path);
	if (h.repo)
		git_repository_free(h.repo);
	return ret;
}

ROLLING_MAIN(cmd_bisect_helper)
