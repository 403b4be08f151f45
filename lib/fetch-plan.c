#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fetch-plan.h"
#include "git2-compat.h"
#include "alloc.h"
#include "branch.h"
#include "config.h"
#include "error.h"
#include "merge.h"
#include "refs.h"
#include "strbuf.h"

#define TAG_PREFIX "refs/tags/"

/* --- the remote and its branches ---------------------------------------- */

/* 1 and *oid when the ref exists, 0 when not, or a negative error. */
static int read_ref(git_oid *oid, git_repository *repo, const char *refname)
{
	int err = git_reference_name_to_id(oid, repo, refname);

	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0)
		return rolling_git_error(err, "cannot read %s", refname);
	return 1;
}

/* Symbolic refs git follows before it reports a loop ("refs.c", SYMREF_MAXDEPTH). */
#define SYMREF_MAX_DEPTH 5

/*
 * git fetch updates the ref a symbolic tracking ref names, not the
 * symbolic ref itself: follow it the same way, so that the update goes
 * where git's would.  *refname is replaced by the last name, which need
 * not exist.
 */
static int follow_symbolic(char **refname, git_repository *repo)
{
	git_reference *ref;
	char *target;
	int depth, err;

	for (depth = 0; depth <= SYMREF_MAX_DEPTH; depth++) {
		if ((err = git_reference_lookup(&ref, repo, *refname)) == GIT_ENOTFOUND) {
			git_error_clear();
			return 0;
		}
		if (err < 0)
			return rolling_git_error(err, "cannot read %s", *refname);
		if (git_reference_type(ref) != GIT_REFERENCE_SYMBOLIC) {
			git_reference_free(ref);
			return 0;
		}
		target = strdup(git_reference_symbolic_target(ref));
		git_reference_free(ref);
		if (!target)
			return rolling_error_nomem();
		free(*refname);
		*refname = target;
	}
	return rolling_error("%s: too many levels of symbolic refs", *refname);
}

static int open_branch(struct rolling_fetch_branch *f, git_repository *repo, const char *remote,
		       const char *branch)
{
	int err;

	f->branch = branch;
	if (!(f->name = rolling_strfmt("%s/%s", remote, branch)) ||
	    !(f->remote_ref = rolling_strfmt("refs/heads/%s", branch)) ||
	    !(f->tracking_ref = rolling_strfmt("refs/remotes/%s/%s", remote, branch)) ||
	    !(f->verified_ref = rolling_strfmt(ROLLING_VERIFIED_REF_FORMAT, remote, branch)))
		return rolling_error_nomem();
	if (branch[0] == '-' || !git_reference_is_valid_name(f->remote_ref))
		return rolling_error("'%s' is not a valid branch name", branch);
	if ((err = follow_symbolic(&f->tracking_ref, repo)) < 0)
		return err;
	if ((f->has_tracking = read_ref(&f->tracking, repo, f->tracking_ref)) < 0)
		return f->has_tracking;
	if ((f->has_verified = read_ref(&f->verified, repo, f->verified_ref)) < 0)
		return f->has_verified;
	f->had_verified = f->has_verified;
	git_oid_cpy(&f->was_verified, &f->verified);
	return 0;
}

/*
 * A configured remote has remote.<name>.url.  Read as a key rather than
 * with git_remote_lookup(), which reads the remote through config
 * regexes that leak before libgit2 1.6.1 (lib/git2-compat.h); git does
 * the rest.
 */
static int check_remote(git_repository *repo, const char *remote)
{
	char *refname = rolling_strfmt("refs/remotes/%s", remote);
	char *key = rolling_strfmt("remote.%s.url", remote);
	git_config *config = NULL;
	char *url = NULL;
	int err = 0;

	if (!refname || !key)
		err = rolling_error_nomem();
	else if (remote[0] == '-' || !git_reference_is_valid_name(refname))
		err = rolling_error("'%s' is not a valid remote name", remote);
	else if (git_repository_config_snapshot(&config, repo) < 0 ||
		 rolling_config_get_string(&url, config, key) < 0)
		err = rolling_error("cannot read the configuration");
	else if (!url)
		err = rolling_error("'%s' is not a configured remote (see git remote add)", remote);
	free(url);
	git_config_free(config);
	free(key);
	free(refname);
	return err;
}

