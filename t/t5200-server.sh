#!/bin/sh

test_description='rolling branches on a server

A bare server repository with the post-receive hook from contrib/ gets the
stable releases pushed week by week and advances its rolling branch; a
consumer clone follows with git pull --ff-only across several steps and
a series switch.  The systemd service'\''s command does the same for a
repository that fetches its upstream.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

CONTRIB=$GIT_ROLLING_BUILD_DIR/contrib

# push_week <week>: the stable maintainers publish a week of releases.
push_week () {
	stable_tree_replay upstream "$1" &&
	git -C upstream push -q server "refs/tags/*:refs/tags/*" \
		"refs/heads/linux-*:refs/heads/linux-*" master 2>push.err
}

test_expect_success 'setup: upstream, a bare server with the hook, a first push' '
	stable_tree_linux upstream &&
	git init -q --bare server.git &&
	cp "$CONTRIB/hooks/post-receive" server.git/hooks/post-receive &&
	git -C upstream remote add server "$TRASH_DIRECTORY/server.git" &&
	push_week 40 &&
	test_must_be_empty push.err &&
	git --git-dir=server.git rolling init -q linux-rolling-stable &&
	git clone -q --branch linux-rolling-stable server.git consumer
'

# Each week the consumer's tree must be that of the release the stable
# policy picks from upstream's tags (lib-rolling.sh): the tags of every
# week are kept, and expected_weekly_targets computes the releases of all
# the weeks at once, after the loop.
test_expect_success 'each push advances the branch, and consumers fast-forward' '
	switch=$(stable_tree_week_of upstream v6.4-rc1) &&
	mkdir weeks &&
	week=41 &&
	while test $week -le $((switch + 2))
	do
		old=$(git --git-dir=server.git rev-parse linux-rolling-stable) &&
		push_week $week &&
		new=$(git --git-dir=server.git rev-parse linux-rolling-stable) &&
		test "$new" != "$old" &&
		grep "^remote: linux-rolling-stable: " push.err >>steps &&
		git -C consumer pull -q --ff-only &&
		git -C consumer rev-parse HEAD HEAD^{tree} >ids &&
		{ read head && read tree; } <ids &&
		test "$head" = "$new" &&
		echo "$week $tree" >>consumer-trees &&
		git -C upstream for-each-ref --format="%(objectname) %(refname)" refs/tags \
			>weeks/$week.refs &&
		git -C consumer status --porcelain >status &&
		test_must_be_empty status || { echo "week $week"; cat push.err; return 1; }
		week=$((week + 1))
	done &&
	grep "series 6.2 -> 6.3" steps &&
	test_line_count -ge 8 steps &&
	expected_weekly_targets "" weeks/*.refs | sort -n >targets &&
	git -C upstream rev-parse $(awk "{ print \$2 \"^{tree}\" }" targets) >trees &&
	awk "{ print \$1, \$2 }" targets | paste -d " " - trees >expect &&
	awk "NR == FNR { target[\$1] = \$2; next } { print \$1, target[\$1], \$2 }" \
		targets consumer-trees >actual &&
	test_cmp expect actual
'

test_expect_success 'a push of the rolling branch itself does not trigger an advance' '
	git clone -q --branch linux-rolling-stable server.git pusher &&
	tip=$(git -C pusher rev-parse HEAD) &&
	git -C pusher push -q -f origin HEAD~1:refs/heads/linux-rolling-stable 2>push.err &&
	! grep "remote: linux-rolling-stable" push.err &&
	test "$(git --git-dir=server.git rev-parse linux-rolling-stable)" = "$(git -C pusher rev-parse HEAD~1)" &&
	git -C pusher push -q origin HEAD:refs/heads/linux-rolling-stable 2>push.err &&
	test "$(git --git-dir=server.git rev-parse linux-rolling-stable)" = "$tip"
'

test_expect_success 'with rolling.pushRemote the hook publishes the branch onward' '
	git init -q --bare mirror.git &&
	git --git-dir=server.git config rolling.pushRemote "$TRASH_DIRECTORY/mirror.git" &&
	push_week $(($(stable_tree_week_of upstream v6.4-rc1) + 3)) &&
	test "$(git --git-dir=mirror.git rev-parse linux-rolling-stable)" = \
		"$(git --git-dir=server.git rev-parse linux-rolling-stable)"
'

test_expect_success 'a failing advance is reported to the pusher' '
	git --git-dir=server.git config rolling.linux-rolling-stable.policy bogus &&
	test_when_finished "git --git-dir=server.git config rolling.linux-rolling-stable.policy stable" &&
	push_week $(($(stable_tree_week_of upstream v6.4-rc1) + 4)) &&
	grep "^remote: fatal: rolling.linux-rolling-stable.policy: unknown policy" push.err &&
	grep "^remote: git rolling advance failed; the rolling branches were not moved" push.err
'

test_expect_success 'the systemd units are well formed' '
	grep "^ExecStart=/usr/local/lib/git-rolling/git-rolling-update %f$" \
		"$CONTRIB/systemd/git-rolling-advance@.service" &&
	grep "^OnCalendar=" "$CONTRIB/systemd/git-rolling-advance@.timer" &&
	if command -v systemd-analyze >/dev/null 2>&1
	then
		mkdir units &&
		make -C "$GIT_ROLLING_BUILD_DIR" -s install-contrib prefix="$TRASH_DIRECTORY/inst" &&
		test_path_is_file inst/lib/systemd/system/git-rolling-advance@.service &&
		grep "^ExecStart=$TRASH_DIRECTORY/inst/lib/git-rolling/git-rolling-update %f$" \
			inst/lib/systemd/system/git-rolling-advance@.service
	fi
'

test_expect_success 'the service command fetches, advances and publishes' '
	git clone -q --bare upstream fetcher.git &&
	git --git-dir=fetcher.git rolling init -q linux-rolling-stable &&
	git init -q --bare published.git &&
	git --git-dir=fetcher.git config rolling.pushRemote "$TRASH_DIRECTORY/published.git" &&
	last=$(stable_tree_weeks upstream) &&
	stable_tree_replay upstream $last &&
	cmd=$(sed -n "s|^ExecStart=/usr/local/lib/git-rolling/git-rolling-update ||p" \
		"$CONTRIB/systemd/git-rolling-advance@.service") &&
	test "$cmd" = "%f" &&
	"$CONTRIB/systemd/git-rolling-update" "$TRASH_DIRECTORY/fetcher.git" >out &&
	grep "^linux-rolling-stable: .* -> $(expected_stable_target upstream) " out &&
	test "$(git --git-dir=published.git rev-parse linux-rolling-stable)" = \
		"$(git --git-dir=fetcher.git rev-parse linux-rolling-stable)" &&
	git clone -q --branch linux-rolling-stable published.git reader &&
	git -C reader log --first-parent --format=%s -1 >subject &&
	echo "Merge $(expected_stable_target upstream)" >expect &&
	test_cmp expect subject
'

test_expect_success 'the service command: usage, and nothing to do' '
	test_expect_code 129 "$CONTRIB/systemd/git-rolling-update" 2>err &&
	grep "^usage: git-rolling-update <repository>" err &&
	"$CONTRIB/systemd/git-rolling-update" "$TRASH_DIRECTORY/fetcher.git" >out &&
	grep "^linux-rolling-stable: up to date at" out
'

test_done
