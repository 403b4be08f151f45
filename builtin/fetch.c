/*
 * git rolling fetch: fetch rolling branches into a quarantine, verify
 * their new steps, and only then let any ref see them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/wrapper.h"
#include "../lib/branch.h"
#include "../cli/color.h"
#include "../lib/config.h"
#include "../lib/merge.h"
#include "../lib/preset.h"
#include "../lib/quarantine.h"
#include "../lib/ref-transaction.h"
#include "../lib/remote-config.h"
#include "../lib/remote-refs.h"
#include "../lib/repo.h"
#include "../lib/run-command.h"
#include "../lib/verify.h"
#include "../cli/verify-report.h"

static const char *const fetch_usage[] = {
	"git rolling fetch [--[no-]signatures] [--allow-rewind] [-q]\n"
	"                         [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                         <remote> [<branch>...]",
	NULL,
};

#define TAG_PREFIX "refs/tags/"
#define MAX_CANDIDATE_TAGS 32
/*
 * The quarantined git fetch sees the repository's own object store as
 * an alternate, and would list the repository's refs a second and a
 * third time as "alternate refs" (git for-each-ref) for its negotiation
 * and its connectivity check.  They are its own refs, which it uses
 * anyway: a command that prints no ref saves the two runs.  Where the
 * repository has alternates of its own, their refs count, and git's
 * default stays.
 */
#define ALTERNATE_REFS_NONE "core.alternateRefsCommand=true"

struct fetch_options {
	struct rolling_scheme_options scheme;
	int signatures;          /* -1: as configured */
	int allow_rewind;
	int quiet;
	int color;
};

/* One rolling branch of the remote, from what we had to what we accept. */
struct followed {
	const char *branch;
	char *name;               /* "<remote>/<branch>", for the report */
	char *remote_ref;         /* refs/heads/<branch> on the server */
	char *tracking_ref;       /* refs/remotes/<remote>/<branch> */
	char *verified_ref;       /* refs/rolling/verified/<remote>/<branch> */
	int has_tracking, has_verified;
	git_oid tracking, verified, tip;
	int verify_ran, rewound;
	struct rolling_verify_result result;
};

/* Everything one run works with. */
struct fetch {
	git_repository *repo;
	const char *remote;
	struct followed *branches;
	size_t nr;
	struct rolling_patterns patterns;
	struct rolling_tags tags;
	struct rolling_remote_refs advertised;
	struct rolling_quarantine quarantine;
	/* Release tags the new steps need that this repository lacks. */
	struct rolling_tag_ref *needed;
	size_t needed_nr, needed_alloc;
	int tags_prefetched;     /* every tag the steps can need came with the tips */
	int own_alternates;      /* the repository borrows objects itself */
	int signatures;
};

/* --- what to fetch ------------------------------------------------------ */

static int read_ref(git_oid *oid, git_repository *repo, const char *refname)
{
	int err = git_reference_name_to_id(oid, repo, refname);

	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0) {
		rolling_git_error(err, "cannot read %s", refname);
		die_last_error();
	}
	return 1;
}

static void open_followed(struct followed *f, git_repository *repo, const char *remote,
			  const char *branch)
{
	f->branch = branch;
	f->name = xasprintf("%s/%s", remote, branch);
	f->remote_ref = xasprintf("refs/heads/%s", branch);
	f->tracking_ref = xasprintf("refs/remotes/%s/%s", remote, branch);
	f->verified_ref = xasprintf(ROLLING_VERIFIED_REF_FORMAT, remote, branch);
	if (branch[0] == '-' || !git_reference_is_valid_name(f->remote_ref))
		die("'%s' is not a valid branch name", branch);
	f->has_tracking = read_ref(&f->tracking, repo, f->tracking_ref);
	f->has_verified = read_ref(&f->verified, repo, f->verified_ref);
}

/*
 * A configured remote has remote.<name>.url.  Read as a key rather than
 * with git_remote_lookup(), which reads the remote through config
 * regexes that leak before libgit2 1.6.1 (lib/git2-compat.h); git does
 * the rest.
 */
