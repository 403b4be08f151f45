#!/bin/sh

test_description='extensions.refStorage is read from the repository'"'"'s own config file

git reads the repository format (core.repositoryFormatVersion,
extensions.*) from the config file of the repository'"'"'s common directory
alone, and follows none of its [include]s there (setup.c reads it with
git_config_from_file()).  libgit2 follows them: a refStorage set in an
included file must not make git rolling read the refs of another
format than git reads, such as a packed-refs planted beside the tables.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

test_expect_success REFTABLE 'setup' '
	reftable_repo reftable &&
	git init -q --ref-format=files files &&
	test_commit -C files one &&
	test_commit -C files two
'

test_expect_success REFTABLE 'an include saying files hides no reftable from us' '
	printf "[extensions]\\n\\trefStorage = files\\n" >says-files &&
	git -C reftable config include.path "$TRASH_DIRECTORY/says-files" &&
	test "$(git -C reftable config extensions.refStorage)" = files &&
	test "$(git -C reftable rev-parse --show-ref-format)" = reftable &&
	printf "%s refs/heads/main\\n%s refs/tags/planted\\n" "$(cat old)" "$(cat old)" \
		>reftable/.git/packed-refs &&
	git -C reftable rev-parse refs/heads/main >actual &&
	test_cmp new actual &&
	same_ref reftable HEAD refs/heads/main refs/tags/planted &&
	same_refs reftable
'

test_expect_success REFTABLE 'an include saying reftable makes no files repository one' '
	printf "[core]\\n\\trepositoryFormatVersion = 1\\n[extensions]\\n\\trefStorage = reftable\\n" \
		>says-reftable &&
	git -C files config include.path "$TRASH_DIRECTORY/says-reftable" &&
	test "$(git -C files config extensions.refStorage)" = reftable &&
	test "$(git -C files rev-parse --show-ref-format)" = files &&
	same_ref files HEAD refs/heads/main refs/tags/one &&
	same_refs files
'

test_expect_success REFTABLE 'the last refStorage of the file itself wins, as in git' '
	git -C files config core.repositoryFormatVersion 1 &&
	printf "[extensions]\\n\\trefStorage = reftable\\n\\trefStorage = files\\n" \
		>>files/.git/config &&
	test "$(git -C files rev-parse --show-ref-format)" = files &&
	same_refs files
'

test_done
