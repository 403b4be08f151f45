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
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/wrapper.h"
#include "../lib/bisect.h"
#include "../lib/branch.h"
#include "../lib/contains.h"
#include "../cli/progress.h"
#include "../lib/repo.h"
#include "../lib/run-command.h"
#include "../cli/step-format.h"
#include "../lib/steps.h"
#include "../cli/text.h"

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

struct helper_options {
	const char *branch;
	struct rolling_scheme_options scheme;
};

static const struct rolling_option no_options[] = { OPT_END() };

struct helper {
	const struct rolling_option *options;   /* for the usage */
	git_repository *repo;
	struct rolling_bisect bs;
	FILE *progress;         /* where stage messages go */
};

static void __attribute__((noreturn)) usage_error(const struct helper *h)
{
	usage_with_options(bisect_helper_usage, h->options);
}

/* --- the repository and git ------------------------------------------- */

static void open_repository(struct helper *h)
{
	if (rolling_repo_open(&h->repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(h->repo) < 0)
		die_last_error();
	h->bs.repo = h->repo;
}

/*
 * Open the repository of a command that drives git's bisection, where
 * git bisects: rolling_bisect_locate() relays git's refusal of a
 * subdirectory (git 2.39) before anything is printed or saved.
 */
static void open_work_tree(struct helper *h)
{
	open_repository(h);
	if (rolling_bisect_locate(&h->bs) < 0)
		die_last_error();
}

/* How much of what a git run prints is shown. */
enum shown { SHOW_ALL, SHOW_ERRORS, SHOW_NOTHING };

/*
 * Run git, dying when it cannot be run at all; returns its exit status.
 * What it prints goes where our progress goes.
 */
static int git(const struct helper *h, enum shown shown, const char *const *args)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	rolling_strvec_pushv(&git.args, args);
	if (shown != SHOW_ALL)
		git.out = ROLLING_CHILD_DISCARD;
	else if (h->progress == stderr)
		git.out = ROLLING_CHILD_TO_STDERR;
	if (shown == SHOW_NOTHING)
		git.err = ROLLING_CHILD_ERR_DISCARD;
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	if (status < 0)
		die_last_error();
	return status;
}

/* End a bisection this command started, quietly, before it reports an error. */
static void bisect_reset_quietly(const struct helper *h)
{
	static const char *const args[] = { "bisect", "reset", NULL };

	if (rolling_bisect_running(&h->bs))
		git(h, SHOW_NOTHING, args);
}

/* Leave neither git's bisection nor ours behind. */
static void clean_up(const struct helper *h)
{
	bisect_reset_quietly(h);
	rolling_bisect_state_remove(h->bs.state_path);
}

/* Give up, saying why. */
static void __attribute__((noreturn)) abandon(const struct helper *h, const char *why)
{
	clean_up(h);
	die("%s", why);
}

/*
 * Give up on the library's last error, which must survive the clean-up:
 * the calls that clean up may record messages of their own.
 */
static void __attribute__((noreturn)) abandon_last_error(const struct helper *h)
{
	char *message = rolling_error_take();

	clean_up(h);
	rolling_error_restore(ROLLING_ERROR, message);
	die_last_error();
}

/* --- the rolling branch ----------------------------------------------- */

static void choose_branch(struct helper *h, const struct helper_options *o, const char *rev)
{
	if (rolling_patterns_for_branch(&h->bs.release_re, &h->bs.mainline_re, &o->scheme,
					o->branch) < 0 ||
	    rolling_bisect_choose(&h->bs, o->branch, rev) < 0)
		die_last_error();
}

static const char *branch_name(const struct helper *h)
{
	return qtext(h->bs.branch.config.branch);
}

/* Step i as the commands show a step, in `name` (emptied first). */
static const char *step_name(struct strbuf *name, const struct helper *h, size_t i)
{
	strbuf_reset(name);
	rolling_step_format(name, h->repo, &h->bs.steps.v[i]);
	return xstrbuf(name);
}

/* Has git's bisection narrowed down to one commit (see rolling_bisect_found())? */
static int found(git_oid *bad, int first_parent)
{
	int err = rolling_bisect_found(bad, first_parent);

	if (err < 0)
		die_last_error();
	return err;
}

/* --- steps ------------------------------------------------------------ */