static void check_remote(git_repository *repo, const char *remote)
{
	char *refname = xasprintf("refs/remotes/%s", remote);
	char *key = xasprintf("remote.%s.url", remote);
	git_config *config;
	char *url;

	if (remote[0] == '-' || !git_reference_is_valid_name(refname))
		die("'%s' is not a valid remote name", remote);
	if (git_repository_config_snapshot(&config, repo) < 0 ||
	    rolling_config_get_string(&url, config, key) < 0)
		die("cannot read the configuration");
	if (!url)
		die("'%s' is not a configured remote (see git remote add)", remote);
	free(url);
	git_config_free(config);
	free(key);
	free(refname);
}

static void setup_patterns(struct fetch *f, const struct fetch_options *o,
			   const struct rolling_remote_config *rc)
{
	const char *release_re, *mainline_re;
	char *release_key = xasprintf("rolling.remote.%s.releasePattern", f->remote);
	char *mainline_key = xasprintf("rolling.remote.%s.mainlinePattern", f->remote);

	if (rolling_patterns_from_options(&release_re, &mainline_re, &o->scheme) < 0)
		die_last_error();
	if (release_re) {
		free(release_key);
		free(mainline_key);
		release_key = xasprintf("--release-pattern");
		mainline_key = xasprintf("--mainline-pattern");
	} else if (rc->release_pattern) {
		release_re = rc->release_pattern;
		mainline_re = rc->mainline_pattern;
	} else {
		const struct rolling_preset *preset = rolling_preset_find(ROLLING_DEFAULT_PRESET);

		release_re = preset->release_pattern;
		mainline_re = preset->mainline_pattern;
	}
	if (rolling_patterns_compile(&f->patterns, release_re, release_key, mainline_re,
				     mainline_key) < 0)
		die_last_error();
	free(release_key);
	free(mainline_key);
}

/*
 * git ls-remote of the branches and the tags runs while the tags of this
 * repository are read: a kernel's thousands of tags take about as long
 * to list on the server as to read here.
 */
static void list_remote_and_load_tags(struct fetch *f)
{
	const char **patterns = xcalloc(f->nr + 1, sizeof(*patterns));
	char *path = xasprintf("%s/advertised", f->quarantine.path);
	pid_t pid;
	size_t i;

	for (i = 0; i < f->nr; i++)
		patterns[i] = f->branches[i].remote_ref;
	patterns[f->nr] = TAG_PREFIX "*";
	if (rolling_remote_refs_start(&pid, f->remote, patterns, f->nr + 1, path) < 0)
		die_last_error();
	free(patterns);
	if (rolling_tags_load(&f->tags, f->repo, &f->patterns) < 0)
		die_last_error();
	if (rolling_remote_refs_finish(&f->advertised, pid, f->remote, path) < 0)
		die_last_error();
	unlink(path);
	free(path);
	for (i = 0; i < f->nr; i++) {
		const struct rolling_remote_ref *ref =
			rolling_remote_refs_find(&f->advertised, f->branches[i].remote_ref);

		if (!ref)
			die("couldn't find remote ref %s", f->branches[i].remote_ref);
		git_oid_cpy(&f->branches[i].tip, &ref->oid);
	}
}

/* --- into the quarantine ------------------------------------------------ */

/* die() exits: the quarantine must not outlive the process even then. */
static struct rolling_quarantine *active_quarantine;

static void remove_quarantine(void)
{
	if (active_quarantine)
		rolling_quarantine_destroy(active_quarantine);
	active_quarantine = NULL;
}

static int has_own_alternates(struct fetch *f)
{
	char *path = xasprintf("%s/info/alternates", f->quarantine.objects);
	int has = !access(path, F_OK) || getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");

	free(path);
	return has;
}

static void create_quarantine(struct fetch *f)
{
	if (rolling_quarantine_create(&f->quarantine, f->repo) < 0)
		die_last_error();
	active_quarantine = &f->quarantine;
	atexit(remove_quarantine);
	if (rolling_quarantine_add_to(&f->quarantine, f->repo) < 0)
		die_last_error();
	f->own_alternates = has_own_alternates(f);
}

/* The object ids to fetch, one per line, for git fetch --stdin. */
static char *write_wants(const struct fetch *f, const git_oid *const *oids, size_t nr)
{
	char *path = xasprintf("%s/wants", f->quarantine.path);
	char hex[GIT_OID_HEXSZ + 1];
	FILE *out = fopen(path, "w");
	size_t i;

	if (!out)
		die("cannot write %s: %m", path);
	for (i = 0; i < nr; i++)
		fprintf(out, "%s\n", git_oid_tostr(hex, sizeof(hex), oids[i]));
	if (fclose(out))
		die("cannot write %s: %m", path);
	return path;
}

