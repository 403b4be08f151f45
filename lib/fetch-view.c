#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fetch-view.h"
#include "error.h"
#include "hazard.h"
#include "strbuf.h"

/* A variable of git's environment; git takes an empty one as unset. */
static int env_set(const char *name)
{
	const char *value = getenv(name);

	return value && *value;
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* 1 when <dir>/<name> exists, 0 when not, -1 when out of memory. */
static int exists_in(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int found;

	strbuf_addf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	found = strbuf_oom(&path) ? -1 : !access(path.buf, F_OK);
	strbuf_release(&path);
	return found;
}

/*
 * git lists an alternate's refs only when the alternate's real path is
 * <repository>/objects and <repository>/refs is a directory: else it
 * would never ask for the view's refs, and would fetch as if we had
 * nothing.
 */
static int objects_where_git_looks(const char *commondir)
{
	char common[PATH_MAX], objects[PATH_MAX];
	struct strbuf path = STRBUF_INIT;
	int ok;

	strbuf_addf(&path, "%sobjects", commondir);
	ok = !strbuf_oom(&path) && realpath(commondir, common) && realpath(path.buf, objects);
	strbuf_release(&path);
	if (!ok)
		return 0;
	strbuf_addf(&path, "%s/objects", common);
	ok = !strbuf_oom(&path) && !strcmp(path.buf, objects);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/refs", common);
	ok = ok && !strbuf_oom(&path) && is_dir(path.buf);
	strbuf_release(&path);
	return ok;
}

/*
 * git run in the repository with a work tree goes to its top, and
 * resolves a remote's relative path from there; run in the view with
 * GIT_WORK_TREE it does the same, unless the current directory is inside
 * the git directory, which git takes as a bare repository's.
 */
static int cwd_inside_git_dir(git_repository *repo)
{
	char cwd[PATH_MAX], git_dir[PATH_MAX];
	size_t len;

	if (!getcwd(cwd, sizeof(cwd)) || !realpath(git_repository_path(repo), git_dir))
		return 1;
	len = strlen(git_dir);
	return !strncmp(cwd, git_dir, len) && (cwd[len] == '/' || !cwd[len]);
}

static int has_prefix_icase(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t len = strlen(s), n = strlen(suffix);

	return len >= n && !strcasecmp(s + len - n, suffix);
}

/*
 * One configuration entry the view would not see alike: the
 * repository's extensions (git reads them, as the format version, from
 * the repository's own file and not through an include), a promisor
 * remote, or an include that depends on the git directory or the branch.
 */
static int config_differs(const git_config_entry *e)
{
	const char *name = e->name;

	if (e->level >= GIT_CONFIG_LEVEL_LOCAL && has_prefix_icase(name, "extensions."))
		return 1;
	if (has_prefix_icase(name, "remote.") && has_suffix(name, ".promisor"))
		return 1;
	return has_prefix_icase(name, "includeif.gitdir") ||
	       has_prefix_icase(name, "includeif.onbranch:");
}

/* 1 when the configuration allows the view, with the format version in *version. */
static int config_allows(int *version, git_repository *repo)
{
	git_config *config = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int err, allows = 1;

	*version = 0;
	if ((err = git_repository_config_snapshot(&config, repo)) < 0 ||
	    (err = git_config_iterator_new(&it, config)) < 0) {
		git_config_free(config);
		return rolling_git_error(err, "cannot read the configuration");
	}
	while (allows && !(err = git_config_next(&e, it))) {
		if (config_differs(e))
			allows = 0;
		else if (e->level == GIT_CONFIG_LEVEL_LOCAL && !e->include_depth &&
			 !strcasecmp(e->name, "core.repositoryformatversion"))
			*version = atoi(e->value ? e->value : "0");
	}
	git_config_iterator_free(it);
	git_config_free(config);
	if (err < 0 && err != GIT_ITEROVER)
		return rolling_git_error(err, "cannot read the configuration");
	return allows;
}

/* 1 when the view would be the repository's equivalent, 0 when not. */
static int equivalent(int *version, git_repository *repo, const struct rolling_quarantine *q)
{
	const char *commondir = git_repository_commondir(repo);
	int found;

	*version = 0;
	if (env_set("GIT_OBJECT_DIRECTORY") || env_set("GIT_ALTERNATE_OBJECT_DIRECTORIES") ||
	    env_set("GIT_REPLACE_REF_BASE") || env_set("GIT_GRAFT_FILE"))
		return 0;
	if ((found = exists_in(q->objects, "info/alternates")) != 0 ||
	    (found = exists_in(commondir, "info/grafts")) != 0)
		return found < 0 ? rolling_error_nomem() : 0;
	if (!objects_where_git_looks(commondir) || rolling_hazard_is_shallow(repo) ||
	    (!git_repository_is_bare(repo) && cwd_inside_git_dir(repo)))
		return 0;
	return config_allows(version, repo);
}

static int write_text(const char *path, const char *text)
{
	FILE *out = fopen(path, "w");

	if (!out)
		return rolling_error("cannot write %s: %s", path, strerror(errno));
	fputs(text, out);
	if (fclose(out))
		return rolling_error("cannot write %s: %s", path, strerror(errno));
	return 0;
}

/* <dir>/<name>: a directory when `text` is NULL, else a file holding `text`. */
static int make_in(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	int err = 0;

	strbuf_addf(&path, "%s/%s", dir, name);
	if (strbuf_oom(&path))
		err = rolling_error_nomem();
	else if (text)
		err = write_text(path.buf, text);
	else if (mkdir(path.buf, 0777) < 0)
		err = rolling_error("cannot create %s: %s", path.buf, strerror(errno));
	strbuf_release(&path);
	return err;
}

/*
 * The view's configuration: the format version and bareness, which git
 * reads from this file only, then the repository's whole configuration
 * (quoted as a config value; git expands nothing in an absolute path).
 */
static void view_config(struct strbuf *text, git_repository *repo, int version, int bare)
{
	const char *p;

	strbuf_addf(text, "[core]\n\trepositoryformatversion = %d\n\tbare = %s\n"
		    "[include]\n\tpath = \"", version, bare ? "true" : "false");
	for (p = git_repository_commondir(repo); *p; p++) {
		if (*p == '\n') {
			strbuf_addstr(text, "\\n");
			continue;
		}
		if (*p == '"' || *p == '\\')
			strbuf_addch(text, '\\');
		strbuf_addch(text, *p);
	}
	strbuf_addstr(text, "config\"\n");
}

static int make_git_dir(const struct rolling_fetch_view *v, git_repository *repo, int version)
{
	struct strbuf config = STRBUF_INIT;
	int err;

	view_config(&config, repo, version, !v->work_tree);
	if (mkdir(v->git_dir, 0777) < 0)
		err = rolling_error("cannot create %s: %s", v->git_dir, strerror(errno));
	else if (strbuf_oom(&config))
		err = rolling_error_nomem();
	else if ((err = make_in(v->git_dir, "refs", NULL)) >= 0 &&
		 (err = make_in(v->git_dir, "HEAD", "ref: refs/heads/rolling-fetch-view\n")) >= 0)
		err = make_in(v->git_dir, "config", config.buf);
	strbuf_release(&config);
	return err;
}

struct haves {
	FILE *out;
	int replaced;     /* the repository has replace refs */
	const struct rolling_tags *tags;
	struct rolling_patterns *patterns;
};

/* A release tag with a newer release of its series: the newer one stands for it. */
static int superseded(const struct haves *h, const char *refname)
{
	const struct rolling_release *release;
	const struct rolling_series_info *series;

	if (!h->tags || strncmp(refname, "refs/tags/", strlen("refs/tags/")))
		return 0;
	release = rolling_tags_find_name(h->tags, h->patterns, refname + strlen("refs/tags/"));
	if (!release || !(series = rolling_tags_find_series(h->tags, &release->version.series)))
		return 0;
	return release != &h->tags->releases[series->first + series->count - 1];
}

static void write_have(struct haves *h, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	fprintf(h->out, "%s\n", git_oid_tostr(hex, sizeof(hex), oid));
}

static int have_ref(git_reference *ref, void *data)
{
	struct haves *h = data;
	const git_oid *peeled;

	if (!strncmp(git_reference_name(ref), "refs/replace/", strlen("refs/replace/")))
		h->replaced = 1;
	if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
	    !superseded(h, git_reference_name(ref))) {
		peeled = git_reference_target_peel(ref);
		write_have(h, peeled ? peeled : git_reference_target(ref));
	}
	git_reference_free(ref);
	return h->replaced ? 1 : 0;
}

