#!/bin/sh

test_description='init recognises the tag scheme, and refuses readings it cannot trust

Without --preset or patterns init reads the tags with every preset and
uses the one that fits; none or several fitting stop it with what each
would do.  One pattern alone, and tags that match both patterns, are
refused; every command warns about the latter.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

snapshot () {
	{ git for-each-ref && git config --list --local; } >"$1"
}

test_expect_success 'setup: one tree per scheme' '
	stable_tree_linux linux &&
	stable_tree_systemd systemd &&
	stable_tree_git git &&
	stable_tree_qemu qemu &&
	stable_tree_python python &&
	stable_tree_postgresql postgresql
'

test_expect_success '--list-presets: one line a preset, with tags of its scheme, anywhere' '
	git rolling init --list-presets >list &&
	sed "s/ .*//" list >names &&
	printf "%s\n" linux systemd git qemu python postgresql >expect &&
	test_cmp expect names &&
	grep "^git  *release v2\.43\.1  *mainline v2\.44\.0-rc0  *Git" list &&
	grep "^postgresql  *release REL_16_1  *mainline REL_17_BETA1  *PostgreSQL" list &&
	(cd / && GIT_CEILING_DIRECTORIES=/ git rolling init --list-presets) >list.outside &&
	test_cmp list list.outside &&
	test_expect_code 129 git rolling init --list-presets branch
'

test_expect_success 'each generated tree is read as its own preset' '
	for scheme in linux systemd git qemu python postgresql
	do
		(
			cd $scheme &&
			git rolling init detected >../out 2>../err &&
			test_must_be_empty ../err &&
			grep "^tags read as preset $scheme (" ../out &&
			git rolling init -q --preset $scheme explicit &&
			test "$(git rev-parse detected)" = "$(git rev-parse explicit)" &&
			test "$(git config rolling.detected.releasePattern)" = \
				"$(git config rolling.explicit.releasePattern)"
		) || { echo "$scheme:"; cat out err; return 1; }
	done
'

test_expect_success 'git counts candidates from rc0: v2.2.0-rc0 is no final for --lts' '
	git clone -q --no-local git git-rc0 &&
	cd git-rc0 &&
	cp ../git/.git/stable-timeline ../git/.git/stable-lookalikes .git/ &&
	stable_tree_replay . $(stable_tree_week_of . v2.2.0-rc0) &&
	git rolling init -q --preset git --lts --series "2.0 2.1" lts &&
	newest=$(git tag -l "v2.0.*" | sort -V | tail -n 1) &&
	test "$(git rev-parse lts)" = "$(git rev-parse "$newest^{commit}")" &&
	git rolling init -q --preset git stable &&
	newest=$(git tag -l "v2.1.*" | grep -v -e -rc | sort -V | tail -n 1) &&
	test "$(git rev-parse stable)" = "$(git rev-parse "$newest^{commit}")"
'

test_expect_success 'lightweight and SSH-signed release tags are read alike' '
	STABLE_LIGHTWEIGHT_TAGS=1 stable_tree_postgresql pg-light &&
	test "$(git -C pg-light cat-file -t REL_11_1)" = commit &&
	git -C pg-light rolling init rolling >out &&
	grep "^tags read as preset postgresql (" out &&
	test "$(git -C pg-light rev-parse rolling)" = "$(git -C postgresql rev-parse detected)" &&
	git clone -q --no-local postgresql pg-signed &&
	cd pg-signed &&
	if ssh-keygen -q -t ed25519 -N "" -C release -f ../release.key >/dev/null 2>&1 &&
	   echo data | ssh-keygen -Y sign -n git -f ../release.key >/dev/null 2>&1
	then
		# Every tag signed as git tag -s signs it, with one ssh-keygen
		# for all of them (lib-sign-tags.sh).
		sign_all_tags . "$TRASH_DIRECTORY/release.key" &&
		git cat-file tag REL_12_2 | grep "^-----BEGIN SSH SIGNATURE-----$" &&
		git rolling init rolling >out &&
		grep "^tags read as preset postgresql (" out &&
		test "$(git rev-parse rolling^{commit})" = "$(git -C ../postgresql rev-parse detected)" &&
		git rolling init -q --force --at REL_11_1 rolling &&
		git rolling advance rolling >out &&
		grep "^rolling: REL_11_1 -> REL_11_[0-9]* .*" out &&
		git rolling verify --signatures rolling >out &&
		grep "^rolling: verified, [1-9][0-9]* release signatures good$" out
	fi
'

