/*
 * git rolling init: configure a rolling branch and create it at the
 * release its policy recommends, or (--adopt) configure a rolling
 * branch that already exists, once it verifies, without moving it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/progress.h"
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/text.h"
#include "../cli/wrapper.h"
#include "../lib/backfill.h"
#include "../lib/branch.h"
#include "../lib/preset.h"
#include "../lib/abbrev.h"
#include "../lib/branch-plan.h"
#include "../lib/detect.h"
#include "../lib/ident.h"
#include "../lib/init-plan.h"
#include "../lib/repo.h"
#include "../lib/branch-move.h"
#include "../lib/remote-config.h"
#include "../lib/push-log-config.h"
#include "../lib/verify.h"
#include "../cli/verify-report.h"

static const char *const init_usage[] = {
	"git rolling init [--preset <name>] [--stable | --lts] [--switch <rule>] [--series <list>]\n"
	"                        [--pin <series>]\n"
	"                        [--release-pattern <regex> --mainline-pattern <regex>]\n"
	"                        [--ident <ident>] [--[no-]signoff] [--each] [--at <release>]\n"
	"                        [--backfill [--[no-]progress]] [--force] [-q] <branch>",
	"git rolling init --follow <remote>/<branch> [--[no-]signatures]\n"
	"                        [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                        [--push-log <log> [--push-log-repo <name>] [--push-log-ref <ref>]\n"
	"                         [--pusher <who>] [--[no-]require-latest]] [-q]",
	"git rolling init --adopt [--preset <name>] [--stable | --lts] [--switch <rule>]\n"
	"                        [--series <list>] [--pin <series>]\n"
	"                        [--release-pattern <regex> --mainline-pattern <regex>]\n"
	"                        [--ident <ident>] [--[no-]signoff] [--[no-]each] [--force] [-q] <branch>",
	"git rolling init --list-presets",
	NULL,
};

/* How many series with releases to list; older ones are only counted. */
#define SHOW_SERIES 8

struct init_options {
	struct rolling_init_settings settings;
	int list_presets;
	const char *at;
	int backfill;
	int progress;
	int adopt;
	int force;
	int quiet;
	const char *follow;
	int signatures;     /* for --follow; -1: leave as configured */
	/* For --follow: the push log fetch and verify check the tip against. */
	const char *push_log, *push_log_repo, *push_log_ref, *pusher;
	int require_latest; /* -1: leave as configured */
};

static void list_presets(void)
{
	const struct rolling_preset *presets;
	size_t nr, i;

	presets = rolling_presets(&nr);
	for (i = 0; i < nr; i++)
		printf("%-11s release %-9s mainline %-13s %s, switch %s\n", presets[i].name,
		       presets[i].example_release, presets[i].example_mainline,
		       presets[i].project, presets[i].switch_rule);
}

static void print_fit(FILE *out, const struct rolling_preset_fit *fit, size_t version_like)
{
	fprintf(out, "  %-11s reads %zu of %zu: %zu releases in %zu series, %zu mainline tags: ",
		fit->preset->name, rolling_preset_fit_reads(fit), version_like, fit->releases_nr,
		fit->series_nr, fit->mainline_nr);
	if (fit->implausible)
		fprintf(out, "does not fit (%s)\n", qtext(fit->implausible));
	else if (fit->pick)
		fprintf(out, "stable would start at %s\n", qtext(fit->pick));
	else
		fprintf(out, "no series qualifies yet\n");
}

/*
 * Why no preset was chosen, for the error line; NULL when the best
 * reads too few.
 */
static const char *why_none(const struct rolling_preset_fit *fits, size_t nr,
			    size_t version_like)
{
	size_t i, plausible = 0, majority = 0;

	for (i = 0; i < nr; i++) {
		plausible += !fits[i].implausible;
		majority += !fits[i].implausible &&
			    rolling_preset_fit_reads_enough(&fits[i], version_like);
	}
	if (!plausible)
		return "no preset fits the tags";
	if (majority > 1)
		return "several presets fit the tags equally well";
	return NULL;
}

/* More of the newest tags, or as many of them and more of all. */
static int reads_more_newest(const struct rolling_preset_fit *a,
			     const struct rolling_preset_fit *b)
{
	if (a->recent_reads != b->recent_reads)
		return a->recent_reads > b->recent_reads;
	return rolling_preset_fit_reads(a) > rolling_preset_fit_reads(b);
}

/*
 * A preset reading too few of all the tags is still taken when it reads
 * the newest (the rest being an older scheme's); say how near the
 * nearest came to that.
 */