/* The options' patterns, else the remote's, else the default preset's. */
static int setup_patterns(struct rolling_fetch_plan *p, const struct rolling_scheme_options *o)
{
	const char *release_re, *mainline_re;
	char *release_key = NULL, *mainline_key = NULL;
	int err;

	if ((err = rolling_patterns_from_options(&release_re, &mainline_re, o)) < 0)
		return err;
	if (release_re) {
		release_key = strdup("--release-pattern");
		mainline_key = strdup("--mainline-pattern");
	} else {
		release_key = rolling_strfmt("rolling.remote.%s.releasePattern", p->remote);
		mainline_key = rolling_strfmt("rolling.remote.%s.mainlinePattern", p->remote);
		if (p->config.release_pattern) {
			release_re = p->config.release_pattern;
			mainline_re = p->config.mainline_pattern;
		} else {
			const struct rolling_preset *preset = rolling_preset_find(ROLLING_DEFAULT_PRESET);

			release_re = preset->release_pattern;
			mainline_re = preset->mainline_pattern;
		}
	}
	if (!release_key || !mainline_key)
		err = rolling_error_nomem();
	else
		err = rolling_patterns_compile(&p->patterns, release_re, release_key, mainline_re,
					       mainline_key);
	free(release_key);
	free(mainline_key);
	return err;
}

int rolling_fetch_plan_init(struct rolling_fetch_plan *p, git_repository *repo,
			    const char *remote, const char *const *named, size_t named_nr,
			    int signatures, const struct rolling_scheme_options *scheme)
{
	const char *const *branches;
	size_t i;
	int err;

	memset(p, 0, sizeof(*p));
	p->repo = repo;
	p->remote = remote;
	if ((err = check_remote(repo, remote)) < 0 ||
	    (err = rolling_remote_config_read(&p->config, repo, remote)) < 0)
		return err;
	p->nr = named_nr ? named_nr : p->config.branches_nr;
	branches = named_nr ? named : (const char *const *)p->config.branches;
	if (!p->nr)
		return rolling_error("no branches to fetch: name them, or follow them with"
				     " git rolling init --follow %s/<branch>"
				     " (rolling.remote.%s.branches)", remote, remote);
	if (!(p->branches = calloc(p->nr, sizeof(*p->branches)))) {
		p->nr = 0;
		return rolling_error_nomem();
	}
	for (i = 0; i < p->nr; i++)
		if ((err = open_branch(&p->branches[i], repo, remote, branches[i])) < 0)
			return err;
	p->signatures = signatures >= 0 ? signatures : p->config.signatures;
	return setup_patterns(p, scheme);
}

/* --- what the server has ----------------------------------------------- */

int rolling_fetch_plan_read(struct rolling_fetch_plan *p)
{
	int err;

	if ((err = rolling_fetch_view_config_start(&p->view_config, p->repo)) < 0 ||
	    (err = rolling_tags_load(&p->tags, p->repo, &p->patterns)) < 0)
		return err;
	return rolling_tags_check_unambiguous(&p->tags, NULL, NULL);
}

/* The server's refs of the branches, for git fetch and for reading what it fetched. */
static const char **remote_refs(const struct rolling_fetch_plan *p)
{
	const char **refs = calloc(p->nr + 1, sizeof(*refs));
	size_t i;

	for (i = 0; refs && i < p->nr; i++)
		refs[i] = p->branches[i].remote_ref;
	return refs;
}

int rolling_fetch_plan_fetch(struct rolling_fetch_plan *p, const struct rolling_quarantine *q,
			     int progress)
{
	const char **refs = remote_refs(p);
	size_t i;
	int err;

	if (!refs)
		return rolling_error_nomem();
	if (!(err = rolling_fetch_view_create(&p->view, p->repo, q, p->remote, &p->tags,
					      &p->patterns, &p->view_config)) &&
	    !(err = rolling_fetch_objects(q, &p->view, p->remote, refs, p->nr, progress)))
		err = rolling_remote_refs_read(&p->advertised, p->repo, &p->view, refs, p->nr);
	free(refs);
	if (err)
		return err;
	for (i = 0; i < p->nr; i++)
		git_oid_cpy(&p->branches[i].tip,
			    &rolling_remote_refs_find(&p->advertised, p->branches[i].remote_ref)->oid);
	return 0;
}

static int is_release_name(struct rolling_fetch_plan *p, const char *name)
{
	struct rolling_version version;
	enum rolling_tag_kind kind;

	return !rolling_patterns_classify(&p->patterns, name, &kind, &version) &&
	       kind == ROLLING_TAG_RELEASE;
}

