#!/bin/sh

test_description='git rolling init

Configuration, branch creation, policies, and refusals that change nothing.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# snapshot: everything init could change, to prove a refusal changed nothing.
snapshot () {
	{ git for-each-ref && git config --list --local && cat "$(git rev-parse --git-dir)/config"; } >"$1"
}

test_expect_success 'setup: stable tree at week 40 (6.3-rc1 exists, 6.2 released)' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	git -C tree tag -l "v6.2.*" | sort -V | tail -n 1 >newest-6.2 &&
	test -s newest-6.2
'

test_expect_success 'init --stable creates the branch at the newest release of 6.2' '
	git -C tree rolling init --preset linux --stable linux-rolling-stable >out &&
	target=$(cat newest-6.2) &&
	test "$(git -C tree rev-parse linux-rolling-stable)" = "$(git -C tree rev-parse $target^{commit})" &&
	grep "^policy stable follows 6.2$" out &&
	grep "^mainline has reached 6.3$" out &&
	grep "^  6.2 *newest $target$" out &&
	grep "^created .linux-rolling-stable. at $target ($(git -C tree rev-parse --short=7 $target^{commit}))$" out
'

test_expect_success 'the configuration is plain git config' '
	cat >expect <<-\EOF &&
	rolling.linux-rolling-stable.policy stable
	rolling.linux-rolling-stable.releasepattern v(?:(?<major>2)\.(?<minor>6)\.(?<sub>(?:0|[1-9][0-9]*))\.(?<patch>[1-9][0-9]*)|(?<major>(?:[3-9]|[1-9][0-9]+))\.(?<minor>(?:0|[1-9][0-9]*))\.(?<patch>[1-9][0-9]*))
	rolling.linux-rolling-stable.mainlinepattern v(?:(?<major>2)\.(?<minor>6)\.(?<sub>(?:0|[1-9][0-9]*))|(?<major>(?:[3-9]|[1-9][0-9]+))\.(?<minor>(?:0|[1-9][0-9]*)))(?:-rc(?<rc>[1-9][0-9]*))?
	rolling.linux-rolling-stable.switch next-rc1
	rolling.linux-rolling-stable.signoff true
	EOF
	git -C tree config --get-regexp "^rolling\." >actual &&
	test_cmp expect actual
'

test_expect_success 'the reflog says how the branch was created' '
	git -C tree reflog show --format=%gs linux-rolling-stable >actual &&
	echo "rolling: created at $(cat newest-6.2)" >expect &&
	test_cmp expect actual
'

test_expect_success 'an existing branch is refused and nothing changes' '
	(cd tree && snapshot ../before) &&
	test_expect_code 128 git -C tree rolling init --lts linux-rolling-stable 2>err &&
	grep "^fatal: a branch named .linux-rolling-stable. already exists" err &&
	(cd tree && snapshot ../after) &&
	test_cmp before after
'

test_expect_success 'an existing configuration is refused too' '
	git -C tree branch orphan-config v6.2.1 &&
	git -C tree config rolling.orphan.policy stable &&
	test_when_finished "git -C tree config --remove-section rolling.orphan" &&
	test_expect_code 128 git -C tree rolling init orphan 2>err &&
	grep "^fatal: rolling.orphan.\* is already configured" err &&
	test_must_fail git -C tree rev-parse --verify -q refs/heads/orphan
'

test_expect_success '--force replaces branch and configuration' '
	git -C tree rolling init --force --lts linux-rolling-stable >out &&
	grep "^policy lts follows 6.1$" out &&
	newest=$(git -C tree tag -l "v6.1.*" | sort -V | tail -n 1) &&
	test "$(git -C tree rev-parse linux-rolling-stable)" = "$(git -C tree rev-parse $newest^{commit})" &&
	test "$(git -C tree config rolling.linux-rolling-stable.policy)" = lts &&
	test "$(git -C tree config rolling.linux-rolling-stable.series)" = "4.4 4.9 4.14 4.19 5.4 5.10 5.15 6.1 6.6 6.12 6.18" &&
	git -C tree reflog show --format=%gs linux-rolling-stable >actual &&
	test_line_count = 2 actual
