/*
 * git rolling init: configure a rolling branch and create it at the
 * release its policy recommends, or (--adopt) configure a rolling
 * branch that already exists, once it verifies, without moving it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../lib/usage.h"
#include "../lib/setup.h"
#include "../lib/branch.h"
#include "../lib/preset.h"
#include "../lib/detect.h"
#include "../lib/branch-open.h"
#include "../lib/ident.h"
#include "../lib/repo.h"
#include "../lib/update.h"
#include "../lib/merge.h"
#include "../lib/verify.h"

static const char *const init_usage[] = {
	"git rolling init [--preset <name>] [--stable | --lts] [--series <list>] [--pin <series>]\n"
	"                        [--release-pattern <regex> --mainline-pattern <regex>]\n"
	"                        [--ident <ident>] [--[no-]signoff] [--each] [--at <release>] [--force] [-q]\n"
	"                        <branch>",
	"git rolling init --adopt [--preset <name>] [--stable | --lts] [--series <list>] [--pin <series>]\n"
	"                        [--release-pattern <regex> --mainline-pattern <regex>]\n"
	"                        [--ident <ident>] [--[no-]signoff] [--each] [--force] [-q] <branch>",
	"git rolling init --list-presets",
	NULL,
};

/* How many series with releases to list; older ones are only counted. */
#define SHOW_SERIES 8

struct init_options {
	struct rolling_scheme_options scheme;
	int list_presets;
	int policy;
	const char *series;
	const char *pin;
	const char *ident;
	int signoff;
	int each;
	const char *at;
	int adopt;
	int force;
	int quiet;
};

static char *xstrdup_or_null(const char *s)
{
	char *copy;

	if (!s)
		return NULL;
	if (!(copy = strdup(s)))
		die("out of memory");
	return copy;
}

static void list_presets(void)
{
	const struct rolling_preset *presets;
	size_t nr, i;

	presets = rolling_presets(&nr);
	for (i = 0; i < nr; i++)
		printf("%-11s release %-9s mainline %-13s %s\n", presets[i].name,
		       presets[i].example_release, presets[i].example_mainline,
		       presets[i].project);
}

static void print_fit(FILE *out, const struct rolling_preset_fit *fit)
{
	fprintf(out, "  %-11s %zu releases in %zu series, %zu mainline tags: ", fit->preset->name,
		fit->releases_nr, fit->series_nr, fit->mainline_nr);
	if (fit->implausible)
		fprintf(out, "does not fit (%s)\n", fit->implausible);
	else if (fit->pick)
		fprintf(out, "stable would start at %s\n", fit->pick);
	else
		fprintf(out, "no series qualifies yet\n");
}

/*
 * No --preset and no patterns: the preset that reads the repository's
 * tags best, if exactly one does; else stop and show what each would do.
 */
static const struct rolling_preset *detect_preset(git_repository *repo, int quiet)
{
	const struct rolling_preset_fit *best;
	const struct rolling_preset *found;
	struct rolling_preset_fit *fits;
	size_t nr, i, plausible = 0;

	if (rolling_preset_detect(&fits, &nr, &best, repo) < 0)
		die_last_error();
	if (best) {
		found = best->preset;
		if (!quiet)
			printf("tags read as preset %s (%zu releases, %zu mainline tags; "
			       "see --list-presets)\n", found->name, best->releases_nr,
			       best->mainline_nr);
		rolling_preset_fits_free(fits, nr);
		return found;
	}
	for (i = 0; i < nr; i++)
		plausible += !fits[i].implausible;
	error("%s; the presets read the tags so:",
	      plausible ? "several presets fit the tags equally well" : "no preset fits the tags");
	for (i = 0; i < nr; i++)
		print_fit(stderr, &fits[i]);
	rolling_preset_fits_free(fits, nr);
	hint("name the scheme with --preset <name>, or with --release-pattern and "
	     "--mainline-pattern");
	die("cannot tell the tag scheme; nothing created");
}

