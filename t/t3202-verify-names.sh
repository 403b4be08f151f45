#!/bin/sh

test_description='what verify is asked about, and with which tags, is never a guess

A short name that git resolves to one of several refs (a tag fetched
from a hostile mirror beside the remote-tracking branch of the same
name) is refused with the full names, by verify and by every command
that takes a revision.  A linked work tree gets the same answer as the
main one about a shallow clone (git keeps "shallow" in the common
directory).  A revision verified without configuration says which tag
patterns it was read with.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# snapshot: the refs and config, to prove that a refusal changed nothing.
snapshot () {
	git for-each-ref --format="%(refname) %(objectname)" >"$1" &&
	git config --list --local >>"$1"
}

test_expect_success 'setup' '
	verify_fixture tree &&
	git clone -q --no-local tree consumer &&
	git -C consumer rolling verify -q origin/linux-rolling-stable
'

test_expect_success 'a tag named like the remote-tracking branch makes the name ambiguous' '
	cd consumer &&
	git tag origin/linux-rolling-stable origin/linux-rolling-stable~3 &&
	git rev-parse origin/linux-rolling-stable >/dev/null 2>git.err &&
	grep "refname .origin/linux-rolling-stable. is ambiguous" git.err &&
	snapshot before &&
	test_expect_code 128 git rolling verify origin/linux-rolling-stable >out 2>err &&
	test_must_be_empty out &&
	echo "fatal: refname '\''origin/linux-rolling-stable'\'' is ambiguous: refs/tags/origin/linux-rolling-stable, refs/remotes/origin/linux-rolling-stable; name one in full" >expect &&
	test_cmp expect err &&
	test_expect_code 128 git rolling verify --json "origin/linux-rolling-stable~1" >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: refname .origin/linux-rolling-stable. is ambiguous" err &&
	snapshot after &&
	test_cmp before after
'

test_expect_success 'the full names verify, each the ref it names' '
	cd consumer &&
	git rolling verify refs/remotes/origin/linux-rolling-stable >out &&
	grep "^refs/remotes/origin/linux-rolling-stable: tip v6.1.13 " out &&
	git rolling verify refs/tags/origin/linux-rolling-stable >out &&
	grep "^refs/tags/origin/linux-rolling-stable: tip $(git log -1 --format=%s refs/remotes/origin/linux-rolling-stable~3 | sed "s/^Merge //") " out
'

test_expect_success '--since, describe and bisect-helper refuse the ambiguous name too' '
	cd consumer &&
	test_expect_code 128 git rolling verify --since origin/linux-rolling-stable \
		refs/remotes/origin/linux-rolling-stable 2>err &&
	grep "^fatal: --since: refname .origin/linux-rolling-stable. is ambiguous: refs/tags/origin/linux-rolling-stable, refs/remotes/origin/linux-rolling-stable" err &&
	test_expect_code 128 git rolling describe origin/linux-rolling-stable 2>err &&
	grep "^fatal: refname .origin/linux-rolling-stable. is ambiguous" err &&
	test_expect_code 128 git rolling describe --preset linux --branch origin/linux-rolling-stable v6.1.4 2>err &&
	grep "^fatal: refname .origin/linux-rolling-stable. is ambiguous" err &&
	test_expect_code 128 git rolling bisect-helper steps --preset linux --branch origin/linux-rolling-stable 2>err &&
	grep "^fatal: refname .origin/linux-rolling-stable. is ambiguous" err &&
	git tag -d origin/linux-rolling-stable
'

test_expect_success 'a linked work tree sees the shallow boundary the main one sees' '
	git clone -q --depth 3 --branch linux-rolling-stable "file://$TRASH_DIRECTORY/tree" cut &&
	cd cut &&
	test -s .git/shallow &&
	git worktree add -q --detach ../cut-linked &&
	test_expect_code 1 git rolling verify --json linux-rolling-stable >main.json &&
	(cd ../cut-linked && test_expect_code 1 git rolling verify --json linux-rolling-stable) >linked.json &&
	jq -c ".branches[0] | [.hazards, [.failures[] | [.commit, .check]]]" main.json >main.failures &&
	jq -c ".branches[0] | [.hazards, [.failures[] | [.commit, .check]]]" linked.json >linked.failures &&
	test_cmp main.failures linked.failures &&
	grep "shallow" linked.failures &&
	(cd ../cut-linked && git rev-parse --is-shallow-repository) >git.says &&
	echo true >expect &&
	test_cmp expect git.says
'

test_expect_success 'a revision verified without configuration names the preset used' '
	cd consumer &&
	git rolling verify origin/linux-rolling-stable >out &&
	grep "^origin/linux-rolling-stable: not a configured rolling branch: tags read with the linux preset (choose with --preset or --release-pattern)$" out &&
	git rolling verify --json origin/linux-rolling-stable >out.json &&
	jq -e ".branches[0].patterns | .source == \"default\" and .preset == \"linux\"" out.json &&
	git rolling verify --preset linux origin/linux-rolling-stable >out &&
	! grep "preset" out &&
	git rolling verify --json --preset linux origin/linux-rolling-stable >out.json &&
	jq -e ".branches[0].patterns | .source == \"preset\" and .preset == \"linux\"" out.json &&
	git -C ../tree rolling verify --json linux-rolling-stable >out.json &&
	jq -e ".branches[0].patterns | .source == \"config\" and .preset == null" out.json &&
	git -C ../tree rolling verify linux-rolling-stable >out &&
	! grep "preset" out
'

test_done
