#!/bin/sh

test_description='verify --push-log with pushes signed by GnuPG

The certificate of a push signed with a GnuPG key is checked with gpg
--status-fd and the keyring, as git checks one: the signer is named by
its user id and fingerprint, rolling.<branch>.pusher lists either, and a
key the keyring lacks is no evidence.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-push-log.sh

test_expect_success GPG 'setup: a server logging pushes signed by a GnuPG key' '
	verify_fixture tree &&
	push_log_gpg_setup &&
	test_set_prereq GPG_KEY &&
	mkdir -p srv/pub/scm &&
	push_log_server srv/pub/scm/linux.git log pub/scm/linux &&
	push_log_gpg_client tree &&
	git -C tree push -q --signed "$(push_log_url srv/pub/scm/linux.git)" \
		"linux-rolling-stable~1:refs/heads/linux-rolling-stable" &&
	git -C tree push -q --signed "$(push_log_url srv/pub/scm/linux.git)" \
		"linux-rolling-stable:refs/heads/linux-rolling-stable"
'

test_expect_success GPG_KEY 'published by the GnuPG key: its user id and fingerprint' '
	git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log" --push-log-repo=pub/scm/linux \
		--push-log-ref=refs/heads/linux-rolling-stable linux-rolling-stable >out &&
	grep "^linux-rolling-stable: published by GPG Pusher <gpg-pusher@example.org> ($PUSH_LOG_GPG_KEY) on " out &&
	grep "^linux-rolling-stable: verified$" out
'

test_expect_success GPG_KEY 'rolling.<branch>.pusher names the key by fingerprint or email' '
	test_when_finished "git -C tree config --unset-all rolling.linux-rolling-stable.pusher" &&
	git -C tree config rolling.linux-rolling-stable.pusher someone@example.org &&
	test_expect_code 1 git -C tree rolling verify --push-log="$TRASH_DIRECTORY/log" \
		--push-log-repo=pub/scm/linux linux-rolling-stable 2>err &&
	grep "push log: published: .* signed by GPG Pusher <gpg-pusher@example.org> ($PUSH_LOG_GPG_KEY), who is not listed in rolling.linux-rolling-stable.pusher$" err &&
	git -C tree config rolling.linux-rolling-stable.pusher gpg-pusher@example.org &&
	git -C tree rolling verify -q --push-log="$TRASH_DIRECTORY/log" \
		--push-log-repo=pub/scm/linux linux-rolling-stable &&
	git -C tree config rolling.linux-rolling-stable.pusher "$PUSH_LOG_GPG_KEY" &&
	git -C tree rolling verify -q --push-log="$TRASH_DIRECTORY/log" \
		--push-log-repo=pub/scm/linux linux-rolling-stable
'

test_expect_success GPG_KEY 'a keyring without the key: no public key' '
	mkdir -m 700 empty-gnupg &&
	GNUPGHOME=$TRASH_DIRECTORY/empty-gnupg test_expect_code 1 git -C tree rolling verify \
		--push-log="$TRASH_DIRECTORY/log" --push-log-repo=pub/scm/linux \
		linux-rolling-stable 2>err &&
	grep "push log: published: .* its certificate.s signature: no public key: no public key$" err
'

test_done
