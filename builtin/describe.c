/*
 * git rolling describe: which step of a rolling branch first brought a
 * commit in, or why none did.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/text.h"
#include "../cli/wrapper.h"
#include "../lib/backport.h"
#include "../lib/branch.h"
#include "../lib/contains.h"
#include "../lib/mainline.h"
#include "../cli/progress.h"
#include "../lib/repo.h"
#include "../cli/step-format.h"
#include "../lib/steps.h"
#include "../lib/revision.h"

static const char *const describe_usage[] = {
	"git rolling describe [-b | --branch <branch>] [--[no-]backports] [--[no-]progress] [-q]\n"
	"                            <commit>...",
	"git rolling describe --branch <rev> (--preset <name> | --release-pattern <regex>\n"
	"                            --mainline-pattern <regex>) [--[no-]backports] [--[no-]progress]\n"
	"                            [-q] <commit>...",
	NULL,
};

struct describe_options {
	const char *branch;
	struct rolling_scheme_options scheme;
	int backports;
	int quiet;
	int progress;
};

/* A commit asked about, resolved once for all branches. */
struct subject {
	const char *arg;
	git_oid commit;
};

/* A rolling branch read for describing: its tags and its steps. */
struct described_branch {
	struct rolling_branch b;
	struct rolling_steps steps;
	struct rolling_mainline mainline;
	int mainline_loaded;
};

static void open_branch(struct described_branch *d, git_repository *repo, const char *name,
			const char *release_re, const char *mainline_re)
{
	git_oid tip;

	memset(d, 0, sizeof(*d));
	if (rolling_branch_open(&d->b, &tip, repo, name, release_re, mainline_re) < 0)
		die_last_error();
	if (rolling_steps_list(&d->steps, repo, &tip, &d->b.tags, &d->b.patterns) < 0)
		die_error_context("%s", name);
}

static void free_branch(struct described_branch *d)
{
	if (d->mainline_loaded)
		rolling_mainline_release(&d->mainline);
	rolling_steps_release(&d->steps);
	rolling_branch_release(&d->b);
}

static void say(const struct describe_options *o, const struct subject *s, int many,
		const char *fmt, ...) ROLLING_PRINTF(4, 5);