int rolling_fetch_branch_unchanged(const struct rolling_fetch_branch *b)
{
	return b->has_verified && git_oid_equal(&b->tip, &b->verified);
}

/* --- the release tags the new steps need -------------------------------- */

static int need_tag(struct rolling_fetch_plan *p, const struct rolling_remote_ref *ref)
{
	const char *name = ref->name + strlen(TAG_PREFIX);
	size_t i;

	for (i = 0; i < p->needed_nr; i++)
		if (!strcmp(p->needed[i].name, name))
			return 0;
	if (ALLOC_GROW(p->needed, p->needed_nr + 1, p->needed_alloc) < 0)
		return ROLLING_ERROR;
	p->needed[p->needed_nr].name = name;
	git_oid_cpy(&p->needed[p->needed_nr++].target, &ref->oid);
	return 0;
}

/* A release tag the server has and we do not, by name. */
static int need_named(struct rolling_fetch_plan *p, const char *name)
{
	const struct rolling_remote_ref *ref;
	char *refname;
	int err = 0;

	if (!is_release_name(p, name) || rolling_tags_find_name(&p->tags, &p->patterns, name))
		return 0;
	if (!(refname = rolling_strfmt(TAG_PREFIX "%s", name)))
		return rolling_error_nomem();
	if ((ref = rolling_remote_refs_find(&p->advertised, refname)))
		err = need_tag(p, ref);
	free(refname);
	return err;
}

/*
 * A commit that is not a rolling merge ends the chain if a release tag
 * of the server names it (the base).  Returns 1 then.
 */
static int need_base(struct rolling_fetch_plan *p, const git_oid *id)
{
	const struct rolling_remote_ref *ref = rolling_remote_refs_tag_of(&p->advertised, id);
	int err;

	if (!ref || !is_release_name(p, ref->name + strlen(TAG_PREFIX)))
		return 0;
	return (err = need_tag(p, ref)) < 0 ? err : 1;
}

/*
 * With signatures, a merge that embeds its release's tag (a mergetag
 * header, as git merge writes for a signed tag) is proven from that tag
 * once git verify-tag vouches for it: the tag ref is not needed.
 */
static int embeds_tag(const struct rolling_fetch_plan *p, git_commit *commit)
{
	git_buf header = GIT_BUF_INIT;
	int found;

	if (!p->signatures)
		return 0;
	found = !git_commit_header_field(&header, commit, "mergetag");
	git_buf_dispose(&header);
	return found;
}

/* One step of the walk: 1 to go on to `id`'s first parent, 0 to stop. */
static int collect_step(struct rolling_fetch_plan *p, git_oid *id, size_t *strange)
{
	const char *name;
	git_commit *commit;
	int more = 1, err = 0;

	if (git_commit_lookup(&commit, p->repo, id) < 0)
		return 0;
	name = rolling_merge_subject_name(git_commit_summary(commit));
	if (git_commit_parentcount(commit) >= 2 && name) {
		if (!embeds_tag(p, commit))
			err = need_named(p, name);
	} else if ((err = need_base(p, id)) > 0) {
		more = 0;
	} else if (!err) {
		(*strange)++;
	}
	if (!git_commit_parentcount(commit))
		more = 0;
	else
		git_oid_cpy(id, git_commit_parent_id(commit, 0));
	git_commit_free(commit);
	return err < 0 ? err : more;
}

static int collect_needed(struct rolling_fetch_plan *p, const struct rolling_fetch_branch *f)
{
	git_oid id = f->tip;
	size_t strange = 0;
	int more = 1;

	while (more > 0 && strange <= ROLLING_VERIFY_MAX_FAILURES) {
		if ((f->has_verified && git_oid_equal(&id, &f->verified)) ||
		    rolling_tags_find_commit(&p->tags, &id))
			return 0;
		more = collect_step(p, &id, &strange);
	}
	return more < 0 ? more : 0;
}

int rolling_fetch_plan_needed_tags(struct rolling_fetch_plan *p)
{
	size_t i;
	int err;

	for (i = 0; i < p->nr; i++)
		if ((err = collect_needed(p, &p->branches[i])) < 0)
			return err;
	/* The server names the tags: a bound hit while reading them is fatal. */
	return rolling_patterns_check(&p->patterns);
}

