#!/bin/sh

test_description='a blobless partial clone

In a clone made with --filter=blob:none, every command but those that
update a work tree reads commits and trees only, and must work with the
promisor remote out of reach.  advance and pull of the branch checked
out need the new tip'"'"'s blobs: git read-tree fetches them from the
promisor remote as git merge --ff-only does, before any file changes;
when they cannot be had nothing changes and the error says why.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-repo-shapes.sh

# missing DIR REV...: the objects reachable from REV that DIR lacks, as a
# partial clone leaves them, listed without fetching any.
missing () {
	missing_dir=$1 &&
	shift &&
	git -C "$missing_dir" rev-list --objects --missing=print "$@" | sed -n "s/^?//p" | sort
}

# cut_promisor -C DIR | --git-dir=DIR: make the promisor remote of the
# repository git finds with those options unreachable until the test
# ends (a bare one is named: safe.bareRepository may be "explicit").
cut_promisor () {
	url=$(git "$@" config remote.origin.url) &&
	test_when_finished "git $* config remote.origin.url \"$url\"" &&
	git "$@" config remote.origin.url "file://$TRASH_DIRECTORY/gone"
}

test_expect_success 'setup: a server allowing filters, a blobless clone of it' '
	shape_tree server &&
	git -C server config uploadpack.allowFilter true &&
	git -C server config uploadpack.allowAnySHA1InWant true &&
	git -C server rolling init -q linux-rolling-stable &&
	git clone -q --filter=blob:none "file://$TRASH_DIRECTORY/server" clone &&
	test "$(git -C clone config remote.origin.promisor)" = true &&
	missing clone v6.0.3 >missing &&
	test_line_count -gt 10 missing
'

test_expect_success 'init, advance, verify, log, status, describe: no blob needed' '
	cut_promisor -C clone &&
	missing clone --all >before &&
	git -C clone rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C clone rolling advance linux-rolling-stable >out &&
	grep "^linux-rolling-stable: v6.0.2 -> v6.0.3 " out &&
	(cd clone && check_rolling_merge linux-rolling-stable >/dev/null) &&
	git -C clone rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified$" out &&
	git -C clone rolling log linux-rolling-stable >out &&
	grep " v6.0.3 " out &&
	git -C clone rolling status >out &&
	grep "up to date" out &&
	git -C clone rolling describe v6.0.3 >out &&
	grep "v6.0.3" out &&
	missing clone --all >after &&
	test_cmp before after
'

test_expect_success 'a bare blobless clone: init and advance with no blob' '
	git clone -q --bare --filter=blob:none "file://$TRASH_DIRECTORY/server" bare.git &&
	cut_promisor --git-dir=bare.git &&
	git --git-dir=bare.git rolling init -q --at v6.0.1 stable &&
	git --git-dir=bare.git rolling advance -q &&
	git --git-dir=bare.git rolling verify stable >out &&
	grep "^stable: verified$" out &&
	test "$(git --git-dir=bare.git rev-parse stable^2)" = \
		"$(git --git-dir=bare.git rev-parse v6.0.3^{commit})"
'

test_expect_success 'extensions.partialClone, as older git wrote it, is accepted' '
	git -C clone config extensions.partialClone origin &&
	test_when_finished "git -C clone config --unset extensions.partialClone" &&
	test "$(git -C clone config core.repositoryFormatVersion)" = 1 &&
	git -C clone rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified$" out
'

test_expect_success 'checked-out advance fetches the blobs, as git merge --ff-only does' '
	stable_tree_replay server 14 &&
	git -C clone fetch -q origin --tags &&
	git -C clone checkout -q linux-rolling-stable &&
	missing clone v6.0.5 >missing &&
	test -s missing &&
	merge=$(cd clone && shape_twin linux-rolling-stable) &&
	rm -rf plain && cp -a clone plain &&
	git -C clone rolling advance -q &&
	git -C plain merge -q --ff-only $merge &&
	test "$(git -C clone rev-parse HEAD)" = $merge &&
	shape_state clone rolling.state &&
	shape_state plain git.state &&
	test_cmp git.state rolling.state &&
	git -C clone diff --quiet HEAD &&
	git -C clone show HEAD:Makefile >expect &&
	test_cmp expect clone/Makefile
'

test_expect_success 'promisor remote gone: nothing changes, the error says why' '
	stable_tree_replay server 15 &&
	git -C clone fetch -q origin --tags &&
	merge=$(cd clone && shape_twin linux-rolling-stable) &&
	rm -rf plain && cp -a clone plain &&
	cut_promisor -C clone &&
	cut_promisor -C plain &&
	shape_state clone before &&
	test_expect_code 128 git -C clone rolling advance 2>err &&
	grep "^fatal: cannot update the work tree of .linux-rolling-stable.: this partial clone lacks files of the new tip and could not fetch them from its promisor remote; git read-tree said:$" err &&
	grep "from promisor remote" err &&
	grep "^nothing was changed$" err &&
	shape_state clone after &&
	test_cmp before after &&
	test_path_is_missing clone/.git/index.lock &&
	test_path_is_missing clone/.git/ROLLING_ADVANCE &&
	test_must_fail git -C plain merge -q --ff-only $merge 2>/dev/null &&
	shape_state plain git.after &&
	test_cmp before git.after
'

test_expect_success 'with the promisor remote back, the same advance succeeds' '
	git -C clone rolling advance -q &&
	test "$(git -C clone rev-parse HEAD)" = "$(git -C clone rev-parse twin)" &&
	git -C clone status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'setup: a blobless clone following the server'"'"'s rolling branch' '
	git -C server rolling advance -q &&
	git clone -q --filter=blob:none -b linux-rolling-stable \
		"file://$TRASH_DIRECTORY/server" reader &&
	git -C reader rolling init -q --follow origin/linux-rolling-stable &&
	git -C reader rolling pull -q
'

test_expect_success 'fetch verifies the new steps without any blob, its pack a promisor pack' '
	stable_tree_replay server 17 &&
	git -C server rolling advance -q &&
	tip=$(git -C server rev-parse linux-rolling-stable) &&
	git -C reader rolling fetch origin >out &&
	grep "^origin/linux-rolling-stable: verified$" out &&
	test "$(git -C reader rev-parse origin/linux-rolling-stable)" = $tip &&
	missing reader $tip >missing &&
	test -s missing &&
	for pack in reader/.git/objects/pack/*.pack
	do
		test_path_is_file "${pack%.pack}.promisor" || return 1
	done &&
	rm -rf gc && cp -a reader gc &&
	cut_promisor -C gc &&
	git -C gc repack -q -a -d &&
	git -C gc fsck --no-dangling
'

test_expect_success 'pull fast-forwards the checked-out branch as git pull --ff-only does' '
	rm -rf plain && cp -a reader plain &&
	git -C reader rolling pull -q &&
	git -C plain pull -q --ff-only &&
	test "$(git -C reader rev-parse HEAD)" = "$(git -C server rev-parse linux-rolling-stable)" &&
	shape_state reader rolling.state &&
	shape_state plain git.state &&
	# git pull follows more tags than the steps need
	grep -v "^refs/tags/" git.state >git.notags &&
	grep -v "^refs/tags/" rolling.state >rolling.notags &&
	test_cmp git.notags rolling.notags
'

test_done