'

test_expect_success '--force again with the same settings keeps the configuration' '
	git -C tree config --get-regexp "^rolling\.linux-rolling-stable\." >before &&
	git -C tree rolling init -q --force --lts linux-rolling-stable &&
	git -C tree config --get-regexp "^rolling\.linux-rolling-stable\." >after &&
	test_cmp before after &&
	test_line_count = 5 after
'

test_expect_success '--force drops the keys the new settings do not have' '
	git -C tree rolling init -q --force --pin 6.1 --ident "P <p@example.org>" repl &&
	test "$(git -C tree config rolling.repl.pin)" = 6.1 &&
	git -C tree rolling init -q --force repl &&
	git -C tree config --name-only --get-regexp "^rolling\.repl\." >keys &&
	cat >expect <<-\EOF &&
	rolling.repl.policy
	rolling.repl.releasepattern
	rolling.repl.mainlinepattern
	rolling.repl.switch
	rolling.repl.signoff
	EOF
	test_cmp expect keys
'

test_expect_success '--lts with a custom series list, --no-signoff and --ident' '
	git -C tree rolling init -q --lts --series "5.19 6.0" --no-signoff \
		--ident "Roll Er <roller@example.org>" lts >out &&
	test_must_be_empty out &&
	test "$(git -C tree rev-parse lts)" = \
		"$(git -C tree rev-parse $(expected_lts_target tree "5.19 6.0")^{commit})" &&
	test "$(git -C tree config rolling.lts.signoff)" = false &&
	test "$(git -C tree config rolling.lts.ident)" = "Roll Er <roller@example.org>" &&
	test "$(git -C tree config rolling.lts.series)" = "5.19 6.0"
'

test_expect_success '--pin holds a series; --at picks a release' '
	git -C tree rolling init -q --pin 6.0 pinned &&
	newest=$(git -C tree tag -l "v6.0.*" | sort -V | tail -n 1) &&
	test "$(git -C tree rev-parse pinned)" = "$(git -C tree rev-parse $newest^{commit})" &&
	test "$(git -C tree config rolling.pinned.pin)" = 6.0 &&
	git -C tree rolling init -q --at v6.1.3 at &&
	test "$(git -C tree rev-parse at)" = "$(git -C tree rev-parse v6.1.3^{commit})"
'

test_expect_success 'refusals: bad values change nothing' '
	(cd tree && snapshot ../before) &&
	test_expect_code 128 git -C tree rolling init --pin 7.7 new 2>err &&
	grep "^fatal: pinned series 7.7 has no release yet; nothing created" err &&
	test_expect_code 128 git -C tree rolling init --pin 7 new 2>err &&
	grep "^fatal: rolling.new.pin: .7. is not a series of the form <major>.<minor>" err &&
	test_expect_code 128 git -C tree rolling init --at v6.3-rc1 new 2>err &&
	grep "^fatal: .v6.3-rc1. is not a release tag" err &&
	test_expect_code 128 git -C tree rolling init --at v5.5-test new 2>err &&
	test_expect_code 128 git -C tree rolling init --at v9.9.9 new 2>err &&
	test_expect_code 128 git -C tree rolling init --series "6.1" new 2>err &&
	grep "^fatal: --series lists long-term series; it needs --lts" err &&
	test_expect_code 128 git -C tree rolling init --lts --series "6.1 six" new 2>err &&
	grep "^fatal: rolling.new.series: .six. is not" err &&
	test_expect_code 128 git -C tree rolling init --preset debian new 2>err &&
	grep "^fatal: unknown preset .debian." err &&
	test_expect_code 128 git -C tree rolling init --ident "nobody" new 2>err &&
	grep "^fatal: --ident: .nobody. is not an identity of the form .Name <email>." err &&
	test_expect_code 128 git -C tree rolling init "bad..name" 2>err &&
	grep "^fatal: .bad..name. is not a valid branch name" err &&
	(cd tree && snapshot ../after) &&
	test_cmp before after
