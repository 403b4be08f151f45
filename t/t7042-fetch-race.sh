#!/bin/sh

test_description='git rolling fetch that loses the race for its refs

Another process moves the tracking and verified refs between this
fetch'"'"'s verification and its ref update (the race seam runs it
there: fetch_seam updating, lib-fetch.sh).  When the refs then hold the
tip this fetch verified, or a descendant of it that verifies since that
tip, the fetch succeeds and says so; when they hold anything else it
fails and changes nothing.  A release tag that another fetch wrote
after this one read the tags is one this fetch still finds and verifies
with.  Real concurrent fetches, and a fetch racing a pull, all succeed.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable
TRACKING=refs/remotes/origin/$BRANCH
VERIFIED=refs/rolling/verified/origin/$BRANCH

# fresh: the consumer as it was after its first fetch.
fresh () {
	rm -rf consumer &&
	cp -a pristine consumer
}

# both_succeeded: the two racers ($status1 and $status2, stderr in err1
# and err2) both exited 0 and said no error; else what they said, and
# the run ($i).
both_succeeded () {
	test $status1 = 0 && test $status2 = 0 &&
	! grep "^fatal\|^error" err1 err2 ||
	{ echo "run $i: exit $status1 and $status2:"; cat err1 err2; false; }
}

# reflog_length REPO REF: the lines of REF's reflog, in either ref format.
reflog_length () {
	git -C "$1" reflog show --format=%H "$2" -- | wc -l
}

# The fetch the seam runs: the other process (without the seam itself).
OTHER_FETCH="git -C \"$TRASH_DIRECTORY/consumer\" rolling fetch -q origin"

test_expect_success 'setup: a consumer that fetched week 12; weeks 13 and 14 published' '
	setup_upstream &&
	publish 12 &&
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" pristine &&
	git -C pristine rolling init -q --follow origin/$BRANCH &&
	git -C pristine rolling fetch -q origin &&
	publish 13 &&
	git --git-dir=server.git rev-parse $BRANCH >week13 &&
	publish 14 &&
	git --git-dir=server.git rev-parse $BRANCH >week14 &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $(cat week13)
'

test_expect_success 'the other process put the tip this fetch verified: success, said' '
	fresh &&
	new=$(cat week13) &&
	fetch_seam updating "$OTHER_FETCH" git -C consumer rolling fetch origin >out 2>err &&
	grep "^origin/$BRANCH: another process updated it meanwhile to $(echo $new | cut -c1-7)" err &&
	grep "the tip this fetch verified$" err &&
	! grep "^fatal\|^error" err &&
	test "$(git -C consumer rev-parse $TRACKING)" = $new &&
	test "$(git -C consumer rev-parse $VERIFIED)" = $new &&
	for ref in $TRACKING $VERIFIED
	do
		test $(reflog_length consumer $ref) = $(($(reflog_length pristine $ref) + 1)) || return 1
	done &&
	git -C consumer fsck --no-progress
'

test_expect_success 'the other process put a descendant that verifies: success, said' '
	fresh &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $(cat week13)" &&
	fetch_seam updating "git --git-dir=\"$TRASH_DIRECTORY/server.git\" update-ref refs/heads/$BRANCH $(cat week14) && $OTHER_FETCH" \
		git -C consumer rolling fetch origin >out 2>err &&
	grep "^origin/$BRANCH: another process updated it meanwhile to .*, which descends from .*, the tip this fetch verified, and verifies since it$" err &&
	! grep "^fatal\|^error" err &&
	test "$(git -C consumer rev-parse $TRACKING)" = $(cat week14) &&
	test "$(git -C consumer rev-parse $VERIFIED)" = $(cat week14) &&
	git -C consumer rolling verify refs/rolling/verified/origin/$BRANCH &&
	git -C consumer fsck --no-progress
'

# refused_after CMD: the other process runs CMD in the consumer where the
# seam runs (refs, tags, ...); this fetch then fails (128, its stderr in
# err) and leaves the refs as CMD left them.
refused_after () {
	test_expect_code 128 fetch_seam updating \
		"cd \"$TRASH_DIRECTORY/consumer\" && $1 && git for-each-ref >\"$TRASH_DIRECTORY/seam-refs\"" \
		git -C consumer rolling fetch -q origin 2>err &&
	git -C consumer for-each-ref >now &&
	test_cmp seam-refs now
}

test_expect_success 'the other process put an unverified commit in both refs: failure, nothing changed by this fetch' '
	fresh &&
	base=$(cat week13) &&
	injected=$(git --git-dir=server.git commit-tree -p $base -m "Add a backdoor" $base^{tree}) &&
	git --git-dir=server.git cat-file commit $injected | git -C consumer hash-object -w -t commit --stdin &&
	refused_after "git update-ref $TRACKING $injected && git update-ref $VERIFIED $injected" &&
	grep "^fatal: refs/.* was changed by another process, to $injected, which this fetch did not verify; nothing was updated$" err
'

test_expect_success 'the other process moved only the tracking ref, elsewhere: failure, nothing changed' '
	fresh &&
	elsewhere=$(git -C pristine rev-parse $TRACKING^) &&
	refused_after "git update-ref $TRACKING $elsewhere" &&
	grep "^fatal: $TRACKING was changed by another process, to $elsewhere, which this fetch did not verify; nothing was updated$" err
'

test_expect_success 'the other process made a release tag the fetch needs, elsewhere: failure, nothing changed' '
	fresh &&
	release=$(git --git-dir=server.git log -1 --format=%s $(cat week13) | sed "s/^Merge //") &&
	test -z "$(git -C consumer tag -l $release)" &&
	elsewhere=$(git -C pristine rev-parse $TRACKING^) &&
	refused_after "git tag $release $elsewhere" &&
	grep "^fatal: refs/tags/$release was changed by another process; nothing was updated$" err
