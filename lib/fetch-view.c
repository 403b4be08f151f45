#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fetch-view.h"
#include "alloc.h"
#include "error.h"
#include "run-command.h"
#include "strbuf.h"

#define TAG_PREFIX "refs/tags/"
/* <quarantine>/view */
#define VIEW "view"

/* A variable of git's environment; git takes an empty one as unset. */
static int env_set(const char *name)
{
	const char *value = getenv(name);

	return value && *value;
}

static int has_prefix_icase(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

static int has_suffix_icase(const char *s, const char *suffix)
{
	size_t len = strlen(s), n = strlen(suffix);

	return len >= n && !strcasecmp(s + len - n, suffix);
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *out = fopen(path, "w");

	if (!out)
		return rolling_error("cannot write %s: %s", path, strerror(errno));
	if (fwrite(text, 1, len, out) != len) {
		int saved = errno;

		fclose(out);
		return rolling_error("cannot write %s: %s", path, strerror(saved));
	}
	if (fclose(out))
		return rolling_error("cannot write %s: %s", path, strerror(errno));
	return 0;
}

/* <view>/<name> holding `text`. */
static int write_in(const struct rolling_fetch_view *v, const char *name, const struct strbuf *text)
{
	char *path = rolling_path_join(v->git_dir, name);
	int err;

	if (!path || strbuf_oom(text))
		err = rolling_error_nomem();
	else
		err = write_file(path, text->buf, text->len);
	free(path);
	return err;
}

/* <view>/<name> a copy of <dir>/<name>, if that exists. */
static int copy_if_present(const struct rolling_fetch_view *v, const char *dir, const char *name)
{
	struct strbuf text = STRBUF_INIT;
	char *from = rolling_path_join(dir, name);
	int err = 0;

	if (!from)
		return rolling_error_nomem();
	if (strbuf_read_file(&text, from) < 0) {
		if (errno != ENOENT)
			err = rolling_error("cannot read %s: %s", from, strerror(errno));
	} else {
		err = write_in(v, name, &text);
	}
	strbuf_release(&text);
	free(from);
	return err;
}

static int make_dir_in(const char *dir, const char *name)
{
	char *path = rolling_path_join(dir, name);
	int err = 0;

	if (!path)
		return rolling_error_nomem();
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		err = rolling_error("cannot create %s: %s", path, strerror(errno));
	free(path);
	return err;
}

/* --- the configuration, as git reads it in the repository -------------- */

/* One entry of `git config --list --show-scope -z`: pointers into its output. */
struct config_entry {
	const char *scope, *key, *value;     /* value NULL: the key alone ("true") */
};

struct config_list {
	char *out;
	struct config_entry *entries;
	size_t nr, alloc;
};

/* "scope NUL key LF value NUL", or "scope NUL key NUL" for a key without value. */
static int parse_config(struct config_list *list, size_t len)
{
	char *p = list->out, *end = list->out + len;

	while (p < end) {
		char *scope = p, *key = scope + strlen(scope) + 1, *lf;

		if (key >= end)
			return rolling_error("cannot parse what git config --list printed");
		p = key + strlen(key) + 1;
		if (ALLOC_GROW(list->entries, list->nr + 1, list->alloc) < 0)
			return ROLLING_ERROR;
		list->entries[list->nr].scope = scope;
		list->entries[list->nr].key = key;
		list->entries[list->nr].value = NULL;
		if ((lf = strchr(key, '\n'))) {
			*lf = '\0';
			list->entries[list->nr].value = lf + 1;
		}
		list->nr++;
	}
	return 0;
}

int rolling_fetch_view_config_start(struct rolling_fetch_view_config *c, git_repository *repo)
{
	const char *args[] = { "--git-dir", git_repository_path(repo), "config", "--list",
			       "--show-scope", "--includes", "-z", NULL };
	struct rolling_child init = ROLLING_CHILD_INIT;
	int err;

	c->git = init;
	rolling_strvec_pushv(&c->git.args, args);
	c->git.out = ROLLING_CHILD_CAPTURE;
	if ((err = rolling_child_start(&c->git)) < 0)
		rolling_child_release(&c->git);
	c->started = !err;
	return err;
}

void rolling_fetch_view_config_abandon(struct rolling_fetch_view_config *c)
{
	if (!c->started)
		return;
	c->started = 0;
	rolling_child_release(&c->git);
}

/*
 * The repository's whole configuration as git reads it there, includes
 * followed (their conditions evaluated for the repository's git
 * directory and branch), with the scope of each entry: what `c` lists.
 */
static int read_config(struct config_list *list, struct rolling_fetch_view_config *c)
{
	size_t len;
	int status;

	memset(list, 0, sizeof(*list));
	if (!c->started)
		return rolling_error("cannot read the configuration: git config was not started");
	c->started = 0;
	status = rolling_child_finish(&c->git);
	len = c->git.captured.len;
	if (status > 0)
		status = rolling_error("cannot read the configuration (git config: exit status %d)",
				       status);
	else if (!status && !(list->out = strbuf_detach(&c->git.captured)))
		status = rolling_error_nomem();
	rolling_child_release(&c->git);
	return status < 0 ? status : parse_config(list, len);
}

static void config_list_free(struct config_list *list)
{
	free(list->out);
	free(list->entries);
	memset(list, 0, sizeof(*list));
}

/* What the view's configuration file must not hold as the repository's does. */
static int written_apart(const char *key)
{
	return !strcasecmp(key, "core.bare") || !strcasecmp(key, "core.worktree") ||
	       !strcasecmp(key, "core.repositoryformatversion") ||
	       has_prefix_icase(key, "extensions.") || has_prefix_icase(key, "include.") ||
	       has_prefix_icase(key, "includeif.") ||
	       (has_prefix_icase(key, "remote.") && has_suffix_icase(key, ".tagopt"));
}

static int is_file_scope(const char *scope, int isolated)
{
	if (!strcmp(scope, "local") || !strcmp(scope, "worktree"))
		return 1;
	return isolated && (!strcmp(scope, "system") || !strcmp(scope, "global"));
}

/*
 * The system or global configuration would not read in the view as in
 * the repository: it includes a file on a gitdir: condition (the view's
 * directory is not the repository's), or sets a remote's tagOpt.
 */
static int needs_isolation(const struct config_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		const struct config_entry *e = &list->entries[i];

		if (strcmp(e->scope, "system") && strcmp(e->scope, "global"))
			continue;
		if (has_prefix_icase(e->key, "includeif.gitdir") ||
		    (has_prefix_icase(e->key, "remote.") && has_suffix_icase(e->key, ".tagopt")))
			return 1;
	}
	return 0;
}

