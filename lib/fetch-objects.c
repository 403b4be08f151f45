#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "fetch-objects.h"
#include "disk-space.h"
#include "fetch-view.h"
#include "error.h"
#include "run-command.h"
#include "strbuf.h"

/*
 * git fetch's settings that could make it write elsewhere than the view,
 * fetch more, or run something, each turned off (git -c comes after the
 * configuration and the caller's own -c):
 *
 * - core.alternateRefsCommand: the view's refs are the repository's, so
 *   the object store's refs need not be listed again as "alternate refs"
 *   (a git for-each-ref per run, reading every tag object); where the
 *   repository has alternates of its own, their refs count, and git's
 *   default stays;
 * - core.hooksPath: no hook runs (git 2.28 and later run the
 *   reference-transaction hook for the view's refs);
 * - core.logAllRefUpdates: no reflog for refs that die with the view;
 * - fetch.bundleURI (2.41): no download from a bundle server, a
 *   connection of its own;
 * - fetch.unpackLimit: the objects stay in the pack git receives, which
 *   moves into the store as two or three files (the pack, its index and,
 *   from git 2.41, its reverse index), where a small fetch would have
 *   written a file (and a directory) per object, the view its refs
 *   besides: a small file system runs out of inodes first.
 *
 * And as options: no FETCH_HEAD, no remote-tracking ref updated through
 * the configured refspecs (--refmap=), no prune, no gc, maintenance or
 * commit-graph, no submodule.  fetch.pruneTags makes git add the
 * refspec of every tag, which would bring every series' history: with
 * the refspecs on --stdin, git 2.39 to 2.55 add it only to the remote's
 * configured refspecs, which --refmap= leaves unused, and
 * --no-prune-tags makes that certain.  Neither --tags nor --no-tags: git's own tag following
 * (the view has no remote.*.tagOpt) brings the tags the steps can need.
 * remote.<name>.followRemoteHEAD (2.48) acts only without refspecs, and
 * the view's configuration says never besides.
 */
#define FETCH_CONFIG \
	"-c", "core.hooksPath=/dev/null", "-c", "core.logAllRefUpdates=false", \
	"-c", "fetch.bundleURI=", "-c", "fetch.unpackLimit=1"
#define ALTERNATE_REFS_NONE "core.alternateRefsCommand=true"

/*
 * The room git's ref locks may have given back after a failed fetch: a
 * 64th of the file system, from 64 KiB to 16 MiB (4,096 locks of a
 * block).  A file system with less than that free after git fetch
 * failed is full for a fetch.
 */
static size_t lock_room(const char *dir)
{
	struct statvfs fs;
	unsigned long long size;

	if (statvfs(dir, &fs) < 0)
		return 0;
	size = (unsigned long long)fs.f_blocks * fs.f_frsize / 64;
	if (size < 64 * 1024)
		return 64 * 1024;
	return size > 16 * 1024 * 1024 ? 16 * 1024 * 1024 : (size_t)size;
}

/* The refspecs, one per line, for git fetch --stdin, in `path`. */
static int write_refspecs(struct strbuf *path, const struct rolling_quarantine *q,
			  const char *const *remote_refs, size_t nr)
{
	FILE *out;
	size_t i;
	int err = 0;

	strbuf_addf(path, "%s/refspecs", q->path);
	if (strbuf_oom(path))
		return rolling_error_nomem();
	if (!(out = fopen(path->buf, "w")))
		return rolling_error("cannot write %s: %s", path->buf, strerror(errno));
	for (i = 0; i < nr && !err; i++) {
		char *dst = rolling_fetch_view_ref(remote_refs[i]);

		if (!dst)
			err = rolling_error_nomem();
		else
			fprintf(out, "+%s:%s\n", remote_refs[i], dst);
		free(dst);
	}
	if (fclose(out) && !err)
		err = rolling_error("cannot write %s: %s", path->buf, strerror(errno));
	return err;
}

int rolling_fetch_objects(const struct rolling_quarantine *q, const struct rolling_fetch_view *view,
			  const char *remote, const char *const *remote_refs, size_t nr,
			  int progress)
{
	/* git's lines about the refs it wrote are about the view's: never shown. */
	const char *args[] = {
		"-c", ALTERNATE_REFS_NONE, FETCH_CONFIG,
		"fetch", "--quiet", progress ? "--progress" : "--no-progress",
		"--no-write-fetch-head", "--refmap=", "--no-prune", "--no-prune-tags",
		"--no-auto-gc", "--no-auto-maintenance", "--no-write-commit-graph",
		"--no-recurse-submodules", "--stdin", "--", remote, NULL,
	};
	struct rolling_child git = ROLLING_CHILD_INIT;
	struct strbuf path = STRBUF_INIT;
	int status;

	if ((status = write_refspecs(&path, q, remote_refs, nr)) < 0 ||
	    (status = rolling_fetch_view_env(&git.env, view, q)) < 0)
		goto out;
	rolling_strvec_pushv(&git.args, view->own_alternates ? args + 2 : args);
	git.stdin_path = path.buf;
	/* It holds the quarantine's lock while it writes there, as we do (quarantine.h). */
	git.inherit_fd = q->lock_fd;
	status = rolling_child_run(&git);
	/*
	 * git says "couldn't write <ref>.lock" and the like, without the
	 * reason, and exits 1 (git 2.55: 255), having removed the lock of
	 * every ref it was to write, a block each: the branch's and every
	 * tag it follows, which no listing told in advance.
	 */
	if (status > 0 && rolling_out_of_space_for(q->path, lock_room(q->path)))
		status = rolling_error("git fetch from '%s' failed (exit status %d): %s;"
				       " nothing was updated", remote, status, strerror(ENOSPC));
	else if (status > 0)
		status = rolling_error("git fetch from '%s' failed (exit status %d);"
				       " nothing was updated", remote, status);
out:
	if (path.len)
		unlink(path.buf);
	strbuf_release(&path);
	rolling_child_release(&git);
	return status;
}