int rolling_fetch_plan_add_tags(struct rolling_fetch_plan *p)
{
	if (!p->needed_nr)
		return 0;
	return rolling_tags_add(&p->tags, &p->patterns, p->needed, p->needed_nr);
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

int rolling_fetch_plan_verify(struct rolling_fetch_plan *p, struct rolling_fetch_branch *f,
			      int allow_rewind, const char *object_dirs)
{
	struct rolling_verify_options vo = { .since = f->has_verified ? &f->verified : NULL,
					     .signatures = p->signatures,
					     .object_dirs = object_dirs };
	int err;

	if ((err = rolling_verify(&f->result, p->repo, &f->tip, &p->tags, &p->patterns, &vo)) < 0)
		return err;
	if (!f->result.failures_nr || !allow_rewind || !is_rewind(&f->result))
		return 0;
	/* The new chain must stand on its own, all of it. */
	rolling_verify_result_release(&f->result);
	vo.since = NULL;
	if ((err = rolling_verify(&f->result, p->repo, &f->tip, &p->tags, &p->patterns, &vo)) < 0)
		return err;
	f->rewound = 1;
	return 0;
}

/* --- moving the refs ---------------------------------------------------- */

/*
 * `audited`: a ref whose reflog is the record of what was verified and
 * when (the verified refs, the release tags), kept whatever
 * core.logAllRefUpdates says, as `git update-ref --create-reflog` keeps
 * one (refs.h); the tracking refs get one by git's rule.
 */
static void add_update(struct rolling_ref_update *u, size_t *nr, const char *refname,
		       const git_oid *new_oid, int had_old, const git_oid *old_oid,
		       const char *message, int audited)
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
	update->create_reflog = audited;
}

static const char *tip_name(const struct rolling_fetch_branch *f)
{
	return f->result.tip_release ? f->result.tip_release->name : "its tip";
}

/*
 * The updates, with messages[i] for branch i and messages[nr] for the
 * tags, and tag_refs[i] the ref of needed tag i.  The tags come first and
 * the verified ref of each branch last: the commit renames in this order,
 * so a run killed in its renames never leaves a verified ref whose tags
 * are missing, and the next fetch plans them again.
 */
static int plan_updates(struct rolling_fetch_plan *p, struct rolling_ref_update *updates,
			size_t *nr, char **messages, char **tag_refs)
{
	size_t i;

	if (!(messages[p->nr] = rolling_strfmt("rolling fetch %s: release tag", p->remote)))
		return rolling_error_nomem();
	for (i = 0; i < p->needed_nr; i++) {
		git_oid now;
		int has;

		if (!(tag_refs[i] = rolling_strfmt(TAG_PREFIX "%s", p->needed[i].name)))
			return rolling_error_nomem();
		/* One another process created meanwhile, as this run would. */
		if ((has = read_ref(&now, p->repo, tag_refs[i])) < 0)
			return has;
		if (has && git_oid_equal(&now, &p->needed[i].target))
			continue;
		add_update(updates, nr, tag_refs[i], &p->needed[i].target, 0, NULL,
			   messages[p->nr], 1);
	}
	for (i = 0; i < p->nr; i++) {
		struct rolling_fetch_branch *f = &p->branches[i];

		if (!(messages[i] = rolling_strfmt("rolling fetch %s: %s %s", p->remote,
					   f->rewound ? "rewound, verified in full, at" : "verified",
					   tip_name(f))))
			return rolling_error_nomem();
		add_update(updates, nr, f->tracking_ref, &f->tip, f->has_tracking, &f->tracking,
			   messages[i], 0);
		add_update(updates, nr, f->verified_ref, &f->tip, f->has_verified, &f->verified,
			   messages[i], 1);
	}
	return 0;
}

/* --- a lost race -------------------------------------------------------- */

/*
 * `now`, which another process put in both refs of the branch, descends
 * from the tip this run verified and verifies since it, with the tags
 * as they are now (the other process brought those its steps need).
 */
static int verifies_since(struct rolling_fetch_plan *p, struct rolling_fetch_branch *f,
			  const git_oid *now)
{
	struct rolling_verify_options vo = { .since = &f->tip, .signatures = p->signatures };
	struct rolling_verify_result result;
	struct rolling_tags tags;
	int ok;

	if (git_graph_descendant_of(p->repo, now, &f->tip) != 1)
		return 0;
	if (rolling_tags_load(&tags, p->repo, &p->patterns) < 0)
		return 0;
	memset(&result, 0, sizeof(result));
	ok = !rolling_verify(&result, p->repo, now, &tags, &p->patterns, &vo) &&
	     !result.failures_nr;
	rolling_verify_result_release(&result);
	rolling_tags_release(&tags);
	return ok;
}

