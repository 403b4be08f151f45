#!/bin/sh

test_description='repositories git rolling must refuse, and how

A repository owned by another user gets git'"'"'s own refusal ("detected
dubious ownership" with the safe.directory hint), with git'"'"'s exit
status, and is used wherever git would use it: with safe.directory, from
the command line too, and when GIT_DIR names it.  The owner is judged as
git judges it: of the work tree, of its .git file and of the git
directory, with the user SUDO_UID names for root.  A SHA-256 repository,
which no libgit2 release reads in its default build, gets one fatal
error that names the limit, from every command.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-repo-shapes.sh

COMMANDS="init:x advance verify log status describe:HEAD fetch:origin pull bisect-helper:next"

# Another user's repository is made with chown, which needs root.
if test "$(id -u)" = 0
then
	test_set_prereq ROOT
fi

test_expect_success ROOT 'setup: a repository owned by another user' '
	shape_tree owned &&
	git -C owned rolling init -q linux-rolling-stable &&
	mkdir owned/sub &&
	chown -R 4242:4242 owned &&
	test "$(stat -c %u owned/.git)" = 4242
'

test_expect_success ROOT 'every command gives git'"'"'s refusal, at the top and below' '
	for dir in owned owned/sub
	do
		(cd $dir && test_expect_code 128 git rev-parse --git-dir) 2>expect &&
		grep "^fatal: detected dubious ownership in repository at .$TRASH_DIRECTORY/owned.$" expect &&
		grep "safe.directory" expect &&
		for command in $COMMANDS
		do
			(cd $dir && test_expect_code 128 git rolling $(echo $command | tr : " ")) 2>actual &&
			test_cmp expect actual || return 1
		done || return 1
	done
'

test_expect_success ROOT 'safe.directory, also from git -c: used as git uses it' '
	git -C owned -c safe.directory="$TRASH_DIRECTORY/owned" rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out &&
	git -C owned -c "safe.directory=*" rolling status >out &&
	grep "policy stable" out &&
	git config --global --add safe.directory "$TRASH_DIRECTORY/owned" &&
	test_when_finished "git config --global --unset-all safe.directory" &&
	git -C owned/sub rolling log >out &&
	grep " v6.0.3 " out
'

test_expect_success ROOT 'GIT_DIR naming it: git does not check the owner, nor do we' '
	GIT_DIR="$TRASH_DIRECTORY/owned/.git" git log -1 >/dev/null &&
	GIT_DIR="$TRASH_DIRECTORY/owned/.git" git rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified$" out
'

test_expect_success ROOT 'safe.directory=* in the global configuration, and --git-dir' '
	git config --global --add safe.directory "*" &&
	test_when_finished "git config --global --unset-all safe.directory" &&
	git -C owned/sub rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out &&
	git config --global --add safe.directory "" &&
	(cd owned && test_expect_code 128 git rev-parse --git-dir) 2>expect &&
	grep "dubious ownership" expect &&
	(cd owned && test_expect_code 128 git rolling verify) 2>actual &&
	test_cmp expect actual &&
	git --git-dir=owned/.git rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified$" out
'

# refused_as_by_git <dir> [<command>]: git refuses the repository it
# finds from <dir> for its owner, and git rolling stops with git's words
# and exit status.
refused_as_by_git () {
	(cd "$1" && test_expect_code 128 git rev-parse --git-dir) 2>expect &&
	grep "^fatal: detected dubious ownership in repository at " expect &&
	(cd "$1" && test_expect_code 128 git rolling ${2:-verify}) 2>actual &&
	test_cmp expect actual
}

test_expect_success ROOT 'in the .git directory of another user'"'"'s repository: git'"'"'s refusal' '
	refused_as_by_git owned/.git &&
	grep "at .$TRASH_DIRECTORY/owned/.git.$" expect &&
	git -C owned/.git -c safe.directory="$TRASH_DIRECTORY/owned/.git" rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out
'

# git looks past a .git that is no repository: the owners it checks are
# those of the work tree where it stops.
test_expect_success ROOT 'below a .git that is no repository: the owners of the work tree git finds' '
	git init -q other &&
	mkdir -p other/inner/.git &&
	chown 4242:4242 other &&
	refused_as_by_git other/inner status &&
	grep "at .$TRASH_DIRECTORY/other.$" expect
'