/* A value in double quotes, as git's config parser reads it back. */
static void add_quoted(struct strbuf *out, const char *value)
{
	strbuf_addch(out, '"');
	for (; *value; value++) {
		switch (*value) {
		case '\\': strbuf_addstr(out, "\\\\"); break;
		case '"': strbuf_addstr(out, "\\\""); break;
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		case '\b': strbuf_addstr(out, "\\b"); break;
		default: strbuf_addch(out, *value);
		}
	}
	strbuf_addch(out, '"');
}

/*
 * "section.subsection.name" (the subsection may hold dots) as a section
 * header, unless it is the previous entry's (`section`: "section.subsection."),
 * then the entry.
 */
static void add_entry(struct strbuf *out, struct strbuf *section, const char *key,
		      const char *value)
{
	const char *first = strchr(key, '.'), *last = strrchr(key, '.');
	const char *p;
	size_t len;

	if (!first)
		return;
	len = last - key + 1;
	if (section->len != len || strncmp(section->buf, key, len)) {
		strbuf_addch(out, '[');
		strbuf_add(out, key, first - key);
		if (first != last) {
			strbuf_addstr(out, " \"");
			for (p = first + 1; p < last; p++) {
				if (*p == '"' || *p == '\\')
					strbuf_addch(out, '\\');
				strbuf_addch(out, *p);
			}
			strbuf_addch(out, '"');
		}
		strbuf_addstr(out, "]\n");
		strbuf_reset(section);
		strbuf_add(section, key, len);
	}
	strbuf_addch(out, '\t');
	strbuf_addstr(out, last + 1);
	if (value) {
		strbuf_addstr(out, " = ");
		add_quoted(out, value);
	}
	strbuf_addch(out, '\n');
}

