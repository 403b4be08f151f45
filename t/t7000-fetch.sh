#!/bin/sh

test_description='git rolling fetch: nothing unverified ever reaches a ref

A maintainer repository advances a rolling branch week by week and
publishes it to a bare server; a consumer follows it over file:// with
git rolling fetch.  Each weekly fetch verifies the new steps since the tip
verified last time.  A server that injects a commit, publishes an evil
merge, rewinds or rewrites the branch, or forges a release tag is refused:
the consumer'"'"'s refs are exactly as before and nothing the server sent
is left in the repository at all.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

# What publish (lib-fetch.sh) pushes, without a new week.
push_all () {
	git -C upstream push -q --force server "refs/tags/*:refs/tags/*" \
		"refs/heads/$BRANCH:refs/heads/$BRANCH" 2>push.err
}

# short ID: its first 12 characters (without a cut per call).
short () {
	printf "%.12s\n" "$1"
}

server_tip () {
	git -C server.git rev-parse "refs/heads/$BRANCH"
}

# The consumer's refs, to prove that a refused fetch changed none.
snapshot () {
	git -C consumer for-each-ref --format="%(objectname) %(refname)" >"$1"
}

# refused <file-of-refs-before> <object...>: the refs are as before,
# the objects the server sent are not in the repository at all (not
# even unreachable), and no quarantine is left.
refused () {
	snapshot refs.after &&
	test_cmp "$1" refs.after &&
	shift &&
	for object
	do
		test_must_fail git -C consumer cat-file -e "$object" || return 1
	done &&
	git -C consumer fsck --no-progress --no-dangling 2>fsck.err &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
}

# The tags a fetch must bring: the base's and each merged release's.
needed_tags () {
	git -C server.git log --first-parent --format=%s "$1" |
	sed -n "s/^Merge //p" >needed.raw &&
	git -C server.git describe --exact-match --abbrev=0 \
		"$(git -C server.git rev-list --first-parent --max-parents=1 -n 1 "$1")" >>needed.raw &&
	sort -u needed.raw
}

test_expect_success 'setup: a maintainer, a server, a consumer following it' '
	setup_upstream &&
	push_all &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init --follow origin/$BRANCH --preset linux >out &&
	grep "^following origin/$BRANCH" out &&
	echo $BRANCH >expect &&
	git -C consumer config --get-all rolling.remote.origin.branches >actual &&
	test_cmp expect actual &&
	git -C consumer rolling init -q --follow origin/$BRANCH &&
	git -C consumer config --get-all rolling.remote.origin.branches >actual &&
	test_cmp expect actual
'

test_expect_success 'init --follow: more branches, and mistakes that change nothing' '
	git init -q scratch &&
	git -C scratch remote add up "$TRASH_DIRECTORY/server.git" &&
	git -C scratch remote add up/nested "$TRASH_DIRECTORY/server.git" &&
	git -C scratch rolling init -q --follow up/one --preset systemd --signatures &&
	git -C scratch rolling init -q --follow up/two &&
	git -C scratch rolling init -q --follow up/one &&
	git -C scratch rolling init -q --follow up/nested/three &&
	printf "%s\n" one two >expect &&
	git -C scratch config --get-all rolling.remote.up.branches >actual &&
	test_cmp expect actual &&
	echo three >expect &&
	git -C scratch config --get-all rolling.remote.up/nested.branches >actual &&
	test_cmp expect actual &&
	test "$(git -C scratch config rolling.remote.up.signatures)" = true &&
	git -C scratch config rolling.remote.up.releasePattern >actual &&
	grep "?<major>" actual &&
	cp scratch/.git/config config.before &&
	test_expect_code 128 git -C scratch rolling init --follow up/bad --release-pattern "(" \
		--mainline-pattern x 2>err &&
	grep "^fatal: --release-pattern: " err &&
	test_expect_code 128 git -C scratch rolling init --follow nowhere/branch 2>err &&
	grep "^fatal: .nowhere/branch. is not <remote>/<branch> of a configured remote" err &&
	test_expect_code 128 git -C scratch rolling init --follow up/x extra 2>err &&
	grep "^fatal: --follow takes no <branch>" err &&
	test_expect_code 128 git -C scratch rolling init --signatures branch 2>err &&
	grep "^fatal: --signatures goes with --follow" err &&
	test_cmp config.before scratch/.git/config