static void say(const struct describe_options *o, const struct subject *s, int many,
		const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	if (many)
		printf("%s: ", qtext(s->arg));
	va_start(ap, fmt);
	qvprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * What a backport search (`err` from rolling_fix_find() or rolling_*_left*()) says:
 * dies on an error, warns when it stopped at ROLLING_BACKPORT_LIMIT
 * commits (it may have missed one), and returns whether it found one.
 */
static int backport_found(const struct described_branch *d, const struct subject *s,
			  int err, int truncated)
{
	if (err < 0)
		die_last_error();
	if (truncated)
		rolling_warning("%s: gave up looking for backports of %s after %d commits",
				d->b.config.branch, s->arg, ROLLING_BACKPORT_LIMIT);
	return err > 0;
}

static void load_mainline(struct described_branch *d, git_repository *repo)
{
	if (d->mainline_loaded)
		return;
	if (rolling_mainline_load(&d->mainline, repo, &d->b.patterns) < 0)
		die_last_error();
	d->mainline_loaded = 1;
}

/* The first step that holds `commit`; dies when none does, or on an error. */
static size_t step_holding(struct described_branch *d, git_repository *repo, const git_oid *commit)
{
	char abbrev[ROLLING_ABBREV_BUFSZ];
	size_t index;
	int err = rolling_steps_first_containing(&index, repo, &d->steps, commit, NULL);

	if (err < 0)
		die_last_error();
	if (!err)
		die("internal error: %s is not on %s", rolling_abbrev(abbrev, repo, commit),
		    d->b.config.branch);
	return index;
}

/* Where the branch got a fix, by whatever route. */
struct fix_route {
	git_oid commit;         /* the copy the branch has */
	size_t step;            /* the first step that holds it */
	int upstream;           /* it is an upstream commit the one asked about names */
};

/*
 * Not on the branch: did the fix reach it under another id?  The
 * upstream commits it names may be on the branch themselves; else a
 * copy (a backport naming one of them, or the same change under the same
 * subject) came in with the stable commits of a step.  Of those, the
 * one the branch got first.  Returns 1 with *route set, else 0.
 */
static int find_fix(struct fix_route *route, struct described_branch *d, git_repository *repo,
		    const struct subject *s)
{
	struct rolling_fix fix;
	git_oid copy;
	size_t i, index;
	int truncated, err, found = 0;

	load_mainline(d, repo);
	if (rolling_fix_init(&fix, repo, &s->commit) < 0)
		die_last_error();
	for (i = 1; i < fix.nr; i++) {
		if ((err = rolling_steps_first_containing(&index, repo, &d->steps, &fix.ids[i],
							  NULL)) < 0)
			die_last_error();
		if (err && (!found || index < route->step)) {
			git_oid_cpy(&route->commit, &fix.ids[i]);
			route->step = index;
			route->upstream = found = 1;
		}
	}
	err = rolling_fix_find(&copy, &truncated, repo, &d->steps, &d->mainline, &fix,
			       ROLLING_BACKPORT_LIMIT);
	rolling_fix_release(&fix);
	if (!backport_found(d, s, err, truncated))
		return found;
	index = step_holding(d, repo, &copy);
	if (!found || index < route->step) {
		git_oid_cpy(&route->commit, &copy);
		route->step = index;
		route->upstream = 0;
	}
	return 1;
}

/*
 * Not on the branch and not in what it merged: a backport may still have
 * shipped in a series the branch followed and left.  Returns 1 when one
 * was shown.
 */
static int describe_left_backport(struct described_branch *d, git_repository *repo,
				  const struct describe_options *o, const struct subject *s,
				  int many)
{
	char abbrev[ROLLING_ABBREV_BUFSZ], series[ROLLING_SERIES_BUFSZ];
	const struct rolling_release *release = NULL;
	git_oid found;
	int truncated, err;

	load_mainline(d, repo);
	err = rolling_backport_find_left(&found, &release, &truncated, repo, &d->steps,
					 &d->b.tags, &d->mainline, &s->commit,
					 ROLLING_BACKPORT_LIMIT);
	if (!backport_found(d, s, err, truncated))
		return 0;
	say(o, s, many, "not in %s; backported as %s in %s, after the branch left the %s series",
	    d->b.config.branch, rolling_abbrev(abbrev, repo, &found), release->name,
	    rolling_series_format(series, &release->version.series));
	return 1;
}

/*
 * A commit that a series got after the branch left it never reaches the
 * branch: say so, and whether the fix came by another route.  Returns 1
 * when it was such a commit.
 */
static int describe_left_commit(struct described_branch *d, git_repository *repo,
				const struct describe_options *o, const struct subject *s,
				int many)
{
	char abbrev[ROLLING_ABBREV_BUFSZ], series[ROLLING_SERIES_BUFSZ];
	const struct rolling_release *left = NULL, *release = NULL;
	struct strbuf step = STRBUF_INIT;
	struct fix_route route;
	int truncated, err;

	load_mainline(d, repo);
	err = rolling_left_series_holding(&left, &release, &truncated, repo, &d->steps,
					  &d->b.tags, &d->mainline, &s->commit,
					  ROLLING_BACKPORT_LIMIT);
	if (!backport_found(d, s, err, truncated))
		return 0;
	rolling_series_format(series, &left->version.series);
	if (!o->backports || !find_fix(&route, d, repo, s)) {
		say(o, s, many, "never in %s: the branch left %s at %s", d->b.config.branch,
		    series, left->name);
		return 1;
	}
	rolling_step_format(&step, repo, &d->steps.v[route.step]);
	say(o, s, many, "never in %s: the branch left %s at %s; the fix reached it as %s in %s",
	    d->b.config.branch, series, left->name, rolling_abbrev(abbrev, repo, &route.commit),
	    xstrbuf(&step));
	strbuf_release(&step);
	return 1;
}

/*
 * Not on the branch, nor left behind in a series it followed: a copy of
 * the fix may be.  Returns 1 when one was shown.
 */
static int describe_backport(struct described_branch *d, git_repository *repo,
			     const struct describe_options *o, const struct subject *s, int many)
{
	char abbrev[ROLLING_ABBREV_BUFSZ];
	struct strbuf step = STRBUF_INIT;
	struct fix_route route;

	if (!find_fix(&route, d, repo, s))
		return 0;
	rolling_step_format(&step, repo, &d->steps.v[route.step]);
	say(o, s, many, route.upstream ? "not in %s; the fix reached it as %s in %s" :
	    "not in %s; backported as %s in %s", d->b.config.branch,
	    rolling_abbrev(abbrev, repo, &route.commit), xstrbuf(&step));
	strbuf_release(&step);
	return 1;
}

/* Describe one commit on one branch; 1 when the branch contains it. */
static int describe_one(struct described_branch *d, git_repository *repo,
			const struct describe_options *o, const struct subject *s, int many)
{
	struct strbuf step = STRBUF_INIT;
	size_t index;
	/* Without a commit-graph each ancestry query walks history: seconds on a kernel. */
	struct rolling_progress *progress = rolling_progress_start("Checking ancestry", 0,
		rolling_progress_wanted(o->progress, o->quiet));
	int err = rolling_steps_first_containing(&index, repo, &d->steps, &s->commit, progress);

	rolling_progress_stop(&progress);
	if (err < 0)
		die_last_error();
	if (err) {
		rolling_step_format(&step, repo, &d->steps.v[index]);
		say(o, s, many, "first in %s at %s", d->b.config.branch, xstrbuf(&step));
		strbuf_release(&step);
		return 1;
	}
	/* Quiet: the exit status is the same either way. */
	if (o->quiet || describe_left_commit(d, repo, o, s, many))
		return 0;
	if (!o->backports ||
	    (!describe_backport(d, repo, o, s, many) &&
	     !describe_left_backport(d, repo, o, s, many)))
		say(o, s, many, "not in %s yet", d->b.config.branch);
	return 0;
}

static int cmd_describe(int argc, const char **argv)
{
	struct describe_options o = { .backports = 1, .progress = -1 };
	const struct rolling_option options[] = {
		OPT_STRING('b', "branch", &o.branch, "branch",
			   "the rolling branch (default: every configured one)"),
		OPT_TAG_SCHEME(&o.scheme, "read --branch, an unconfigured rolling branch, "
			       "with a preset's tags"),
		OPT_BOOL(0, "backports", &o.backports,
			 "look for backports of commits not on the branch (default)"),
		OPT_BOOL(0, "progress", &o.progress,
			 "show progress while asking which steps contain a commit"),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	const char *release_re, *mainline_re;
	struct subject *subjects;
	char **branches = NULL;
	size_t nr, i, j;
	git_repository *repo;
	int all = 1;

	argc = parse_options_or_usage(argc, argv, "describe", options, describe_usage);
	if (argc < 1)
		usage_with_options(describe_usage, options);
	if (rolling_patterns_for_branch(&release_re, &mainline_re, &o.scheme, o.branch) < 0)
		die_last_error();

	if (rolling_repo_open(&repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(repo) < 0)
		die_last_error();
	subjects = xcalloc((size_t)argc, sizeof(*subjects));
	for (i = 0; i < (size_t)argc; i++) {
		subjects[i].arg = argv[i];
		if (rolling_resolve_commit(&subjects[i].commit, repo, argv[i]) < 0)
			die_last_error();
	}
	if (rolling_config_branches_or_named(&branches, &nr, repo, &o.branch, o.branch ? 1 : 0) < 0)
		die("%s; name one with --branch (and --preset for a branch git rolling "
		    "does not manage)", rolling_last_error());
	for (j = 0; j < nr; j++) {
		struct described_branch d;

		open_branch(&d, repo, branches[j], release_re, mainline_re);
		for (i = 0; i < (size_t)argc; i++)
			all &= describe_one(&d, repo, &o, &subjects[i], argc > 1);
		free_branch(&d);
	}
	rolling_config_free_branches(branches, nr);
	free(subjects);
	rolling_repo_free(repo);
	return all ? 0 : 1;
}

ROLLING_MAIN(cmd_describe)