/*
 * The repository's format version and extensions, as git reads them:
 * from the common directory's own config file (level local, not through
 * an include).  The ref storage is not copied (the view stores its refs
 * as files, whatever the repository does), nor worktreeConfig (the
 * entries of config.worktree are written out like the others).
 */
static int add_format(struct strbuf *out, struct strbuf *section, git_repository *repo,
		      int bare)
{
	git_config *config = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int err, version = 0;
	struct strbuf extensions = STRBUF_INIT;

	if ((err = git_repository_config_snapshot(&config, repo)) < 0 ||
	    (err = git_config_iterator_new(&it, config)) < 0) {
		git_config_free(config);
		return rolling_git_error(err, "cannot read the configuration");
	}
	while (!(err = git_config_next(&e, it))) {
		if (e->level != GIT_CONFIG_LEVEL_LOCAL || e->include_depth)
			continue;
		if (!strcasecmp(e->name, "core.repositoryformatversion"))
			version = atoi(e->value ? e->value : "0");
		else if (has_prefix_icase(e->name, "extensions.") &&
			 strcasecmp(e->name, "extensions.refstorage") &&
			 strcasecmp(e->name, "extensions.worktreeconfig"))
			add_entry(&extensions, section, e->name, e->value);
	}
	git_config_iterator_free(it);
	git_config_free(config);
	if (err < 0 && err != GIT_ITEROVER) {
		strbuf_release(&extensions);
		return rolling_git_error(err, "cannot read the configuration");
	}
	strbuf_addf(out, "[core]\n\trepositoryformatversion = %d\n\tbare = %s\n", version,
		    bare ? "true" : "false");
	strbuf_add(out, extensions.buf, extensions.len);
	strbuf_release(&extensions);
	strbuf_reset(section);
	return 0;
}

/*
 * The view's configuration: the format, then every entry the repository
 * reads from its own files (and from the system's and the user's, when
 * isolated), but for those written_apart(); a remote's followRemoteHEAD
 * last, so that git never sets the remote's HEAD in the view (it does
 * only for a fetch without refspecs, which this is not).
 */
static int write_config(struct rolling_fetch_view *v, git_repository *repo, const char *remote,
			struct rolling_fetch_view_config *c)
{
	struct config_list list;
	struct strbuf text = STRBUF_INIT, section = STRBUF_INIT;
	size_t i;
	int err;

	if ((err = read_config(&list, c)) < 0)
		goto out;
	v->isolated_config = needs_isolation(&list);
	if ((err = add_format(&text, &section, repo, !v->work_tree)) < 0)
		goto out;
	for (i = 0; i < list.nr; i++) {
		const struct config_entry *e = &list.entries[i];

		if (is_file_scope(e->scope, v->isolated_config) && !written_apart(e->key))
			add_entry(&text, &section, e->key, e->value);
	}
	strbuf_reset(&section);
	strbuf_addstr(&text, "[remote \"");
	for (; *remote; remote++) {
		if (*remote == '"' || *remote == '\\')
			strbuf_addch(&text, '\\');
		strbuf_addch(&text, *remote);
	}
	strbuf_addstr(&text, "\"]\n\tfollowRemoteHEAD = never\n");
	err = write_in(v, "config", &text);
out:
	config_list_free(&list);
	strbuf_release(&section);
	strbuf_release(&text);
	return err;
}

