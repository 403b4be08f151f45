#!/bin/sh

test_description='fetch stops when git fetch of the objects fails after the refs were listed

The server lists its refs (git ls-remote) and then fails to send the
objects (its upload-pack dies on the second connection, as a server
that pruned the objects in between would).  fetch must fail with 128,
name the failure, move no ref and leave no quarantine behind; the next
fetch, against a working server, takes everything.  Where the objects
are missing, a fetch that went on would only fail later, on the wrong
reason.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable
# Run by the shell: the trash directory'"'"'s name has spaces.
UPLOAD_PACK="'$TRASH_DIRECTORY/flaky-upload-pack'"

test_expect_success 'setup: a server whose upload-pack serves one connection in two' '
	setup_upstream &&
	publish 12 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --preset linux &&
	printf "#!/bin/sh\nn=\$(cat \"%s/calls\" 2>/dev/null || echo 0)\necho \$((n + 1)) >\"%s/calls\"\nif test \$((n %% 2)) = 1\nthen\n\techo \"upload-pack: gone\" >&2\n\texit 1\nfi\nexec git-upload-pack \"\$@\"\n" \
		"$TRASH_DIRECTORY" "$TRASH_DIRECTORY" >flaky-upload-pack &&
	chmod +x flaky-upload-pack &&
	git -C consumer config remote.origin.uploadpack "$UPLOAD_PACK" &&
	git -C consumer ls-remote origin >/dev/null &&
	test_must_fail git -C consumer ls-remote origin >/dev/null 2>&1 &&
	rm calls
'

test_expect_success 'the objects cannot be fetched: 128, the reason, nothing moved' '
	git -C consumer for-each-ref >refs.before &&
	test_expect_code 128 git -C consumer rolling fetch origin 2>err &&
	test "$(cat calls)" = 2 &&
	grep "^fatal: git fetch from .origin. failed (exit status [0-9]*); nothing was updated$" err &&
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
