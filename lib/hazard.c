#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hazard.h"
#include "alloc.h"
#include "error.h"
#include "git2-compat.h"
#include "strbuf.h"

#define DEFAULT_REPLACE_BASE "refs/replace/"

struct hazard_list {
	struct rolling_hazard *list;
	size_t nr, alloc;
};

static struct rolling_hazard *append(struct hazard_list *l)
{
	if (ALLOC_GROW(l->list, l->nr + 1, l->alloc) < 0)
		return NULL;
	memset(&l->list[l->nr], 0, sizeof(*l->list));
	return &l->list[l->nr++];
}

static int finish(struct rolling_hazard **out, size_t *nr, struct hazard_list *l, int err)
{
	if (err < 0) {
		rolling_hazard_free(l->list, l->nr);
		l->list = NULL;
		l->nr = 0;
	}
	*out = l->list;
	*nr = l->nr;
	return err < 0 ? err : 0;
}

void rolling_hazard_free(struct rolling_hazard *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(list[i].refname);
	free(list);
}

/* An object id in the first hex digits of `text`, as git's get_oid_hex() reads one. */
static int parse_hex_prefix(git_oid *oid, const char *text, size_t len)
{
	size_t i;

	if (len < GIT_OID_HEXSZ)
		return -1;
	for (i = 0; i < GIT_OID_HEXSZ; i++)
		if (!isxdigit((unsigned char)text[i]))
			return -1;
	return git_oid_fromstrn(oid, text, GIT_OID_HEXSZ) ? -1 : 0;
}

const char *rolling_hazard_replace_base(void)
{
	const char *base = getenv("GIT_REPLACE_REF_BASE");

	return base ? base : DEFAULT_REPLACE_BASE;
}

/*
 * Whether git would honour replace refs in this repository: not when
 * GIT_NO_REPLACE_OBJECTS is set (to anything, as git tests it) nor when
 * core.useReplaceRefs is false.
 */
static int replace_enabled(git_repository *repo)
{
	git_config *config;
	int use = 1;

	if (getenv("GIT_NO_REPLACE_OBJECTS"))
		return 0;
	if (!git_repository_config_snapshot(&config, repo)) {
		if (git_config_get_bool(&use, config, "core.usereplacerefs") < 0)
			use = 1;
		git_config_free(config);
	}
	git_error_clear();
	return use;
}

/* git reads the replaced object's id from the last component of the name. */
static int add_replacement(struct hazard_list *l, git_reference *ref)
{
	const char *name = git_reference_name(ref), *slash = strrchr(name, '/');
	const char *hash = slash ? slash + 1 : name;
	struct rolling_hazard *h;
	git_reference *resolved;

	if (!(h = append(l)) || !(h->refname = strdup(name)))
		return rolling_error_nomem();
	if (git_reference_resolve(&resolved, ref) < 0) {
		git_error_clear();
		return 0;       /* a dangling symbolic ref: listed, not honoured */
	}
	git_oid_cpy(&h->replacement, git_reference_target(resolved));
	git_reference_free(resolved);
	h->honoured = !parse_hex_prefix(&h->oid, hash, strlen(hash));
	return 0;
}

int rolling_hazard_replacements(struct rolling_hazard **out, size_t *nr, git_repository *repo)
{
	const char *base = rolling_hazard_replace_base();
	struct hazard_list l = { NULL, 0, 0 };
	git_reference_iterator *iter = NULL;
	git_reference *ref;
	struct strbuf glob = STRBUF_INIT;
	int err;

	if (!replace_enabled(repo))
		return finish(out, nr, &l, 0);
	strbuf_addf(&glob, "%s*", base);
	if (strbuf_oom(&glob))
		return finish(out, nr, &l, rolling_error_nomem());
	err = git_reference_iterator_glob_new(&iter, repo, glob.buf);
	strbuf_release(&glob);
	if (err < 0)
		return finish(out, nr, &l, rolling_git_error(err, "cannot read %s", base));
	while (!(err = git_reference_next(&ref, iter))) {
		/* The glob's '*' also matches '/': keep only names under the base. */
		if (!strncmp(git_reference_name(ref), base, strlen(base)))
			err = add_replacement(&l, ref);
		git_reference_free(ref);
		if (err < 0)
			break;
	}
	if (err == GIT_ITEROVER)
		err = 0;
	else if (err != ROLLING_ERROR)
		err = rolling_git_error(err, "cannot read %s", base);
	git_reference_iterator_free(iter);
	return finish(out, nr, &l, err);
}


/* $<variable>, else <name> in the common git directory; the caller frees it. */
static char *git_file(git_repository *repo, const char *variable, const char *name)
{
	const char *set = getenv(variable);

	if (set && *set)
		return strdup(set);
	return rolling_path_join(git_repository_commondir(repo), name);
}