# git run as root by sudo takes the user SUDO_UID names for the current
# one, and root's own repositories stay root's.
test_expect_success ROOT 'SUDO_UID: its user'"'"'s repository is used, another'"'"'s refused' '
	SUDO_UID=4242 git -C owned rev-parse --git-dir >/dev/null &&
	SUDO_UID=4242 git -C owned/sub rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out &&
	(
		SUDO_UID=4243 &&
		export SUDO_UID &&
		refused_as_by_git owned/sub status
	) &&
	(
		SUDO_UID=4242x &&
		export SUDO_UID &&
		refused_as_by_git owned
	) &&
	git init -q mine &&
	test_commit -C mine one &&
	SUDO_UID=4242 git -C mine rev-parse --git-dir >/dev/null &&
	(
		cd mine &&
		SUDO_UID=4242 &&
		export SUDO_UID &&
		test_expect_code 128 git rolling status
	) 2>err &&
	grep "^fatal: no rolling branches are configured" err
'

# A linked work tree: git checks the owners of the .git file, of the work
# tree and of the git directory the file names (git 2.39.4 and later),
# not of the common directory, whose safe.directory then does nothing.
test_expect_success ROOT 'setup: a work tree of ours of another user'"'"'s repository' '
	git -C owned -c safe.directory="*" worktree add -q --detach ../linked &&
	test "$(stat -c %u linked/.git)" = 0 &&
	test "$(stat -c %u owned/.git/worktrees/linked)" = 0
'

test_expect_success ROOT 'a work tree of ours: used, as git uses it' '
	git -C linked rev-parse --git-dir >/dev/null &&
	git -C linked rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified$" out
'

test_expect_success ROOT 'a work tree, .git file or git directory of another user: git'"'"'s refusal' '
	test_when_finished "chown 0:0 linked linked/.git owned/.git/worktrees/linked" &&
	for path in linked linked/.git owned/.git/worktrees/linked
	do
		chown 4242:4242 $path &&
		refused_as_by_git linked "verify linux-rolling-stable" &&
		grep "at .$TRASH_DIRECTORY/linked.$" expect &&
		git -C linked -c safe.directory="$TRASH_DIRECTORY/linked" \
			rolling verify linux-rolling-stable >out &&
		grep "^linux-rolling-stable: verified$" out &&
		(cd linked && test_expect_code 128 git -c safe.directory="$TRASH_DIRECTORY/owned" \
			rolling verify linux-rolling-stable) 2>actual &&
		test_cmp expect actual &&
		chown 0:0 $path || return 1
	done
'

# From a work tree, git will not move a branch checked out in another,
# the main one of another user's repository too.
test_expect_success ROOT 'a branch checked out in another user'"'"'s main work tree: not moved from ours' '
	git -C owned -c safe.directory="*" checkout -q linux-rolling-stable &&
	git -C owned -c safe.directory="*" update-ref refs/heads/linux-rolling-stable "v6.0.2^{commit}" &&
	chown -R 4242:4242 owned &&
	chown -R 0:0 owned/.git/worktrees &&
	(cd linked && test_must_fail git branch -f linux-rolling-stable "v6.0.3^{commit}") 2>err &&
	# git 2.39: "checked out at"; later: "used by worktree at"
	grep -e "checked out at .$TRASH_DIRECTORY/owned.$" \
		-e "used by worktree at .$TRASH_DIRECTORY/owned.$" err &&
	(cd linked && test_expect_code 128 git rolling advance linux-rolling-stable) 2>err &&
	grep "^fatal: .linux-rolling-stable. is checked out in another work tree; not moving it$" err &&
	git -C owned -c safe.directory="*" rev-parse linux-rolling-stable "v6.0.2^{commit}" >tips &&
	test $(uniq tips | wc -l) = 1
'

# safe.bareRepository (git 2.38): "explicit", Git 3.0'"'"'s default, lets
# git use a bare repository only where GIT_DIR or --git-dir names it.
# Each test states the setting it is about.
test_expect_success 'setup: a bare repository with a rolling branch' '
	shape_tree shapes &&
	git clone -q --bare shapes bare.git &&
	git -C shapes rolling init -q linux-rolling-stable &&
	git --git-dir=bare.git rolling init -q linux-rolling-stable
'

