#!/bin/sh

test_description='messages that list names list all of them

An unknown preset is answered with every preset there is, in the order
git rolling init --list-presets gives them (the list was kept in a
buffer sized for names of 16 bytes).
'
. "$(dirname "$0")"/test-lib.sh

test_expect_success 'setup' '
	git init -q repo &&
	git -C repo commit -q --allow-empty -m initial
'

test_expect_success 'an unknown preset: the error names every preset' '
	git rolling init --list-presets | awk "{ print \$1 }" >names &&
	test_line_count -gt 5 names &&
	known=$(sed "s/\$/, /" names | tr -d "\\n" | sed "s/, \$//") &&
	test_expect_code 128 git -C repo rolling init --preset nosuch new 2>err &&
	echo "fatal: unknown preset '\''nosuch'\'' (known: $known)" >expect &&
	test_cmp expect err &&
	test_must_fail git -C repo rev-parse -q --verify refs/heads/new
'

test_done