'

test_expect_success 'invalid patterns are fatal, with PCRE2 message and offset' '
	(cd tree && snapshot ../before) &&
	test_expect_code 128 git -C tree rolling init --preset linux \
		--release-pattern "v(?<major>\d+" new 2>err &&
	echo "fatal: rolling.new.releasePattern: missing closing parenthesis at offset 13" >expect &&
	test_cmp expect err &&
	test_expect_code 128 git -C tree rolling init --preset linux --mainline-pattern "v[" new 2>err &&
	grep "^fatal: rolling.new.mainlinePattern: missing terminating \] for character class at offset 2$" err &&
	(cd tree && snapshot ../after) &&
	test_cmp before after
'

test_expect_success 'tags that name trees, blobs or huge numbers are skipped with a warning' '
	git clone -q tree odd &&
	git -C odd tag v6.2.90 "v6.2.1^{tree}" &&
	blob=$(echo blob | git -C odd hash-object -w --stdin) &&
	git -C odd tag -a -m "a blob" v6.2.91 $blob &&
	git -C odd tag v6.2.99999999999 v6.2.1 &&
	git -C odd rolling init --stable rs >out 2>err &&
	grep "^warning: ignoring release tag .v6.2.90.: it points to a tree, not a commit$" err &&
	grep "^warning: ignoring release tag .v6.2.91.: it points to a blob, not a commit$" err &&
	grep "^warning: ignoring tag .v6.2.99999999999.: patch number is not a decimal number of at most 32 bits$" err &&
	test "$(git -C odd rev-parse rs)" = "$(git -C odd rev-parse $(cat newest-6.2)^{commit})"
'

test_expect_success 'the same tags, packed with their peeled values, are checked when used' '
	git -C odd pack-refs --all &&
	# packed-refs holds them peeled (reftable keeps peeled values too).
	if test "$(test_ref_format odd)" = files
	then
		grep "refs/tags/v6.2.91$" odd/.git/packed-refs
	fi &&
	git -C odd rolling init --force --stable rs >out 2>err &&
	grep "^warning: ignoring release tag .v6.2.90.: it points to a tree, not a commit$" err &&
	grep "^warning: ignoring release tag .v6.2.91.: it points to a blob, not a commit$" err &&
	test "$(git -C odd rev-parse rs)" = "$(git -C odd rev-parse $(cat newest-6.2)^{commit})" &&
	grep "^  6.2 *newest $(cat newest-6.2)$" out &&
	test_expect_code 128 git -C odd rolling init --force --at v6.2.91 rs 2>err &&
	grep "^fatal: .v6.2.91. is not a release tag" err
'

test_expect_success 'advance skips a newest release that is no commit' '
	git -C odd rolling init -q --force --at v6.2.1 rs &&
	git -C odd rolling advance rs >out 2>err &&
	grep "^rs: v6.2.1 -> $(cat newest-6.2) " out &&
	grep "^warning: ignoring release tag .v6.2.91.: it points to a blob" err
'

test_expect_success 'no release tags, or no qualifying series: nothing is created' '
	git init -q empty &&
	test_commit -C empty first &&
	test_expect_code 128 git -C empty rolling init --preset linux rs 2>err &&
	grep "^fatal: no release tags match the release pattern; nothing created" err &&
	test_expect_code 128 git -C empty rolling init rs 2>err &&
	grep "^error: no preset fits the tags; of 0 version-like tags the presets read:$" err &&
	grep "^  linux  *reads 0 of 0: 0 releases in 0 series, 0 mainline tags: does not fit (no release tags)$" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	test_must_fail git -C empty rev-parse --verify -q rs &&
	test -z "$(git -C empty config --get-regexp "^rolling\.")"
