#!/bin/sh

test_description='git rolling advance

Steps, dry runs, identities, series switches by hand, and refusals that
change nothing.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

refs_snapshot () {
	git for-each-ref >"$1"
}

newest_of () {
	git tag -l "v$1.*" | grep -E "^v$1\.[0-9]+$" | sort -V | tail -n 1
}

test_expect_success 'setup: stable tree at week 40 with a rolling branch' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 40 &&
	git rolling init -q linux-rolling-stable &&
	newest_of 6.2 >../start
'

test_expect_success 'up to date: says so, exits 0, changes nothing' '
	cd tree &&
	refs_snapshot ../before &&
	git count-objects -v >../objects.before &&
	git rolling advance linux-rolling-stable >out &&
	echo "linux-rolling-stable: up to date at $(cat ../start)" >expect &&
	test_cmp expect out &&
	refs_snapshot ../after &&
	test_cmp ../before ../after &&
	git count-objects -v >../objects.after &&
	test_cmp ../objects.before ../objects.after
'

test_expect_success 'dry run prints the step with its future id and writes nothing' '
	cd tree &&
	stable_tree_replay . 41 &&
	next=$(newest_of 6.2) &&
	test "$next" != "$(cat ../start)" &&
	refs_snapshot ../before &&
	git rolling advance --dry-run >out &&
	sed -n "s/^linux-rolling-stable: $(cat ../start) -> $next (\([0-9a-f]*\)) \[dry run\]$/\1/p" out >id &&
	test_line_count = 1 id &&
	test_must_fail git rev-parse --verify -q "$(cat id)^{commit}" &&
	refs_snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'advance makes the step the dry run announced' '
	cd tree &&
	old=$(git rev-parse linux-rolling-stable) &&
	git rolling advance >out &&
	next=$(newest_of 6.2) &&
	echo "linux-rolling-stable: $(cat ../start) -> $next ($(cat id))" >expect &&
	test_cmp expect out &&
	test "$(git rev-parse --short linux-rolling-stable)" = "$(cat id)" &&
	test "$(check_rolling_merge linux-rolling-stable)" = "$next" &&
	git reflog show --format=%gs -1 linux-rolling-stable >actual &&
	echo "rolling: merge $next" >expect &&
	test_cmp expect actual &&
	recipe_reproduces "$old" linux-rolling-stable
'

test_expect_success 'the merge is byte for byte what git commit -s writes' '
	cd tree &&
	next=$(newest_of 6.2) &&
	{
		echo "tree $(git rev-parse $next^{tree})" &&
		echo "parent $(git rev-parse linux-rolling-stable^1)" &&
		echo "parent $(git rev-parse $next^{commit})" &&
		echo "author A U Thor <author@example.com> $(git log -1 --format=%ad --date=raw $next^{commit})" &&
		echo "committer A U Thor <author@example.com> $(git log -1 --format=%cd --date=raw $next^{commit})" &&
		echo &&
		echo "Merge $next" &&
		echo &&
		echo "Signed-off-by: A U Thor <author@example.com>"
	} >expect &&
	git cat-file commit linux-rolling-stable >actual &&
	test_cmp expect actual
'

test_expect_success 'rolling.<branch>.ident and signoff=false shape the merge' '
	cd tree &&
	git rolling init -q --ident "Roll Er <roller@example.org>" --no-signoff --at v6.2.1 plain &&
	old=$(git rev-parse plain) &&
	git rolling advance -q plain &&
	git log -1 --format="%an <%ae>|%cn <%ce>|%B" plain >actual &&
	printf "%s\n\n" "Roll Er <roller@example.org>|Roll Er <roller@example.org>|Merge $(newest_of 6.2)" >expect &&
	test_cmp expect actual &&
	RECIPE_SIGNOFF= recipe_reproduces "$old" plain "Roll Er" roller@example.org
'