/* Turn the options into the configuration that will be written. */
static void build_config(struct rolling_config *cfg, const struct init_options *o,
			 const char *branch, git_repository *repo)
{
	const struct rolling_preset *preset = NULL;
	const char *release_re, *mainline_re;

	if (rolling_patterns_from_options(&release_re, &mainline_re, &o->scheme) < 0)
		die_last_error();
	if (o->scheme.preset)
		preset = rolling_preset_find(o->scheme.preset);
	else if (!release_re)
		preset = detect_preset(repo, o->quiet);
	if (!release_re) {
		release_re = preset->release_pattern;
		mainline_re = preset->mainline_pattern;
	}
	if (o->series && o->policy != ROLLING_POLICY_LTS)
		die("--series lists long-term series; it needs --lts");
	memset(cfg, 0, sizeof(*cfg));
	cfg->branch = xstrdup_or_null(branch);
	cfg->policy = xstrdup_or_null(o->policy == ROLLING_POLICY_LTS ? "lts" : "stable");
	cfg->release_pattern = xstrdup_or_null(release_re);
	cfg->mainline_pattern = xstrdup_or_null(mainline_re);
	if (o->policy == ROLLING_POLICY_LTS)
		cfg->series = xstrdup_or_null(o->series ? o->series :
					      preset ? preset->lts_series : NULL);
	cfg->pin = xstrdup_or_null(o->pin);
	cfg->ident = xstrdup_or_null(o->ident);
	cfg->signoff = o->signoff;
	if (o->each)
		cfg->steps = xstrdup_or_null(rolling_steps_mode_name(ROLLING_STEPS_EACH));
}

/* The trap a pattern like v(X)\.(Y)\.(Z) sets for git's v2.44.0: refuse it. */
static void check_unambiguous(const struct rolling_branch *b)
{
	if (!b->tags.both_nr)
		return;
	hint("a release pattern must not match mainline tags: see the presets "
	     "(--list-presets) for schemes that tell them apart");
	die("tag '%s'%s matches both the release and the mainline pattern; nothing created",
	    b->tags.both_example, b->tags.both_nr > 1 ? " (and others)" : "");
}

/* A new branch must not exist yet; an adopted one is not configured yet. */
static void check_not_configured(git_repository *repo, const char *branch, int force,
				 int adopt)
{
	struct rolling_config existing;
	git_oid tip;
	int err;

	if (force)
		return;
	err = adopt ? ROLLING_ENOTFOUND : rolling_branch_tip(&tip, repo, branch);
	if (!err)
		die("a branch named '%s' already exists (use --force to replace it)", branch);
	if (err != ROLLING_ENOTFOUND)
		die_last_error();
	err = rolling_config_read(&existing, repo, branch);
	if (!err || err != ROLLING_ENOTFOUND)
		die("rolling.%s.* is already configured (use --force to replace it)", branch);
	rolling_config_free(&existing);
}

static const struct rolling_release *choose_target(struct rolling_branch *b, const char *at,
						   const struct rolling_series_info **followed)
{
	const struct rolling_release *release;

	*followed = NULL;
	if (at) {
		if (!(release = rolling_tags_find_name(&b->tags, &b->patterns, at)) ||
		    !rolling_release_is_commit(&b->tags, release))
			die("'%s' is not a release tag matching rolling.%s.releasePattern",
			    at, b->config.branch);
		return release;
	}
	if (rolling_policy_series(followed, &b->policy, &b->tags) < 0) {
		char message[1024];

		snprintf(message, sizeof(message), "%s", rolling_last_error());
		if (b->tags.releases_nr)
			hint("use --at <release> to start at a release of your choice now");
		die("%s; nothing created", message);
	}
	return rolling_series_newest(&b->tags, *followed);
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
		       rolling_series_format(name, sizeof(name), &tags->series[i].series),
		       newest ? newest->name : "(no release tag leads to a commit)");
	}
	if (tags->has_mainline)
		printf("mainline has reached %s\n",
		       rolling_series_format(name, sizeof(name), &tags->newest_mainline));
	if (followed)
		printf("policy %s%s follows %s\n", b->config.policy,
		       b->policy.has_pin ? " (pinned)" : "",
		       rolling_series_format(name, sizeof(name), &followed->series));
}

/* Put the branch back as it was after the configuration could not be written. */
static void undo_create(git_repository *repo, const char *branch, const git_oid *old_tip,
			const git_oid *created)
{
	char refname[1024];
	git_reference *ref;

	snprintf(refname, sizeof(refname), "refs/heads/%s", branch);
	if (old_tip) {
		if (!git_reference_create_matching(&ref, repo, refname, old_tip, 1, created,
						   "rolling: init failed, restored"))
			git_reference_free(ref);
	} else if (!git_reference_lookup(&ref, repo, refname)) {
		if (git_oid_equal(git_reference_target(ref), created))
			git_reference_delete(ref);
		git_reference_free(ref);
	}
}