test_expect_success 'the systemd preset reads series of one number; its lts needs --series' '
	cd systemd &&
	test_expect_code 128 git rolling init --lts lts 2>err &&
	grep "rolling.lts.series is empty" err &&
	git rolling init -q --lts --series "253 254" lts
'

test_expect_success 'several presets fitting equally: stop, and show what each would do' '
	git clone -q --no-local git git2 &&
	cd git2 &&
	git tag -l "v1.*" | xargs git tag -d >/dev/null &&
	snapshot ../before &&
	test_expect_code 128 git rolling init maint 2>err &&
	grep "^error: several presets fit the tags equally well; of [0-9]* version-like tags the presets read:$" err &&
	newest=$(git tag -l "v2.*" | grep -v -e -rc | sort -V | tail -n 1) &&
	grep "^  git  *reads [0-9]* of [0-9]*: [0-9]* releases in [0-9]* series, [0-9]* mainline tags: stable would start at $newest$" err &&
	grep "^  qemu  *reads [0-9]* of [0-9]*: [0-9]* releases in [0-9]* series, [0-9]* mainline tags: stable would start at $newest$" err &&
	grep "^  linux  *reads 0 of [0-9]*: 0 releases in 0 series, .*: does not fit (no release tags)$" err &&
	grep "^hint: name the scheme with --preset <name>" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&
	git rolling init -q --preset qemu maint
'

test_expect_success 'releases of a series mainline never tagged fit no preset' '
	git init -q partial &&
	cd partial &&
	test_commit zero && git tag v2.42.0-rc0 &&
	test_commit one && git tag v2.42.0 && git tag v2.42.1 &&
	test_commit two && git tag v2.43.1 &&
	test_expect_code 128 git rolling init maint 2>err &&
	grep "^error: no preset fits the tags; of 4 version-like tags the presets read:$" err &&
	grep "^  git  *reads 4 of 4: 3 releases in 2 series, 1 mainline tags: does not fit (releases of a series mainline never tagged)$" err &&
	test_must_fail git rev-parse -q --verify maint
'

# git and qemu read two thirds of the tags, alike, but do not fit;
# systemd fits, reading v5 and v5.1 alone.  That is no preset reading
# enough, not several fitting equally.
test_expect_success 'presets that do not fit are not counted among those reading enough' '
	git init -q few-fit &&
	cd few-fit &&
	test_commit v5 && test_commit v5.1 && test_commit v2.42.0-rc0 &&
	test_commit v2.42.0 && git tag v2.42.1 && test_commit v2.43.1 &&
	snapshot ../before &&
	test_expect_code 128 git rolling init maint 2>err &&
	grep "^error: no preset reads a clear majority (two thirds) of the version-like tags; of 6 version-like tags the presets read:$" err &&
	grep "^  systemd  *reads 2 of 6: 1 releases in 1 series, 1 mainline tags: stable would start at v5\.1$" err &&
	grep "^  git  *reads 4 of 6: 3 releases in 2 series, 1 mainline tags: does not fit (releases of a series mainline never tagged)$" err &&
	grep "^  qemu  *reads 4 of 6: 3 releases in 2 series, 1 mainline tags: does not fit (releases of a series mainline never tagged)$" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

# reads <preset>: how many tags of the repository the oracles of
# lib-rolling-schemes.sh read as the preset's releases and mainline tags.
reads () {
	(
		. "$TEST_DIRECTORY"/lib-rolling-schemes.sh &&
		git tag -l >../tags.all &&
		scheme_releases_$1 <../tags.all >../tags.releases &&
		scheme_mainline_$1 <../tags.all >../tags.mainline &&
		cat ../tags.releases ../tags.mainline | wc -l
	)
}