test_expect_success 'with no branch named, every configured branch advances' '
	cd tree &&
	git rolling init -q --at v6.2.2 second &&
	stable_tree_replay . 42 &&
	git rolling advance >out &&
	grep "^linux-rolling-stable: .* -> $(newest_of 6.2) " out &&
	grep "^plain: .* -> $(newest_of 6.2) " out &&
	grep "^second: v6.2.2 -> $(newest_of 6.2) " out &&
	test_line_count = 3 out
'

test_expect_success '--series switches ahead of the policy, catching up first' '
	cd tree &&
	week=$(stable_tree_week_of . v6.3.1) &&
	stable_tree_replay . $week &&
	old=$(git rev-parse second) &&
	git rolling advance --series 6.3 second >out &&
	cat >expect <<-EOF &&
	second: $(newest_of 6.2) -> v6.3.1 ($(git rev-parse --short second)), series 6.2 -> 6.3
	EOF
	grep "^second: v6.2.[0-9]* -> $(newest_of 6.2) " out &&
	sed -n 2p out >actual &&
	test_cmp expect actual &&
	recipe_reproduces "$old" second
'

test_expect_success 'the policy never takes a branch back' '
	cd tree &&
	git rolling advance second >out &&
	echo "second: up to date at v6.3.1" >expect &&
	test_cmp expect out
'

test_expect_success 'a pin behind the branch is ignored with a warning' '
	cd tree &&
	git config rolling.second.pin 6.2 &&
	test_when_finished "git config --unset rolling.second.pin" &&
	git rolling advance second >out 2>err &&
	grep "^warning: second: rolling.second.pin is 6.2, behind the current series 6.3; staying on 6.3$" err &&
	echo "second: up to date at v6.3.1" >expect &&
	test_cmp expect out
'

test_expect_success 'refusals change nothing' '
	cd tree &&
	refs_snapshot ../before &&
	test_expect_code 128 git rolling advance --series 6.1 second 2>err &&
	grep "^fatal: second: series 6.1 is older than the current series 6.3: a rolling branch never goes back$" err &&
	test_expect_code 128 git rolling advance --series 6.9 second 2>err &&
	grep "^fatal: series 6.9 has no release tag$" err &&
	test_expect_code 128 git rolling advance --series six second 2>err &&
	grep "^fatal: --series: .six. is not a series" err &&
	test_expect_code 128 git rolling advance --series 6.3 second plain 2>err &&
	grep "^fatal: --series needs exactly one branch$" err &&
	test_expect_code 128 git rolling advance master 2>err &&
	grep "^fatal: .master. is not a rolling branch (no rolling.master.\* configuration); see git rolling init$" err &&
	refs_snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'one bad branch stops all before any moves' '
	cd tree &&
	stable_tree_replay . $(($(stable_tree_week_of . v6.3.1) + 1)) &&
	git config rolling.plain.policy sideways &&
	test_when_finished "git config rolling.plain.policy stable" &&
	refs_snapshot ../before &&
	test_expect_code 128 git rolling advance 2>err &&
	grep "^fatal: rolling.plain.policy: unknown policy .sideways. (expected .stable. or .lts.)$" err &&
	refs_snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'a tip that is not a rolling merge is refused' '
	cd tree &&
	git rolling init -q --at v6.2.1 tampered &&
	git rolling advance -q tampered &&
	evil=$(git commit-tree -p tampered -m "sneaky" tampered^{tree}) &&
	git update-ref refs/heads/tampered $evil &&
	refs_snapshot ../before &&
	test_expect_code 128 git rolling advance tampered 2>err &&
	grep "^fatal: tampered: $(git rev-parse --short=7 $evil) is neither a rolling merge nor a release commit; refusing to build on it$" err &&
	refs_snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'a merge whose tree differs from the release is no rolling merge' '
	cd tree &&
	tag=$(git log -1 --format=%s tampered~1 | sed "s/^Merge //") &&
	evil=$(git commit-tree -p tampered~1^1 -p $tag^{commit} -m "Merge $tag" v6.2.1^{tree}) &&
	git update-ref refs/heads/tampered $evil &&
	test_expect_code 128 git rolling advance tampered 2>err &&
	grep "is neither a rolling merge nor a release commit" err