# git's tests make it refuse every repository it finds by searching with
# GIT_TEST_ASSUME_DIFFERENT_OWNER, as if another user owned it: no root needed.
test_expect_success 'GIT_TEST_ASSUME_DIFFERENT_OWNER: git'"'"'s refusal, safe.directory and GIT_DIR as for git' '
	(
		GIT_TEST_ASSUME_DIFFERENT_OWNER=1 &&
		export GIT_TEST_ASSUME_DIFFERENT_OWNER &&
		(cd shapes && test_expect_code 128 git rev-parse --git-dir) 2>expect &&
		grep "^fatal: detected dubious ownership in repository at .$TRASH_DIRECTORY/shapes.$" expect &&
		(cd shapes && test_expect_code 128 git rolling status) 2>actual &&
		test_cmp expect actual &&
		git -C shapes -c safe.directory="$TRASH_DIRECTORY/shapes" rolling verify >out &&
		grep "^linux-rolling-stable: verified$" out &&
		GIT_DIR="$TRASH_DIRECTORY/shapes/.git" git rolling verify linux-rolling-stable >out &&
		grep "^linux-rolling-stable: verified$" out
	) &&
	GIT_TEST_ASSUME_DIFFERENT_OWNER=false git -C shapes rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out
'

# git takes a .git whose HEAD is not a ref for no repository and searches
# on; libgit2 1.5 opens it.  git's word on the repository it found is no
# word on the one libgit2 opened.
test_expect_success 'git vouches for the repository it finds, not for the one libgit2 opened' '
	mkdir -p shapes/fake/.git/objects shapes/fake/.git/refs &&
	echo junk >shapes/fake/.git/HEAD &&
	test_when_finished "rm -rf shapes/fake" &&
	(
		cd shapes/fake &&
		GIT_TEST_ASSUME_DIFFERENT_OWNER=1 &&
		export GIT_TEST_ASSUME_DIFFERENT_OWNER &&
		git -c safe.directory="$TRASH_DIRECTORY/shapes" rev-parse --absolute-git-dir >actual &&
		echo "$TRASH_DIRECTORY/shapes/.git" >expect &&
		test_cmp expect actual &&
		if git -c safe.directory="$TRASH_DIRECTORY/shapes" rolling status >out 2>err
		then
			grep "policy stable" out
		else
			grep "^fatal: git finds the repository at .$TRASH_DIRECTORY/shapes/.git. where libgit2 finds .$TRASH_DIRECTORY/shapes/fake/.git/.; name one with GIT_DIR or --git-dir$" err
		fi
	)
'

# Opening one's own repository costs no git run: git is asked only when
# the owners are not all the current user's.
test_expect_success 'a repository of ours: no git run to check its owner' '
	git -C shapes worktree add -q --detach ../shapes-linked &&
	mkdir -p shapes/deep/er &&
	for dir in shapes shapes/deep/er shapes-linked
	do
		rm -f trace &&
		(cd $dir && GIT_TRACE="$TRASH_DIRECTORY/trace" git rolling verify linux-rolling-stable) \
			>out &&
		grep "^linux-rolling-stable: verified$" out &&
		grep "git-rolling verify" trace &&
		# the owner check would run exactly this; a reftable
		# repository asks git its ref format, another command
		! grep "built-in: git rev-parse --absolute-git-dir$" trace || return 1
	done
'

test_expect_success 'safe.bareRepository=explicit: every command gives git'"'"'s refusal, at the top and below' '
	mkdir bare.git/sub &&
	for dir in bare.git bare.git/sub
	do
		(cd $dir && test_expect_code 128 git -c safe.bareRepository=explicit \
			rev-parse --git-dir) 2>expect &&
		grep "^fatal: cannot use bare repository .$TRASH_DIRECTORY/bare.git. (safe.bareRepository is .explicit.)$" expect &&
		for command in $COMMANDS
		do
			(cd $dir && test_expect_code 128 git -c safe.bareRepository=explicit \
				rolling $(echo $command | tr : " ")) 2>actual &&
			test_cmp expect actual || return 1
		done || return 1
	done
'

test_expect_success 'safe.bareRepository=explicit: --git-dir and GIT_DIR name it, as for git' '
	git -c safe.bareRepository=explicit --git-dir=bare.git rolling verify >out &&
	grep "^linux-rolling-stable: verified$" out &&
	(
		cd bare.git/sub &&
		GIT_DIR=.. git -c safe.bareRepository=explicit rolling status >"$TRASH_DIRECTORY/out"
	) &&
	grep "policy stable" out
'

test_expect_success 'safe.bareRepository=all: found by searching, from the top and below' '
	git config --global safe.bareRepository all &&
	test_when_finished "git config --global --unset safe.bareRepository" &&
	(cd bare.git && git rolling verify) >out &&
	grep "^linux-rolling-stable: verified$" out &&
	(cd bare.git/sub && git rolling log) >out &&
	grep " v6.0.3 " out
