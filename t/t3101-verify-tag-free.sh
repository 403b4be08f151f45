#!/bin/sh

test_description='verify --signatures proves new steps of a branch fetched without tags

A rolling branch built from SSH-signed release tags embeds each tag in its
merge.  A clone made with --no-tags --single-branch has no tag refs at
all; verify --signatures --since <a tip verified earlier> then takes each
step'"'"'s second parent as a release commit on the strength of the tag
embedded in the merge, once git verify-tag finds its signature good, and
proves every new step from the branch alone, writing nothing.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-mergetag.sh

if ! ssh-keygen -q -t ed25519 -N "" -C mallory -f "$TRASH_DIRECTORY/mallory.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi

# Everything verify could have written: objects, refs, config.
snapshot () {
	(cd "$1/.git" && find objects refs -type f | sort && cat config) >"$2"
}

test_expect_success 'setup: a signed branch, verified up to an older tip, cloned without tags' '
	STABLE_SIGNED_TAGS=1 verify_fixture tree &&
	old=$(git -C tree rev-parse linux-rolling-stable~6) &&
	echo $old >old &&
	git -C tree rolling verify --signatures $old &&
	git clone -q --no-tags --single-branch -b linux-rolling-stable \
		"file://$TRASH_DIRECTORY/tree" clone &&
	test -z "$(git -C clone tag)" &&
	git -C clone config gpg.format ssh &&
	git -C clone config gpg.ssh.allowedSignersFile \
		"$TRASH_DIRECTORY/stable-signing.key.allowed-signers"
'

test_expect_success 'without --signatures the clone proves nothing: no release tags' '
	cd clone &&
	test_expect_code 1 git rolling verify --since $(cat ../old) linux-rolling-stable >out 2>err &&
	test $(grep -c ": tag: expected release tag v[0-9.]*, found no such tag leading to a commit (the merge embeds a tag of it: --signatures can check that one)$" err) = 6
'

test_expect_success 'with --signatures the embedded tags prove every new step' '
	cd clone &&
	snapshot . ../before &&
	mkdir ../tmp &&
	TMPDIR="$TRASH_DIRECTORY/tmp" git rolling verify --signatures --since $(cat ../old) \
		linux-rolling-stable >out 2>err &&
	test_must_be_empty err &&
	grep "^linux-rolling-stable: 6 steps since v[0-9.]* ($(git rev-parse --short $(cat ../old)))$" out &&
	grep "^linux-rolling-stable: verified, 6 release signatures good$" out &&
	snapshot . ../after &&
	test_cmp ../before ../after &&
	test -z "$(ls ../tmp)"
'

test_expect_success 'and --rebuild remakes the new merges from their embedded tags' '
	cd clone &&
	git rolling verify --signatures --rebuild --since $(cat ../old) linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified, merges rebuilt bit for bit, 6 release signatures good$" out
'

test_expect_success 'a key the allowed signers do not list proves nothing' '
	cd clone &&
	test_expect_code 1 git -c gpg.ssh.allowedSignersFile=/dev/null \
		rolling verify --signatures --since $(cat ../old) linux-rolling-stable >out 2>err &&
	test $(grep -c ": signature: expected a good signature on tag v[0-9.]* [0-9a-f]*, embedded in the merge, found v[0-9.]*: no public key$" err) = 6
'

# forge NAME MERGE-MAKER: in the full tree, remake the tip with a forged
# mergetag, fetch it into the clone as branch NAME, and print its id.
forge () {
	(
		cd tree &&
		tip=$(git rev-parse linux-rolling-stable) &&
		bad=$("$2" $tip) &&
		git branch -f "$1" $bad &&
		echo $bad
	) &&
	git -C clone fetch -q --no-tags ../tree "refs/heads/$1:refs/heads/$1"
}

broken_signature () {
	with_mergetag $1 $(tag_with_broken_signature $(git log -1 --format=%s $1 | sed "s/^Merge //"))
}

untrusted_key () {
	with_mergetag $1 $(signed_tag_object $(git log -1 --format=%s $1 | sed "s/^Merge //") $1^2 \
		"$TRASH_DIRECTORY/mallory.key")
}

wrong_commit () {
	with_mergetag $1 $(signed_tag_object $(git log -1 --format=%s $1 | sed "s/^Merge //") $1^2^)
}

no_mergetag () {
	with_mergetag $1
}

# The tip, its genuine signed tag embedded, with the tree of the step
# before it; or with a third parent.
changed_tree () {
	git cat-file commit $1 | sed "1s/^tree .*/tree $(git rev-parse $1^1^{tree})/" |
	git hash-object -t commit -w --stdin
}

third_parent () {
	git cat-file commit $1 |
	awk -v extra="parent $(git rev-parse $1^1^1)" '
		{ print }
		/^parent / && ++n == 2 { print extra }
	' |
	git hash-object -t commit -w --stdin
}

test_expect_success 'a broken signature on the embedded tag fails, naming the merge' '
	bad=$(forge broken broken_signature) &&
	cd clone &&
	verify_fails broken $bad signature --signatures --since $(cat ../old) &&
	test $(grep -c "^error: " err) = 1 &&
	grep "found v[0-9.]*: bad signature$" err
'

# git 2.39 can die of SIGPIPE when ssh-keygen rejects a malformed
# signature before reading the payload; this ssh-keygen makes it happen
# every time, for the broken signature only.
write_script () {
	printf '#!/bin/sh\n' >"$1" &&
	cat >>"$1" &&
	chmod +x "$1"
}