# A QEMU-like repository of 0.x versions, one commit a tag.  The python
# preset reads its releases v0.13.0 ... v0.15.1 too, and the older
# v0.10 ... v0.12 that qemu does not, but none of its candidates
# (v0.14.0-rc0: python spells them v0.14.0rc1): reading more tags than
# qemu, or as many, it still has no mainline tags, and does not fit.
test_expect_success 'a preset that does not fit never wins, reading more tags or as many' '
	git init -q qemu-zero &&
	cd qemu-zero &&
	for t in v0.10 v0.11 v0.12 v0.13.0 v0.13.1 v0.13.2 v0.14.0-rc0 v0.14.0 \
		v0.14.1 v0.14.2 v0.15.0-rc0 v0.15.0 v0.15.1
	do
		test_commit "$t" || return 1
	done &&
	test $(reads qemu) = 10 &&
	test $(reads python) = 11 &&
	test_must_be_empty ../tags.mainline &&
	git rolling init -q --preset qemu explicit &&
	git rolling init detected >out &&
	grep "^tags read as preset qemu (reads 10 of 13 version-like tags: 8 releases, 2 mainline tags; see --list-presets)$" out &&
	for key in releasePattern mainlinePattern switch
	do
		test "$(git config rolling.detected.$key)" = "$(git config rolling.explicit.$key)" ||
		return 1
	done &&
	test "$(git rev-parse detected)" = "$(git rev-parse v0.15.1)" &&

	# Newer releases without candidates: python reads most of all the
	# tags and of the newest, qemu two thirds of neither.
	test_commit v0.16 && test_commit v0.17 && test_commit v0.18 &&
	test $(reads python) = 14 &&
	snapshot ../before &&
	test_expect_code 128 git rolling init rolling 2>err &&
	grep "^error: no preset reads a clear majority (two thirds) of the version-like tags; of 16 version-like tags the presets read:$" err &&
	grep "^  qemu  *reads 10 of 16: 8 releases in 3 series, 2 mainline tags: stable would start at v0\.15\.1$" err &&
	grep "^  python  *reads 14 of 16: 14 releases in 9 series, 0 mainline tags: does not fit (no mainline tags)$" err &&
	grep "^hint: nor does any read two thirds of the 6 newest, which would leave the rest to an older scheme: qemu reads 3 of them$" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&

	# As many tags as qemu: no tie, for python is not in the running.
	git tag -d v0.10 v0.16 v0.17 v0.18 >/dev/null &&
	test $(reads qemu) = 10 &&
	test $(reads python) = 10 &&
	git rolling init tie >out &&
	grep "^tags read as preset qemu (reads 10 of 12 version-like tags: 8 releases, 2 mainline tags; " out &&
	test "$(git config rolling.tie.releasePattern)" = "$(git config rolling.explicit.releasePattern)"
'

# With python'\''s own spelling of candidates, of an older series, and
# no v0.15.0: python again reads more tags than qemu, but its mainline
# has reached 0.14 (v0.14.0 is a final to python) and it has releases
# of 0.15.  Its releases are of a series its mainline never tagged.
test_expect_success 'nor one whose releases are newer than its mainline' '
	git init -q qemu-old-candidates &&
	cd qemu-old-candidates &&
	for t in v0.9a1 v0.9b1 v0.9rc1 v0.13.0 v0.13.1 v0.13.2 v0.14.0-rc0 v0.14.0 \
		v0.14.1 v0.14.2 v0.15.0-rc0 v0.15.1 v0.15.2
	do
		test_commit "$t" || return 1
	done &&
	test $(reads qemu) = 10 &&
	test $(reads python) = 11 &&
	test $(wc -l <../tags.mainline) = 3 &&
	git rolling init detected >out &&
	grep "^tags read as preset qemu (reads 10 of 13 version-like tags: 8 releases, 2 mainline tags; " out &&
	test "$(git rev-parse detected)" = "$(git rev-parse v0.15.2)" &&
	git rolling init -q --preset qemu explicit &&
	test "$(git config rolling.detected.releasePattern)" = "$(git config rolling.explicit.releasePattern)" &&
	test_commit junk-1 && test_commit junk-2 && test_commit junk-3 &&
	test_expect_code 128 git rolling init rolling 2>err &&
	grep "^  qemu  *reads 10 of 16: 8 releases in 3 series, 2 mainline tags: stable would start at v0\.15\.2$" err &&
	grep "^  python  *reads 11 of 16: 8 releases in 3 series, 3 mainline tags: does not fit (releases of a series mainline never tagged)$" err
'

test_expect_success 'a release pattern alone is refused, not completed with Linux mainline' '
	cd git &&
	snapshot ../before &&
	test_expect_code 128 git rolling init \
		--release-pattern "v(?<major>\d+)\.(?<minor>\d+)\.(?<patch>[1-9]\d*)" maint 2>err &&
	echo "fatal: --mainline-pattern is needed too (or --preset)" >expect &&
	test_cmp expect err &&
	test_expect_code 128 git rolling init --mainline-pattern "v(?<major>\d+)" maint 2>err &&
	echo "fatal: --release-pattern is needed too (or --preset)" >expect &&
	test_cmp expect err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