static void hint_newest(const struct rolling_preset_fit *fits, size_t nr, size_t version_like)
{
	const struct rolling_preset_fit *most = NULL;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!fits[i].implausible && (!most || reads_more_newest(&fits[i], most)))
			most = &fits[i];
	/* Tags all of one age leave no older ones to forgive. */
	if (!most || most->recent_nr == version_like)
		return;
	hint("nor does any read two thirds of the %zu newest, which would leave the rest "
	     "to an older scheme: %s reads %zu of them", most->recent_nr, most->preset->name,
	     most->recent_reads);
}

static void print_detected(const struct rolling_preset_fit *best, size_t version_like)
{
	printf("tags read as preset %s (reads %zu of %zu version-like tags", best->preset->name,
	       rolling_preset_fit_reads(best), version_like);
	if (!rolling_preset_fit_is_majority(best, version_like))
		printf(" and %zu of the %zu newest", best->recent_reads, best->recent_nr);
	printf(": %zu releases, %zu mainline tags; see --list-presets)\n", best->releases_nr,
	       best->mainline_nr);
}

/*
 * No --preset and no patterns: the preset that reads the repository's
 * tags best, if exactly one does and it reads a clear majority of the
 * version-like tags or of the newest of them; else stop and show what
 * each would do.
 */
static const struct rolling_preset *detect_preset(git_repository *repo, int quiet)
{
	const struct rolling_preset_fit *best;
	const struct rolling_preset *found;
	struct rolling_preset_fit *fits;
	size_t nr, i, version_like;
	const char *why;

	if (rolling_preset_detect(&fits, &nr, &version_like, &best, repo) < 0)
		die_last_error();
	if (best) {
		found = best->preset;
		if (!quiet)
			print_detected(best, version_like);
		rolling_preset_fits_free(fits, nr);
		return found;
	}
	why = why_none(fits, nr, version_like);
	error("%s; of %zu version-like tags the presets read:",
	      why ? why : "no preset reads a clear majority (two thirds) of the version-like tags",
	      version_like);
	for (i = 0; i < nr; i++)
		print_fit(stderr, &fits[i], version_like);
	if (!why)
		hint_newest(fits, nr, version_like);
	rolling_preset_fits_free(fits, nr);
	hint("name the scheme with --preset <name>, or with --release-pattern and "
	     "--mainline-pattern");
	die("cannot tell the tag scheme; nothing created");
}

/* Turn the options into the configuration that will be written. */
static void build_config(struct rolling_config *cfg, const struct init_options *o,
			 const char *branch, git_repository *repo)
{
	const struct rolling_preset *detected = NULL;
	int detect = rolling_init_needs_detection(&o->settings.scheme);

	if (detect < 0)
		die_last_error();
	if (detect)
		detected = detect_preset(repo, o->quiet);
	if (rolling_init_config(cfg, &o->settings, branch, detected) < 0)
		die_last_error();
}

static const struct rolling_release *choose_target(struct rolling_branch *b, const char *at,
						   const struct rolling_series_info **followed)
{
	const struct rolling_release *release;

	if (rolling_branch_plan_start(&release, followed, b, at) >= 0)
		return release;
	if (at)
		die_last_error();
	if (b->tags.releases_nr)
		hint("use --at <release> to start at a release of your choice now");
	die("%s; nothing created", rolling_last_error());
}

static void show_findings(const struct rolling_branch *b,
			  const struct rolling_series_info *followed)
{
	const struct rolling_tags *tags = &b->tags;
	char name[ROLLING_SERIES_BUFSZ];
	size_t i = tags->series_nr > SHOW_SERIES ? tags->series_nr - SHOW_SERIES : 0;

	printf("found %zu release tags in %zu series, %zu mainline tags\n",
	       tags->releases_nr, tags->series_nr, tags->mainline_nr);
	if (i)
		printf("  (%zu older series not shown)\n", i);
	for (; i < tags->series_nr; i++) {
		const struct rolling_release *newest = rolling_series_newest(tags, &tags->series[i]);

		printf("  %-8s newest %s\n",
		       rolling_series_format(name, &tags->series[i].series),
		       newest ? qtext(newest->name) : "(no release tag leads to a commit)");
	}
	if (tags->has_mainline)
		printf("mainline has reached %s\n",
		       rolling_series_format(name, &tags->newest_mainline));
	if (followed)
		printf("policy %s%s follows %s\n", qtext(b->config.policy),
		       b->policy.has_pin ? " (pinned)" : "",
		       rolling_series_format(name, &followed->series));
}

