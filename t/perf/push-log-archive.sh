#!/bin/sh
# push-log-archive.sh - make (once; cached) the push log of the push-log
# benchmark, p8000, and print its path: a public-inbox v2 archive of
# PERF_PUSH_LOG_RECORDS records (default 200,000) recording the rolling
# branch of the kernel-scale repository (lib-kernel-scale.sh, made first
# if need be) among pushes to 500 other repositories.
#
#   t/perf/push-log-archive.sh            the base archive
#   t/perf/push-log-archive.sh --weekly   the same a week later, with
#                                         PERF_PUSH_LOG_WEEKLY (100) more
#
# Then `. <archive>/bench-info` for the repository's name, ref, pushee,
# allowed-signers file and the tips (see lib-push-log-archive.sh, which
# p*.sh scripts source instead of running this).  Also prints, on
# stderr, how long the making took.
PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-push-log-archive.sh"

LC_ALL=C
export LC_ALL
repo=$(kernel_scale_repo) || exit 1
start=$(date +%s)
case $1 in
--weekly) archive=$(push_log_archive_weekly "$repo") ;;
'') archive=$(push_log_archive "$repo") ;;
*) echo "usage: t/perf/push-log-archive.sh [--weekly]" >&2; exit 129 ;;
esac || exit 1
echo "push-log-archive: $(($(date +%s) - start)) s" >&2
echo "$archive"