'

test_expect_success 'plain git fetch moved the tracking ref to the same tip: the verified ref follows' '
	fresh &&
	new=$(cat week13) &&
	fetch_seam updating "git -C \"$TRASH_DIRECTORY/consumer\" fetch -q origin" \
		git -C consumer rolling fetch -q origin 2>err &&
	! grep "^fatal\|^error" err &&
	test "$(git -C consumer rev-parse $TRACKING)" = $new &&
	test "$(git -C consumer rev-parse $VERIFIED)" = $new
'

# tag_made_before_view <args>: git rolling <args> in the consumer, with
# the other process's whole fetch run at the seam where this fetch has
# read the repository's tags and has yet to copy its refs into the view
# git fetch runs in (at the view's first file, its config): the release
# tag of the new step, and the step, appear in between, objects first.
# The other fetch runs once; seam-ran names the file it ran at.  Output
# in out and err.
tag_made_before_view () {
	rm -f seam-ran &&
	env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_SEAM_PATH="*/rolling-incoming-*/view/config" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="test -f \"$TRASH_DIRECTORY/seam-ran\" || { echo \"\$GIT_ROLLING_TEST_SEAM_FILE\" >\"$TRASH_DIRECTORY/seam-ran\" && $OTHER_FETCH; }" \
		git -C consumer rolling "$@" >out 2>err &&
	grep "/view/config$" seam-ran
}

# A tag the repository had not when the fetch read its tags is none the
# fetch has: git fetch must bring it (or find it has it) and say so, or
# the new step's release is missing from the verification.  A pull
# moves the branch checked out, a fetch not.
for cmd in "fetch origin" "pull"
do
	test_expect_success "the other process made the release tag the step needs while this $cmd read the tags: success, said" '
		fresh &&
		new=$(cat week13) &&
		release=$(git --git-dir=server.git log -1 --format=%s $new | sed "s/^Merge //") &&
		test -z "$(git -C consumer tag -l $release)" &&
		if test "$cmd" = pull
		then
			head=$new
		else
			head=$(git -C pristine rev-parse HEAD)
		fi &&
		tag_made_before_view $cmd &&
		grep "^origin/$BRANCH: another process updated it meanwhile to $(echo $new | cut -c1-7)[0-9a-f]*, the tip this fetch verified$" err &&
		! grep "^fatal\|^error" err &&
		git -C consumer rev-parse $TRACKING $VERIFIED refs/tags/$release HEAD >actual &&
		git --git-dir=server.git rev-parse $new $new refs/tags/$release >expect &&
		echo $head >>expect &&
		test_cmp expect actual &&
		git -C consumer status --porcelain >status &&
		test_must_be_empty status &&
		git -C consumer fsck --no-progress
	'
done

# The real races.  In every run one racer loses the race for the refs to
# the other, which put the tip it verified, and says so; which of the two
# loses is up to the scheduler.  make test races until it has seen that
# outcome (at least twice, at most ten times: a run without it is a
# run that raced nothing); make test-long races ten times each.
if test_have_prereq EXPENSIVE
then
	RACE_MIN=10
else
	RACE_MIN=2
fi

# race_outcome: what the run said, from err1 and err2: "lost" (a racer
# lost the race and took the other's tip, the tip it verified) or
# "none" (the two did not meet).
race_outcome () {
	if grep -q "^origin/$BRANCH: another process updated it meanwhile to $(echo $new | cut -c1-7)[0-9a-f]*, the tip this fetch verified$" err1 err2
	then
		echo lost
	else
		echo none
	fi
}

# raced_enough <outcomes-file>: true after $RACE_MIN runs once a racer
# has lost the race, and after ten runs.
raced_enough () {
	test $i -ge $RACE_MIN && grep -q "^lost$" "$1" || test $i = 10
}

test_expect_success 'two real fetches at once, until one loses the race: both succeed' '
	new=$(cat week13) &&
	: >outcomes &&
	i=0 &&
	until raced_enough outcomes
	do
		i=$((i + 1)) &&
		fresh &&
		{ git -C consumer rolling fetch -q origin 2>err1 & } &&
		pid=$! &&
		{ git -C consumer rolling fetch -q origin 2>err2; status2=$?; } &&
		{ wait $pid; status1=$?; } &&
		both_succeeded &&
		race_outcome >>outcomes &&
		git -C consumer rev-parse $TRACKING $VERIFIED >tips &&
		printf "%s\n" $new $new >expect &&
		test_cmp expect tips &&
		git -C consumer fsck --no-progress || return 1
	done &&
	grep "^lost$" outcomes
'

# Under memcheck (make valgrind) the pull's fetch starts seconds after
# the other has finished: no race is lost in ten tries (so it was on the
# code before issue 30 too).
test_expect_success !UNDER_VALGRIND 'a fetch racing a pull, until one loses the race: both succeed' '
	new=$(cat week13) &&
	: >outcomes &&
	i=0 &&
	until raced_enough outcomes
	do
		i=$((i + 1)) &&
		fresh &&
		{ git -C consumer rolling fetch -q origin 2>err1 & } &&
		pid=$! &&
		{ git -C consumer rolling pull -q 2>err2; status2=$?; } &&
		{ wait $pid; status1=$?; } &&
		both_succeeded &&
		race_outcome >>outcomes &&
		git -C consumer rev-parse $VERIFIED HEAD >tips &&
		printf "%s\n" $new $new >expect &&
		test_cmp expect tips &&
		git -C consumer status --porcelain >status &&
		test_must_be_empty status || return 1
	done &&
	grep "^lost$" outcomes
'

test_done
