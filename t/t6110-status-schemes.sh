#!/bin/sh

test_description='status names the next switch in each project'\''s own tags

The next switch waits for what the branch'\''s switch rule says, named as
the project tags it: git'\''s maint moves at v2.56.0 (not "v2.56-rc1"),
systemd-stable at v257.1, CPython at v3.14.0, PostgreSQL at REL_18_0.
A series is named only when a tag names it (git after 2.55, Linux after
6.19, QEMU after 10.2: the next may be 3.0, 7.0, 11.0), a tag spelled
only from a tag the repository has; custom patterns,
whose series need not follow one another (nginx'\''s odd minor versions
are never stable), never get a series named that no release has.  A step
onto a .0 is an ordinary rolling merge: a clone without tags proves it.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-sign-tags.sh

# tags <name>...: one commit tagged with each name, in order.
tags () {
	for t
	do
		test_commit --annotate "c-$t" "$t.t" "$t" "$t" || return 1
	done
}

# next_switch <branch>: the "next switch:" line of status, without the label.
next_switch () {
	git rolling status "$1" >status.out &&
	sed -n "s/^  next switch: //p" status.out
}

test_expect_success 'git: maint moves when the next feature release is tagged' '
	git init -q git &&
	cd git &&
	tags v2.54.0-rc0 v2.54.0 v2.54.1 v2.55.0-rc0 v2.55.0-rc1 v2.55.0 &&
	git rolling init -q --preset git maint &&
	test "$(git config rolling.maint.switch)" = first-release &&
	test "$(git rev-parse maint)" = "$(git rev-parse v2.55.0^{commit})" &&
	echo "the next series becomes the stable series when its first release is tagged" >expect &&
	next_switch maint >actual &&
	test_cmp expect actual &&
	git rolling init -q --preset git --switch next-rc1 rc-rule &&
	test "$(git rev-parse rc-rule)" = "$(git rev-parse v2.54.1^{commit})" &&
	echo "2.55 becomes the stable series when it has a point release and mainline tags a pre-release of the series after it" >expect &&
	next_switch rc-rule >actual &&
	test_cmp expect actual &&
	tags v2.56.0-rc0 &&
	echo "2.56 becomes the stable series when v2.56.0 is tagged" >expect &&
	next_switch maint >actual &&
	test_cmp expect actual &&
	tags v2.56.0 &&
	git rolling status maint >out &&
	grep "^  series switch due: 2.55 -> 2.56$" out &&
	git rolling advance maint >out &&
	grep "^maint: v2.55.0 -> v2.56.0 (.*), series 2.55 -> 2.56$" out &&
	test "$(git rev-parse maint^2)" = "$(git rev-parse v2.56.0^{commit})" &&
	test "$(git rev-parse maint^{tree})" = "$(git rev-parse v2.56.0^{tree})" &&
	git rolling verify maint
'

# A step onto a .0 is an ordinary rolling merge of a release tag: a
# clone without tags proves it from the signed tag the merge embeds.
test_expect_success 'a step onto a .0 is proved in a clone without tags' '
	cd git &&
	tags v2.57.0-rc0 v2.57.0 &&
	sign_all_tags . "$TRASH_DIRECTORY/release.key" &&
	git rolling advance maint &&
	old=$(git rev-parse maint) &&
	test_commit --no-tag c-v2.58.0-rc0 &&
	git tag -s -m v2.58.0-rc0 v2.58.0-rc0 &&
	test_commit --no-tag c-v2.58.0 &&
	git tag -s -m v2.58.0 v2.58.0 &&
	git cat-file tag v2.58.0 | grep "^-----BEGIN SSH SIGNATURE-----$" &&
	git rolling advance maint >out &&
	grep "^maint: v2.57.0 -> v2.58.0 (.*), series 2.57 -> 2.58$" out &&
	git cat-file commit maint | grep "^mergetag object $(git rev-parse v2.58.0^{commit})$" &&
	git clone -q --no-tags --single-branch -b maint "file://$TRASH_DIRECTORY/git" ../tag-free &&
	cd ../tag-free &&
	test -z "$(git tag)" &&
	git config gpg.format ssh &&
	git config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/release.key.allowed-signers" &&
	git rolling verify --preset git --signatures --since $old maint >out &&
	grep "^maint: 1 step since v2.57.0 " out &&
	grep "^maint: verified, 1 release signature good$" out
'

test_expect_success 'systemd: systemd-stable moves at the first point release' '
	git init -q systemd &&
	cd systemd &&
	tags v256-rc1 v256 v256.1 v257-rc1 v257 &&
	git rolling init -q --preset systemd rolling &&
	test "$(git config rolling.rolling.switch)" = first-point-release &&
	test "$(git rev-parse rolling)" = "$(git rev-parse v256.1^{commit})" &&
	echo "257 becomes the stable series when v257.1 is tagged" >expect &&
	next_switch rolling >actual &&
	test_cmp expect actual
'

