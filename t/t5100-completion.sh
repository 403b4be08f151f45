#!/bin/sh

test_description='bash completion

The completion is installed as share/bash-completion/completions/git-rolling
and must be found on demand by git'\''s own completion through
bash-completion'\''s loader, in a real bash.
'
. "$(dirname "$0")"/test-lib.sh

GIT_COMPLETION=/usr/share/bash-completion/completions/git
BASH_COMPLETION=/usr/share/bash-completion/bash_completion
if ! command -v bash >/dev/null 2>&1 || ! test -r "$GIT_COMPLETION" ||
   ! test -r "$BASH_COMPLETION"
then
	skip_all='bash, git-completion or bash-completion missing'
	test_expect_success 'init --adopt <TAB> offers the local branches, init <TAB> none' '
	git branch hand-made v1.0.1 &&
	complete git rolling init --adopt han >actual &&
	echo "hand-made " >expect &&
	test_cmp expect actual &&
	complete git rolling init --each han >actual &&
	! grep . actual &&
	complete git rolling init --ea >actual &&
	echo "--each " >expect &&
	test_cmp expect actual
'

test_done
fi

# complete <words...>: what bash offers for the command line "words ",
# in a fresh bash that has only bash-completion and git's completion
# loaded; git-rolling's completion must come from the installed prefix.
complete () {
	PATH="$TRASH_DIRECTORY/inst/bin:$PATH" XDG_DATA_DIRS="$TRASH_DIRECTORY/inst/share" \
		bash --norc --noprofile -c '
		. "$1" && . "$2" && shift 2 &&
		COMP_WORDS=("$@") &&
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) &&
		COMP_LINE="$*" && COMP_POINT=${#COMP_LINE} &&
		__git_wrap__git_main &&
		printf "%s\n" "${COMPREPLY[@]}" | sort
	' complete "$BASH_COMPLETION" "$GIT_COMPLETION" "$@"
}

test_expect_success 'setup: install, and a repository with rolling branches' '
	make -C "$GIT_ROLLING_BUILD_DIR" -s install prefix="$TRASH_DIRECTORY/inst" >/dev/null &&
	test_path_is_file inst/share/bash-completion/completions/git-rolling &&
	test_commit base &&
	git tag v1.0.1 && git tag v1.1a1 && git tag v1.1 &&
	git rolling init -q rolling-one &&
	git rolling init -q --at v1.0.1 rolling.two
'

test_expect_success 'git rolling <TAB> offers the commands' '
	complete git rolling "" >actual &&
	git rolling --list-cmds | sed "s/$/ /" | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'a prefix narrows the commands' '
	complete git rolling ad >actual &&
	echo "advance " >expect &&
	test_cmp expect actual
'

test_expect_success 'git rolling bisect-helper <TAB> offers every subcommand its usage lists' '
	complete git rolling bisect-helper "" >actual &&
	test_expect_code 129 git rolling bisect-helper -h >usage &&
	sed -n -e "s/^\(usage\|   or\): git rolling bisect-helper \([a-z]*\).*/\2 /p" usage |
		sort >expect &&
	test_line_count = 5 expect &&
	test_cmp expect actual
'

test_expect_success 'git rolling advance <TAB> offers the configured rolling branches' '
	complete git rolling advance "" >actual &&
	printf "%s\n" "rolling-one " "rolling.two " >expect &&
	test_cmp expect actual
'

test_expect_success 'options after --' '
	complete git rolling advance --d >actual &&
	echo "--dry-run " >expect &&
	test_cmp expect actual &&
	complete git rolling init --pre >actual &&
	echo "--preset=" >expect &&
	test_cmp expect actual &&
	complete git rolling init --preset= >actual &&
	git rolling init --list-presets | sed "s/ .*/ /" | sort >expect &&
	test_line_count -ge 6 expect &&
	grep -x "postgresql " expect &&
	test_cmp expect actual &&
	complete git rolling verify --preset=p >actual &&
	printf "%s\n" "postgresql " "python " >expect &&
	test_cmp expect actual &&
	complete git rolling init --swi >actual &&
	echo "--switch=" >expect &&
	test_cmp expect actual &&
	complete git rolling init --switch=first- >actual &&
	printf "%s\n" "first-point-release " "first-release " >expect &&
	test_cmp expect actual &&
	complete git rolling init --switch= >rules &&
	test_line_count = 3 rules &&
	git init -q switch-rules &&
	for rule in $(cat rules)
	do
		test_must_fail git -C switch-rules rolling init --switch=$rule x 2>err &&
		! grep "unknown switch rule" err || return 1
	done
'

test_expect_success 'init --adopt <TAB> offers the local branches, init <TAB> none' '
	git branch hand-made v1.0.1 &&
	complete git rolling init --adopt han >actual &&
	echo "hand-made " >expect &&
	test_cmp expect actual &&
	complete git rolling init --each han >actual &&
	! grep . actual &&
	complete git rolling init --ea >actual &&
	echo "--each " >expect &&
	test_cmp expect actual
'

test_expect_success 'fetch and pull offer the remotes, then the branches followed' '
	git remote add up "$TRASH_DIRECTORY" &&
	git remote add other "$TRASH_DIRECTORY" &&
	git config --add rolling.remote.up.branches linux-rolling-stable &&
	git config --add rolling.remote.up.branches linux-rolling-lts &&
	complete git rolling fetch "" >actual &&
	printf "%s\n" "other " "up " >expect &&
	test_cmp expect actual &&
	complete git rolling pull -q up "" >actual &&
	printf "%s\n" "linux-rolling-lts " "linux-rolling-stable " >expect &&
	test_cmp expect actual &&
	git update-ref refs/remotes/up/linux-rolling-stable HEAD &&
	complete git rolling init --follow "" >actual &&
	echo "up/linux-rolling-stable " >expect &&
	test_cmp expect actual
'

test_done