/* Call `line_fn` for each line of a file, without its "\n"; a missing file has none. */
static int for_each_line(const char *path, int (*line_fn)(char *line, size_t len, void *data),
			 void *data)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	FILE *file;
	int err = 0;

	if (!(file = fopen(path, "r")))
		return errno == ENOENT ? 0 : rolling_error("cannot read %s: %s", path,
							    strerror(errno));
	while (!err && (len = getline(&line, &size, file)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		err = line_fn(line, (size_t)len, data);
	}
	if (!err && ferror(file))
		err = rolling_error("cannot read %s", path);
	free(line);
	fclose(file);
	return err;
}

/* Does the whole line read as git's "<commit>[<space><parent>]..."? */
static int parse_graft(git_oid *commit, const char *line, size_t len)
{
	git_oid parent;
	size_t at;

	if (parse_hex_prefix(commit, line, len) < 0)
		return -1;
	for (at = GIT_OID_HEXSZ; at < len; at += 1 + GIT_OID_HEXSZ)
		if (!isspace((unsigned char)line[at]) ||
		    parse_hex_prefix(&parent, line + at + 1, len - at - 1) < 0)
			return -1;
	return 0;
}

static int graft_line(char *line, size_t len, void *data)
{
	struct rolling_hazard *h;
	git_oid commit;

	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (!len || line[0] == '#' || parse_graft(&commit, line, len) < 0)
		return 0;
	if (!(h = append(data)))
		return ROLLING_ERROR;
	git_oid_cpy(&h->oid, &commit);
	return 0;
}

int rolling_hazard_grafts(struct rolling_hazard **out, size_t *nr, git_repository *repo)
{
	struct hazard_list l = { NULL, 0, 0 };
	char *path = git_file(repo, "GIT_GRAFT_FILE", "info/grafts");
	int err;

	if (!path)
		return finish(out, nr, &l, rolling_error_nomem());
	err = for_each_line(path, graft_line, &l);
	free(path);
	return finish(out, nr, &l, err);
}

/*
 * A line as libgit2 reads one (grafts.c, git_grafts_parse()): object ids,
 * each after a single space, and nothing else.  Counts the lines in
 * *(size_t *)data and returns 1 to stop at the first other one.
 */
static int strict_line(char *line, size_t len, void *data)
{
	git_oid oid;
	size_t at;

	++*(size_t *)data;
	for (at = 0; !parse_hex_prefix(&oid, line + at, len - at); at += GIT_OID_HEXSZ + 1) {
		if (at + GIT_OID_HEXSZ == len)
			return 0;
		if (line[at + GIT_OID_HEXSZ] != ' ')
			break;
	}
	return 1;
}

/* 0, 1 after recording which line of the file at `path` libgit2 refuses, or an error. */
static int strict_file(const char *path, const char *what)
{
	size_t line_nr = 0;
	int err = for_each_line(path, strict_line, &line_nr);

	if (err <= 0)
		return err;
	rolling_error("%s, line %zu: not object ids separated by single spaces, the only form"
		      " libgit2 1.7 and later read; they refuse to open the repository%s",
		      path, line_nr, what);
	return 1;
}

int rolling_hazard_check_graft_files(const char *gitdir, const char *commondir)
{
	char *grafts = rolling_path_join(commondir, "info/grafts");
	char *shallow = rolling_path_join(gitdir, "shallow");
	int err;

	if (!grafts || !shallow)
		err = rolling_error_nomem();
	else if (!(err = strict_file(grafts, " (git also takes comments, blank lines, tabs and"
				    " CRs there): rewrite the line, or turn the grafts into replace"
				    " refs with git replace --convert-graft-file")))
		err = strict_file(shallow, "");
	free(grafts);
	free(shallow);
	return err > 0 ? ROLLING_ERROR : err;
}

int rolling_hazard_is_shallow(git_repository *repo)
{
	char *path = git_file(repo, "GIT_SHALLOW_FILE", "shallow");
	struct stat st;
	int shallow = path && !stat(path, &st) && st.st_size > 0;

	free(path);
	return shallow;
}

static int shallow_line(char *line, size_t len, void *data)
{
	git_oid commit;

	if (parse_hex_prefix(&commit, line, len) < 0)
		return 0;
	return rolling_oidmap_put(data, &commit, 0);
}

int rolling_hazard_shallow(struct rolling_oidmap *shallow, git_repository *repo)
{
	char *path = git_file(repo, "GIT_SHALLOW_FILE", "shallow");
	int err;

	memset(shallow, 0, sizeof(*shallow));
	if (!path)
		return rolling_error_nomem();
	if ((err = for_each_line(path, shallow_line, shallow)) < 0)
		rolling_oidmap_release(shallow);
	free(path);
	return err;
}