/*
 * `git fetch` of exact object ids, writing into the quarantine only: no
 * ref, no FETCH_HEAD, no tag following, no gc.  Git itself refuses any
 * ref update while GIT_QUARANTINE_PATH is set, so nothing it receives
 * can reach a ref, whatever its configuration says.
 */
static void fetch_objects(struct fetch *f, const git_oid *const *oids, size_t nr, int quiet)
{
	const char *args[] = {
		"-c", ALTERNATE_REFS_NONE,
		"fetch", "--no-tags", "--no-write-fetch-head", "--refmap=", "--no-prune",
		"--no-auto-gc", "--no-auto-maintenance", "--no-write-commit-graph",
		"--no-recurse-submodules", quiet ? "--quiet" : "--no-quiet", "--stdin",
		"--", f->remote, NULL,
	};
	struct rolling_quarantine_env env;
	char *wants = write_wants(f, oids, nr);
	int status;

	if (rolling_quarantine_env_writer(&env, &f->quarantine) < 0)
		die_last_error();
	status = rolling_run_git_with_stdin(f->own_alternates ? args + 2 : args, wants, NULL,
					    quiet ? ROLLING_RUN_NO_STDOUT : 0);
	rolling_quarantine_env_restore(&env);
	unlink(wants);
	free(wants);
	if (status < 0)
		die_last_error();
	if (status)
		die("git fetch from '%s' failed (exit status %d); nothing was updated",
		    f->remote, status);
}

static int is_release_name(struct fetch *f, const char *name)
{
	struct rolling_version version;
	enum rolling_tag_kind kind;

	return !rolling_patterns_classify(&f->patterns, name, &kind, &version) &&
	       kind == ROLLING_TAG_RELEASE;
}

/*
 * The server's release tags this repository lacks, for a fetch without
 * --signatures.  After a week they are that week's releases, a handful:
 * fetching them with the tips saves a second round trip, and those no
 * step needs get no ref (their objects, once verified, wait for gc).
 * Many mean the tags were never fetched (a first fetch): then 0 is
 * returned and only the tags the steps need are fetched, once the steps
 * are known.  Returns 1 when every candidate was added to oids.
 */
static int candidate_tags(struct fetch *f, const git_oid **oids, size_t *nr, size_t max)
{
	size_t i, found = 0;

	for (i = 0; i < f->advertised.nr; i++) {
		const struct rolling_remote_ref *ref = &f->advertised.refs[i];
		const char *name = ref->name + strlen(TAG_PREFIX);

		if (strncmp(ref->name, TAG_PREFIX, strlen(TAG_PREFIX)) ||
		    !is_release_name(f, name) ||
		    rolling_tags_find_name(&f->tags, &f->patterns, name))
			continue;
		if (found == max)
			return 0;
		oids[found++] = &ref->oid;
	}
	*nr += found;
	return 1;
}

static void fetch_tips(struct fetch *f, int quiet)
{
	const git_oid **oids = xcalloc(f->nr + MAX_CANDIDATE_TAGS, sizeof(*oids));
	size_t i, nr = 0;

	for (i = 0; i < f->nr; i++)
		if (!f->branches[i].has_verified ||
		    !git_oid_equal(&f->branches[i].tip, &f->branches[i].verified))
			oids[nr++] = &f->branches[i].tip;
	/* With --signatures the steps' embedded tags may make tags needless: wait and see. */
	if (nr && !f->signatures)
		f->tags_prefetched = candidate_tags(f, oids + nr, &nr, MAX_CANDIDATE_TAGS);
	if (nr)
		fetch_objects(f, oids, nr, quiet);
	free(oids);
}

/* --- the release tags the new steps need -------------------------------- */

static void need_tag(struct fetch *f, const struct rolling_remote_ref *ref)
{
	const char *name = ref->name + strlen(TAG_PREFIX);
	size_t i;

	for (i = 0; i < f->needed_nr; i++)
		if (!strcmp(f->needed[i].name, name))
			return;
	XALLOC_GROW(f->needed, f->needed_nr + 1, f->needed_alloc);
	f->needed[f->needed_nr].name = name;
	git_oid_cpy(&f->needed[f->needed_nr++].target, &ref->oid);
}