/* --- HEAD and the refs ----------------------------------------------- */

/* The repository's HEAD, so that includeIf onbranch: reads as there. */
static int write_head(const struct rolling_fetch_view *v, git_repository *repo)
{
	struct strbuf text = STRBUF_INIT;
	git_reference *head;
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	if (git_reference_lookup(&head, repo, "HEAD") < 0) {
		strbuf_addstr(&text, "ref: refs/heads/rolling-fetch-view\n");
	} else {
		if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC)
			strbuf_addf(&text, "ref: %s\n", git_reference_symbolic_target(head));
		else
			strbuf_addf(&text, "%s\n",
				    git_oid_tostr(hex, sizeof(hex), git_reference_target(head)));
		git_reference_free(head);
	}
	err = write_in(v, "HEAD", &text);
	strbuf_release(&text);
	return err;
}

struct view_ref {
	char *name;
	git_oid oid;
};

struct view_refs {
	struct view_ref *refs;
	size_t nr, alloc;
	const struct rolling_tags *tags;
	struct rolling_patterns *patterns;
	int err;
};

/*
 * The commit of the newest release of the series whose tag objects lead
 * to it (rolling_release_check(): packed-refs' peeled values are not
 * taken): it stands for the older ones.  NULL for a series with no
 * sound release.
 */
static const git_oid *newest_of_series(const struct view_refs *r,
				       const struct rolling_release *release)
{
	const struct rolling_series_info *series;
	const char *problem;
	size_t i;

	if (!(series = rolling_tags_find_series(r->tags, &release->version.series)))
		return NULL;
	for (i = series->first + series->count; i-- > series->first;)
		if (rolling_release_check(&problem, r->tags, &r->tags->releases[i]) > 0)
			return &r->tags->releases[i].commit;
	return NULL;
}

/*
 * What the view names for the repository's ref `refname`, which names
 * `target`: 1 with *oid set, or 0 to leave the ref out of the view.
 *
 * A ref other than a release tag is named as it is, a tag object
 * unpeeled: git reads it, as it would in the repository.  packed-refs'
 * peeled values ("^" lines, git_reference_target_peel()) are a cache
 * the repository may lie in, and a have git is given is taken as
 * complete.  A release tag the plan's tags have stands as
 * newest_of_series().
 *
 * A release tag they do not have is left out.  Either another process
 * created it since they were read (a concurrent fetch moves its objects
 * into the store, then writes the tags its new steps need), or they
 * skipped it (its objects are missing, or lead to no commit).  Named in
 * the view, git would not follow it, so the plan would find it neither
 * among the repository's releases nor among the server's tags, and the
 * step that needs it would fail verification as if the server had no
 * such tag.  Left out, git follows it from the server as it does any tag
 * the repository lacks, and the plan reads it from its objects.
 */
static int view_value(git_oid *oid, const struct view_refs *r, const char *refname,
		      const git_oid *target)
{
	const struct rolling_release *release;
	struct rolling_version version;
	enum rolling_tag_kind kind;
	const git_oid *newest;
	const char *name;

	git_oid_cpy(oid, target);
	if (strncmp(refname, TAG_PREFIX, strlen(TAG_PREFIX)))
		return 1;
	name = refname + strlen(TAG_PREFIX);
	if (rolling_patterns_classify(r->patterns, name, &kind, &version) < 0 ||
	    kind != ROLLING_TAG_RELEASE)
		return 1;
	release = rolling_tags_find_version(r->tags, &version);
	if (!release || strcmp(release->name, name))
		return 0;
	if ((newest = newest_of_series(r, release)))
		git_oid_cpy(oid, newest);
	return 1;
}

/* Names the fetch writes into (rolling_fetch_view_ref()), which the repository's must not take. */
static int in_fetch_namespace(const char *refname)
{
	size_t len = strlen(ROLLING_FETCH_VIEW_REFS) - 1;

	return !strncmp(refname, ROLLING_FETCH_VIEW_REFS, len) &&
	       (refname[len] == '/' || !refname[len]);
}