static void create_branch(git_repository *repo, struct rolling_branch *b, const git_oid *tip,
			  const char *message, int force)
{
	struct rolling_ref_move move;
	git_oid old_tip;
	int exists = force && !rolling_branch_tip(&old_tip, repo, b->config.branch);

	git_oid_cpy(&move.to, tip);
	move.message = message;
	if (rolling_branch_create(repo, &b->config, exists ? &old_tip : NULL, &move) < 0)
		die_last_error();
}

/*
 * Create the branch with its past: the start release, then every step
 * advance would have made after each tag appeared (lib/backfill.c).
 */
static void backfill(git_repository *repo, struct rolling_branch *b, const struct init_options *o)
{
	struct rolling_backfill r;
	struct rolling_ident ident;
	struct strbuf message = STRBUF_INIT;
	char start[GIT_OID_HEXSZ + 1], tip[GIT_OID_HEXSZ + 1];
	int progress = rolling_progress_wanted(o->progress, o->quiet);

	if (rolling_branch_ident(&ident, repo, b) < 0)
		die_last_error();
	if (rolling_backfill_run(&r, repo, b, &ident, o->at, progress) < 0) {
		if (!o->at && b->tags.releases_nr)
			hint("use --at <release> to start at a release of your choice");
		die("%s; nothing created", rolling_last_error());
	}
	strbuf_addf(&message, "rolling: created at %s, backfilled %zu step%s",
		    r.start, r.steps, r.steps == 1 ? "" : "s");
	create_branch(repo, b, &r.tip, xstrbuf(&message), o->force);
	if (!o->quiet)
		printf("created '%s' at %s (%s), replayed %zu tag%s since: %zu step%s, tip %s\n",
		       qtext(b->config.branch), qtext(r.start), rolling_abbrev(start, repo, &r.start_commit),
		       r.events, r.events == 1 ? "" : "s", r.steps, r.steps == 1 ? "" : "s",
		       rolling_abbrev(tip, repo, &r.tip));
	rolling_backfill_release(&r);
	rolling_ident_release(&ident);
	strbuf_release(&message);
}

/* --follow: configure what git rolling fetch verifies; nothing else changes. */
static int follow(const struct init_options *o, int argc)
{
	const char *release_re, *mainline_re, *branch;
	git_repository *repo;
	char *remote;

	if (argc)
		die("--follow takes no <branch>: it names <remote>/<branch> itself");
	if (!o->push_log && (o->push_log_repo || o->push_log_ref || o->pusher ||
			     o->require_latest >= 0))
		die("--push-log-repo, --push-log-ref, --pusher and --require-latest need --push-log");
	if (rolling_init_follow_patterns(&release_re, &mainline_re, &o->settings.scheme) < 0 ||
	    rolling_repo_open(&repo) < 0 ||
	    rolling_init_split_followed(&remote, &branch, repo, o->follow) < 0 ||
	    rolling_remote_config_follow(repo, remote, branch, release_re, mainline_re,
					 o->signatures) < 0)
		die_last_error();
	if (o->push_log) {
		struct rolling_push_log_follow given = { o->push_log, o->push_log_repo,
							 o->push_log_ref, o->pusher,
							 o->require_latest };

		if (rolling_push_log_config_follow(repo, remote, branch, &given) < 0)
			die_last_error();
	}
	if (!o->quiet)
		printf("following %s/%s: git rolling fetch %s verifies it from now on%s\n",
		       qtext(remote), qtext(branch), qtext(remote),
		       o->push_log ? ", its tip against the push log" : "");
	free(remote);
	rolling_repo_free(repo);
	return 0;
}

/*
 * --adopt: the branch was built elsewhere (by hand with the maintainers'
 * recipe, say).  It must verify as `git rolling verify` proves a branch,
 * or advancing it would build on what the proof rejects.
 */
static void verify_adopted(struct rolling_verify_result *result, git_repository *repo,
			   struct rolling_branch *b, const git_oid *tip)
{
	const struct rolling_verify_options options = { 0 };

	if (rolling_verify(result, repo, tip, &b->tags, &b->patterns, &options) < 0)
		die_last_error();
	if (!result->failures_nr)
		return;
	rolling_verify_print_failure(b->config.branch, &result->failures[0]);
	hint("'git rolling verify' with the same tag patterns lists every failure");
	die("'%s' does not verify as a rolling branch (%s%zu failure%s); nothing configured",
	    b->config.branch, result->truncated ? "at least " : "", result->failures_nr,
	    result->failures_nr == 1 ? "" : "s");
}