'

test_expect_success 'the first fetch verifies the whole chain and brings only the tags it needs' '
	publish 14 &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: [0-9]* steps* from base v5.19.2 " out &&
	grep "^origin/$BRANCH: verified$" out &&
	grep "^origin/$BRANCH: verified for the first time at " out &&
	tip=$(server_tip) &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = "$tip" &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$tip" &&
	needed_tags $BRANCH >expect &&
	git -C consumer tag -l >actual &&
	test_cmp expect actual &&
	for tag in $(cat expect)
	do
		test "$(git -C consumer rev-parse refs/tags/$tag)" = \
			"$(git -C server.git rev-parse refs/tags/$tag)" || return 1
	done &&
	git -C consumer reflog show --format=%gs refs/rolling/verified/origin/$BRANCH >reflog &&
	grep "^rolling fetch origin: verified v" reflog &&
	git -C consumer fsck --no-progress &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

test_expect_success 'a fetch with nothing new changes nothing' '
	snapshot before &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: up to date at " out &&
	snapshot after &&
	test_cmp before after
'

test_expect_success 'weekly fetches verify each new step, across a series switch' '
	last=$(stable_tree_weeks upstream) &&
	week=15 &&
	new=$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH) &&
	while test $week -le $((last - 6))
	do
		old=$new &&
		publish $week &&
		git -C consumer rolling fetch origin >out &&
		new=$(server_tip) &&
		git -C consumer rev-parse refs/remotes/origin/$BRANCH \
			refs/rolling/verified/origin/$BRANCH >tips &&
		printf "%s\n" $new $new >expect &&
		test_cmp expect tips &&
		if test "$old" != "$new"
		then
			n=$(git -C consumer rev-list --count --first-parent $old..$new) &&
			grep "^origin/$BRANCH: $n steps* since " out &&
			grep "^origin/$BRANCH: updated $(short $old)..$(short $new)$" out
		fi || { echo "week $week"; cat out; return 1; }
		week=$((week + 1))
	done &&
	git -C consumer log --first-parent --format=%s origin/$BRANCH >subjects &&
	grep "^Merge v6.0" subjects && grep "^Merge v5.19" subjects &&
	needed_tags $BRANCH >expect &&
	git -C consumer tag -l | sort >actual &&
	test_cmp expect actual &&
	git -C consumer rolling verify --preset linux origin/$BRANCH
'

test_expect_success 'an injected commit is refused and leaves nothing behind' '
	good=$(server_tip) &&
	test_when_finished "git -C server.git update-ref refs/heads/$BRANCH $good" &&
	injected=$(git -C server.git commit-tree -p $good -m "Fix a typo" $good^{tree}) &&
	git -C server.git update-ref refs/heads/$BRANCH $injected &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $injected: injected: expected a rolling merge or a release commit" err &&
	grep "^origin/$BRANCH: FAILED (1 failure)$" out &&
	grep "^error: origin: 1 branch failed verification; nothing was updated" err &&
	refused before $injected
'

test_expect_success 'an evil merge of a new release is refused, and its tag not taken' '
	good=$(server_tip) &&
	test_when_finished "git -C server.git update-ref refs/heads/$BRANCH $good" &&
	week=$(($(stable_tree_weeks upstream) - 5)) &&
	stable_tree_replay upstream $week &&
	push_all &&
	release=$(expected_stable_target upstream) &&
	test -z "$(git -C consumer tag -l $release)" &&
	evil_tree=$(cd upstream && tampered_tree $release) &&
	evil=$(git -C upstream commit-tree -p $good -p $release^{commit} -m "Merge $release" \
		$evil_tree) &&
	git -C upstream push -q server $evil:refs/heads/$BRANCH 2>push.err &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $evil: tree: expected tree " err &&
	refused before $evil $evil_tree &&
	test -z "$(git -C consumer tag -l $release)"
'