static int cmd_steps(struct helper *h, const struct helper_options *o, int argc,
		     const char **argv)
{
	char hex[GIT_OID_HEXSZ + 1], series[ROLLING_SERIES_BUFSZ], from[ROLLING_SERIES_BUFSZ];
	const struct rolling_steps *steps = &h->bs.steps;
	size_t g, b, i;

	if (argc > 2)
		usage_error(h);
	open_repository(h);
	choose_branch(h, o, argc == 2 ? argv[1] : argc ? argv[0] : NULL);
	if (rolling_bisect_range(&g, &b, &h->bs, argc ? argv[0] : NULL,
				 argc == 2 ? argv[1] : NULL) < 0)
		die_last_error();
	for (i = g + 1; i <= b; i++) {
		const struct rolling_step *step = &steps->v[i];

		printf("%s %s %s", git_oid_tostr(hex, sizeof(hex), &step->commit),
		       qtext(step->release->name),
		       rolling_series_format(series, &step->release->version.series));
		if (step->series_switch)
			printf(" (series switch from %s)",
			       rolling_series_format(from, &steps->v[i - 1].release->version.series));
		putchar('\n');
	}
	return 0;
}

/* --- start ------------------------------------------------------------ */

static void announce(struct helper *h, size_t g, size_t b)
{
	struct strbuf name = STRBUF_INIT;
	size_t at;
	int where = rolling_bisect_stage_one(&at, &h->bs);

	if (where < 0)
		die_last_error();
	if (where == ROLLING_BISECT_OVER || where == ROLLING_BISECT_OVER_ELSEWHERE)
		fprintf(h->progress, "stage one is over: the first bad step is %s\n"
			"next: git rolling bisect-helper next\n",
			where == ROLLING_BISECT_OVER ? step_name(&name, h, at) : "?");
	else if (where == ROLLING_BISECT_TESTING)
		fprintf(h->progress, "testing %s, step %zu of %zu; mark it with git bisect good"
			" or git bisect bad\n", step_name(&name, h, at), at - g, b - g);
	strbuf_release(&name);
}

static void save_state(struct helper *h, const struct rolling_bisect_state *s)
{
	if (rolling_bisect_state_write(s, h->bs.state_path) < 0)
		abandon_last_error(h);
}

static int cmd_start(struct helper *h, const struct helper_options *o, int argc,
		     const char **argv)
{
	char good_hex[GIT_OID_HEXSZ + 1], bad_hex[GIT_OID_HEXSZ + 1];
	struct strbuf good_name = STRBUF_INIT, bad_name = STRBUF_INIT;
	const char *args[] = { "bisect", "start", "--first-parent", bad_hex, good_hex, "--", NULL };
	struct rolling_bisect_state s;
	size_t g, b;

	if (argc != 2)
		usage_error(h);
	open_work_tree(h);
	if (rolling_bisect_running(&h->bs))
		die("a bisection is already in progress (see git bisect log);"
		    " end it with git bisect reset first");
	choose_branch(h, o, argv[0]);
	if (rolling_bisect_range(&g, &b, &h->bs, argv[1], argv[0]) < 0)
		die_last_error();

	if (rolling_bisect_start_state(&s, &h->bs, o->branch, g, b) < 0)
		die_last_error();
	save_state(h, &s);

	fprintf(h->progress, "stage one: bisecting the %zu steps of %s after %s (good) up to %s (bad)\n",
		b - g, branch_name(h), step_name(&good_name, h, g), step_name(&bad_name, h, b));
	strbuf_release(&good_name);
	strbuf_release(&bad_name);
	git_oid_tostr(bad_hex, sizeof(bad_hex), &s.bad);
	git_oid_tostr(good_hex, sizeof(good_hex), &s.good);
	rolling_bisect_state_release(&s);
	if (git(h, SHOW_ALL, args))
		abandon(h, "git bisect start failed; no bisection is left behind");
	announce(h, g, b);
	return 0;
}

/* --- from stage one to stage two, and the result ---------------------- */

/* Name a merge base for the user in `buf`: its abbreviation, and its tag if it has one. */
static const char *merge_base_name(struct strbuf *buf, struct helper *h, const git_oid *base)
{
	char abbrev[ROLLING_ABBREV_BUFSZ];
	char *tag;

	if (rolling_bisect_tag_name(&tag, &h->bs, base) < 0)
		die_last_error();
	strbuf_addstr(buf, rolling_abbrev(abbrev, h->repo, base));
	if (tag)
		strbuf_addf(buf, " (%s)", qtext(tag));
	free(tag);
	return xstrbuf(buf);
}