/* A release tag the server has and we do not, by name. */
static void need_named(struct fetch *f, const char *name)
{
	const struct rolling_remote_ref *ref;
	char *refname;

	if (!is_release_name(f, name) || rolling_tags_find_name(&f->tags, &f->patterns, name))
		return;
	refname = xasprintf(TAG_PREFIX "%s", name);
	if ((ref = rolling_remote_refs_find(&f->advertised, refname)))
		need_tag(f, ref);
	free(refname);
}

/*
 * A commit that is not a rolling merge ends the chain if a release tag
 * of the server names it (the base).  Returns 1 then.
 */
static int need_base(struct fetch *f, const git_oid *id)
{
	const struct rolling_remote_ref *ref = rolling_remote_refs_tag_of(&f->advertised, id);

	if (!ref || !is_release_name(f, ref->name + strlen(TAG_PREFIX)))
		return 0;
	need_tag(f, ref);
	return 1;
}

/*
 * Walk the new part of a chain as verify will (first parents from the
 * tip down to the tip verified last time, or to the base) and note the
 * release tags its steps name that this repository lacks.  The walk
 * stops where verify would give up, so a hostile server cannot make it
 * read more than verify does.
 */
/*
 * With --signatures, a merge that embeds its release's tag (a mergetag
 * header, as git merge writes for a signed tag) is proven from that tag
 * once git verify-tag vouches for it: the tag ref is not needed.
 */
static int embeds_tag(const struct fetch *g, git_commit *commit)
{
	git_buf header = GIT_BUF_INIT;
	int found;

	if (!g->signatures)
		return 0;
	found = !git_commit_header_field(&header, commit, "mergetag");
	git_buf_dispose(&header);
	return found;
}

static void collect_needed(struct fetch *g, const struct followed *f)
{
	git_oid id = f->tip;
	size_t strange = 0;
	int more = 1;

	while (more && strange <= ROLLING_VERIFY_MAX_FAILURES) {
		const char *name;
		git_commit *commit;

		if ((f->has_verified && git_oid_equal(&id, &f->verified)) ||
		    rolling_tags_find_commit(&g->tags, &id) ||
		    git_commit_lookup(&commit, g->repo, &id) < 0)
			return;
		name = rolling_merge_subject_name(git_commit_summary(commit));
		if (git_commit_parentcount(commit) >= 2 && name) {
			if (!embeds_tag(g, commit))
				need_named(g, name);
		}
		else if (need_base(g, &id))
			more = 0;
		else
			strange++;
		if (!git_commit_parentcount(commit))
			more = 0;
		else
			git_oid_cpy(&id, git_commit_parent_id(commit, 0));
		git_commit_free(commit);
	}
}

static void fetch_needed_tags(struct fetch *f, int quiet)
{
	const git_oid **oids;
	size_t i;

	for (i = 0; i < f->nr; i++)
		collect_needed(f, &f->branches[i]);
	if (!f->needed_nr)
		return;
	if (f->tags_prefetched)
		goto reload;
	oids = xcalloc(f->needed_nr, sizeof(*oids));
	for (i = 0; i < f->needed_nr; i++)
		oids[i] = &f->needed[i].target;
	fetch_objects(f, oids, f->needed_nr, quiet);
	free(oids);
reload:
	if (rolling_tags_add(&f->tags, &f->patterns, f->needed, f->needed_nr) < 0)
		die_last_error();
}

/* --- verification ------------------------------------------------------- */

static int is_rewind(const struct rolling_verify_result *r)
{
	size_t i;

	for (i = 0; i < r->failures_nr; i++)
		if (r->failures[i].check == ROLLING_CHECK_SINCE)
			return 1;
	return 0;
}

static void verify_one(struct fetch *g, struct followed *f, int allow_rewind)
{
	struct rolling_verify_options vo = { .since = f->has_verified ? &f->verified : NULL,
					     .signatures = g->signatures };

	if (rolling_verify(&f->result, g->repo, &f->tip, &g->tags, &g->patterns, &vo) < 0)
		die_error_context("%s", f->name);
	f->verify_ran = 1;
	if (!f->result.failures_nr || !allow_rewind || !is_rewind(&f->result))
		return;
	/* --allow-rewind: the new chain must stand on its own, all of it. */
	rolling_verify_free(&f->result);
	vo.since = NULL;
	if (rolling_verify(&f->result, g->repo, &f->tip, &g->tags, &g->patterns, &vo) < 0)
		die_error_context("%s", f->name);
	f->rewound = 1;
}

