#!/bin/sh
# p7100-fetch-many-tags.sh - a weekly git rolling fetch of one new step
# from a server with PERF_TAGS more tags (default 200,000) than the
# kernel-scale repository's (lib-kernel-scale.sh), side by side with
# `git fetch stable` as a user types it.  Prints medians over PERF_RUNS
# rounds (default 5; the two fetches in turn), peak RSS and the ratios
# against the targets:
#
#   git rolling fetch within 1.2 times git fetch stable, in time
#   and in peak RSS (of the whole run: git rolling fetch's own git fetch
#   included)
#
# The server and the consumer are p7000's (lib-fetch-server.sh), and the
# server has the extra tags too: annotated, on mainline commits, as a
# hosting site's build or CI tags are.  The consumer has them all, as a
# clone of the server would, and has verified the step before; each
# fetch brings the new step and its release tag, and git fetch stable
# also updates the remote's other branches (none moves).  Before every
# timed run the consumer is put back by the same script for both.
# Informational only: a MISS does not fail.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"
. "$PERF_DIR/lib-fetch-server.sh"

RUNS=${PERF_RUNS:-5}
TAGS=${PERF_TAGS:-200000}
BRANCH=linux-rolling-stable
TARGET_TIME=1.2
TARGET_RSS=1.2

perf_setup p7100
# Both sides on the tmpfs if it has room (perf_scratch): 200,000 refs
# written and removed again on a shared disk took over ten minutes.  The
# consumer's clone copies the pack there (no hard link across file
# systems).
rm -rf "$work" && work=$(perf_scratch $(($(du -sk .git/objects | cut -f1) * 2 + TAGS))) || exit 1
fetch_server $BRANCH

# The extra tags, one fast-import stream into the server: ci/<n> on the
# mainline commits, newest first, as many times round as it takes.
echo "adding $TAGS tags to the server" >&2
git rev-list --first-parent master >"$work/mainline" || die "cannot list master"
awk -v tags="$TAGS" '
	{ commit[n++] = $1 }
	END {
		for (i = 0; i < tags; i++) {
			msg = "CI build " i
			printf "tag ci/%06d\nfrom %s\n", i, commit[i % n]
			printf "tagger CI <ci@example.org> %d +0000\n", 1300000000 + i
			printf "data %d\n%s\n", length(msg), msg
		}
	}' "$work/mainline" |
GIT_DIR=$server git fast-import --quiet || die "cannot add the tags"
GIT_DIR=$server git pack-refs --all || die "cannot pack the server's refs"
test "$(git --git-dir="$server" for-each-ref refs/tags/ci | wc -l)" = "$TAGS" ||
	die "the server does not have $TAGS ci tags"

fetch_consumer $BRANCH "refs/tags/ci/*:refs/tags/ci/*"
git pack-refs --all || die "cannot pack the consumer's refs"
test "$(git for-each-ref refs/tags/ci | wc -l)" = "$TAGS" ||
	die "the consumer does not have the $TAGS ci tags"

cat >"$work/rolling-fetch" <<EOF
. "$work/reset" && git rolling fetch -q stable
EOF
cat >"$work/git-fetch" <<EOF
. "$work/reset" && git fetch -q stable
EOF

# Both bring the new step and its tag, and nothing else moves.
for fetch in rolling-fetch git-fetch
do
	sh "$work/$fetch" || die "$fetch failed"
	test "$(git rev-parse stable/$BRANCH)" = "$new_tip" &&
	git rev-parse -q --verify refs/tags/$new_release >/dev/null ||
		die "$fetch did not bring the new step and $new_release"
	test "$(git for-each-ref refs/tags | wc -l)" = "$((TAGS + $(git -C "$big" for-each-ref refs/tags | wc -l) + 1))" ||
		die "$fetch left $(git for-each-ref refs/tags | wc -l) tags"
	test $fetch = git-fetch ||
	test "$(git rev-parse refs/rolling/verified/stable/$BRANCH)" = "$new_tip" ||
		die "git rolling fetch did not verify the new step"
done

echo "measuring ($RUNS rounds)" >&2
measure_rounds "reset=sh $work/reset" "rolling=sh $work/rolling-fetch" "gitfetch=sh $work/git-fetch"

echo
echo "p7100-fetch-many-tags: $(git for-each-ref refs/tags | wc -l) tags on both sides;" \
	"one new step ($tip_release -> $new_release), $new_objects new objects over file://"
echo "medians of $RUNS rounds (the fetches in turn), peak RSS the highest; each fetch includes the reset"
for row in "reset of the consumer:reset" "git rolling fetch:rolling" "git fetch stable:gitfetch"
do
	eval "us=\$${row#*:}_us kib=\$${row#*:}_kib"
	awk -v l="${row%:*}" -v us="$us" -v kib="$kib" \
		'BEGIN { printf "%-34s %9.3f s %8.1f MiB\n", l, us / 1e6, kib / 1024 }'
done
echo
awk -v a="$rolling_us" -v b="$gitfetch_us" -v c="$rolling_kib" -v d="$gitfetch_kib" \
    -v tt=$TARGET_TIME -v tr=$TARGET_RSS 'BEGIN {
	printf "%-34s %9.2f x  %s (target <= %s x)\n", "rolling fetch / git fetch, time",
		a / b, (a / b <= tt ? "PASS" : "MISS"), tt
	printf "%-34s %9.2f x  %s (target <= %s x)\n", "rolling fetch / git fetch, peak RSS",
		c / d, (c / d <= tr ? "PASS" : "MISS"), tr }'