# The first attempt on git.git in the issue: v2.44.0 read as a release.
TRAP_RELEASE="v(?<major>\d+)\.(?<minor>\d+)\.(?<patch>\d+)"
TRAP_MAINLINE="v(?<major>\d+)\.(?<minor>\d+)\.0(?:-rc(?<rc>\d+))?"

test_expect_success 'init refuses patterns that read one tag as release and mainline' '
	cd git &&
	snapshot ../before &&
	test_expect_code 128 git rolling init --release-pattern "$TRAP_RELEASE" \
		--mainline-pattern "$TRAP_MAINLINE" maint 2>err &&
	test_line_count = 1 err &&
	grep "^fatal: tag .v1.9.0. (and others) matches both the release pattern (rolling.maint.releasePattern) and the mainline pattern (rolling.maint.mainlinePattern): a tag is a release or a mainline tag, not both$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'the other commands refuse such tags too, every time' '
	cd git &&
	git rolling init -q --preset git maint &&
	git config rolling.maint.releasePattern "$TRAP_RELEASE" &&
	git config rolling.maint.mainlinePattern "$TRAP_MAINLINE" &&
	test_expect_code 128 git rolling advance --dry-run maint >out 2>err &&
	grep "^fatal: tag .v1.9.0. (and others) matches both the release pattern (rolling.maint.releasePattern) and the mainline pattern" err &&
	test_expect_code 128 git rolling status maint >out 2>err &&
	grep "^fatal: tag .v1.9.0. (and others) matches both" err &&
	test_expect_code 128 git rolling verify --release-pattern "$TRAP_RELEASE" \
		--mainline-pattern "$TRAP_MAINLINE" maint >out 2>err &&
	grep "^fatal: tag .v1.9.0. (and others) matches both" err &&
	test_must_fail git rolling describe maint~1 >out 2>err &&
	grep "^fatal: tag .v1.9.0. (and others) matches both" err
'

test_expect_success 'a single tag matching both is named' '
	cd python &&
	test_expect_code 128 git rolling init --preset python \
		--release-pattern "v(?<major>3)\.(?<minor>11)\.(?<patch>\d+)(?:rc1)?" maint 2>err &&
	grep "^fatal: tag .v3.11.0rc1. matches both the release pattern (rolling.maint.releasePattern) and the mainline pattern (rolling.maint.mainlinePattern): a tag is a release or a mainline tag, not both$" err
'

# A redis-like repository: 1.3.12 ... 7.2.5 without a leading v, and a few
# old v-tags that the qemu preset reads.  Reading 5 of its tags is no
# reason to start a branch at a 2009 release.  All are tags of one
# commit, so none is newer than another: the newest are all of them, and
# the refusal has nothing to say about them.
test_expect_success 'detection refuses to guess from a few tags' '
	git init -q redis &&
	cd redis &&
	test_commit start &&
	for t in v1.3.0 v1.3.8 v1.3.12 v2.0.0-rc1 v2.0.0-rc2
	do
		git tag $t || return 1
	done &&
	for minor in 2.0 2.2 2.4 2.6 2.8 3.0 3.2 4.0 5.0 6.0 6.2 7.0 7.2
	do
		git tag $minor.0 &&
		git tag $minor.1 &&
		git tag $minor.2 &&
		git tag $minor.3 || return 1
	done &&
	git tag 7.2.4 && git tag 7.2.5 && git tag 8.0-rc1 &&
	git tag -l >tags &&
	test_line_count = 61 tags &&
	snapshot ../before &&
	test_expect_code 128 git rolling init rolling 2>err &&
	grep "^error: no preset reads a clear majority (two thirds) of the version-like tags; of 60 version-like tags the presets read:$" err &&
	grep "^  qemu  *reads 5 of 60: 3 releases in 1 series, 2 mainline tags: stable would start at v1.3.12$" err &&
	! grep "newest" err &&
	grep "^hint: name the scheme with --preset <name>, or with --release-pattern and --mainline-pattern$" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'detection says how many of the version-like tags it reads' '
	cd git &&
	git tag -l >tags &&
	total=$(grep -c "^[A-Za-z_.-]*[0-9]" tags) &&
	read=$(. "$TEST_DIRECTORY"/lib-rolling-schemes.sh &&
		{ scheme_releases_git <tags && scheme_mainline_git <tags; } | wc -l) &&
	test $read -lt $total &&
	git rolling init detect-count >out &&
	grep "^tags read as preset git (reads $read of $total version-like tags: " out
'

