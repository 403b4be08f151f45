#!/bin/sh

test_description='manual pages, help and usage

Every command has a page that builds without warnings and documents every
option the command accepts; every configuration key init writes is in the
shared configuration text; git help opens the installed pages.
'
. "$(dirname "$0")"/test-lib.sh

DOC=$GIT_ROLLING_BUILD_DIR/Documentation

command -v asciidoctor >/dev/null 2>&1 && test_set_prereq ASCIIDOCTOR
command -v man >/dev/null 2>&1 && test_set_prereq MAN

test_expect_success 'every command has a manual page' '
	git rolling --list-cmds >cmds &&
	test_line_count -ge 2 cmds &&
	while read cmd
	do
		test_path_is_file "$DOC/git-rolling-$cmd.txt" || return 1
	done <cmds
'

test_expect_success 'every page has the sections of a git manual page' '
	for page in "$DOC"/git-rolling*.txt
	do
		for section in NAME SYNOPSIS DESCRIPTION OPTIONS CONFIGURATION \
			"EXIT STATUS" EXAMPLES "SEE ALSO"
		do
			grep -qx "$section" "$page" ||
			{ echo "$page lacks $section"; return 1; }
		done
	done
'

# undocumented_options <cmd>: the options `git rolling <cmd>` accepts (as
# its completion helper lists them) that its page has no entry for: an
# entry "<opt>::", "<opt> <arg>::" or "<opt> <arg>/<arg>::", or for
# --x and --no-x alike "--[no-]x::" or "--[no-]x <arg>::".
undocumented_options () {
	git rolling $1 --git-completion-helper >opts &&
	test -s opts &&
	sed -n "s/^\([^ ]*\)\( <[^>]*>\(\/<[^>]*>\)\{0,1\}\)\{0,1\}::\$/\1/p" \
		"$DOC/git-rolling-$1.txt" >entries &&
	sed -n "s/^--\[no-\]\([^ ]*\)\( <[^>]*>\)\{0,1\}::\$/--\1/p" \
		"$DOC/git-rolling-$1.txt" >negatable-entries &&
	awk -v cmd="$1" '
		FILENAME == ARGV[1] { entry[$0] = 1; next }
		FILENAME == ARGV[2] { negatable[$0] = 1; next }
		{
			for (i = 1; i <= NF; i++) {
				opt = $i
				sub(/=$/, "", opt)
				positive = opt
				sub(/^--no-/, "--", positive)
				if (!(opt in entry) && !(positive in negatable))
					print "git rolling " cmd ": " opt " is not documented"
			}
		}
	' entries negatable-entries opts
}

test_expect_success 'every option a command accepts is documented' '
	while read cmd
	do
		undocumented_options $cmd || return 1
	done <cmds >undocumented &&
	test_must_be_empty undocumented
'

# usage_words <help>: the words of the usage lines of a command's -h
# output (what precedes the options table), one per line, "--[no-]x" as
# "--x".
usage_words () {
	sed -n "/^    -/q;p" "$1" |
	sed -e "s/--\[no-\]/--/g" |
	tr " \t[]()|=" "\n\n\n\n\n\n\n" |
	sed -e "/^\$/d"
}

# options_not_in_usage <cmd>: the options `git rolling <cmd>` accepts,
# but for --no-x, that its -h usage lines name neither by their long
# name nor by the short one the options table gives them ("    -x, --opt").
options_not_in_usage () {
	git rolling $1 --git-completion-helper >opts &&
	test_expect_code 129 git rolling $1 -h >help &&
	usage_words help >words &&
	grep -q "^git$" words &&
	awk -v cmd="$1" '
		FILENAME == ARGV[1] { word[$0] = 1; next }
		FILENAME == ARGV[2] {
			if ($0 ~ /^    -[a-zA-Z0-9], --/) {
				long = substr($0, 9)
				sub(/ .*/, "", long)
				short[long] = substr($0, 5, 2)
			}
			next
		}
		{
			for (i = 1; i <= NF; i++) {
				opt = $i
				if (opt ~ /^--no-/)
					continue
				sub(/=$/, "", opt)
				if (!(opt in word) && !((opt in short) && (short[opt] in word)))
					print "git rolling " cmd " -h: " opt " missing from the usage lines"
			}
		}
	' words help opts
}

test_expect_success 'every option is in the usage string too' '
	while read cmd
	do
		options_not_in_usage $cmd || return 1
	done <cmds >not-in-usage &&
	test_must_be_empty not-in-usage
'

