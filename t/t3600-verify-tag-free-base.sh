#!/bin/sh

test_description='verify in a clone without tags: the base release, and --since any commit of the chain

A clone made with --no-tags --single-branch of a signed rolling branch
has the base release commit but not its tag.  verify --signatures
proves every step from the tags embedded in the merges; below the
oldest step it must say in one line that the base release'"'"'s tag is
not here and how to go on (fetch it, or --since), not walk into the
release'"'"'s history reporting each commit as injected.  And --since
<the base release commit>, or any commit of the first-parent chain,
is where the proof starts, whatever that commit is; a commit off the
chain is still refused, and so are replace refs, grafts and a shallow
cut.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

if ! ssh-keygen -q -t ed25519 -N "" -C probe -f "$TRASH_DIRECTORY/probe.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi

test_expect_success 'setup: a signed branch cloned without tags' '
	STABLE_SIGNED_TAGS=1 verify_fixture tree &&
	git -C tree rolling verify --signatures linux-rolling-stable >out &&
	sed -n "s/^linux-rolling-stable: \([0-9]*\) steps from base \(v[0-9.]*\) .*/\1 \2/p" out >facts &&
	read steps base <facts &&
	oldest=$(git -C tree rev-list --first-parent --merges linux-rolling-stable | tail -n 1) &&
	git -C tree rev-parse "$base^{commit}" >base-commit &&
	test "$(cat base-commit)" = "$(git -C tree rev-parse $oldest^1)" &&
	git clone -q --no-tags --single-branch -b linux-rolling-stable \
		"file://$TRASH_DIRECTORY/tree" clone &&
	test -z "$(git -C clone tag)" &&
	git -C clone config gpg.format ssh &&
	git -C clone config gpg.ssh.allowedSignersFile \
		"$TRASH_DIRECTORY/stable-signing.key.allowed-signers" &&
	test "$(git -C clone rev-list --count $(cat base-commit))" -gt 5
'

test_expect_success 'verify --signatures names the missing base tag in one line, exit 1' '
	cd clone &&
	read steps base <../facts &&
	basec=$(cat ../base-commit) &&
	test_expect_code 1 git rolling verify --signatures linux-rolling-stable >out 2>err &&
	test_line_count = 1 err &&
	grep "^error: linux-rolling-stable: $basec: base: expected a release commit at the end of the first-parent chain, found plain commit \"$(git log -1 --format=%s $basec)\", which no release tag here names: if it is the base release, its tag is not in this repository; fetch it (git fetch origin tag <base release>) or start from it with --since $basec$" err &&
	! grep injected err &&
	! grep "stopped" err &&
	grep "^linux-rolling-stable: $steps steps, no base release reached$" out &&
	grep "^linux-rolling-stable: FAILED (1 failure)$" out
'

test_expect_success 'without --signatures: each step wants its tag, then the same one base line' '
	cd clone &&
	read steps base <../facts &&
	test_expect_code 1 git rolling verify linux-rolling-stable >out 2>err &&
	test $(grep -c ": tag: expected release tag v[0-9.]*, found no such tag" err) = $steps &&
	test $(grep -c ": base: " err) = 1 &&
	test_line_count = $((steps + 1)) err &&
	! grep injected err
'

test_expect_success 'either remedy works: --since the base commit, or fetching its tag' '
	cd clone &&
	read steps base <../facts &&
	basec=$(cat ../base-commit) &&
	git rolling verify --signatures --since $basec linux-rolling-stable >out 2>err &&
	test_must_be_empty err &&
	grep "^linux-rolling-stable: $steps steps since $(git rev-parse --short $basec)$" out &&
	grep "^linux-rolling-stable: verified, $steps release signatures good$" out &&
	git clone -q --no-tags --single-branch -b linux-rolling-stable \
		"file://$TRASH_DIRECTORY/tree" ../fetched &&
	cd ../fetched &&
	git config gpg.format ssh &&
	git config gpg.ssh.allowedSignersFile \
		"$TRASH_DIRECTORY/stable-signing.key.allowed-signers" &&
	git fetch -q origin tag $base &&
	git rolling verify --signatures linux-rolling-stable >out &&
	grep "^linux-rolling-stable: $steps steps from base $base " out &&
	grep "^linux-rolling-stable: verified, $((steps + 1)) release signatures good$" out
'

test_expect_success '--since any commit of the first-parent chain, a plain one too' '
	cd tree &&
	plain=$(git commit-tree -p v6.0.3^{commit} -m "a plain commit" v6.0.3^{tree}) &&
	merge=$(git commit-tree -p $plain -p v6.0.4^{commit} -m "Merge v6.0.4" v6.0.4^{tree}) &&
	git branch on-plain $merge &&
	git rolling verify --since $plain on-plain >out 2>err &&
	test_must_be_empty err &&
	grep "^on-plain: 1 step since $(git rev-parse --short $plain)$" out &&
	grep "^on-plain: verified$" out &&
	test_expect_code 1 git rolling verify on-plain 2>err &&
	grep ": $plain: base: " err
'

test_expect_success '--since a commit off the first-parent chain is still refused' '
	cd tree &&
	off=$(git rev-parse v6.0.3^{commit}) &&
	test_expect_code 1 git rolling verify --since $off on-plain 2>err &&
	grep "^error: on-plain: $off: since: expected $off on the first-parent chain of $(git rev-parse on-plain), found not there" err &&
	off=$(git rev-parse v6.0.4^{commit}) &&
	test_expect_code 1 git rolling verify --since $off on-plain 2>err &&
	grep ": since: expected $off on the first-parent chain" err
'

test_expect_success 'a replace ref still fails a --since run from a plain commit' '
	cd tree &&
	plain=$(git rev-parse on-plain^) &&
	git replace $plain v6.0.3^{commit} &&
	test_when_finished "git replace -d $plain" &&
	test_expect_code 1 git rolling verify --since $plain on-plain 2>err &&
	grep ": replace: " err
'

test_expect_success 'a graft still fails a --since run from a plain commit' '
	cd tree &&
	plain=$(git rev-parse on-plain^) &&
	echo "$(git rev-parse on-plain) $(git rev-parse v6.0.3^{commit})" >.git/info/grafts &&
	test_when_finished "rm -f .git/info/grafts" &&
	test_expect_code 1 git rolling verify --since $plain on-plain 2>err &&
	grep ": graft: " err
'

test_expect_success 'a shallow cut is still a failure where the walk meets it' '
	git clone -q --no-tags --single-branch -b linux-rolling-stable --depth 2 \
		"file://$TRASH_DIRECTORY/tree" shallow &&
	cd shallow &&
	test -f .git/shallow &&
	git config gpg.format ssh &&
	git config gpg.ssh.allowedSignersFile \
		"$TRASH_DIRECTORY/stable-signing.key.allowed-signers" &&
	cut=$(git rev-parse linux-rolling-stable^) &&
	grep $cut .git/shallow &&
	test_expect_code 1 git rolling verify --signatures linux-rolling-stable >out 2>err &&
	grep "^error: linux-rolling-stable: $cut: shallow: " err &&
	! grep ": base: " err &&
	git rolling verify --signatures --since $cut linux-rolling-stable >out &&
	grep "^linux-rolling-stable: 1 step since " out
'

test_done