# The clear majority is two thirds of the version-like tags, at least:
# at exactly two thirds the preset is taken, one tag more and it is not.
test_expect_success 'two thirds exactly is a clear majority, one version-like tag more is not' '
	cp -R linux third &&
	cd third &&
	git rolling init count >out &&
	git branch -D -q count && git config --remove-section rolling.count &&
	reads=$(sed -n "s/^tags read as preset linux (reads \([0-9]*\) of \([0-9]*\) .*/\1/p" out) &&
	total=$(sed -n "s/^tags read as preset linux (reads \([0-9]*\) of \([0-9]*\) .*/\2/p" out) &&
	edge=$((reads * 3 / 2)) &&
	test $total -le $edge &&
	head=$(git rev-parse HEAD) &&
	n=$total &&
	while test $n -lt $edge
	do
		n=$((n + 1)) &&
		echo "create refs/tags/junk-$n $head" || return 1
	done >../junk-tags &&
	git update-ref --stdin <../junk-tags &&
	git rolling init at-edge >out &&
	grep "^tags read as preset linux (reads $reads of $edge version-like tags" out &&
	git tag junk-0 &&
	test_expect_code 128 git rolling init past-edge 2>err &&
	grep "^error: no preset reads a clear majority (two thirds) of the version-like tags; of $((edge + 1)) version-like tags" err
'

# tagged_history DIR: a repository from "<date> <branch> <tag> <kind>"
# lines on stdin (kind light or annotated), one commit per date and
# branch, in date order, with one fast-import stream.  A branch other
# than master forks at the commit of the tag named like it without
# "-stable" (v255-stable at v255).
tagged_history () {
	git init -q "$1" &&
	sort -n -k1,1 -s |
	awk '
		function commit(date, branch) {
			printf "commit refs/heads/%s\nmark :%d\n", branch, ++mark
			printf "committer Dev <dev@example.org> %d +0000\n", date
			printf "data <<EOT\nwork of %d\nEOT\n", date
			if (branch != "master" && !(branch in started)) {
				base = branch
				sub(/-stable$/, "", base)
				printf "from :%d\n", at[base]
			}
			started[branch] = 1
		}
		$1 != date || $2 != branch { date = $1; branch = $2; commit(date, branch) }
		{ at[$3] = mark }
		$4 == "light" { printf "reset refs/tags/%s\nfrom :%d\n\n", $3, mark }
		$4 == "annotated" {
			printf "tag %s\nfrom :%d\n", $3, mark
			printf "tagger Rel <rel@example.org> %d +0000\n", date + 3600
			printf "data <<EOT\n%s\nEOT\n", $3
		}
	' | git -C "$1" fast-import --quiet &&
	git -C "$1" symbolic-ref HEAD refs/heads/master
}

# The tags of systemd-stable, in their kinds and proportions: 273 of an
# older era that the systemd preset does not read (udev-001 ... udev-182
# from 2003, the first 62 also spelled 001 ..., systemd-v1 ... v14 beside
# v1 ... v14, and 15 like v200-1), and 367 that it reads: v1 ... v255
# from 2010 on, v236-rc1 ... v255-rc3, and the point releases v245.1 ...
# v255.4 on vNNN-stable branches.
systemd_stable_tags () {
	awk '
		BEGIN {
			day = 86400
			for (n = 1; n <= 182; n++) {
				d = 1067644800 + (n - 1) * 16 * day
				printf "%d master udev-%03d light\n", d, n
				if (n <= 62)
					printf "%d master %03d light\n", d, n
			}
			for (n = 1; n <= 255; n++) {
				d = 1270080000 + (n - 1) * 20 * day
				printf "%d master v%d annotated\n", d, n
				if (n <= 14)
					printf "%d master systemd-v%d light\n", d, n
				if (n >= 200 && n < 215)
					printf "%d master v%d-1 light\n", d + 2 * day, n
				for (rc = 1; n >= 236 && rc <= 3; rc++)
					printf "%d master v%d-rc%d annotated\n", d - (4 - rc) * 4 * day, n, rc
				for (k = 1; n >= 245 && k <= (n < 253 ? 5 : 4); k++)
					printf "%d v%d-stable v%d.%d annotated\n", d + k * 7 * day, n, n, k
			}
		}'
}