/*
 * Every ref's object, peeled where packed-refs says; HEAD when detached.
 * Returns 1 when written, 0 when the repository has replace refs (git
 * walks the replacements there, and would not through the view) or when
 * libgit2 cannot list the refs (git may: it then reads them itself).
 */
static int write_haves(const struct rolling_fetch_view *v, git_repository *repo,
		       const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	struct haves h = { NULL, 0, tags, patterns };
	git_reference *head;
	int err;

	if (!(h.out = fopen(v->haves, "w")))
		return rolling_error("cannot write %s: %s", v->haves, strerror(errno));
	err = git_reference_foreach(repo, have_ref, &h);
	if (err >= 0 && !h.replaced && git_repository_head_detached(repo) == 1 &&
	    !git_reference_lookup(&head, repo, "HEAD")) {
		if (git_reference_target(head))
			write_have(&h, git_reference_target(head));
		git_reference_free(head);
	}
	if (fclose(h.out) && err >= 0)
		return rolling_error("cannot write %s: %s", v->haves, strerror(errno));
	return h.replaced || err < 0 ? 0 : 1;
}

int rolling_fetch_view_create(struct rolling_fetch_view *v, git_repository *repo,
			      const struct rolling_quarantine *q, const struct rolling_tags *tags,
			      struct rolling_patterns *patterns)
{
	const char *work_tree = git_repository_workdir(repo);
	int version, err;