static int is_unchanged(const struct followed *f)
{
	return f->has_verified && git_oid_equal(&f->tip, &f->verified);
}

/* Verify every branch; returns how many failed. */
static size_t verify_all(struct fetch *g, const struct fetch_options *o)
{
	struct rolling_quarantine_env env;
	size_t i, failed = 0;

	/* git verify-tag, run for --signatures, must see the quarantined tags. */
	if (rolling_quarantine_env_reader(&env, &g->quarantine) < 0)
		die_last_error();
	for (i = 0; i < g->nr; i++) {
		struct followed *f = &g->branches[i];
		struct rolling_verify_report report = { f->name, &f->result, &g->tags, NULL, 0,
							g->signatures, o->color };

		if (is_unchanged(f))
			continue;
		verify_one(g, f, o->allow_rewind);
		report.since = f->has_verified && !f->rewound ? &f->verified : NULL;
		rolling_verify_print_failures(&report);
		if (!o->quiet || f->result.failures_nr)
			rolling_verify_print_report(&report);
		failed += f->result.failures_nr != 0;
	}
	rolling_quarantine_env_restore(&env);
	return failed;
}

/* --- moving the refs ---------------------------------------------------- */

/*
 * Test seams, as git's GIT_TEST_* variables are: run a command at a
 * point of the fetch so that the test suite can kill it there.
 */
static void run_test_seam(const char *variable)
{
	const char *command = getenv(variable);

	if (command && *command && system(command) != 0)
		die("%s failed", variable);
}

static void add_update(struct rolling_ref_update *u, size_t *nr, const char *refname,
		       const git_oid *new_oid, int had_old, const git_oid *old_oid,
		       const char *message)
{
	struct rolling_ref_update *update;

	if (had_old && git_oid_equal(new_oid, old_oid))
		return;
	update = &u[(*nr)++];
	update->refname = refname;
	git_oid_cpy(&update->new_oid, new_oid);
	update->had_old = had_old;
	if (had_old)
		git_oid_cpy(&update->old_oid, old_oid);
	update->message = message;
}

static const char *tip_name(const struct followed *f)
{
	return f->result.tip_release ? f->result.tip_release->name : "its tip";
}

static void update_refs(struct fetch *g)
{
	size_t max = 2 * g->nr + g->needed_nr, nr = 0, i;
	struct rolling_ref_update *updates = xcalloc(max, sizeof(*updates));
	char **messages = xcalloc(g->nr + 1, sizeof(*messages));
	char **tag_refs = xcalloc(g->needed_nr + 1, sizeof(*tag_refs));

	messages[g->nr] = xasprintf("rolling fetch %s: release tag", g->remote);
	for (i = 0; i < g->nr; i++) {
		struct followed *f = &g->branches[i];

		messages[i] = xasprintf("rolling fetch %s: %s %s", g->remote,
				      f->rewound ? "rewound, verified in full, at" : "verified", tip_name(f));
		add_update(updates, &nr, f->tracking_ref, &f->tip, f->has_tracking, &f->tracking,
			   messages[i]);
		add_update(updates, &nr, f->verified_ref, &f->tip, f->has_verified, &f->verified,
			   messages[i]);
	}
	for (i = 0; i < g->needed_nr; i++) {
		tag_refs[i] = xasprintf(TAG_PREFIX "%s", g->needed[i].name);
		add_update(updates, &nr, tag_refs[i], &g->needed[i].target, 0, NULL,
			   messages[g->nr]);
	}
	if (rolling_ref_transaction(g->repo, updates, nr) < 0)
		die("%s; nothing was updated", rolling_last_error());
	for (i = 0; i <= g->nr; i++)
		free(messages[i]);
	for (i = 0; i < g->needed_nr; i++)
		free(tag_refs[i]);
	free(tag_refs);
	free(messages);
	free(updates);
}

