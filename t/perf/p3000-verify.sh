#!/bin/sh
# p3000-verify.sh - git rolling verify on a kernel-scale repository,
# side by side with the floor set by git itself and with the plumbing
# implementation of the same checks (verify-plumbing.sh), without and
# with a commit-graph.  Prints medians over PERF_RUNS runs (default 5,
# after one warm-up run), the peak RSS of any run (GNU time's %M), the
# ratios, and PASS or MISS against the targets of the verify issue:
#
#   verify within 1.5 times the floor
#       (git rev-list --count <tip> --not <all release tags>)
#   verify at least 20 times faster than verify-plumbing.sh
#   verify's private memory at most a tenth of the floor's: the
#       highest RssAnon of /proc/<pid>/status seen while each runs
#       (resident anonymous memory: heap, stacks, anonymous maps), read
#       in a busy loop.  Sampled, so a spike shorter than one read of the
#       file can be missed; both are sampled alike.
#
# and, for information, the peak RSS (GNU time's %M) of verify against
# the floor's: with a commit-graph both are mostly the same pack index,
# which libgit2 maps whole and git reads too (file pages, shared and
# dropped at will), so that ratio says little about verify; beside it
# the same less the pack index, and how much of verify's peak is mapped
# files at all.
#
# Also without a target, `verify --signatures` over the last
# PERF_SIGNATURE_STEPS steps (default 200, at most half the branch)
# beside `git verify-tag` of the same release tags in one process:
# signature checking is git's (and ssh-keygen's or gpg's) work, which
# verify only hands over.
#
# Informational only: a MISS does not fail; only a broken setup does.
# The repository is generated once and cached (see lib-kernel-scale.sh).

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-5}
BRANCH=linux-rolling-stable
RELEASE_REF_RE='^refs/tags/v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.[1-9][0-9]*$'
TARGET_FLOOR_RATIO=1.5
TARGET_SPEEDUP=20
TARGET_ANON_SHARE=0.1

perf_setup p3000

graph=.git/objects/info/commit-graph
saved_graph=.git/perf-commit-graph
test -f $graph && mv $graph $saved_graph

# --- what is measured, checked once ------------------------------------

git for-each-ref --format='%(refname)' refs/tags | grep -E "$RELEASE_REF_RE" >"$work/releases"
if ! test -f .git/perf-stats
then
	echo "counting the commits (once)" >&2
	echo "$(git rev-list --count --all) $(git for-each-ref refs/tags | wc -l)" >.git/perf-stats