static int add_view_ref(git_reference *ref, void *data)
{
	struct view_refs *r = data;
	const char *name = git_reference_name(ref);
	git_oid oid;

	if (git_reference_type(ref) != GIT_REFERENCE_DIRECT || in_fetch_namespace(name) ||
	    !view_value(&oid, r, name, git_reference_target(ref)))
		goto out;
	if (ALLOC_GROW(r->refs, r->nr + 1, r->alloc) < 0 ||
	    !(r->refs[r->nr].name = strdup(name))) {
		r->err = rolling_error_nomem();
		git_reference_free(ref);
		return 1;
	}
	git_oid_cpy(&r->refs[r->nr++].oid, &oid);
out:
	git_reference_free(ref);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct view_ref *)a)->name, ((const struct view_ref *)b)->name);
}

/* packed-refs as git writes it, sorted by name, without peeled lines. */
static int write_packed_refs(const struct rolling_fetch_view *v, const struct view_refs *r)
{
	struct strbuf text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int err;

	strbuf_addstr(&text, "# pack-refs with: sorted \n");
	for (i = 0; i < r->nr; i++)
		if (!i || strcmp(r->refs[i - 1].name, r->refs[i].name))
			strbuf_addf(&text, "%s %s\n", git_oid_tostr(hex, sizeof(hex), &r->refs[i].oid),
				    r->refs[i].name);
	err = write_in(v, "packed-refs", &text);
	strbuf_release(&text);
	return err;
}

/* The names written, which the view keeps (rolling_fetch_view_has_own()). */
static int keep_names(struct rolling_fetch_view *v, struct view_refs *r)
{
	size_t i;

	if (!(v->names = calloc(r->nr + 1, sizeof(*v->names))))
		return rolling_error_nomem();
	for (i = 0; i < r->nr; i++) {
		if (v->names_nr && !strcmp(v->names[v->names_nr - 1], r->refs[i].name))
			continue;
		v->names[v->names_nr++] = r->refs[i].name;
		r->refs[i].name = NULL;
	}
	return 0;
}

static int write_refs(struct rolling_fetch_view *v, git_repository *repo,
		      const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	struct view_refs r = { NULL, 0, 0, tags, patterns, 0 };
	size_t i;
	int err;

	if ((err = git_reference_foreach(repo, add_view_ref, &r)) < 0 && !r.err)
		err = rolling_git_error(err, "cannot read the refs");
	else if (r.err)
		err = r.err;
	if (!err) {
		if (r.nr)       /* a repository with no refs has no array */
			qsort(r.refs, r.nr, sizeof(*r.refs), by_name);
		if (!(err = write_packed_refs(v, &r)))
			err = keep_names(v, &r);
	}
	for (i = 0; i < r.nr; i++)
		free(r.refs[i].name);
	free(r.refs);
	return err;
}

/* --- the view ---------------------------------------------------------- */

