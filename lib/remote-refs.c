#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote-refs.h"
#include "alloc.h"
#include "run-command.h"
#include "error.h"
#include "strbuf.h"

#define PEELED_SUFFIX "^{}"

static struct rolling_remote_ref *find(const struct rolling_remote_refs *refs,
				       const char *name, size_t len)
{
	size_t i;

	for (i = refs->nr; i-- > 0;)
		if (strlen(refs->refs[i].name) == len && !strncmp(refs->refs[i].name, name, len))
			return &refs->refs[i];
	return NULL;
}

static int add_ref(struct rolling_remote_refs *refs, const git_oid *oid, const char *name,
		   size_t len)
{
	struct rolling_remote_ref *ref;

	if (ALLOC_GROW(refs->refs, refs->nr + 1, refs->alloc) < 0)
		return ROLLING_ERROR;
	ref = &refs->refs[refs->nr];
	if (!(ref->name = strndup(name, len)))
		return rolling_error_nomem();
	git_oid_cpy(&ref->oid, oid);
	git_oid_cpy(&ref->peeled, oid);
	refs->nr++;
	return 0;
}

/* "<oid> TAB <refname>"; a "<tag>^{}" line gives the tag's peeled object. */
static int parse_line(struct rolling_remote_refs *refs, const char *line, size_t len)
{
	size_t suffix = strlen(PEELED_SUFFIX);
	const char *name = line + GIT_OID_HEXSZ + 1;
	size_t name_len;
	struct rolling_remote_ref *tag;
	git_oid oid;

	if (len <= GIT_OID_HEXSZ + 1 || line[GIT_OID_HEXSZ] != '\t' ||
	    git_oid_fromstrn(&oid, line, GIT_OID_HEXSZ) < 0)
		return rolling_error("cannot parse what git ls-remote printed: %.*s",
				     (int)len, line);
	name_len = len - GIT_OID_HEXSZ - 1;
	if (name_len > suffix && !memcmp(name + name_len - suffix, PEELED_SUFFIX, suffix)) {
		if ((tag = find(refs, name, name_len - suffix)))
			git_oid_cpy(&tag->peeled, &oid);
		return 0;
	}
	return add_ref(refs, &oid, name, name_len);
}

static int index_tags(struct rolling_remote_refs *refs)
{
	size_t i;

	for (i = 0; i < refs->nr; i++)
		if (!strncmp(refs->refs[i].name, "refs/tags/", strlen("refs/tags/")) &&
		    rolling_oidmap_put(&refs->tags_by_peeled, &refs->refs[i].peeled, i) < 0)
			return ROLLING_ERROR;
	return 0;
}

/*
 * git ls-remote --heads --tags -- <remote>, run only when <remote> is a
 * configured remote as git sees it: git would take any other name for a
 * URL or a path, and the listing may start before this program has
 * read the configuration.  Not configured, it exits 1 and lists nothing.
 *
 * --heads --tags: git asks the server for those two ref prefixes
 * (protocol v2), so that a hosting server does not advertise all its
 * other refs (pull requests, changes under review and the like).  No
 * pattern: git would match each of thousands of tags against them
 * (about a tenth of what ls-remote costs), where the caller only looks
 * refs up by name.
 */
#define LIST_CONFIGURED \
	"git config --get-all \"remote.$1.url\" >/dev/null 2>&1 || exit 1; " \
	"exec git ls-remote --heads --tags -- \"$1\""

int rolling_remote_refs_start(struct rolling_remote_listing *l, const char *remote)
{
	const char *const argv[] = { "sh", "-c", LIST_CONFIGURED, "git-rolling-fetch", remote,
				     NULL };
	int err = rolling_start_reading(&l->pid, &l->fd, argv);

	l->started = !err;
	return err;
}

int rolling_remote_refs_finish(struct rolling_remote_refs *refs, struct rolling_remote_listing *l,
			       const char *remote)
{
	char *out = NULL, *line;
	int status, err = 0;

	memset(refs, 0, sizeof(*refs));
	if (!l->started)
		return rolling_error("cannot list the refs of '%s': git ls-remote was not started",
				     remote);
	l->started = 0;
	status = rolling_finish_reading(l->pid, l->fd, &out, "ls-remote");
	if (status < 0)
		return status;
	if (status) {
		free(out);
		return rolling_error("cannot list the refs of '%s' (git ls-remote: exit status %d)",
				     remote, status);
	}
	for (line = out; !err && *line;) {
		size_t len = strcspn(line, "\n");

		err = parse_line(refs, line, len);
		line += len + (line[len] == '\n');
	}
	free(out);
	if (!err)
		err = index_tags(refs);
	if (err)
		rolling_remote_refs_free(refs);
	return err;
}

void rolling_remote_refs_abandon(struct rolling_remote_listing *l)
{
	if (!l->started)
		return;
	l->started = 0;
	rolling_abandon_reading(l->pid, l->fd);
}

const struct rolling_remote_ref *rolling_remote_refs_find(const struct rolling_remote_refs *refs,
							  const char *name)
{
	return find(refs, name, strlen(name));
}

const struct rolling_remote_ref *rolling_remote_refs_tag_of(const struct rolling_remote_refs *refs,
							    const git_oid *commit)
{
	size_t i;

	return rolling_oidmap_get(&refs->tags_by_peeled, commit, &i) ? &refs->refs[i] : NULL;
}

void rolling_remote_refs_free(struct rolling_remote_refs *refs)
{
	size_t i;

	for (i = 0; i < refs->nr; i++)
		free(refs->refs[i].name);
	free(refs->refs);
	rolling_oidmap_free(&refs->tags_by_peeled);
	memset(refs, 0, sizeof(*refs));
}
