#!/bin/sh

test_description='fetch stops when the server lists its refs but fails to send the objects

The server advertises its refs and then fails to send the pack (its
git pack-objects fails, as on a server that pruned the objects or ran
out of memory in between), on the fetch'"'"'s one connection.  fetch must
fail with 128, name the failure, move no ref and leave no quarantine
behind; the next fetch, against a working server, takes everything.
Where the objects are missing, a fetch that went on would only fail
later, on the wrong reason.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable
# Run by the shell: the trash directory'"'"'s name has spaces.
UPLOAD_PACK="'$TRASH_DIRECTORY/failing-upload-pack'"

test_expect_success 'setup: a server whose pack-objects fails after the refs are listed' '
	setup_upstream &&
	publish 12 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux &&
	printf "#!/bin/sh\necho \"pack-objects: gone\" >&2\nexit 1\n" >failing-pack-objects &&
	printf "#!/bin/sh\necho run >>\"%s/connections\"\nexec git -c uploadpack.packObjectsHook=\"%s\" upload-pack \"\$@\"\n" \
		"$TRASH_DIRECTORY" "'\''$TRASH_DIRECTORY/failing-pack-objects'\''" >failing-upload-pack &&
	chmod +x failing-pack-objects failing-upload-pack &&
	git -C consumer config remote.origin.uploadpack "$UPLOAD_PACK" &&
	git -C consumer ls-remote origin >listed &&
	grep "refs/heads/$BRANCH\$" listed &&
	test_must_fail git -C consumer fetch origin 2>err &&
	grep -a "pack-objects: gone" err &&
	rm connections
'

test_expect_success 'the objects cannot be fetched: 128, the reason, nothing moved' '
	git -C consumer for-each-ref >refs.before &&
	test_expect_code 128 git -C consumer rolling fetch origin 2>err &&
	test_line_count = 1 connections &&
	grep -a "pack-objects: gone" err &&
	grep -a "^fatal: git fetch from .origin. failed (exit status [0-9]*); nothing was updated$" err &&
	git -C consumer for-each-ref >refs.after &&
	test_cmp refs.before refs.after &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null &&
	test_must_fail git -C consumer cat-file -e $(git --git-dir=server.git rev-parse $BRANCH)
'

test_expect_success 'the next fetch, through a working upload-pack, takes the branch' '
	git -C consumer config --unset remote.origin.uploadpack &&
	git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = \
		"$(git --git-dir=server.git rev-parse $BRANCH)"
'

test_done