static int has_own_alternates(const struct rolling_quarantine *q)
{
	char *path = rolling_path_join(q->objects, "info/alternates");
	int has;

	if (!path)
		return rolling_error_nomem();
	has = !access(path, F_OK) || env_set("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	free(path);
	return has;
}

/*
 * git run in the repository with a work tree goes to its top, and
 * resolves a remote's relative path from there; run in the view with
 * GIT_WORK_TREE it does the same.  Inside the git directory git has no
 * work tree (but the current directory, with GIT_DIR set), and neither
 * has the repository as opened (repo-open.h): the view has none either.
 */
static int setup(struct rolling_fetch_view *v, git_repository *repo,
		 const struct rolling_quarantine *q)
{
	const char *work_tree = git_repository_workdir(repo);
	char *quarantine = realpath(q->path, NULL);
	int err = 0;

	if (!quarantine)
		return rolling_error("cannot read the quarantine %s: %s", q->path, strerror(errno));
	if (!(v->git_dir = rolling_path_join(quarantine, VIEW)) ||
	    (work_tree && !git_repository_is_bare(repo) && !(v->work_tree = strdup(work_tree))))
		err = rolling_error_nomem();
	else if ((v->own_alternates = has_own_alternates(q)) < 0)
		err = v->own_alternates;
	free(quarantine);
	return err;
}

int rolling_fetch_view_create(struct rolling_fetch_view *v, git_repository *repo,
			      const struct rolling_quarantine *q, const char *remote,
			      const struct rolling_tags *tags, struct rolling_patterns *patterns,
			      struct rolling_fetch_view_config *c)
{
	const char *commondir = git_repository_commondir(repo);
	int err;

	memset(v, 0, sizeof(*v));
	if ((err = setup(v, repo, q)) < 0)
		goto fail;
	if (mkdir(v->git_dir, 0777) < 0) {
		err = rolling_error("cannot create %s: %s", v->git_dir, strerror(errno));
		goto fail;
	}
	/* objects/ for libgit2, which reads the refs git wrote here (remote-refs.h). */
	if ((err = make_dir_in(v->git_dir, "refs")) < 0 ||
	    (err = make_dir_in(v->git_dir, "objects")) < 0 ||
	    (err = make_dir_in(v->git_dir, "info")) < 0 ||
	    (err = write_config(v, repo, remote, c)) < 0 || (err = write_head(v, repo)) < 0 ||
	    (err = write_refs(v, repo, tags, patterns)) < 0 ||
	    (err = copy_if_present(v, commondir, "shallow")) < 0 ||
	    (err = copy_if_present(v, commondir, "info/grafts")) < 0)
		goto fail;
	return 0;
fail:
	rolling_fetch_view_release(v);
	return err;
}

int rolling_fetch_view_env(struct rolling_strvec *env, const struct rolling_fetch_view *v,
			   const struct rolling_quarantine *q)
{
	int err;

	if ((err = rolling_env_push(env, "GIT_DIR", v->git_dir)) < 0 ||
	    (err = rolling_env_push(env, "GIT_WORK_TREE", v->work_tree)) < 0 ||
	    (err = rolling_env_push(env, "GIT_COMMON_DIR", NULL)) < 0 ||
	    (err = rolling_env_push(env, "GIT_NAMESPACE", NULL)) < 0 ||
	    (err = rolling_env_push(env, "GIT_INDEX_FILE", NULL)) < 0)
		return err;
	if (v->isolated_config &&
	    ((err = rolling_env_push(env, "GIT_CONFIG_NOSYSTEM", "1")) < 0 ||
	     (err = rolling_env_push(env, "GIT_CONFIG_SYSTEM", NULL)) < 0 ||
	     (err = rolling_env_push(env, "GIT_CONFIG_GLOBAL", "/dev/null")) < 0))
		return err;
	return rolling_quarantine_writer_env(env, q);
}

char *rolling_fetch_view_ref(const char *remote_ref)
{
	if (!strncmp(remote_ref, "refs/", 5))
		remote_ref += 5;
	return rolling_strfmt(ROLLING_FETCH_VIEW_REFS "%s", remote_ref);
}

static int compare_name(const void *key, const void *name)
{
	return strcmp(key, *(char *const *)name);
}

int rolling_fetch_view_has_own(const struct rolling_fetch_view *v, const char *refname)
{
	return v->names_nr &&
	       bsearch(refname, v->names, v->names_nr, sizeof(*v->names), compare_name) != NULL;
}

void rolling_fetch_view_release(struct rolling_fetch_view *v)
{
	size_t i;

	for (i = 0; i < v->names_nr; i++)
		free(v->names[i]);
	free(v->names);
	free(v->git_dir);
	free(v->work_tree);
	memset(v, 0, sizeof(*v));
}