static void create_branch(git_repository *repo, struct rolling_branch *b,
			  const struct rolling_release *target, int force)
{
	const char *branch = b->config.branch;
	struct rolling_config_tx tx;
	struct rolling_ref_move move;
	git_oid old_tip;
	int exists = force && !rolling_branch_tip(&old_tip, repo, branch);

	git_oid_cpy(&move.to, &target->commit);
	snprintf(move.message, sizeof(move.message), "rolling: created at %s", target->name);
	/*
	 * The configuration is staged under its lock and committed once the
	 * branch exists; if either fails, neither is left behind.
	 */
	if (rolling_config_stage(&tx, repo, &b->config) < 0)
		die_last_error();
	if (rolling_branch_move(repo, branch, exists ? &old_tip : NULL, &move, 1) < 0) {
		rolling_config_abort(&tx);
		die_last_error();
	}
	if (rolling_config_commit(&tx) < 0) {
		undo_create(repo, branch, exists ? &old_tip : NULL, &move.to);
		die_last_error();
	}
}

/*
 * --adopt: the branch was built elsewhere (by hand with the maintainers'
 * recipe, say).  It must verify as `git rolling verify` proves a branch,
 * or advancing it would build on what the proof rejects.
 */
static void verify_adopted(git_repository *repo, struct rolling_branch *b, const git_oid *tip)
{
	const struct rolling_verify_options options = { 0 };
	const struct rolling_verify_failure *f;
	struct rolling_verify_result result;
	char hex[GIT_OID_HEXSZ + 1];

	if (rolling_verify(&result, repo, tip, &b->tags, &b->patterns, &options) < 0)
		die_last_error();
	if (!result.failures_nr) {
		rolling_verify_free(&result);
		return;
	}
	f = &result.failures[0];
	error("%s: %s: %s: expected %s, found %s", b->config.branch,
	      git_oid_tostr(hex, sizeof(hex), &f->commit), rolling_verify_check_name(f->check),
	      f->expected, f->found);
	hint("'git rolling verify' with the same tag patterns lists every failure");
	die("'%s' does not verify as a rolling branch (%s%zu failure%s); nothing configured",
	    b->config.branch, result.truncated ? "at least " : "", result.failures_nr,
	    result.failures_nr == 1 ? "" : "s");
}

/*
 * The merges after adoption are byte-identical to the branch's own only
 * with the same identity and trailer: say so when the tip was made
 * otherwise.
 */
static void hint_identity(git_repository *repo, const struct rolling_branch *b,
			  const git_oid *tip)
{
	const git_signature *committer;
	struct rolling_ident ident;
	git_commit *commit;
	char key[1024];
	int signed_off;

	if (git_commit_lookup(&commit, repo, tip) < 0)
		return;
	if (git_commit_parentcount(commit) == 2 &&
	    !rolling_ident_for(&ident, repo, b->config.ident,
			       rolling_config_key(key, sizeof(key), b->config.branch, "ident"))) {
		committer = git_commit_committer(commit);
		if (strcmp(committer->name, ident.name) || strcmp(committer->email, ident.email))
			hint("the tip was committed by '%s <%s>'; use --ident to make the"
			     " next merges with the same identity", committer->name,
			     committer->email);
		signed_off = strstr(git_commit_message(commit), "\nSigned-off-by: ") != NULL;
		if (signed_off != b->config.signoff)
			hint("the tip %s a Signed-off-by trailer; use --%ssignoff to match it",
			     signed_off ? "has" : "has no", signed_off ? "" : "no-");
		rolling_ident_free(&ident);
	}
	git_commit_free(commit);
}