/*
 * Without --each or --no-each, the branch's own cadence: one made a
 * merge per release goes on so, or its next advance would pass over
 * every release but the newest.  Returns whether it was read as --each.
 */
static int adopt_cadence(struct rolling_branch *b, const struct rolling_verify_result *verified,
			 int each)
{
	struct rolling_adopt_cadence c;

	if (each >= 0)
		return 0;
	rolling_init_adopt_cadence(&c, verified, &b->tags);
	if (!rolling_init_adopt_is_each(&c))
		return 0;
	free(b->config.steps);
	b->config.steps = xstrdup(rolling_steps_mode_name(ROLLING_STEPS_EACH));
	return 1;
}

/*
 * The merges after adoption are byte-identical to the branch's own only
 * with the same identity and trailer: say so when the tip was made
 * otherwise.
 */
static void hint_identity(git_repository *repo, const struct rolling_branch *b,
			  const git_oid *tip)
{
	struct rolling_adopt_mismatch m;

	if (rolling_init_adopt_mismatch(&m, repo, b, tip) < 0)
		die_last_error();
	if (m.name)
		hint("the tip was committed by '%s <%s>'; use --ident to make the"
		     " next merges with the same identity", m.name, m.email);
	if (m.signoff >= 0)
		hint("the tip %s a Signed-off-by trailer; use --%ssignoff to match it",
		     m.signoff ? "has" : "has no", m.signoff ? "" : "no-");
	rolling_adopt_mismatch_release(&m);
}

static void adopt(git_repository *repo, struct rolling_branch *b, int each, int quiet)
{
	struct rolling_verify_result verified;
	struct rolling_branch_plan plan = { 0 };
	struct rolling_config_tx tx;
	char hex[GIT_OID_HEXSZ + 1], series[ROLLING_SERIES_BUFSZ];
	int err;

	if ((err = rolling_branch_tip(&plan.tip, repo, b->config.branch)) == ROLLING_ENOTFOUND)
		die("--adopt: there is no branch named '%s'", b->config.branch);
	if (err < 0)
		die_last_error();
	verify_adopted(&verified, repo, b, &plan.tip);
	each = adopt_cadence(b, &verified, each);
	rolling_verify_result_release(&verified);
	/* The plan advance makes: where the branch stands, and where it heads. */
	if (rolling_branch_plan_read(&plan, repo, b) < 0 ||
	    rolling_branch_plan_steps(&plan, repo, b, &b->tags, NULL, NULL, 0) < 0)
		die_error_context("%s", b->config.branch);
	if (!quiet)
		show_findings(b, plan.target);
	hint_identity(repo, b, &plan.tip);
	if (rolling_config_stage(&tx, repo, &b->config) < 0 || rolling_config_commit(&tx) < 0)
		die_last_error();
	if (!quiet)
		printf("adopted '%s' at %s (%s), series %s\n", qtext(b->config.branch),
		       qtext(plan.current->name),
		       rolling_abbrev(hex, repo, &plan.tip),
		       rolling_series_format(series, &plan.current->version.series));
	if (each && !quiet)
		printf("steps each: the branch merged every release of its series, one merge"
		       " each (--no-each for the newest only)\n");
	rolling_branch_plan_release(&plan);
}