'

test_expect_success 'a config that cannot be written leaves no branch behind' '
	(cd tree && snapshot ../before) &&
	gitdir=$(git -C tree rev-parse --absolute-git-dir) &&
	: >"$gitdir/config.lock" &&
	test_when_finished "rm -f \"$gitdir/config.lock\"" &&
	test_expect_code 128 git -C tree rolling init new 2>err &&
	grep "^fatal: cannot lock the repository configuration" err &&
	rm -f "$gitdir/config.lock" &&
	(cd tree && snapshot ../after) &&
	test_cmp before after
'

test_expect_success 'a branch that cannot be created leaves no configuration behind' '
	(cd tree && snapshot ../before) &&
	lock=$(test_ref_lock_file tree refs/heads/new) &&
	: >"$lock" &&
	test_when_finished "rm -f \"$lock\"" &&
	test_expect_code 128 git -C tree rolling init new 2>err &&
	grep "^fatal: cannot lock ref .refs/heads/new.: Unable to create .$lock.: File exists\.$" err &&
	rm -f "$lock" &&
	(cd tree && snapshot ../after) &&
	test_cmp before after
'

test_expect_success 'works in a bare repository' '
	git clone -q --bare tree bare.git &&
	git --git-dir=bare.git update-ref -d refs/heads/linux-rolling-stable &&
	git --git-dir=bare.git rolling init -q linux-rolling-stable &&
	test "$(git --git-dir=bare.git rev-parse linux-rolling-stable)" = \
		"$(git --git-dir=bare.git rev-parse $(cat newest-6.2)^{commit})" &&
	test "$(git --git-dir=bare.git config rolling.linux-rolling-stable.policy)" = stable
'

test_expect_success 'works from a subdirectory of the work tree' '
	mkdir -p tree/deep/dir &&
	(cd tree/deep/dir && git rolling init -q sub) &&
	git -C tree rev-parse --verify -q refs/heads/sub
'

test_expect_success 'outside a repository' '
	mkdir nowhere &&
	(
		cd nowhere &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 git rolling init rs 2>err &&
		grep "^fatal: not a git repository" err
	)
'

test_expect_success 'usage errors exit 129' '
	test_expect_code 129 git -C tree rolling init 2>err &&
	grep "^usage: git rolling init" err &&
	test_expect_code 129 git -C tree rolling init a b 2>err &&
	test_expect_code 129 git -C tree rolling init --bogus a 2>err &&
	grep "^error: unknown option .bogus." err &&
	test_expect_code 129 git -C tree rolling init --at 2>err &&
	grep "^error: option .at. requires a value" err &&
	test_expect_code 129 git -C tree rolling init -h >out &&
	grep "^usage: git rolling init" out &&
	grep -e "--\[no-\]signoff" out
'

# next-rc1 takes a series once mainline has tagged a later one and the
# series has a release after its first: a scheme whose first releases
# are X.Y.0 (CPython's) must wait for X.Y.1.
test_expect_success 'next-rc1 waits for a point release where the first is X.Y.0' '
	git init -q point &&
	for tag in v1.0.0 v1.0.1 v1.1.0 v1.2.0-rc1
	do
		git -C point commit -q --allow-empty -m $tag &&
		git -C point tag -a -m $tag $tag || return 1
	done &&
	git -C point rolling init --switch next-rc1 \
		--release-pattern "v(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[0-9]+)" \
		--mainline-pattern "v(?<major>[0-9]+)\.(?<minor>[0-9]+)\.0-rc[0-9]+" rb >out &&
	grep "^policy stable follows 1.0$" out &&
	git -C point commit -q --allow-empty -m v1.1.1 &&
	git -C point tag -a -m v1.1.1 v1.1.1 &&
	git -C point rolling advance --dry-run --porcelain rb >plan &&
	grep "v1.1.1" plan
'

test_done