fi
read commits tags <.git/perf-stats
steps=$(git rev-list --count --first-parent --merges $BRANCH)
idx_bytes=$(cat .git/objects/pack/*.idx | wc -c)

git rolling verify -q $BRANCH || die "git rolling verify does not accept the branch"
sh "$PERF_DIR/verify-plumbing.sh" $BRANCH >/dev/null || die "verify-plumbing.sh does not accept it"
floor_count=$(git rev-list --count $BRANCH --not $(cat "$work/releases"))
test "$floor_count" = "$steps" || die "the floor counts $floor_count commits, not the $steps merges"

# --- measuring -----------------------------------------------------------

# peak_anon NAME COMMAND...: RUNS runs of COMMAND, one process (it may
# exec, not fork: git-rolling execs git-rolling-verify), each watched in
# a busy loop that reads RssAnon from /proc/<pid>/status until the
# process is a zombie; sets <NAME>_anon_kib to the highest value seen.
# Every run must exit 0.
peak_anon () {
	pa_name=$1
	shift
	pa_max=0
	pa_i=0
	while test $pa_i -lt "$RUNS"
	do
		"$@" >/dev/null 2>&1 &
		pa_pid=$!
		pa_state=R
		while test "$pa_state" != Z && test -r /proc/$pa_pid/status
		do
			pa_state=Z
			while read pa_key pa_val pa_rest
			do
				case $pa_key in
				State:) pa_state=$pa_val ;;
				RssAnon:) test "$pa_val" -le "$pa_max" || pa_max=$pa_val ;;
				esac
			done </proc/$pa_pid/status 2>/dev/null
		done
		wait $pa_pid || die "$pa_name: '$*' exited with $?"
		pa_i=$((pa_i + 1))
	done
	eval "${pa_name}_anon_kib=$pa_max"
}

# measure_all SUFFIX: every command, in the current commit-graph state.
measure_all () {
	measure verify_$1 git rolling verify -q $BRANCH
	measure rebuild_$1 git rolling verify -q --rebuild $BRANCH
	measure floor_$1 git rev-list --count $BRANCH --not $(cat "$work/releases")
	measure plumbing_$1 sh "$PERF_DIR/verify-plumbing.sh" $BRANCH
	peak_anon verify_$1 git-rolling verify -q $BRANCH
	peak_anon floor_$1 git rev-list --count $BRANCH --not $(cat "$work/releases")
}

echo "measuring without a commit-graph ($RUNS runs each)" >&2
measure_all none

# 200 steps, or half of a shorter branch, unless PERF_SIGNATURE_STEPS says.
SIGNATURE_STEPS=${PERF_SIGNATURE_STEPS:-200}
test -n "${PERF_SIGNATURE_STEPS-}" || test $SIGNATURE_STEPS -le $((steps / 2)) ||
	SIGNATURE_STEPS=$((steps / 2))
sig_since=$(git rev-parse $BRANCH~$SIGNATURE_STEPS) || die "fewer than $SIGNATURE_STEPS steps"
git log --first-parent --format=%s $sig_since..$BRANCH | sed 's/^Merge //' >"$work/sig-tags"
signed_tags=$(git for-each-ref --format='%(contents:signature)' $(sed 's,^,refs/tags/,' "$work/sig-tags") |
	grep -c -e '^-----BEGIN SSH SIGNATURE-----' -e '^-----BEGIN PGP SIGNATURE-----')
if test "$signed_tags" = "$SIGNATURE_STEPS"
then
	git rolling verify -q --signatures --since $sig_since $BRANCH ||
		die "git rolling verify --signatures does not accept the branch"
	echo "measuring --signatures over $SIGNATURE_STEPS steps ($RUNS runs each)" >&2
	measure signatures git rolling verify -q --signatures --since $sig_since $BRANCH
	measure verify_tag git verify-tag $(cat "$work/sig-tags")
fi

if ! test -f $saved_graph
then
	echo "writing a commit-graph libgit2 1.5 can read (generation data v1; once)" >&2
	git -c commitGraph.generationVersion=1 commit-graph write --reachable --no-progress &&
	mv $graph $saved_graph || die "cannot write a commit-graph"
fi
cp $saved_graph $graph
echo "measuring with a commit-graph ($RUNS runs each)" >&2
measure_all graph
rm -f $graph

# --- the report ----------------------------------------------------------

row () {
	eval "r_none_us=\$${2}_none_us r_none_kib=\$${2}_none_kib"
	eval "r_graph_us=\$${2}_graph_us r_graph_kib=\$${2}_graph_kib"
	awk -v label="$1" -v a="$r_none_us" -v b="$r_none_kib" -v c="$r_graph_us" \
	    -v d="$r_graph_kib" 'BEGIN {
		printf "%-34s %9.3f s %8.1f MiB    %9.3f s %8.1f MiB\n",
			label, a / 1e6, b / 1024, c / 1e6, d / 1024 }'
}

# verdict LABEL TARGET-TEXT VALUE-NONE VALUE-GRAPH OP TARGET UNIT
verdict () {
	awk -v label="$1" -v target="$2" -v x="$3" -v y="$4" -v op="$5" -v t="$6" \
	    -v unit="$7" 'function ok(v) { return op == "<=" ? v <= t : op == ">=" ? v >= t : v < t }
	BEGIN {
		printf "%-34s %9.2f%-4s %-9s       %9.2f%-4s %-9s   (target %s)\n",
			label, x, unit, ok(x) ? "PASS" : "MISS", y, unit, ok(y) ? "PASS" : "MISS",
			target }'
}

# info LABEL VALUE-NONE VALUE-GRAPH UNIT: a figure without a target.
info () {
	awk -v label="$1" -v x="$2" -v y="$3" -v unit="$4" 'BEGIN {
		printf "%-34s %9.2f%-4s                 %9.2f%-4s             (information)\n",
			label, x, unit, y, unit }'
}

# mib_row LABEL KIB-NONE KIB-GRAPH
mib_row () {
	awk -v label="$1" -v x="$2" -v y="$3" 'BEGIN {
		printf "%-34s %9.2f MiB                 %9.2f MiB\n", label, x / 1024, y / 1024 }'
}

echo
echo "p3000-verify: $commits commits, $tags tags ($(wc -l <"$work/releases") releases)," \
	"$BRANCH of $steps steps"
awk -v n="$idx_bytes" 'BEGIN { printf "pack index %.1f MiB; medians of %d runs, peak RSS the highest\n",
	n / 1048576, '"$RUNS"' }'
echo
printf "%-34s %-28s %s\n" "" "no commit-graph" "commit-graph (generation v1)"
printf "%-34s %11s %12s    %11s %12s\n" "" median "peak RSS" median "peak RSS"
row "git rolling verify" verify
row "git rolling verify --rebuild" rebuild
row "floor: git rev-list --count" floor
row "verify-plumbing.sh" plumbing
echo
verdict "verify / floor" "<= $TARGET_FLOOR_RATIO x" \
	"$(ratio "$verify_none_us" "$floor_none_us")" \
	"$(ratio "$verify_graph_us" "$floor_graph_us")" "<=" $TARGET_FLOOR_RATIO x
verdict "plumbing / verify" ">= $TARGET_SPEEDUP x" \
	"$(ratio "$plumbing_none_us" "$verify_none_us")" \
	"$(ratio "$plumbing_graph_us" "$verify_graph_us")" ">=" $TARGET_SPEEDUP x
verdict "verify / floor private memory" "<= 1/10" \
	"$(ratio "$verify_none_anon_kib" "$floor_none_anon_kib")" \
	"$(ratio "$verify_graph_anon_kib" "$floor_graph_anon_kib")" "<=" $TARGET_ANON_SHARE x
mib_row "verify private memory (RssAnon)" "$verify_none_anon_kib" "$verify_graph_anon_kib"
mib_row "floor private memory (RssAnon)" "$floor_none_anon_kib" "$floor_graph_anon_kib"
echo
# What verify's peak RSS holds beyond its private memory is mapped files;
# libgit2 maps the whole pack index, which git reads in the floor too.
info "verify / floor peak RSS" \
	"$(ratio "$verify_none_kib" "$floor_none_kib")" \
	"$(ratio "$verify_graph_kib" "$floor_graph_kib")" x
info "peak RSS less pack index / floor" \
	"$(awk -v v="$verify_none_kib" -v i="$idx_bytes" -v f="$floor_none_kib" \
		'BEGIN { x = v - i / 1024; printf "%.4f", (x < 0 ? 0 : x) / f }')" \
	"$(awk -v v="$verify_graph_kib" -v i="$idx_bytes" -v f="$floor_graph_kib" \
		'BEGIN { x = v - i / 1024; printf "%.4f", (x < 0 ? 0 : x) / f }')" x
awk -v p="$verify_none_kib" -v a="$verify_none_anon_kib" -v q="$verify_graph_kib" \
    -v b="$verify_graph_anon_kib" -v i="$idx_bytes" 'BEGIN {
	printf "%-34s %9.2f MiB                 %9.2f MiB     (pack index %.1f MiB)\n",
		"verify mapped files (RSS - anon)", (p - a) / 1024, (q - b) / 1024, i / 1048576 }'
if test -n "${signatures_us-}"
then
	echo
	echo "the signatures of the last $SIGNATURE_STEPS steps (no commit-graph; information):"
	awk -v a="$signatures_us" -v b="$signatures_kib" -v c="$verify_tag_us" -v d="$verify_tag_kib" \
	    -v n=$SIGNATURE_STEPS 'BEGIN {
		printf "%-34s %9.3f s %8.1f MiB\n", "verify --signatures --since", a / 1e6, b / 1024
		printf "%-34s %9.3f s %8.1f MiB\n", "git verify-tag <" n " tags>", c / 1e6, d / 1024
		printf "%-34s %9.2f x\n", "verify --signatures / verify-tag", a / c }'
else
	echo
	echo "the release tags are not signed: --signatures not measured (PERF_SIGNED_TAGS=1)"
fi