test_expect_success 'git dying on one tag of a batch makes only that tag bad' '
	write_script sigpipe-ssh-keygen <<-\EOF &&
	sig=
	prev=
	for arg
	do
		test "$prev" = -s && sig=$arg
		prev=$arg
	done
	if test -n "$sig" && grep -q "^A1NI" "$sig"
	then
		kill -PIPE $PPID
		exit 1
	fi
	exec ssh-keygen "$@"
	EOF
	broken_tag=$(cd tree && tag_with_broken_signature \
		$(git log -1 --format=%s broken | sed "s/^Merge //")) &&
	test_expect_code 141 git -C tree -c gpg.ssh.program="$TRASH_DIRECTORY/sigpipe-ssh-keygen" \
		verify-tag $broken_tag 2>/dev/null &&
	bad=$(git -C clone rev-parse broken) &&
	cd clone &&
	test_when_finished "git config --unset gpg.ssh.program" &&
	git config gpg.ssh.program "$TRASH_DIRECTORY/sigpipe-ssh-keygen" &&
	verify_fails broken $bad signature --signatures --since $(cat ../old) &&
	test $(grep -c "^error: " err) = 1 &&
	grep "found v[0-9.]*: bad signature$" err
'

# The embedded tags are written to a directory in $TMPDIR for git
# verify-tag to read.  An ssh-keygen that waits there, until the git
# that runs it is gone (a minute at most), lets a test kill verify while
# git checks a tag: it names that git in "checking", whose parent is git
# rolling verify (under make valgrind, the memcheck that runs it).
test_expect_success 'killed while git checks a tag, verify leaves no temporary directory' '
	write_script waiting-ssh-keygen <<-EOF &&
	echo \$PPID >"$TRASH_DIRECTORY/checking.new" &&
	mv "$TRASH_DIRECTORY/checking.new" "$TRASH_DIRECTORY/checking"
	tries=0
	while kill -0 \$PPID 2>/dev/null && test \$tries -lt 1200
	do
		sleep 0.05
		tries=\$((tries + 1))
	done
	exit 1
	EOF
	rm -rf tmp checking &&
	mkdir tmp &&
	{
		TMPDIR="$TRASH_DIRECTORY/tmp" git -C clone \
			-c gpg.ssh.program="$TRASH_DIRECTORY/waiting-ssh-keygen" \
			rolling verify --signatures --since $(cat old) linux-rolling-stable \
			>out 2>err &
	} &&
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null; wait $pid; :" &&
	tries=0 &&
	until test -f checking
	do
		tries=$((tries + 1)) &&
		test $tries -le 1200 &&
		kill -0 $pid &&
		sleep 0.05 || { cat err && return 1; }
	done &&
	verify=$(awk "{ print \$4 }" /proc/$(cat checking)/stat) &&
	tr "\\000" "\\n" </proc/$verify/cmdline | grep -E "(^|/)git-rolling-verify\$" &&
	ls tmp >dirs &&
	grep "^git-rolling-tags\.......\$" dirs &&
	test_line_count = 1 dirs &&
	find "tmp/$(cat dirs)" -type f >objects &&
	test_line_count = 6 objects &&
	kill -TERM $verify &&
	{ wait $pid; status=$?; } &&
	test $status = 143 &&
	test_path_is_missing "tmp/$(cat dirs)" &&
	test -z "$(ls tmp)"
'

# The seam makes libgit2 refuse the directory's object backend: verify
# fails, freeing the backend it still owns (under memcheck a block
# definitely lost fails the command with 126), and removes the directory.
test_expect_success 'when the temporary directory cannot be written, verify fails, freeing all' '
	rm -rf tmp &&
	mkdir tmp &&
	(
		cd clone &&
		LD_PRELOAD=$TEST_SEAM GIT_ROLLING_TEST_FAIL_ODB_ADD_BACKEND=1 \
			TMPDIR="$TRASH_DIRECTORY/tmp" &&
		export LD_PRELOAD GIT_ROLLING_TEST_FAIL_ODB_ADD_BACKEND TMPDIR &&
		test_expect_code 128 test_memcheck_leaks verify --signatures \
			--since $(cat ../old) linux-rolling-stable >../out 2>../err
	) &&
	grep "^fatal: linux-rolling-stable: cannot write to .*/tmp/git-rolling-tags\.......: " err &&
	test -z "$(ls tmp)"
'

test_expect_success 'a tag signed with a key nobody trusts fails' '
	bad=$(forge untrusted untrusted_key) &&
	cd clone &&
	verify_fails untrusted $bad signature --signatures --since $(cat ../old) &&
	grep "found v[0-9.]*: no public key$" err
'

test_expect_success 'a well-signed tag of another commit fails the mergetag check' '
	bad=$(forge wrong-commit wrong_commit) &&
	cd clone &&
	verify_fails wrong-commit $bad mergetag --signatures --since $(cat ../old)
'

test_expect_success 'a step without its tag cannot be proven from the branch' '
	bad=$(forge bare no_mergetag) &&
	cd clone &&
	verify_fails bare $bad tag --signatures --since $(cat ../old)
'

# The embedded tag vouches for the release commit, never for what the
# merge holds: its tree and its parents are checked as without it.
test_expect_success 'a good embedded tag does not vouch for a changed tree or a third parent' '
	bad=$(forge changed-tree changed_tree) &&
	(cd clone && verify_fails changed-tree $bad tree --signatures --since $(cat ../old)) &&
	bad=$(forge three-parents third_parent) &&
	(cd clone && verify_fails three-parents $bad parents --signatures --since $(cat ../old))
'

test_done