test_expect_success 'python and postgresql: at the new series'\'' .0 final' '
	git init -q python &&
	(
		cd python &&
		tags v3.13.0a1 v3.13.0b1 v3.13.0rc1 v3.13.0 v3.13.1 v3.14.0a1 &&
		git rolling init -q --preset python rolling &&
		echo "3.14 becomes the stable series when v3.14.0 is tagged" >expect &&
		next_switch rolling >actual &&
		test_cmp expect actual
	) &&
	git init -q pg &&
	(
		cd pg &&
		tags REL_17_BETA1 REL_17_RC1 REL_17_0 REL_17_1 &&
		git rolling init -q --preset postgresql rolling &&
		echo "the next series becomes the stable series when its first release is tagged" >expect &&
		next_switch rolling >actual &&
		test_cmp expect actual &&
		tags REL_18_BETA1 &&
		echo "18 becomes the stable series when REL_18_0 is tagged" >expect &&
		next_switch rolling >actual &&
		test_cmp expect actual
	)
'

# nginx: even minor versions are stable, odd ones development.
test_expect_success 'nginx-like custom patterns: no odd series is ever named' '
	git init -q nginx &&
	cd nginx &&
	tags release-1.28.0 release-1.28.1 release-1.29.0 release-1.29.1 release-1.30.0 \
		release-1.31.0 &&
	git rolling init -q --switch first-release \
		--release-pattern "release-(?<major>1)\.(?<minor>[0-9]*[02468])\.(?<patch>[0-9]+)" \
		--mainline-pattern "release-(?<major>1)\.(?<minor>[0-9]*[13579])\.0" stable &&
	test "$(git rev-parse stable)" = "$(git rev-parse release-1.30.0^{commit})" &&
	echo "a later series becomes the stable series when its first release is tagged" >expect &&
	next_switch stable >actual &&
	test_cmp expect actual &&
	! grep "1\.31" status.out
'

test_expect_success 'redis-like custom patterns: the tag is spelled from the tags' '
	git init -q redis &&
	cd redis &&
	tags 7.0.0 7.0.1 7.2-rc1 7.2.0 &&
	git rolling init -q --switch first-point-release \
		--release-pattern "(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[0-9]+)" \
		--mainline-pattern "(?<major>[0-9]+)\.(?<minor>[0-9]+)-rc(?<rc>[0-9]+)" stable &&
	test "$(git rev-parse stable)" = "$(git rev-parse 7.0.1^{commit})" &&
	echo "7.2 becomes the stable series when 7.2.1 is tagged" >expect &&
	next_switch stable >actual &&
	test_cmp expect actual &&
	git rolling init -q --switch next-rc1 --at 7.0.1 \
		--release-pattern "(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[0-9]+)" \
		--mainline-pattern "(?<major>[0-9]+)\.(?<minor>[0-9]+)-rc(?<rc>[0-9]+)" rc &&
	echo "7.2 becomes the stable series when it has a point release and mainline tags a pre-release of the series after it" >expect &&
	next_switch rc >actual &&
	test_cmp expect actual &&
	! grep "7\.3" status.out
'

test_expect_success 'an unknown switch rule is refused, naming the key' '
	cd git &&
	test_expect_code 128 git rolling init --switch sometimes x 2>err &&
	grep "^fatal: --switch: unknown switch rule .sometimes. (expected .first-release., .first-point-release. or .next-rc1.)" err &&
	test_must_fail git rev-parse -q --verify x &&
	git config rolling.maint.switch weekly &&
	test_expect_code 128 git rolling status maint 2>err &&
	grep "^fatal: rolling.maint.switch: unknown switch rule .weekly." err
'

# The next series is named by a tag or not at all: Linux went from 6.19
# to 7.0, QEMU from 10.2 to 11.0.
test_expect_success 'linux after 6.19: no 6.20; 7.0 once v7.0-rc1 names it' '
	git init -q linux &&
	cd linux &&
	tags v6.18 v6.18.1 v6.19-rc1 v6.19 v6.19.1 &&
	git rolling init -q --preset linux rolling &&
	test "$(git rev-parse rolling)" = "$(git rev-parse v6.18.1^{commit})" &&
	echo "6.19 becomes the stable series when mainline tags a pre-release of the series after it" >expect &&
	next_switch rolling >actual &&
	test_cmp expect actual &&
	! grep "6\.20" status.out &&
	tags v7.0-rc1 &&
	git rolling status rolling >out &&
	grep "^  series switch due: 6.18 -> 6.19$" out &&
	git rolling advance -q rolling &&
	echo "7.0 becomes the stable series when it has a point release and mainline tags a pre-release of the series after it" >expect &&
	next_switch rolling >actual &&
	test_cmp expect actual &&
	tags v7.0 v7.1-rc1 &&
	echo "7.0 becomes the stable series when it has a point release" >expect &&
	next_switch rolling >actual &&
	test_cmp expect actual
'

test_expect_success 'qemu after 10.2: no 10.3; 11.0 once v11.0.0-rc0 names it' '
	git init -q qemu &&
	cd qemu &&
	tags v10.1.0-rc0 v10.1.0 v10.1.1 v10.2.0-rc0 v10.2.0 v10.2.1 &&
	git rolling init -q --preset qemu rolling &&
	next_switch rolling >actual &&
	! grep "10\.3" status.out &&
	grep "^the next series becomes the stable series when" actual &&
	tags v11.0.0-rc0 &&
	next_switch rolling >actual &&
	grep "^11\.0 becomes the stable series when" actual
'

test_done
