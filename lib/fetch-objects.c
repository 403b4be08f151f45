#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fetch-objects.h"
#include "fetch-view.h"
#include "error.h"
#include "run-command.h"
#include "strbuf.h"

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

static int has_own_alternates(const struct rolling_quarantine *q)
{
	struct strbuf path = STRBUF_INIT;
	int has;

	strbuf_addf(&path, "%s/info/alternates", q->objects);
	has = strbuf_oom(&path) || !access(path.buf, F_OK) ||
	      getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	strbuf_release(&path);
	return has;
}

/* The object ids to fetch, one per line, for git fetch --stdin, in `path`. */
static int write_wants(struct strbuf *path, const struct rolling_quarantine *q,
		       const struct rolling_fetch_want *wants, size_t nr)
{
	char hex[GIT_OID_HEXSZ + 1];
	FILE *out;
	size_t i;

	strbuf_addf(path, "%s/wants", q->path);
	if (strbuf_oom(path))
		return rolling_error_nomem();
	if (!(out = fopen(path->buf, "w")))
		return rolling_error("cannot write %s: %s", path->buf, strerror(errno));
	for (i = 0; i < nr; i++)
		fprintf(out, "%s\n", git_oid_tostr(hex, sizeof(hex), wants[i].oid));
	if (fclose(out))
		return rolling_error("cannot write %s: %s", path->buf, strerror(errno));
	return 0;
}

/* "NAME=value" for the child's environment, or NULL when out of memory. */
static char *env_entry(const char *name, const char *value)
{
	char *entry;

	return asprintf(&entry, "%s=%s", name, value) < 0 ? NULL : entry;
}

/*
 * git fetch in the view (fetch-view.h): GIT_DIR is the view, whose
 * alternate refs are the repository's refs, peeled; GIT_WORK_TREE the
 * repository's, so that git goes where it would have gone in the
 * repository itself (its top), from which a remote's relative path is
 * resolved.
 */
static int fetch_in_view(const char **args, const struct rolling_fetch_view *view,
			 const char *wants, int quiet)
{
	char *env[3] = { NULL, NULL, NULL }, *command;
	int status;

	if (!(command = rolling_fetch_view_alternate_refs_command(view)) ||
	    !(env[0] = env_entry("GIT_DIR", view->git_dir)) ||
	    (view->work_tree && !(env[1] = env_entry("GIT_WORK_TREE", view->work_tree)))) {
		status = rolling_error_nomem();
		goto out;
	}
	args[1] = command;
	status = rolling_run_git_env_with_stdin(args, (const char *const *)env, wants, NULL,
						quiet ? ROLLING_RUN_NO_STDOUT : 0);
out:
	free(env[0]);
	free(env[1]);
	free(command);
	return status;
}

int rolling_fetch_objects(const struct rolling_quarantine *q, const struct rolling_fetch_view *view,
			  const char *remote, const struct rolling_fetch_want *wants, size_t nr,
			  int quiet)
{
	const char *args[] = {
		"-c", ALTERNATE_REFS_NONE,
		"fetch", "--no-tags", "--no-write-fetch-head", "--refmap=", "--no-prune",
		"--no-auto-gc", "--no-auto-maintenance", "--no-write-commit-graph",
		"--no-recurse-submodules", quiet ? "--quiet" : "--no-quiet", "--stdin",
		"--", remote, NULL,
	};
	struct rolling_quarantine_env env;
	struct strbuf path = STRBUF_INIT;
	/* Asked before the quarantine's environment names alternates of its own. */
	int own_alternates = has_own_alternates(q);
	int status;

	if ((status = write_wants(&path, q, wants, nr)) < 0 ||
	    (status = rolling_quarantine_env_writer(&env, q)) < 0)
		goto out;
	if (view)
		status = fetch_in_view(args, view, path.buf, quiet);
	else
		status = rolling_run_git_with_stdin(own_alternates ? args + 2 : args, path.buf,
						    NULL, quiet ? ROLLING_RUN_NO_STDOUT : 0);
	rolling_quarantine_env_restore(&env);
	if (status > 0)
		status = rolling_error("git fetch from '%s' failed (exit status %d);"
				       " nothing was updated", remote, status);
out:
	if (path.len)
		unlink(path.buf);
	strbuf_release(&path);
	return status;
}