test_expect_success 'the usage lines are what precedes the options table' '
	test_expect_code 129 git rolling advance -h >help &&
	usage_words help >words &&
	grep -x -- --porcelain words &&
	grep -x -- -q words &&
	! grep -x -- --quiet words &&
	! grep -x "errors" words
'

test_expect_success 'every configuration key that init writes is documented' '
	test_commit base &&
	git tag v1.0.1 && git tag v1.1a1 && git tag v1.1 &&
	git rolling init -q --lts --series 1.0 --pin 1.0 --ident "A <a@b.c>" --no-signoff rs &&
	git rolling init -q --each st &&
	git config --name-only --get-regexp "^rolling\\.rs\\." >keys &&
	test_line_count = 7 keys &&
	git config --name-only --get-regexp "^rolling\\.st\\." >st-keys &&
	grep -x rolling.st.switch st-keys &&
	grep -x rolling.st.steps st-keys &&
	sed "s/^rolling\\.st\\./rolling.rs./" st-keys >>keys &&
	while read key
	do
		key=${key#rolling.rs.} &&
		grep -qi "^rolling.<branch>.$key::$" "$DOC/config.txt" ||
		{ echo "rolling.<branch>.$key undocumented"; return 1; }
	done <keys
'

# The presets are named in the binary only; the manual must describe
# exactly those (PRESETS in gitrolling(7), and --preset of init).
test_expect_success 'the manual documents the presets the binary has' '
	git rolling init --list-presets | sed "s/ .*//" | sort >expect &&
	test_line_count -ge 6 expect &&
	sed -n "/^PRESETS\$/,/^[A-Z][A-Z ]*\$/p" "$DOC/gitrolling.txt" |
		sed -n "s/^\([a-z][a-z0-9]*\)::\$/\1/p" | sort >documented &&
	test_cmp expect documented &&
	sed -n "/^--preset <name>::\$/,/^\$/p" "$DOC/git-rolling-init.txt" |
		grep -o "\`[a-z0-9]*\`" | tr -d "\`" | sort >init-lists &&
	test_cmp expect init-lists &&
	for preset in $(cat expect)
	do
		grep -q "^| \`$preset\` " "$GIT_ROLLING_BUILD_DIR/README.md" ||
		{ echo "README does not list $preset"; return 1; }
	done
'

test_expect_success ASCIIDOCTOR 'every page builds without warnings' '
	mkdir built &&
	asciidoctor -b manpage -d manpage --failure-level WARN \
		-D built "$DOC"/git-rolling*.txt "$DOC"/gitrolling.txt 2>err &&
	test_must_be_empty err &&
	ls built >pages &&
	test $(wc -l <pages) -eq $(ls "$DOC"/git-rolling*.txt "$DOC"/gitrolling.txt | wc -l)
'

test_expect_success ASCIIDOCTOR,MAN 'git help opens the installed pages' '
	make -C "$GIT_ROLLING_BUILD_DIR" -s install install-doc prefix="$TRASH_DIRECTORY/inst" >/dev/null &&
	MANPATH=$TRASH_DIRECTORY/inst/share/man &&
	export MANPATH &&
	PATH=$TRASH_DIRECTORY/inst/bin:$PATH &&
	MANPAGER=cat PAGER=cat MANWIDTH=80 git help rolling >help &&
	grep "git-rolling - Rolling branches that follow" help &&
	MANPAGER=cat PAGER=cat git rolling --help >help &&
	grep "git-rolling - Rolling branches that follow" help &&
	MANPAGER=cat PAGER=cat git rolling advance --help >help &&
	grep "git-rolling-advance - Merge the releases a rolling branch has not" help &&
	MANPAGER=cat PAGER=cat git help gitrolling >help &&
	grep "THE ROLLING STEP" help
'

test_expect_success '-h prints the usage and exits 129' '
	while read cmd
	do
		test_expect_code 129 git rolling $cmd -h >out 2>err &&
		grep "^usage: git rolling $cmd" out &&
		test_must_be_empty err || return 1
	done <cmds &&
	test_expect_code 129 git rolling -h >out &&
	grep "^usage: git rolling" out &&
	test_expect_code 129 git rolling 2>err &&
	grep "^usage: git rolling" err
'

test_expect_success 'unknown commands' '
	test_expect_code 1 git rolling frobnicate 2>err &&
	grep "^git rolling: .frobnicate. is not a git rolling command" err &&
	test_expect_code 129 git rolling --frobnicate 2>err &&
	grep "^error: unknown option .--frobnicate." err
'

test_expect_success '--version' '
	git rolling --version >out &&
	grep "^git-rolling version [0-9]" out
'

test_done