static void adopt(git_repository *repo, struct rolling_branch *b, int quiet)
{
	const struct rolling_series_info *target;
	const struct rolling_release *current;
	struct rolling_config_tx tx;
	char hex[GIT_OID_HEXSZ + 1], series[ROLLING_SERIES_BUFSZ];
	git_oid tip;
	int err;

	if ((err = rolling_branch_tip(&tip, repo, b->config.branch)) == ROLLING_ENOTFOUND)
		die("--adopt: there is no branch named '%s'", b->config.branch);
	if (err < 0)
		die_last_error();
	verify_adopted(repo, b, &tip);
	/* The same question advance asks: where the branch stands, and where it heads. */
	if (rolling_tip_release(&current, repo, &tip, &b->tags, &b->patterns) < 0 ||
	    rolling_policy_target(&target, NULL, &b->policy, &b->tags, current, NULL) < 0)
		die("%s: %s", b->config.branch, rolling_last_error());
	if (!quiet)
		show_findings(b, target);
	hint_identity(repo, b, &tip);
	if (rolling_config_stage(&tx, repo, &b->config) < 0 || rolling_config_commit(&tx) < 0)
		die_last_error();
	if (!quiet)
		printf("adopted '%s' at %s (%s), series %s\n", b->config.branch, current->name,
		       git_oid_tostr(hex, 8, &tip),
		       rolling_series_format(series, sizeof(series), &current->version.series));
}

static int cmd_init(int argc, const char **argv)
{
	struct init_options o = { .policy = ROLLING_POLICY_STABLE, .signoff = 1 };
	const struct rolling_option options[] = {
		OPT_TAG_SCHEME(&o.scheme, "tag scheme of a known project (default: the one "
			       "that fits the tags)"),
		OPT_SWITCH(0, "list-presets", &o.list_presets,
			   "list the presets with an example tag of each"),
		OPT_SET_INT(0, "stable", &o.policy, "follow the newest stable series (default)",
			    ROLLING_POLICY_STABLE),
		OPT_SET_INT(0, "lts", &o.policy, "follow the newest long-term series",
			    ROLLING_POLICY_LTS),
		OPT_STRING(0, "series", &o.series, "list", "the long-term series, for --lts"),
		OPT_STRING(0, "pin", &o.pin, "series", "hold the branch on one series"),
		OPT_STRING(0, "ident", &o.ident, "ident",
			   "'Name <email>' for the merges (default: user.name, user.email)"),
		OPT_BOOL(0, "signoff", &o.signoff, "add Signed-off-by to the merges (default)"),
		OPT_SWITCH(0, "each", &o.each,
			   "merge every release, one merge each (default: the newest only)"),
		OPT_STRING(0, "at", &o.at, "release", "create the branch at this release"),
		OPT_SWITCH(0, "adopt", &o.adopt,
			   "configure an existing rolling branch, once it verifies, without moving it"),
		OPT__FORCE(&o.force, "replace an existing branch and configuration"),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	const struct rolling_series_info *followed;
	const struct rolling_release *target;
	struct rolling_config cfg;
	struct rolling_branch b;
	struct rolling_ident ident;
	git_repository *repo;
	char refname[1024], hex[GIT_OID_HEXSZ + 1];

	argc = parse_options_or_usage(argc, argv, "init", options, init_usage);
	if (o.list_presets && !argc) {
		list_presets();
		return 0;
	}
	if (argc != 1 || o.list_presets)
		usage_with_options(init_usage, options);
	snprintf(refname, sizeof(refname), "refs/heads/%s", argv[0]);
	if (!git_reference_is_valid_name(refname) || argv[0][0] == '-')
		die("'%s' is not a valid branch name", argv[0]);
	if (o.ident && rolling_ident_parse(&ident, o.ident, "--ident") < 0)
		die_last_error();
	if (o.ident)
		rolling_ident_free(&ident);
	if (o.adopt && o.at)
		die("options '--adopt' and '--at' cannot be used together");

	if (rolling_repo_open(&repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(repo) < 0)
		die_last_error();
	check_not_configured(repo, argv[0], o.force, o.adopt);
	build_config(&cfg, &o, argv[0], repo);
	if (rolling_branch_prepare(&b, repo, &cfg) < 0)
		die_last_error();
	check_unambiguous(&b);
	if (o.adopt) {
		adopt(repo, &b, o.quiet);
		rolling_branch_free(&b);
		git_repository_free(repo);
		return 0;
	}
	target = choose_target(&b, o.at, &followed);
	if (!o.quiet)
		show_findings(&b, followed);
	create_branch(repo, &b, target, o.force);
	if (!o.quiet)
		printf("created '%s' at %s (%s)\n", argv[0], target->name,
		       git_oid_tostr(hex, 8, &target->commit));
	rolling_branch_free(&b);
	git_repository_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_init)
