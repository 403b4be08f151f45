#!/bin/sh
# backfill-run.sh WORK [init options...]: one `git rolling init --force
# --backfill` whose merges go to a fresh object directory under WORK
# (the repository's objects are its alternate), so that every run writes
# all its merges as the first one did.
work=$1
shift
objects=$(mktemp -d -p "$work" objects.XXXXXX) || exit 1
GIT_OBJECT_DIRECTORY=$objects GIT_ALTERNATE_OBJECT_DIRECTORIES=$(git rev-parse --path-format=absolute --git-common-dir)/objects \
	exec git rolling init -q --force --backfill "$@"