/*
 * One ref read again: 1 when it can be moved from where it is now (it
 * still holds the old value, or what this run would write), 0 when it
 * holds something else.
 */
static int reread_ref(struct rolling_fetch_plan *p, const char *refname, const git_oid *tip,
		      int *has, git_oid *old, git_oid *now, int *has_now)
{
	if ((*has_now = read_ref(now, p->repo, refname)) < 0)
		return *has_now;
	if (*has_now && git_oid_equal(now, tip)) {
		*has = 1;
		git_oid_cpy(old, tip);
		return 1;
	}
	return *has_now == *has && (!*has || git_oid_equal(now, old));
}

static int reread_branch(struct rolling_fetch_plan *p, struct rolling_fetch_branch *f)
{
	char hex[GIT_OID_HEXSZ + 1];
	int unchanged = rolling_fetch_branch_unchanged(f), has_t, has_v, ok_t, ok_v;
	git_oid t, v;

	if ((ok_t = reread_ref(p, f->tracking_ref, &f->tip, &f->has_tracking, &f->tracking,
			       &t, &has_t)) < 0 ||
	    (ok_v = reread_ref(p, f->verified_ref, &f->tip, &f->has_verified, &f->verified,
			       &v, &has_v)) < 0)
		return ROLLING_ERROR;
	if (ok_t && ok_v) {
		if (!unchanged && git_oid_equal(&f->tracking, &f->tip) &&
		    git_oid_equal(&f->verified, &f->tip))
			f->raced = ROLLING_RACE_SAME;
		return 0;
	}
	if (!unchanged && has_t && has_v && git_oid_equal(&t, &v) && verifies_since(p, f, &v)) {
		git_oid_cpy(&f->verified_tip, &f->tip);
		git_oid_cpy(&f->tip, &v);
		git_oid_cpy(&f->tracking, &v);
		git_oid_cpy(&f->verified, &v);
		f->raced = ROLLING_RACE_DESCENDANT;
		return 0;
	}
	return rolling_error_code(ROLLING_EMODIFIED, "%s was changed by another process, to %s,"
				  " which this fetch did not verify", ok_v ? f->tracking_ref :
				  f->verified_ref, git_oid_tostr(hex, sizeof(hex), ok_v ? &t : &v));
}

static int reread_refs(struct rolling_fetch_plan *p)
{
	size_t i;
	int err;

	for (i = 0; i < p->nr; i++)
		if ((err = reread_branch(p, &p->branches[i])) < 0)
			return err;
	return 0;
}

static int update_refs(struct rolling_fetch_plan *p)
{
	size_t max = 2 * p->nr + p->needed_nr, nr = 0, i;
	struct rolling_ref_update *updates = calloc(max + 1, sizeof(*updates));
	char **messages = calloc(p->nr + 1, sizeof(*messages));
	char **tag_refs = calloc(p->needed_nr + 1, sizeof(*tag_refs));
	int err;

	if (!updates || !messages || !tag_refs)
		err = rolling_error_nomem();
	else if (!(err = plan_updates(p, updates, &nr, messages, tag_refs)))
		err = rolling_ref_transaction(p->repo, updates, nr);
	for (i = 0; messages && i <= p->nr; i++)
		free(messages[i]);
	for (i = 0; tag_refs && i < p->needed_nr; i++)
		free(tag_refs[i]);
	free(tag_refs);
	free(messages);
	free(updates);
	return err;
}

/* Enough for every other fetch of the branches to have raced this one. */
#define RACE_RETRIES 8

int rolling_fetch_plan_update_refs(struct rolling_fetch_plan *p)
{
	int err, tries;

	for (tries = 0; (err = update_refs(p)) == ROLLING_EMODIFIED && tries < RACE_RETRIES;
	     tries++)
		if ((err = reread_refs(p)) < 0)
			return err;
	return err;
}

void rolling_fetch_plan_release(struct rolling_fetch_plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		struct rolling_fetch_branch *b = &p->branches[i];

		rolling_verify_result_release(&b->result);
		free(b->name);
		free(b->remote_ref);
		free(b->tracking_ref);
		free(b->verified_ref);
	}
	free(p->branches);
	free(p->needed);
	rolling_fetch_view_config_abandon(&p->view_config);
	rolling_fetch_view_release(&p->view);
	rolling_tags_release(&p->tags);
	rolling_patterns_release(&p->patterns);
	rolling_remote_refs_release(&p->advertised);
	rolling_remote_config_release(&p->config);
	memset(p, 0, sizeof(*p));
}