'

test_expect_success 'a configured branch that does not exist' '
	cd tree &&
	git config rolling.ghost.policy stable &&
	git config rolling.ghost.releasePattern "v(?<major>\d+)\.(?<minor>\d+)\.(?<patch>\d+)" &&
	git config rolling.ghost.mainlinePattern "v(?<major>\d+)\.(?<minor>\d+)" &&
	test_when_finished "git config --remove-section rolling.ghost" &&
	test_expect_code 128 git rolling advance ghost 2>err &&
	grep "^fatal: branch .ghost. does not exist$" err
'

test_expect_success 'a missing key is named' '
	cd tree &&
	git config rolling.half.policy stable &&
	test_when_finished "git config --remove-section rolling.half" &&
	test_expect_code 128 git rolling advance half 2>err &&
	grep "^fatal: rolling.half.releasePattern is not set$" err
'

test_expect_success 'no identity: refused before anything is written' '
	cd tree &&
	git rolling init -q --at v6.2.1 anon &&
	refs_snapshot ../before &&
	mkdir -p ../nohome &&
	test_expect_code 128 env HOME="$TRASH_DIRECTORY/nohome" GIT_CONFIG_GLOBAL=/dev/null \
		git rolling advance anon 2>err &&
	grep "^fatal: no identity for the rolling merges: set rolling.anon.ident, or user.name and user.email$" err &&
	refs_snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'a held ref lock makes advance fail, naming the lock, and nothing is lost' '
	cd tree &&
	lock=$(test_ref_lock_file . refs/heads/anon) &&
	: >"$lock" &&
	test_when_finished "rm -f \"$lock\"" &&
	refs_snapshot ../before &&
	test_expect_code 128 git rolling advance anon 2>err &&
	grep "^fatal: cannot lock ref .refs/heads/anon.: Unable to create .$lock.: File exists\.$" err &&
	grep "^Another git process seems to be running in this repository, e.g.$" err &&
	grep "^remove the file manually to continue\.$" err &&
	refs_snapshot ../after &&
	test_cmp ../before ../after &&
	rm "$lock" &&
	git rolling advance -q anon &&
	check_rolling_merge anon
'

test_expect_success 'a branch moved by someone else meanwhile is not overwritten' '
	cd tree &&
	stable_tree_replay . $(($(stable_tree_week_of . v6.3.1) + 2)) &&
	git rolling init -q --at v6.2.1 raced &&
	other=$(git rev-parse v6.2.2^{commit}) &&
	test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/raced $other" \
		git rolling advance raced 2>err &&
	grep "^fatal: refs/heads/raced was changed by another process" err &&
	test "$(git rev-parse raced)" = "$other" &&
	git reflog show --format=%gs -1 raced >actual &&
	! grep "^rolling: merge" actual
'

test_expect_success 'losing the race on a checked-out branch puts its work tree back as it was' '
	cd tree &&
	git rolling init -q --force --at v6.2.1 raced &&
	git worktree add -q ../raced-wt raced &&
	other=$(git rev-parse v6.2.2^{commit}) &&
	(
		cd ../raced-wt &&
		test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" \
			GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/raced $other" \
			git rolling advance raced 2>err &&
		grep "^fatal: refs/heads/raced was changed by another process" err &&
		test "$(git rev-parse HEAD)" = "$other" &&
		git diff --quiet v6.2.1 -- &&
		git diff --cached --quiet v6.2.1
	)
'

test_expect_success 'replace refs draw a warning' '
	cd tree &&
	git replace v6.2.1 v6.2.2 &&
	test_when_finished "git replace -d v6.2.1" &&
	git rolling advance -q anon 2>err &&
	grep "^warning: refs/replace/ is not empty" err
'