	memset(v, 0, sizeof(*v));
	if ((err = equivalent(&version, repo, q)) <= 0)
		return err;
	if (asprintf(&v->git_dir, "%s/view", q->path) < 0 ||
	    asprintf(&v->haves, "%s/view-haves", q->path) < 0 ||
	    (work_tree && !(v->work_tree = strdup(work_tree)))) {
		err = rolling_error_nomem();
		goto fail;
	}
	if ((err = write_haves(v, repo, tags, patterns)) <= 0 || (err = make_git_dir(v, repo, version)) < 0)
		goto fail;
	return 1;
fail:
	rolling_fetch_view_free(v);
	return err;
}

char *rolling_fetch_view_alternate_refs_command(const struct rolling_fetch_view *v)
{
	struct strbuf cmd = STRBUF_INIT;

	/* Single quotes, each ' in the path as '\'' */
	strbuf_addstr(&cmd, "core.alternateRefsCommand=rolling_view_haves() { cat '");
	for (const char *p = v->haves; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(&cmd, "'\\''");
		else
			strbuf_addch(&cmd, *p);
	}
	strbuf_addstr(&cmd, "'; }; rolling_view_haves");
	if (strbuf_oom(&cmd)) {
		strbuf_release(&cmd);
		return NULL;
	}
	return strbuf_detach(&cmd);
}

void rolling_fetch_view_free(struct rolling_fetch_view *v)
{
	free(v->git_dir);
	free(v->haves);
	free(v->work_tree);
	memset(v, 0, sizeof(*v));
}