static void explain_stage_two(struct helper *h, size_t b)
{
	const struct rolling_step *bad = &h->bs.steps.v[b], *good = &h->bs.steps.v[b - 1];
	char from[ROLLING_SERIES_BUFSZ], to[ROLLING_SERIES_BUFSZ];
	struct strbuf base_name = STRBUF_INIT;
	git_oid base;
	int err;

	rolling_series_format(from, &good->release->version.series);
	rolling_series_format(to, &bad->release->version.series);
	if (!bad->series_switch) {
		fprintf(h->progress, "stage two: bisecting the %s stable commits from %s (good)"
			" to %s (bad)\n", to, qtext(good->release->name), qtext(bad->release->name));
		return;
	}
	fprintf(h->progress, "stage two: %s switches series %s -> %s, so git bisects the %s"
		" mainline and stable commits from %s (good) to %s (bad)\n",
		qtext(bad->release->name), from, to, to, qtext(good->release->name),
		qtext(bad->release->name));
	if ((err = rolling_bisect_stage_two_base(&base, &h->bs, b)) < 0)
		die_last_error();
	if (err)
		fprintf(h->progress, "git first asks to test their merge base %s\n",
			merge_base_name(&base_name, h, &base));
	strbuf_release(&base_name);
}

static void start_stage_two(struct helper *h, struct rolling_bisect_state *s, const git_oid *bad)
{
	char good_hex[GIT_OID_HEXSZ + 1], bad_hex[GIT_OID_HEXSZ + 1];
	struct strbuf name = STRBUF_INIT;
	const char *reset[] = { "bisect", "reset", NULL };
	const char *args[] = { "bisect", "start", bad_hex, good_hex, "--", NULL };
	size_t b;

	if (rolling_bisect_enter_stage_two(&b, &h->bs, s, bad) < 0)
		die_last_error();
	fprintf(h->progress, "stage one: the first bad step is %s\n", step_name(&name, h, b));
	strbuf_release(&name);
	git_oid_tostr(bad_hex, sizeof(bad_hex), &h->bs.steps.v[b].release->commit);
	git_oid_tostr(good_hex, sizeof(good_hex), &h->bs.steps.v[b - 1].release->commit);

	if (git(h, SHOW_ERRORS, reset))
		die("git bisect reset failed; stage one is still in place");
	save_state(h, s);
	explain_stage_two(h, b);
	if (git(h, SHOW_ALL, args)) {
		clean_up(h);
		die("git bisect start failed for stage two; no bisection is left behind"
		    " (by hand: git bisect start %s %s)", bad_hex, good_hex);
	}
}

/* The end: what git found, and where the rolling branch first shipped it. */
static void report(struct helper *h, const git_oid *culprit)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf name = STRBUF_INIT;
	struct rolling_progress *meter;
	git_commit *commit;
	size_t k;
	int err;

	if (git_commit_lookup(&commit, h->repo, culprit) < 0)
		die("cannot read the first bad commit %s", git_oid_tostr(hex, sizeof(hex), culprit));
	printf("first bad commit: %s %s\n", git_oid_tostr(hex, sizeof(hex), culprit),
	       qtext(git_commit_summary(commit)));
	git_commit_free(commit);
	/* Seconds without a commit-graph: a meter on a terminal, as git would show. */
	meter = rolling_progress_start("Checking ancestry", 0, rolling_progress_wanted(-1, 0));
	err = rolling_steps_first_containing(&k, h->repo, &h->bs.steps, culprit, meter);
	rolling_progress_stop(&meter);
	if (err < 0)
		die_last_error();
	if (!err) {
		printf("first shipped: not on %s\n", branch_name(h));
	} else {
		printf("first shipped: %s at %s\n", branch_name(h), step_name(&name, h, k));
		if (k)
			printf("previous release: %s\n", qtext(h->bs.steps.v[k - 1].release->name));
	}
	fflush(stdout);
	fprintf(h->progress, "hint: git bisect reset ends the bisection\n");
	rolling_bisect_state_remove(h->bs.state_path);
	strbuf_release(&name);
}

/*
 * The user's command, for `run`: NULL for `next`, which only looks at
 * what the user has marked.
 */
struct tester {
	int argc;
	const char **argv;
};

static int bisect_run(struct helper *h, const struct tester *t)
{
	const char **args = xcalloc((size_t)t->argc + 3, sizeof(*args));
	int i, status;

	args[0] = "bisect";
	args[1] = "run";
	for (i = 0; i < t->argc; i++)
		args[i + 2] = t->argv[i];
	status = git(h, SHOW_ALL, args);
	free(args);
	/* git bisect run does not end its last line. */
	fputc('\n', h->progress);
	/* It relayed the tester's output and commit subjects, raw. */
	terminal_reset_after_child();
	return status;
}

/*
 * Bring the current stage to its end: it is over when git has singled
 * out one commit, after `git bisect run` when there is a tester.
 */
static int stage_over(struct helper *h, const struct tester *t, git_oid *bad, int first_parent)
{
	if (found(bad, first_parent))
		return 1;
	return t && !bisect_run(h, t) && found(bad, first_parent);
}

static int not_over(const struct tester *t, const char *what)
{
	if (t)
		error("git bisect run did not single out a %s; see git bisect log,"
		      " carry on by hand, then git rolling bisect-helper next", what);
	else
		error("stage %s is not over yet: mark the %s checked out with"
		      " git bisect good or git bisect bad",
		      !strcmp(what, "step") ? "one" : "two", what);
	return 1;
}