# A bare repository named by GIT_DIR, as git's hooks and
# contrib/systemd/git-rolling-update run it (t8030 has the search).
test_expect_success 'works in a bare repository, without touching anything else' '
	git clone -q --bare tree bare.git &&
	release=$(git -C tree config rolling.linux-rolling-stable.releasePattern) &&
	mainline=$(git -C tree config rolling.linux-rolling-stable.mainlinePattern) &&
	(
		cd bare.git &&
		GIT_DIR=. &&
		export GIT_DIR &&
		git config rolling.linux-rolling-stable.policy stable &&
		git config rolling.linux-rolling-stable.releasePattern "$release" &&
		git config rolling.linux-rolling-stable.mainlinePattern "$mainline" &&
		git update-ref refs/heads/linux-rolling-stable v6.2.1^{commit} &&
		git rolling advance >out &&
		grep "^linux-rolling-stable: v6.2.1 -> " out &&
		check_rolling_merge linux-rolling-stable &&
		test_path_is_missing index
	)
'

# git appends to a reflog that exists whatever core.logAllRefUpdates
# says, and creates none where it says no (a bare repository's default):
# a server's audit trail of its rolling branches goes on.
test_expect_success 'a bare repository: a branch with a reflog keeps getting lines, one without gets none' '
	release=$(git -C tree config rolling.linux-rolling-stable.releasePattern) &&
	mainline=$(git -C tree config rolling.linux-rolling-stable.mainlinePattern) &&
	(
		cd bare.git &&
		GIT_DIR=. &&
		export GIT_DIR &&
		for b in audited unaudited
		do
			git config rolling.$b.policy stable &&
			git config rolling.$b.releasePattern "$release" &&
			git config rolling.$b.mainlinePattern "$mainline" || return 1
		done &&
		git update-ref --create-reflog -m "audit starts" refs/heads/audited v6.2.1^{commit} &&
		git update-ref refs/heads/unaudited v6.2.1^{commit} &&
		git reflog exists refs/heads/audited &&
		! git reflog exists refs/heads/unaudited &&
		git rolling advance --porcelain audited unaudited >out &&
		grep "^step audited " out >steps &&
		git reflog show --format=%gs audited >actual &&
		# a line a step in files; in reftable, where git update-ref
		# writes them, one line for the transaction (t8040)
		test_line_count -gt 1 actual &&
		test "$(tail -n 1 actual)" = "audit starts" &&
		for tag in $(awk "{ print \$4 }" steps)
		do
			grep "merge $tag\(,\|$\)" actual || return 1
		done &&
		! git reflog exists refs/heads/unaudited &&
		git -c core.logAllRefUpdates=false rolling advance audited >/dev/null
	)
'

test_expect_success 'a configured branch named as git names no branch is refused' '
	cd tree &&
	test_when_finished "git config --remove-section rolling.HEAD" &&
	test_when_finished "git config --remove-section rolling.-dash" &&
	for name in HEAD -dash
	do
		git config rolling.$name.policy stable &&
		for key in releasePattern mainlinePattern
		do
			git config rolling.$name.$key "$(git config rolling.linux-rolling-stable.$key)" ||
			return 1
		done || return 1
	done &&
	git update-ref refs/heads/-dash v6.2.1^{commit} &&
	test_when_finished "git update-ref -d refs/heads/-dash" &&
	test_expect_code 128 git rolling advance HEAD 2>err &&
	grep "^fatal: .HEAD. is not a valid branch name" err &&
	test_expect_code 128 git rolling advance -- -dash 2>err &&
	grep "^fatal: .-dash. is not a valid branch name" err &&
	test_must_fail git rev-parse --verify -q refs/heads/HEAD
'

test_expect_success 'usage' '
	cd tree &&
	test_expect_code 129 git rolling advance --frobnicate 2>err &&
	grep "^error: unknown option .frobnicate.$" err &&
	grep "^usage: git rolling advance" err &&
	test_expect_code 129 git rolling advance -h >out &&
	grep "^usage: git rolling advance" out &&
	grep -e "--dry-run" out
'

test_done