test_expect_success 'a rewind is refused; --allow-rewind takes it after a full verify' '
	good=$(server_tip) &&
	test_when_finished "git -C server.git update-ref refs/heads/$BRANCH $good" &&
	git -C server.git update-ref refs/heads/$BRANCH $good~2 &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $good: since: expected $good on the first-parent chain of $(git -C server.git rev-parse $good~2), found not there: .* the branch was rewound or rewritten$" err &&
	refused before &&
	git -C consumer rolling fetch --allow-rewind origin >out 2>err &&
	grep "^warning: origin/$BRANCH: rewound: $(short $good) is not on the new chain; accepted after a full verify (--allow-rewind)$" err &&
	grep "^origin/$BRANCH: [0-9]* steps from base v5.19.2 " out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$(git -C server.git rev-parse $good~2)" &&
	git -C consumer reflog show --format=%gs -1 refs/rolling/verified/origin/$BRANCH >reflog &&
	grep "^rolling fetch origin: rewound, verified in full, at v" reflog &&
	git -C server.git update-ref refs/heads/$BRANCH $good &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: 2 steps since " out
'

test_expect_success 'a rewritten branch (the same releases, other commits) is refused' '
	good=$(server_tip) &&
	test_when_finished "git -C server.git update-ref refs/heads/$BRANCH $good" &&
	rewritten=$(cd server.git && restack $good~4 $good~3 $good) &&
	test "$rewritten" != "$good" &&
	git -C server.git update-ref refs/heads/$BRANCH $rewritten &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin 2>err &&
	grep "^error: origin/$BRANCH: $good: since: " err &&
	refused before $rewritten
'

test_expect_success 'a first fetch among many releases fetches only the tags the steps need' '
	git init -q fresh &&
	git -C fresh remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C server.git tag -l "v*.*.*" >all-releases &&
	test_line_count -gt 32 all-releases &&
	git -C fresh rolling fetch origin $BRANCH >out &&
	grep "^origin/$BRANCH: verified for the first time at $(short $(server_tip))$" out &&
	needed_tags $BRANCH >expect &&
	git -C fresh tag -l | sort >actual &&
	test_cmp expect actual &&
	sort all-releases | comm -23 - expect >unneeded &&
	test_line_count -gt 0 unneeded &&
	for tag in $(cat unneeded)
	do
		test_must_fail git -C fresh cat-file -e $(git -C server.git rev-parse refs/tags/$tag) ||
		return 1
	done
'

test_expect_success 'lightweight release tags: a first and a weekly fetch' '
	STABLE_LIGHTWEIGHT_TAGS=1 STABLE_MAINLINE=$VERIFY_MAINLINE stable_tree_linux light &&
	stable_tree_replay light 11 &&
	git -C light rolling init -q --preset linux $BRANCH &&
	stable_tree_replay light 12 &&
	git -C light rolling advance -q &&
	test "$(git -C light cat-file -t refs/tags/v5.19.2)" = commit &&
	git init -q light-consumer &&
	git -C light-consumer remote add origin "file://$TRASH_DIRECTORY/light" &&
	git -C light-consumer rolling fetch origin $BRANCH >out &&
	grep "^origin/$BRANCH: 1 step from base v5.19.2 " out &&
	test "$(git -C light-consumer rev-parse refs/tags/v5.19.2)" = "$(git -C light rev-parse v5.19.2)" &&
	stable_tree_replay light 13 &&
	git -C light rolling advance -q &&
	git -C light-consumer rolling fetch origin $BRANCH >out &&
	grep "^origin/$BRANCH: 1 step since " out &&
	test "$(git -C light-consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = \
		"$(git -C light rev-parse $BRANCH)"
'

test_expect_success 'fetch names what it cannot do' '
	test_expect_code 128 git -C consumer rolling fetch nowhere 2>err &&
	grep "^fatal: .nowhere. is not a configured remote" err &&
	test_expect_code 128 git -C consumer rolling fetch origin no-such-branch 2>err &&
	grep "^fatal: couldn.t find remote ref refs/heads/no-such-branch$" err &&
	git -C consumer remote add other "$TRASH_DIRECTORY/server.git" &&
	test_expect_code 128 git -C consumer rolling fetch other 2>err &&
	grep "^fatal: no branches to fetch: name them, or follow them with git rolling init --follow other/<branch>" err &&
	test_expect_code 129 git -C consumer rolling fetch 2>err &&
	grep "^usage: git rolling fetch" err &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

test_done