/*
 * next and run: finish stage one and start stage two, then finish stage
 * two and report.  Without a tester, a stage two that has just started
 * waits for the user's marks.
 */
static int finish_stages(struct helper *h, const struct tester *t)
{
	struct rolling_bisect_state s;
	int just_started = 0, ret = 0;
	git_oid bad;

	open_work_tree(h);
	if (rolling_bisect_resume(&h->bs, &s) < 0)
		die_last_error();
	if (s.stage == 1) {
		if (!stage_over(h, t, &bad, 1)) {
			ret = not_over(t, "step");
			goto out;
		}
		start_stage_two(h, &s, &bad);
		just_started = 1;
	}
	if (stage_over(h, t, &bad, 0))
		report(h, &bad);
	else if (t || !just_started)
		ret = not_over(t, "commit");
out:
	rolling_bisect_state_release(&s);
	return ret;
}

static int cmd_next(struct helper *h, const struct helper_options *o, int argc,
		    const char **argv)
{
	(void)o;
	(void)argv;
	if (argc)
		usage_error(h);
	return finish_stages(h, NULL);
}

static int cmd_run(struct helper *h, const struct helper_options *o, int argc,
		   const char **argv)
{
	struct tester t = { argc, argv };

	(void)o;
	if (t.argc && !strcmp(t.argv[0], "--")) {
		t.argc--;
		t.argv++;
	}
	if (!t.argc)
		usage_error(h);
	h->progress = stderr;
	return finish_stages(h, &t);
}

/* --- reset ------------------------------------------------------------- */

static int cmd_reset(struct helper *h, const struct helper_options *o, int argc,
		     const char **argv)
{
	static const char *const args[] = { "bisect", "reset", NULL };
	int status;

	(void)o;
	(void)argv;
	if (argc)
		usage_error(h);
	open_work_tree(h);
	status = git(h, SHOW_ALL, args);
	if (rolling_bisect_state_remove(h->bs.state_path) < 0)
		die_last_error();
	return status ? 128 : 0;
}

/*
 * The subcommands, as git's builtins list theirs.  `run` hands everything
 * after its name to the user's command, options and all.
 */
#define SUBCOMMAND_RAW_ARGS 1   /* no option parsing */
#define SUBCOMMAND_NO_OPTIONS 2 /* takes no branch options */

static const struct subcommand {
	const char *name;
	int (*fn)(struct helper *h, const struct helper_options *o, int argc, const char **argv);
	unsigned flags;
} subcommands[] = {
	{ "steps", cmd_steps, 0 },
	{ "start", cmd_start, 0 },
	{ "next", cmd_next, SUBCOMMAND_NO_OPTIONS },
	{ "run", cmd_run, SUBCOMMAND_RAW_ARGS },
	{ "reset", cmd_reset, SUBCOMMAND_NO_OPTIONS },
};

static const struct subcommand *find_subcommand(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static int cmd_bisect_helper(int argc, const char **argv)
{
	struct helper_options o = { 0 };
	const struct rolling_option options[] = {
		OPT_STRING('b', "branch", &o.branch, "branch",
			   "the rolling branch (default: the one <bad> is on)"),
		OPT_TAG_SCHEME(&o.scheme, "read --branch, an unconfigured rolling branch, "
			       "with a preset's tags"),
		OPT_END(),
	};
	struct helper h = { .options = options, .progress = stdout };
	const struct subcommand *sub;
	int ret;

	if (argc < 2)
		usage_error(&h);
	if (!(sub = find_subcommand(argv[1]))) {
		const char *name = argv[1];

		/* -h, --help, and mistakes. */
		parse_options_or_usage(argc, argv, "bisect-helper", options, bisect_helper_usage);
		error("unknown subcommand '%s'", name);
		usage_error(&h);
	}
	if (sub->flags & SUBCOMMAND_RAW_ARGS) {
		if (argc == 3 && !strcmp(argv[2], "-h")) {
			rolling_print_usage(stdout, bisect_helper_usage, options);
			exit(129);
		}
		argc -= 2;
		argv += 2;
	} else {
		argc = parse_options_or_usage(argc - 1, argv + 1, "bisect-helper",
					      sub->flags & SUBCOMMAND_NO_OPTIONS ? no_options : options,
					      bisect_helper_usage);
		argv++;
	}
	ret = sub->fn(&h, &o, argc, argv);
	rolling_bisect_release(&h.bs);
	if (h.repo)
		rolling_repo_free(h.repo);
	return ret;
}

ROLLING_MAIN(cmd_bisect_helper)
