#!/bin/sh

test_description='git rolling fetch and pull connect to the server once

Every connection to the server runs its upload-pack once: the remote'"'"'s
uploadpack is a wrapper that counts its runs before it runs git
upload-pack.  A first fetch, a weekly fetch of one new step, a fetch
with nothing new and a fetch across a series switch each connect once,
as git fetch does in the same situation (the reference, counted the
same way), and so does git rolling pull; each verified and moved the
refs as over any transport.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable
VERIFIED=refs/rolling/verified/origin/$BRANCH

# connections_were N: upload-pack ran N times since the last call.
connections_were () {
	echo "$1" >expect.connections &&
	if test -f connections
	then
		wc -l <connections | tr -d " "
	else
		echo 0
	fi >actual.connections &&
	rm -f connections &&
	test_cmp expect.connections actual.connections
}

# at_server_tip REPO: REPO verified the server's branch.
at_server_tip () {
	test "$(git -C "$1" rev-parse $VERIFIED)" = "$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)"
}

# series_of REV: the series of the release the step at REV merged (5.19, 6.0...).
series_of () {
	git --git-dir=server.git log -1 --format=%s "$1" | sed -n "s/^Merge v\([0-9]*\.[0-9]*\)\..*/\1/p"
}

test_expect_success 'setup: a server, an upload-pack that counts its runs' '
	counting_upload_pack &&
	setup_upstream &&
	publish 12 &&
	for repo in consumer reference
	do
		git init -q $repo &&
		git -C $repo remote add origin "file://$TRASH_DIRECTORY/server.git" &&
		git -C $repo config remote.origin.uploadpack "$COUNTING_UPLOAD_PACK" || return 1
	done &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux &&
	rm -f connections
'

test_expect_success 'the reference: git fetch connects once' '
	git -C reference fetch -q origin &&
	connections_were 1 &&
	git -C reference fetch -q origin &&
	connections_were 1
'

test_expect_success 'a first fetch connects once' '
	git -C consumer rolling fetch origin >out &&
	connections_were 1 &&
	grep "^origin/$BRANCH: verified for the first time at " out &&
	at_server_tip consumer
'

test_expect_success 'a weekly fetch of one new step connects once' '
	verified=$(git -C consumer rev-parse $VERIFIED) &&
	publish 13 &&
	test $(git --git-dir=server.git rev-list --count --first-parent --merges $verified..$BRANCH) = 1 &&
	git -C consumer rolling fetch origin >out &&
	connections_were 1 &&
	grep "^origin/$BRANCH: 1 step since " out &&
	at_server_tip consumer
'

test_expect_success 'a fetch with nothing new connects once' '
	git -C consumer rolling fetch origin >out &&
	connections_were 1 &&
	grep "^origin/$BRANCH: up to date at " out
'

# The weeks up to the switch are published with no fetch between them:
# the one fetch that is counted takes their steps and the switch.
test_expect_success 'a fetch across a series switch connects once' '
	old=$(series_of refs/heads/$BRANCH) &&
	test -n "$old" &&
	week=14 &&
	while publish $week && test "$(series_of refs/heads/$BRANCH)" = "$old"
	do
		week=$((week + 1)) &&
		test $week -lt 40 || return 1
	done &&
	git -C consumer rolling fetch origin >out &&
	connections_were 1 &&
	grep "^origin/$BRANCH: series $old -> " out &&
	at_server_tip consumer &&
	echo $week >switch-week
'

test_expect_success 'pull: a first pull, a weekly one, one with nothing new and a series switch each connect once' '
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" reader &&
	git -C reader config remote.origin.uploadpack "$COUNTING_UPLOAD_PACK" &&
	git -C reader reset -q --hard $BRANCH~3 &&
	git -C reader update-ref refs/remotes/origin/$BRANCH $BRANCH &&
	git -C reader rolling init -q --follow origin/$BRANCH &&
	rm -f connections &&
	git -C reader rolling pull >out &&
	connections_were 1 &&
	grep "^origin/$BRANCH: verified$" out &&
	grep "^Fast-forward$" out &&
	at_server_tip reader &&

	publish $(($(cat switch-week) + 1)) &&
	git -C reader rolling pull >out &&
	connections_were 1 &&
	grep "^Fast-forward$" out &&
	at_server_tip reader &&

	git -C reader rolling pull >out &&
	connections_were 1 &&
	grep "^Already up to date.$" out &&

	old=$(series_of refs/heads/$BRANCH) &&
	week=$(($(cat switch-week) + 2)) &&
	while publish $week && test "$(series_of refs/heads/$BRANCH)" = "$old"
	do
		week=$((week + 1)) &&
		test $week -lt 60 || return 1
	done &&
	git -C reader rolling pull >out &&
	connections_were 1 &&
	grep "^origin/$BRANCH: series $old -> " out &&
	grep "^Fast-forward$" out &&
	test "$(git -C reader rev-parse HEAD)" = "$(git --git-dir=server.git rev-parse refs/heads/$BRANCH)"
'

test_done
