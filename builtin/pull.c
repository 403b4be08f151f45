/*
 * git rolling pull: git rolling fetch, then fast-forward the branch
 * checked out to the tip that fetch verified, as git pull --ff-only
 * would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/wrapper.h"
#include "../lib/config.h"
#include "../lib/preset.h"
#include "../lib/remote-config.h"
#include "../lib/repo.h"
#include "../lib/run-command.h"
#include "../lib/branch-move.h"
#include "../lib/worktree.h"

static const char *const pull_usage[] = {
	"git rolling pull [--[no-]signatures] [-q]\n"
	"                        [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                        [<remote> [<branch>]]",
	NULL,
};

#define HEADS "refs/heads/"
struct pull_options {
	struct rolling_scheme_options scheme;
	int signatures;       /* -1: as configured */
	int quiet;
};

/* The branch checked out here: refs/heads/<name>, or death. */
static char *current_branch(git_repository *repo)
{
	git_reference *head;
	const char *target;
	char *name;

	if (git_repository_is_bare(repo))
		die("this operation must be run in a work tree");
	if (git_reference_lookup(&head, repo, "HEAD") < 0)
		die("cannot read HEAD");
	target = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC ?
		 git_reference_symbolic_target(head) : NULL;
	if (!target || strncmp(target, HEADS, strlen(HEADS)))
		die("You are not currently on a branch; check out the branch to fast-forward");
	name = xstrdup(target + strlen(HEADS));
	git_reference_free(head);
	return name;
}

static char *branch_key(git_config *config, const char *branch, const char *key)
{
	char *name, *value;

	name = xasprintf("branch.%s.%s", branch, key);
	if (rolling_config_get_string(&value, config, name) < 0)
		die_last_error();
	free(name);
	return value;
}

/*
 * What to pull: the arguments, else what the branch checked out tracks
 * (branch.<name>.remote and branch.<name>.merge), as git pull decides.
 */
static void upstream(char **remote, char **branch, git_repository *repo, const char *current,
		     const char **argv, int argc)
{
	git_config *config;
	char *tracked_remote, *merge;

	if (git_repository_config_snapshot(&config, repo) < 0)
		die("cannot read the configuration");
	tracked_remote = branch_key(config, current, "remote");
	merge = branch_key(config, current, "merge");
	git_config_free(config);
	*remote = xstrdup(argc > 0 ? argv[0] : tracked_remote ? tracked_remote : "");
	*branch = NULL;
	if (argc > 1)
		*branch = xstrdup(argv[1]);
	else if (merge && !strncmp(merge, HEADS, strlen(HEADS)) &&
		 (argc == 0 || (tracked_remote && !strcmp(tracked_remote, argv[0]))))
		*branch = xstrdup(merge + strlen(HEADS));
	free(tracked_remote);
	free(merge);
	if (!**remote || !*branch)
		die("There is no tracking information for the current branch; name the remote"
		    " and branch: git rolling pull <remote> <branch>");
}

static void run_fetch(const struct pull_options *o, const char *remote, const char *branch)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	struct rolling_strvec *args = &git.args;
	int status;

	rolling_strvec_push(args, "rolling");
	rolling_strvec_push(args, "fetch");
	if (o->quiet)
		rolling_strvec_push(args, "--quiet");
	if (o->signatures >= 0)
		rolling_strvec_push(args, o->signatures ? "--signatures" : "--no-signatures");
	if (o->scheme.preset) {
		rolling_strvec_push(args, "--preset");
		rolling_strvec_push(args, o->scheme.preset);
	}
	if (o->scheme.release_pattern) {
		rolling_strvec_push(args, "--release-pattern");
		rolling_strvec_push(args, o->scheme.release_pattern);
	}
	if (o->scheme.mainline_pattern) {
		rolling_strvec_push(args, "--mainline-pattern");
		rolling_strvec_push(args, o->scheme.mainline_pattern);
	}
	rolling_strvec_push(args, "--");
	rolling_strvec_push(args, remote);
	rolling_strvec_push(args, branch);
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	if (status < 0)
		die_last_error();
	/* fetch said why; its status (1: not verified) is ours. */
	if (status)
		exit(status);
}

/* 1 when `ancestor` is `descendant` or one of its ancestors: ask git. */
static int is_ancestor(const git_oid *ancestor, const git_oid *descendant)
{
	char a[GIT_OID_HEXSZ + 1], d[GIT_OID_HEXSZ + 1];
	const char *args[] = { "merge-base", "--is-ancestor",
			       git_oid_tostr(a, sizeof(a), ancestor),
			       git_oid_tostr(d, sizeof(d), descendant), NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	int status;

	rolling_strvec_pushv(&git.args, args);
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	if (status < 0)
		die_last_error();
	if (status > 1)
		die("git merge-base --is-ancestor failed (exit status %d)", status);
	return status == 0;
}

static void fast_forward(git_repository *repo, const char *current, const git_oid *local,
			 const git_oid *verified, int quiet)
{
	struct rolling_ref_move move;
	char a[8], b[8];

	if (git_oid_equal(local, verified) || is_ancestor(verified, local)) {
		if (!quiet)
			printf("Already up to date.\n");
		return;
	}
	if (!is_ancestor(local, verified))
		die("Not possible to fast-forward, aborting.");
	git_oid_cpy(&move.to, verified);
	move.message = "rolling pull: Fast-forward";
	if (rolling_branch_move(repo, current, local, &move, 1) < 0)
		die_last_error();
	if (!quiet)
		printf("Updating %s..%s\nFast-forward\n", git_oid_tostr(a, sizeof(a), local),
		       git_oid_tostr(b, sizeof(b), verified));
}

static int cmd_pull(int argc, const char **argv)
{
	struct pull_options o = { .signatures = -1 };
	const struct rolling_option options[] = {
		OPT_FETCH_SIGNATURES(&o.signatures),
		OPT_TAG_SCHEME_READ(&o.scheme),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	git_repository *repo;
	char *current, *remote, *branch, *verified_ref;
	git_oid local, verified;

	argc = parse_options_or_usage(argc, argv, "pull", options, pull_usage);
	if (argc > 2)
		usage_with_options(pull_usage, options);
	if (rolling_repo_open(&repo) < 0)
		die_last_error();
	current = current_branch(repo);
	/*
	 * A pull or advance killed in this work tree is finished or undone
	 * first, as advance does: its branch may be at the new tip already,
	 * with the index and work tree half way, and "Already up to date"
	 * would leave them so.
	 */
	if (rolling_worktree_recover(repo) < 0)
		die_last_error();
	upstream(&remote, &branch, repo, current, argv, argc);
	if (git_reference_name_to_id(&local, repo, "HEAD") < 0)
		die("your current branch '%s' does not have any commits yet", current);

	run_fetch(&o, remote, branch);

	verified_ref = xasprintf(ROLLING_VERIFIED_REF_FORMAT, remote, branch);
	if (git_reference_name_to_id(&verified, repo, verified_ref) < 0)
		die("cannot read %s after the fetch", verified_ref);
	fast_forward(repo, current, &local, &verified, o.quiet);
	free(verified_ref);
	free(branch);
	free(remote);
	free(current);
	rolling_repo_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_pull)