# 273 of its 640 version-like tags are of an older scheme: no two thirds
# of them are read, but nearly all of the newest are (the vNNN-N are among
# them).
test_expect_success 'systemd-stable: the older era does not hide the systemd scheme' '
	systemd_stable_tags | tagged_history systemd-stable &&
	cd systemd-stable &&
	git tag -l >tags &&
	test_line_count = 640 tags &&
	test $(git tag -l "v[0-9]*" | grep -c -E "^v[0-9]+(-rc[0-9]+|\.[0-9]+)?\$") = 367 &&
	git rolling init --stable r >out &&
	grep "^tags read as preset systemd (reads 367 of 640 version-like tags and 199 of the 214 newest: 52 releases, 315 mainline tags; " out &&
	test "$(git rev-parse r)" = "$(git rev-parse "v255.4^{commit}")" &&
	git rolling init -q --preset systemd --stable explicit &&
	for key in releasePattern mainlinePattern switch policy
	do
		test "$(git config rolling.r.$key)" = "$(git config rolling.explicit.$key)" ||
		return 1
	done &&
	test "$(git config rolling.r.switch)" = first-point-release
'

# The tags of redis, in their kinds and order: 309 version-like ones, of
# which only the oldest ten (v1.3.0 ... v1.3.7, v2.0.0-rc1, -rc2) carry a
# v, read alike by the git and qemu presets; then 1.3.8 ... 7.2.5, with
# candidates 2.2.0-rc1 ... and 7.2-rc1 ..., 3.0.0-beta1 ... and unstable
# 2.9.x, 3.9.1xx, 4.9.1xx; one tag is no version.
redis_tags () {
	awk '
		function tag(name) {
			printf "%d master %s light\n", date, name
			date += 17 * 86400
		}
		function series(s, last, rcs, rc,   k) {
			for (k = 1; k <= rcs; k++)
				tag(s rc k)
			for (k = 0; k <= last; k++)
				tag(s "." k)
		}
		BEGIN {
			date = 1235865600
			for (k = 0; k <= 7; k++)
				tag("v1.3." k)
			for (k = 8; k <= 19; k++)
				tag("1.3." k)
			tag("v2.0.0-rc1"); tag("v2.0.0-rc2")
			series("2.0", 5, 2, ".0-rc")
			tag("with-deprecated-diskstore")
			series("2.2", 15, 4, ".0-rc")
			series("2.4", 18, 8, ".0-rc")
			series("2.6", 17, 8, ".0-rc")
			series("2.8", 24, 6, ".0-rc")
			series("2.9", 11, 0, "")
			for (k = 1; k <= 8; k++)
				tag("3.0.0-beta" k)
			series("3.0", 7, 6, ".0-rc")
			series("3.2", 13, 3, ".0-rc")
			for (k = 101; k <= 108; k++)
				tag("3.9." k)
			series("4.0", 14, 3, "-rc")
			for (k = 101; k <= 106; k++)
				tag("4.9." k)
			series("5.0", 14, 6, "-rc")
			series("6.0", 20, 4, "-rc")
			series("6.2", 14, 3, "-rc")
			series("7.0", 15, 3, "-rc")
			series("7.2", 5, 3, "-rc")
		}'
}

# The few tags a preset reads are redis's oldest: a coincidence, whether
# two presets read them or one alone.
test_expect_success 'redis: the oldest tags read by a preset are no scheme' '
	redis_tags | tagged_history redis-dated &&
	cd redis-dated &&
	git tag -l >tags &&
	test_line_count = 310 tags &&
	snapshot ../before &&
	test_expect_code 128 git rolling init rolling 2>err &&
	grep "^error: no preset reads a clear majority (two thirds) of the version-like tags; of 309 version-like tags the presets read:$" err &&
	grep "^  git  *reads 10 of 309: 8 releases in [0-9]* series, 2 mainline tags: stable would start at v1\.3\.7$" err &&
	grep "^  qemu  *reads 10 of 309: 8 releases in 1 series, 2 mainline tags: stable would start at v1\.3\.7$" err &&
	grep "^hint: nor does any read two thirds of the 103 newest, which would leave the rest to an older scheme: [a-z]* reads 0 of them$" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&
	git tag v0.9.0 v1.3.0 &&
	snapshot ../before &&
	test_expect_code 128 git rolling init rolling 2>err &&
	grep "^error: no preset reads a clear majority (two thirds) of the version-like tags; of 310 version-like tags the presets read:$" err &&
	grep "^  qemu  *reads 11 of 310: 9 releases in 2 series, 2 mainline tags: stable would start at v1\.3\.7$" err &&
	grep "^  git  *reads 10 of 310: " err &&
	grep "^hint: nor does any read two thirds of the 104 newest, which would leave the rest to an older scheme: qemu reads 0 of them$" err &&
	grep "^fatal: cannot tell the tag scheme; nothing created$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_done