static int cmd_init(int argc, const char **argv)
{
	struct init_options o = { .settings = { .policy = ROLLING_POLICY_STABLE, .signoff = 1,
						.each = -1 },
				  .progress = -1, .signatures = -1, .require_latest = -1 };
	const struct rolling_option options[] = {
		OPT_TAG_SCHEME(&o.settings.scheme, "tag scheme of a known project (default: the one "
			       "that fits the tags)"),
		OPT_SWITCH(0, "list-presets", &o.list_presets,
			   "list the presets with an example tag of each"),
		OPT_SET_INT(0, "stable", &o.settings.policy, "follow the newest stable series (default)",
			    ROLLING_POLICY_STABLE),
		OPT_STRING(0, "switch", &o.settings.switch_rule, "rule",
			   "when stable moves to a new series: first-release, first-point-release"
			   " or next-rc1 (default: the preset's)"),
		OPT_SET_INT(0, "lts", &o.settings.policy, "follow the newest long-term series",
			    ROLLING_POLICY_LTS),
		OPT_STRING(0, "series", &o.settings.series, "list", "the long-term series, for --lts"),
		OPT_STRING(0, "pin", &o.settings.pin, "series", "hold the branch on one series"),
		OPT_STRING(0, "ident", &o.settings.ident, "ident",
			   "'Name <email>' for the merges (default: user.name, user.email)"),
		OPT_BOOL(0, "signoff", &o.settings.signoff, "add Signed-off-by to the merges (default)"),
		OPT_BOOL(0, "each", &o.settings.each,
			   "merge every release, one merge each (default: the newest only)"),
		OPT_STRING(0, "at", &o.at, "release", "create the branch at this release"),
		OPT_SWITCH(0, "backfill", &o.backfill,
			   "build the branch's past: the steps advance would have made since"),
		OPT_BOOL(0, "progress", &o.progress, "show progress while backfilling"),
		OPT_SWITCH(0, "adopt", &o.adopt,
			   "configure an existing rolling branch, once it verifies, without moving it"),
		OPT__FORCE(&o.force, "replace an existing branch and configuration"),
		OPT_STRING(0, "follow", &o.follow, "remote>/<branch",
			   "configure git rolling fetch to verify this branch of a remote"),
		OPT_BOOL(0, "signatures", &o.signatures,
			 "with --follow: fetch checks the release tags' signatures"),
		OPT_STRING(0, "push-log", &o.push_log, "log",
			   "with --follow: check the tip against this push log"),
		OPT_STRING(0, "push-log-repo", &o.push_log_repo, "name",
			   "with --push-log: the repository as the log names it"),
		OPT_STRING(0, "push-log-ref", &o.push_log_ref, "ref",
			   "with --push-log: the ref as the log names it"),
		OPT_STRING(0, "pusher", &o.pusher, "who",
			   "with --push-log: who may publish the branch (key or signer)"),
		OPT_BOOL(0, "require-latest", &o.require_latest,
			 "with --push-log: fail when the log records a later push"),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	const struct rolling_series_info *followed;
	const struct rolling_release *target;
	struct rolling_config cfg;
	struct rolling_branch b;
	struct rolling_ident ident;
	enum rolling_switch_rule rule;
	git_repository *repo;
	char hex[GIT_OID_HEXSZ + 1];

	argc = parse_options_or_usage(argc, argv, "init", options, init_usage);
	if (o.follow)
		return follow(&o, argc);
	if (o.signatures >= 0)
		die("--signatures goes with --follow");
	if (o.push_log || o.push_log_repo || o.push_log_ref || o.pusher || o.require_latest >= 0)
		die("--push-log and its options go with --follow");
	if (o.list_presets && !argc) {
		list_presets();
		return 0;
	}
	if (o.progress >= 0 && !o.backfill)
		die("--progress is for --backfill");
	if (argc != 1 || o.list_presets)
		usage_with_options(init_usage, options);
	if (rolling_init_check_branch_name(argv[0]) < 0)
		die_last_error();
	if (o.settings.ident && rolling_ident_parse(&ident, o.settings.ident, "--ident") < 0)
		die_last_error();
	if (o.settings.switch_rule &&
	    rolling_switch_rule_parse(&rule, o.settings.switch_rule, "--switch") < 0)
		die_last_error();
	if (o.settings.ident)
		rolling_ident_release(&ident);
	if (o.adopt && o.at)
		die("options '--adopt' and '--at' cannot be used together");
	if (o.adopt && o.backfill)
		die("options '--adopt' and '--backfill' cannot be used together");

	if (rolling_repo_open(&repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(repo) < 0)
		die_last_error();
	if (rolling_init_check_new(repo, argv[0], o.force, o.adopt) < 0)
		die_last_error();
	build_config(&cfg, &o, argv[0], repo);
	/* A tag read as both release and mainline (v2.44.0 by a trap pattern) stops it here. */
	if (rolling_branch_prepare(&b, repo, &cfg) < 0)
		die_last_error();
	if (o.adopt) {
		adopt(repo, &b, o.settings.each, o.quiet);
		rolling_branch_release(&b);
		rolling_repo_free(repo);
		return 0;
	}
	if (o.backfill) {
		backfill(repo, &b, &o);
	} else {
		struct strbuf message = STRBUF_INIT;

		target = choose_target(&b, o.at, &followed);
		if (!o.quiet)
			show_findings(&b, followed);
		strbuf_addf(&message, "rolling: created at %s", target->name);
		create_branch(repo, &b, &target->commit, xstrbuf(&message), o.force);
		strbuf_release(&message);
		if (!o.quiet)
			printf("created '%s' at %s (%s)\n", qtext(argv[0]), qtext(target->name),
			       rolling_abbrev(hex, repo, &target->commit));
	}
	rolling_branch_release(&b);
	rolling_repo_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_init)