'

# git 2.39 refuses the .git directory of a work tree too; later releases
# take it for what it is (setup.c, is_implicit_bare_repo()).
test_expect_success 'safe.bareRepository=explicit in the .git directory of a work tree: as git' '
	if (cd shapes/.git && git -c safe.bareRepository=explicit rev-parse --git-dir) 2>expect
	then
		(cd shapes/.git && git -c safe.bareRepository=explicit rolling verify) >out &&
		grep "^linux-rolling-stable: verified$" out
	else
		(cd shapes/.git && test_expect_code 128 git -c safe.bareRepository=explicit \
			rolling verify) 2>actual &&
		test_cmp expect actual
	fi
'

# A bare repository embedded in someone's work tree (test fixtures, a
# submodule's git directory) names a gpg.program and carries a release
# tag with a signature: verify --signatures would run that program.
# Under "explicit" git refuses the repository; so must git rolling,
# before it reads any of its configuration.
test_expect_success 'safe.bareRepository=explicit: an embedded bare repository runs nothing of its own' '
	git init -q outer &&
	mkdir outer/fixtures &&
	git clone -q --bare shapes outer/fixtures/embedded.git &&
	embedded=outer/fixtures/embedded.git &&
	git --git-dir=$embedded rolling init -q rs &&
	tag=$(git --git-dir=$embedded tag --points-at rs | head -n 1) &&
	test -n "$tag" &&
	{
		git --git-dir=$embedded cat-file tag $tag &&
		printf -- "-----BEGIN PGP SIGNATURE-----\n\njunk\n-----END PGP SIGNATURE-----\n"
	} >junk.tag &&
	junk=$(git --git-dir=$embedded hash-object -t tag -w --stdin <junk.tag) &&
	git --git-dir=$embedded update-ref refs/tags/$tag $junk &&
	printf "#!/bin/sh\ntouch \"%s/gpg-ran\"\nexit 1\n" "$TRASH_DIRECTORY" >fake-gpg &&
	chmod +x fake-gpg &&
	git --git-dir=$embedded config gpg.program "$TRASH_DIRECTORY/fake-gpg" &&
	# where git uses the repository, the program runs: the attack is real
	(cd $embedded && git -c safe.bareRepository=all rolling verify --signatures rs \
		>/dev/null 2>&1; :) &&
	test_path_is_file gpg-ran &&
	rm gpg-ran &&
	(cd $embedded && test_expect_code 128 git -c safe.bareRepository=explicit rev-parse --git-dir) \
		2>expect &&
	(cd $embedded && test_expect_code 128 git -c safe.bareRepository=explicit rolling verify \
		--signatures rs) 2>actual &&
	test_cmp expect actual &&
	test_path_is_missing gpg-ran
'

test_expect_success 'setup: a SHA-256 repository' '
	git init -q --object-format=sha256 sha256 &&
	test_commit -C sha256 one &&
	test "$(git -C sha256 rev-parse --show-object-format)" = sha256 &&
	git -C sha256 log --oneline >/dev/null
'

# libgit2 main opens a SHA-256 repository (git rolling then refuses it
# itself); the releases before cannot, and the error says so.
test_expect_success 'every command refuses it with one error naming the limit' '
	for command in $COMMANDS
	do
		test_expect_code 128 git -C sha256 rolling $(echo $command | tr : " ") 2>err &&
		grep "^fatal: .$TRASH_DIRECTORY/sha256/.git. is a SHA-256 repository (extensions.objectFormat = sha256): git rolling reads SHA-1 repositories only\(; libgit2 [0-9.]*, like every libgit2 release in its default build, cannot read SHA-256 ones\)\{0,1\}$" err &&
		test_line_count = 1 err || return 1
	done
'

test_expect_success 'a bare SHA-256 repository, and one named by GIT_DIR' '
	git clone -q --bare sha256 sha256.git &&
	test_expect_code 128 git -c safe.bareRepository=all -C sha256.git rolling verify 2>err &&
	grep "^fatal: .$TRASH_DIRECTORY/sha256.git. is a SHA-256 repository" err &&
	(
		cd sha256 &&
		GIT_DIR=../sha256.git &&
		export GIT_DIR &&
		test_expect_code 128 git rolling status 2>err &&
		grep "^fatal: .$TRASH_DIRECTORY/sha256.git. is a SHA-256 repository" err
	)
'

test_done