static void report_update(const struct followed *f)
{
	char a[ROLLING_REPORT_ABBREV_BUFSZ], b[ROLLING_REPORT_ABBREV_BUFSZ];
	const char *tip = rolling_report_abbrev(b, &f->tip);

	if (is_unchanged(f)) {
		printf("%s: up to date at %s\n", f->name, tip);
		return;
	}
	if (f->rewound) {
		rolling_warning("%s: rewound: %s is not on the new chain; accepted after a full"
				" verify (--allow-rewind)", f->name,
				rolling_report_abbrev(a, &f->verified));
		printf("%s: forced update %s...%s\n", f->name, a, tip);
	} else if (f->has_verified) {
		printf("%s: updated %s..%s\n", f->name,
		       rolling_report_abbrev(a, &f->verified), tip);
	} else {
		printf("%s: verified for the first time at %s\n", f->name, tip);
	}
}

/* --- the command -------------------------------------------------------- */

static void read_config(struct fetch *f, struct rolling_remote_config *rc,
			const struct fetch_options *o, const char **named, size_t named_nr)
{
	const char *const *branches;
	size_t i;

	if (rolling_remote_config_read(rc, f->repo, f->remote) < 0)
		die_last_error();
	f->nr = named_nr ? named_nr : rc->branches_nr;
	branches = named_nr ? named : (const char *const *)rc->branches;
	if (!f->nr)
		die("no branches to fetch: name them, or follow them with"
		    " git rolling init --follow %s/<branch> (rolling.remote.%s.branches)",
		    f->remote, f->remote);
	f->branches = xcalloc(f->nr, sizeof(*f->branches));
	for (i = 0; i < f->nr; i++)
		open_followed(&f->branches[i], f->repo, f->remote, branches[i]);
	f->signatures = o->signatures >= 0 ? o->signatures : rc->signatures;
	setup_patterns(f, o, rc);
}

static void free_fetch(struct fetch *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		struct followed *b = &f->branches[i];

		rolling_verify_free(&b->result);
		free(b->name);
		free(b->remote_ref);
		free(b->tracking_ref);
		free(b->verified_ref);
	}
	free(f->branches);
	free(f->needed);
	rolling_tags_free(&f->tags);
	rolling_patterns_free(&f->patterns);
	rolling_remote_refs_free(&f->advertised);
}

static int cmd_fetch(int argc, const char **argv)
{
	struct fetch_options o = { .signatures = -1 };
	const struct rolling_option options[] = {
		OPT_FETCH_SIGNATURES(&o.signatures),
		OPT_SWITCH(0, "allow-rewind", &o.allow_rewind,
			   "accept a rewound or rewritten branch after a full verify"),
		OPT_TAG_SCHEME_READ(&o.scheme),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	struct fetch f = { 0 };
	struct rolling_remote_config rc;
	size_t i, failed;

	argc = parse_options_or_usage(argc, argv, "fetch", options, fetch_usage);
	if (argc < 1)
		usage_with_options(fetch_usage, options);
	f.remote = argv[0];
	if (rolling_repo_open(&f.repo) < 0 || rolling_want_color(&o.color, f.repo) < 0)
		die_last_error();
	check_remote(f.repo, f.remote);
	read_config(&f, &rc, &o, argv + 1, (size_t)argc - 1);
	create_quarantine(&f);
	list_remote_and_load_tags(&f);
	fetch_tips(&f, o.quiet);
	fetch_needed_tags(&f, o.quiet);
	run_test_seam("GIT_ROLLING_TEST_AFTER_TRANSFER");

	if ((failed = verify_all(&f, &o))) {
		remove_quarantine();
		error("%s: %zu branch%s failed verification; nothing was updated and"
		      " nothing fetched was kept", f.remote, failed, failed == 1 ? "" : "es");
		free_fetch(&f);
		rolling_remote_config_free(&rc);
		git_repository_free(f.repo);
		return 1;
	}
	if (rolling_quarantine_migrate(&f.quarantine) < 0)
		die_last_error();
	run_test_seam("GIT_ROLLING_TEST_BEFORE_UPDATE");
	update_refs(&f);
	remove_quarantine();
	for (i = 0; i < f.nr; i++)
		if (!o.quiet || f.branches[i].rewound)
			report_update(&f.branches[i]);
	free_fetch(&f);
	rolling_remote_config_free(&rc);
	git_repository_free(f.repo);
	return 0;
}

ROLLING_MAIN(cmd_fetch)
