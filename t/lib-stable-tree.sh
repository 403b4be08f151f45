# lib-stable-tree.sh - fixture repositories shaped like stable-release
# trees (Linux-style and systemd-style).  Source it after test-lib.sh.
#
# Tests build these many times, so the whole history is written by one
# `git fast-import` stream produced with shell builtins only (no process
# per commit), and every date is computed, so a given call always yields
# the same object ids.
#
#   stable_tree_linux DIR      mainline "master", branches linux-X.Y.y,
#                              tags vX.Y-rcN, vX.Y, vX.Y.N (and, for a
#                              version 2.6.X, v2.6.X-rcN, v2.6.X, v2.6.X.N)
#   stable_tree_systemd DIR    mainline "master", branches vN-stable,
#                              tags vN-rcN, vN, vN.M
#   stable_tree_git DIR        branches maint-X.Y, tags vX.Y.0-rc0..rc2,
#                              vX.Y.0, vX.Y.N (1.8.5: v1.8.5-rc0, v1.8.5.N)
#   stable_tree_qemu DIR       branches stable-X.Y, tags vX.Y.0-rc0..rc3,
#                              vX.Y.0, vX.Y.N
#   stable_tree_python DIR     branches X.Y, tags vX.Y.0a1, a2, b1, b2, rc1,
#                              vX.Y.0, vX.Y.N (2.x: v2.7a1 ..., v2.7)
#   stable_tree_postgresql DIR branches REL_N_STABLE, tags REL_N_BETA1..3,
#                              REL_N_RC1, REL_N_0, REL_N_M (9.6: REL9_6_*)
#   stable_tree_replay DIR WEEK   leave only the tags of weeks <= WEEK
#                                 (and the look-alike tags)
#   stable_tree_weeks DIR      print the last week of the time line
#   stable_tree_week_of DIR TAG   print the week TAG was released in
#
# Knobs (read when a tree is generated):
#   STABLE_MAINLINE        Linux mainline versions, oldest first
#                          (default "5.19 6.0 6.1 6.2 6.3 6.4 6.5 6.6 6.7 6.8")
#   STABLE_LTS             Linux series released until the end of the time
#                          line (default "5.19 6.1 6.6"; empty: none)
#   SYSTEMD_MAINLINE       systemd versions (default "253 254 255 256 257")
#   SYSTEMD_LTS            systemd long-lived series (default: none)
#   GIT_MAINLINE, QEMU_MAINLINE, PYTHON_MAINLINE, POSTGRESQL_MAINLINE
#                          the versions of those schemes (defaults below)
#   A version written VERSION:N in any of these lists gets at most N
#   point releases (VERSION:0, none at all: many of git's feature
#   releases never get a .1); VERSION:N/K releases them every K weeks
#   instead of every week.
#   STABLE_COMMITS_PER_WEEK  mainline commits per week (default 3)
#   STABLE_LIGHTWEIGHT_TAGS  1: lightweight release tags (default annotated)
#   STABLE_SIGNED_TAGS     1: sign every release and mainline tag with a
#                          throwaway SSH key (made with ssh-keygen on first
#                          use, $STABLE_SIGNING_KEY, by default in the trash
#                          directory) and set up the tree so that `git
#                          verify-tag` accepts them (gpg.format=ssh,
#                          user.signingKey, gpg.ssh.allowedSignersFile);
#                          overrides STABLE_LIGHTWEIGHT_TAGS
#   STABLE_TAIL_WEEKS      weeks after the last mainline release (default 4)
#   STABLE_CYCLE_WEEKS     weeks from one final to the next (default: the
#                          scheme's pre-releases and two; git's own
#                          cadence is about 12): the merge window
#                          takes the weeks the pre-releases leave
#   STABLE_REF_FORMAT      files: keep the tree's refs in files (loose
#                          refs, packed-refs, logs/) whatever git's default,
#                          for the tests about that format's files
#                          (test_ref_format_files); default: git's
#
# Each week of the time line gets, in this order: the mainline commits,
# one release of every live stable series (1-3 backports, then a commit
# bumping the version file, tagged), then the mainline tag commit if one
# is due.  A mainline cycle is a two-week merge window closed by rc1,
# one rc per week, and the final one week after the last rc.  A stable
# series forks at its final, releases weekly from the next week, and
# stops three weeks after the next final (LTS series never stop).
#
# DIR/.git/stable-timeline has one line per release tag, oldest first:
#   <week> <tag> <tag-object-id, or commit id if lightweight> <commit-id>
# DIR/.git/stable-lookalikes has the same format, week 0, for the tags
# that look like releases but are not.

. "${TEST_DIRECTORY:-$(dirname "$0")}"/lib-sign-tags.sh

# git fast-import frees and reallocates a buffer per object, and glibc
# hands the top of the heap back to the kernel each time: four brk calls
# per object, ~100 us each on the virtual machines the suite runs on
# (17,000 blobs: 47 s instead of 0.3 s).  A top pad keeps the heap.
STABLE_TOP_PAD=4194304

STABLE_EPOCH_=1640995200	# 2022-01-01 00:00:00 UTC, start of week 1
STABLE_WEEK_=604800

# --- the Linux scheme ----------------------------------------------------

st_linux_setup_ () {
	st_rcs=7
	st_dir=drivers
	st_boss='Linus T <torvalds@example.org> -0700'
	st_maint='Greg KH <gregkh@example.org> +0100'
}

# st_linux_name_ KIND VERSION [N]: set $st_tag (a ref name) and $st_title.
# Results go through variables because $(...) would fork per commit.
st_linux_name_ () {
	case $1 in
	rc) st_tag=v$2-rc$3 ;;
	final) st_tag=v$2 ;;
	stable) st_tag=v$2.$3 ;;
	branch) st_tag=linux-$2.y ;;
	esac
	st_title="Linux ${st_tag#v}"
}

# st_linux_version_file_ KIND VERSION [N]: emit the top-level Makefile.
st_linux_version_file_ () {
	st_v=$2 st_sub=0 st_extra=
	case $1 in
	init) st_v=0.0 ;;
	rc) st_extra=" -rc$3" ;;
	stable) st_sub=$3 ;;
	esac
	# 2.6.X: SUBLEVEL is X, and a stable release is EXTRAVERSION .N
	case $st_v in
	*.*.*)
		st_extra=${st_extra:-${st_sub#0}}
		test "$st_sub" = 0 || st_extra=.$st_sub
		st_sub=${st_v##*.} st_v=${st_v%.*} ;;
	esac
	printf 'M 100644 inline Makefile\ndata <<EOT\n# SPDX-License-Identifier: GPL-2.0\nVERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =%s\nNAME = Fixture Sloth\nEOT\n' \
		"${st_v%%.*}" "${st_v#*.}" "$st_sub" "$st_extra"
}

# Tags and branches that only look like releases.  Lines: KIND NAME
# ANCHOR; anchors that do not exist (custom version lists) are skipped.
st_linux_lookalikes_ () {
	echo "annotated v5.5-test v$1-rc1^"
	echo "light next-20240101 master"
	echo "annotated v6.6.4-rc1 v6.6.4^"
	echo "branch v6.6.y-queue linux-6.6.y"
}

# --- the systemd scheme --------------------------------------------------

st_systemd_setup_ () {
	st_rcs=3
	st_dir=src/core
	st_boss='Lennart P <lennart@example.org> +0100'
	st_maint='Luca B <bluca@example.org> +0000'
}

st_systemd_name_ () {
	case $1 in
	rc) st_tag=v$2-rc$3 ;;
	final) st_tag=v$2 ;;
	stable) st_tag=v$2.$3 ;;
	branch) st_tag=v$2-stable ;;
	esac
	st_title="systemd ${st_tag#v}"
}

st_systemd_version_file_ () {
	case $1 in
	init) st_v=0 ;;
	rc) st_v=$2~rc$3 ;;
	final) st_v=$2 ;;
	stable) st_v=$2.$3 ;;
	esac
	printf 'M 100644 inline meson.version\ndata <<EOT\n%s\nEOT\n' "$st_v"
}

st_systemd_lookalikes_ () {
	echo "light v255-test v255-rc2^"
	echo "annotated systemd-255.3 v255.3"
}

# --- the git scheme ------------------------------------------------------

st_git_setup_ () {
	st_rcs=3
	st_dir=builtin
	st_boss='Junio C Hamano <gitster@example.org> -0800'
	st_maint='Junio C Hamano <gitster@example.org> -0700'
}

# Feature releases are vX.Y.0 with candidates from rc0; before 1.9 a
# feature release had three numbers and its maintenance releases four.
st_git_name_ () {
	case $2 in
	1.[0-8].*) st_base=v$2 ;;
	*) st_base=v$2.0 ;;
	esac
	case $1 in
	rc) st_tag=$st_base-rc$(($3 - 1)) ;;
	final) st_tag=$st_base ;;
	stable) st_tag=v$2.$3 ;;
	branch) st_tag=maint-$2 ;;
	esac
	st_title="Git ${st_tag#v}"
}

st_git_version_file_ () {
	st_v=${st_tag:-v0.0.0}
	test "$1" = init && st_v=v0.0.0
	printf 'M 100644 inline GIT-VERSION-GEN\ndata <<EOT\nDEF_VER=%s\nEOT\n' "$st_v"
}

st_git_lookalikes_ () {
	echo "light gitgui-0.19.0 master"
	echo "annotated v2.1.1-rc0 v2.1.1^"
	echo "annotated v2.1.0.1 v2.1.1"
}

# --- the qemu scheme -----------------------------------------------------

st_qemu_setup_ () {
	st_rcs=4
	st_dir=hw
	st_boss='Peter M <pm@example.org> +0000'
	st_maint='Michael T <mjt@example.org> +0300'
}

st_qemu_name_ () {
	case $1 in
	rc) st_tag=v$2.0-rc$(($3 - 1)) ;;
	final) st_tag=v$2.0 ;;
	stable) st_tag=v$2.$3 ;;
	branch) st_tag=stable-$2 ;;
	esac
	st_title="Update version for ${st_tag#v} release"
}

st_qemu_version_file_ () {
	st_v=${st_tag#v}
	test "$1" = init && st_v=0.0.0
	printf 'M 100644 inline VERSION\ndata <<EOT\n%s\nEOT\n' "$st_v"
}

# QEMU's occasional four-number release is not read by the preset.
st_qemu_lookalikes_ () {
	echo "annotated v8.1.2.1 v8.1.2"
	echo "light v8.2 master"
}

# --- the CPython scheme --------------------------------------------------

st_python_setup_ () {
	st_rcs=5
	st_dir=Objects
	st_boss='Thomas W <thomas@example.org> +0100'
	st_maint='Pablo G <pablogsal@example.org> +0000'
}

# Pre-releases a1 a2 b1 b2 rc1; finals of 2.x had no ".0".
st_python_name_ () {
	case $2 in
	2.*) st_base=v$2 ;;
	*) st_base=v$2.0 ;;
	esac
	case $1 in
	rc)
		if test $3 -le 2; then st_tag=${st_base}a$3
		elif test $3 -le 4; then st_tag=${st_base}b$(($3 - 2))
		else st_tag=${st_base}rc$(($3 - 4))
		fi ;;
	final) st_tag=$st_base ;;
	stable) st_tag=v$2.$3 ;;
	branch) st_tag=$2 ;;
	esac
	st_title="Python ${st_tag#v}"
}

st_python_version_file_ () {
	st_v=${st_tag#v}
	test "$1" = init && st_v=0.0
	printf 'M 100644 inline Include/patchlevel.h\ndata <<EOT\n#define PY_VERSION "%s"\nEOT\n' "$st_v"
}

# Release candidates of maintenance releases are not read.
st_python_lookalikes_ () {
	echo "annotated v3.12.1rc1 v3.12.1^"
	echo "light legacy-trunk master"
}

# --- the PostgreSQL scheme -----------------------------------------------

st_postgresql_setup_ () {
	st_rcs=4
	st_dir=src/backend
	st_boss='Tom L <tgl@example.org> -0500'
	st_maint='Tom L <tgl@example.org> -0400'
}

# REL_16_BETA1..3, REL_16_RC1, REL_16_0, REL_16_1; before 10 REL9_6_*.
st_postgresql_name_ () {
	case $2 in
	*.*) st_base=REL${2%%.*}_${2#*.} ;;
	*) st_base=REL_$2 ;;
	esac
	case $1 in
	rc)
		if test $3 -le 3; then st_tag=${st_base}_BETA$3
		else st_tag=${st_base}_RC$(($3 - 3))
		fi ;;
	final) st_tag=${st_base}_0 ;;
	stable) st_tag=${st_base}_$3 ;;
	branch) st_tag=${st_base}_STABLE ;;
	esac
	st_title="Stamp $st_tag."
}

st_postgresql_version_file_ () {
	st_v=$st_tag
	test "$1" = init && st_v=none
	printf 'M 100644 inline configure.ac\ndata <<EOT\nAC_INIT([PostgreSQL], [%s])\nEOT\n' "$st_v"
}

st_postgresql_lookalikes_ () {
	echo "annotated REL_11_1_TEST REL_11_1"
	echo "light PG95-1_01 master"
}

# --- public entry points -------------------------------------------------

stable_tree_linux () {
	stable_tree_generate_ "$1" st_linux_ \
		"${STABLE_MAINLINE:-5.19 6.0 6.1 6.2 6.3 6.4 6.5 6.6 6.7 6.8}" \
		"${STABLE_LTS-5.19 6.1 6.6}"
}

stable_tree_systemd () {
	stable_tree_generate_ "$1" st_systemd_ \
		"${SYSTEMD_MAINLINE:-253 254 255 256 257}" "${SYSTEMD_LTS-}"
}

stable_tree_git () {
	stable_tree_generate_ "$1" st_git_ "${GIT_MAINLINE:-1.8.5 1.9:0 2.0 2.1:0 2.2:2/2 2.3}" ""
}

stable_tree_qemu () {
	stable_tree_generate_ "$1" st_qemu_ "${QEMU_MAINLINE:-0.15 1.7 8.0:0 8.1 8.2:2/2}" ""
}

stable_tree_python () {
	stable_tree_generate_ "$1" st_python_ "${PYTHON_MAINLINE:-2.7 3.11:0 3.12:3/2 3.13}" ""
}

stable_tree_postgresql () {
	stable_tree_generate_ "$1" st_postgresql_ "${POSTGRESQL_MAINLINE:-9.5 9.6 10:0 11 12}" ""
}

# stable_tree_replay DIR WEEK: one ref transaction that deletes every tag
# not released by WEEK and creates every tag that was and is missing (or
# points elsewhere); the tags already right are left alone.
stable_tree_replay () {
	git -C "$1" for-each-ref --format='%(refname) %(objectname)' refs/tags |
	awk -v week="$2" '
		FILENAME == "-" { have[$1] = $2; next }
		$1 + 0 <= week + 0 {
			ref = "refs/tags/" $2
			want[ref] = 1
			if (have[ref] != $3)
				print "update " ref " " $3
		}
		END { for (ref in have) if (!(ref in want)) print "delete " ref }
	' - "$1/.git/stable-timeline" "$1/.git/stable-lookalikes" |
	git -C "$1" update-ref --stdin
}

stable_tree_weeks () {
	sed -n '$s/ .*//p' "$1/.git/stable-timeline"
}

stable_tree_week_of () {
	awk -v tag="$2" '$2 == tag { print $1 }' "$1/.git/stable-timeline"
}

# --- the cache of generated trees ----------------------------------------
#
# Many scripts generate the same trees, and the scripts run in parallel.
# A generated tree is kept in $STABLE_TREE_CACHE (default
# t/.fixture-cache; `make test` gives every run a new one), under a
# key made of everything the generator reads: its own source, git's
# version and the formats it gives new repositories, the global configuration, the scheme and every knob above (and
# the signing key, when it exists already).  A request copies the cached
# .git and checks out its work tree, as the generator's last step does,
# so a copy cannot be told from a tree generated in place.  Entries are
# written under a lock and published by rename, so parallel scripts
# generate each tree once and never see half of one.
# STABLE_TREE_CACHE=none generates every tree in place.

stable_tree_cache_dir_ () {
	case ${STABLE_TREE_CACHE:=$TEST_DIRECTORY/.fixture-cache} in
	none) return 1 ;;
	esac
	mkdir -p "$STABLE_TREE_CACHE"
}

# stable_tree_key_inputs_: what every key of this script's entries
# reads and cannot change during the script (the generator's source,
# git's version and defaults), asked once; the keys themselves are
# computed in subshells, which would forget it.
stable_tree_key_inputs_ () {
	test -z "$stable_tree_source_" || return 0
	stable_tree_source_=$(cat "$TEST_DIRECTORY/lib-stable-tree.sh" \
		"$TEST_DIRECTORY/lib-sign-tags.sh" | git hash-object --stdin) &&
	# A build with Git 3.0's defaults makes reftable repositories.
	stable_tree_git_=$(git --version &&
		{ git version --build-options 2>/dev/null | grep "^default-" || :; })
}

# stable_tree_cache_key_ SCHEME MAINLINE LTS KEYFILE: print the key.
stable_tree_cache_key_ () {
	{
		echo "generator $stable_tree_source_" &&
		echo "$stable_tree_git_" &&
		echo "formats ${GIT_DEFAULT_REF_FORMAT:-} ${GIT_DEFAULT_HASH:-}" &&
		echo "scheme $1" &&
		echo "mainline $2" &&
		echo "lts $3" &&
		echo "per-week ${STABLE_COMMITS_PER_WEEK:-3}" &&
		echo "tail ${STABLE_TAIL_WEEKS:-4}" &&
		echo "ref-format $(stable_ref_format_)" &&
		echo "cycle ${STABLE_CYCLE_WEEKS:-}" &&
		echo "lightweight ${STABLE_LIGHTWEIGHT_TAGS:-0}" &&
		echo "signed ${STABLE_SIGNED_TAGS:-0}" &&
		if test "${STABLE_SIGNED_TAGS:-0}" = 1 && test -f "$4.pub"
		then
			cat "$4.pub"
		fi &&
		cat "$HOME/.gitconfig" 2>/dev/null
		:
	} | git hash-object --stdin
}

# stable_tree_copy_ ENTRY DIR KEYFILE: DIR from the cached ENTRY.  A
# signed tree's configuration names KEYFILE, made from the entry's own
# key when it does not exist yet.
stable_tree_copy_ () {
	mkdir "$2" &&
	cp -R "$1/.git" "$2/.git" &&
	if test "${STABLE_SIGNED_TAGS:-0}" = 1
	then
		if ! test -f "$3"
		then
			cp "$1/signing.key" "$3" &&
			cp "$1/signing.key.pub" "$3.pub"
		fi &&
		echo "release-signer@example.org $(cat "$3.pub")" >"$3.allowed-signers" &&
		stable_tree_signing_config_ "$2" "$3"
	fi &&
	git -C "$2" reset -q --hard
}

# stable_tree_signing_config_ DIR KEYFILE: DIR's repository signs with
# KEYFILE and verifies with its allowed signers: paths in this script's
# trash directory, which a cached repository must not bring from the
# script that made it.
stable_tree_signing_config_ () {
	git -C "$1" config user.signingKey "$2" &&
	git -C "$1" config gpg.ssh.allowedSignersFile "$2.allowed-signers"
}

# stable_tree_history DIR NAME KEY MAKE [ARG...]: run MAKE ARG... to grow
# a history on the tree generated in DIR (branches, merges, configuration
# in DIR/.git), or copy what it made from the fixture cache.  Many
# scripts grow the same history, one git rolling command a week: the
# first of a run to ask makes it, under a lock, the others copy its
# .git.  The entry's key is made of NAME and KEY (what MAKE is asked
# for) and all else the history depends on: the tree's refs, format and
# time line, the test libraries, the git-rolling programs that run (byte
# for byte), git's version, the global configuration and the valgrind
# switch.  A copy gets this script's signing paths.
stable_tree_history () {
	sth_dir=$1 sth_name=$2 sth_key=$3
	shift 3
	if ! stable_tree_cache_dir_
	then
		"$@"
		return
	fi
	stable_tree_key_inputs_ &&
	sth_entry=$STABLE_TREE_CACHE/$sth_name-$(stable_tree_history_key_) &&
	sth_made=$sth_entry.made-by.$$ &&
	stable_tree_cache_publish_ "$sth_entry" stable_tree_history_fill_ "$@" &&
	if test -f "$sth_made"
	then
		rm -f "$sth_made"
	else
		rm -rf "$sth_dir/.git" &&
		cp -R "$sth_entry/.git" "$sth_dir/.git" &&
		if test "${STABLE_SIGNED_TAGS:-0}" = 1
		then
			stable_tree_signing_config_ "$sth_dir" \
				"${STABLE_SIGNING_KEY:-${TRASH_DIRECTORY:-$sth_dir/.git}/stable-signing.key}"
		fi &&
		git -C "$sth_dir" reset -q --hard
	fi
}

# stable_tree_history_fill_ DIR MAKE [ARG...]: grow the history in place
# (and say so in $sth_made: this runs in a subshell), then copy its .git
# into DIR.
stable_tree_history_fill_ () {
	sthf_fill=$1 &&
	shift &&
	"$@" &&
	: >"$sth_made" &&
	cp -R "$sth_dir/.git" "$sthf_fill/.git"
}

stable_tree_history_key_ () {
	{
		echo "$sth_name $sth_key" &&
		echo "ref-format $(test_ref_format "$sth_dir")" &&
		git -C "$sth_dir" for-each-ref &&
		cat "$sth_dir/.git/stable-timeline" "$TEST_DIRECTORY"/lib-*.sh &&
		git hash-object "$GIT_ROLLING_BUILD_DIR"/git-rolling* &&
		echo "$stable_tree_git_" &&
		echo "valgrind ${GIT_ROLLING_TEST_VALGRIND:-}" &&
		cat "$HOME/.gitconfig" 2>/dev/null
		:
	} | git hash-object --stdin
}

# stable_tree_generate_ DIR SCHEME MAINLINE LTS: DIR from the cache,
# made and cached first if it is not there.
stable_tree_generate_ () {
	st_key_file=${STABLE_SIGNING_KEY:-${TRASH_DIRECTORY:-$1/.git}/stable-signing.key}
	if ! stable_tree_cache_dir_
	then
		STABLE_SIGNING_KEY=$st_key_file stable_tree_make_ "$@"
		return
	fi
	stable_tree_key_inputs_ &&
	st_cache_key=$(stable_tree_cache_key_ "$2" "$3" "$4" "$st_key_file") &&
	st_entry=$STABLE_TREE_CACHE/$st_cache_key &&
	if ! test -d "$st_entry"
	then
		stable_tree_cache_publish_ "$st_entry" stable_tree_fill_ "$st_key_file" "$2" "$3" "$4"
	fi &&
	stable_tree_copy_ "$st_entry" "$1" "$st_key_file"
}

# stable_tree_cache_publish_ ENTRY FILL [ARG...]: unless ENTRY exists,
# run FILL DIR [ARG...] to fill an empty scratch directory DIR (with a
# .git) and publish it as ENTRY, under a lock so that a script waiting
# for another's entry does not make it again.  FILL runs in a subshell.
stable_tree_cache_publish_ () {
	(
		stcp_entry=$1 stcp_do=$2 stcp_fill=$1.tmp.$$ &&
		shift 2 &&
		if command -v flock >/dev/null 2>&1
		then
			exec 8>>"$stcp_entry.lock" &&
			flock 8
		fi &&
		if test -d "$stcp_entry"
		then
			exit 0
		fi &&
		rm -rf "$stcp_fill" &&
		mkdir "$stcp_fill" &&
		"$stcp_do" "$stcp_fill" "$@" &&
		if ! mv -T "$stcp_fill" "$stcp_entry" 2>/dev/null
		then
			# Made by a script that could not take the lock.
			rm -rf "$stcp_fill" &&
			test -d "$stcp_entry"
		fi
	)
}

# stable_tree_fill_ DIR KEYFILE SCHEME MAINLINE LTS: the tree's .git in
# DIR.  A signing key that does not exist yet is made in DIR.
stable_tree_fill_ () {
	st_fill=$1 st_key=$2 &&
	if test "${STABLE_SIGNED_TAGS:-0}" = 1 && ! test -f "$st_key"
	then
		st_key=$st_fill/signing.key
	fi &&
	STABLE_SIGNING_KEY=$st_key stable_tree_make_ "$st_fill/tree" "$3" "$4" "$5" &&
	mv "$st_fill/tree/.git" "$st_fill/.git" &&
	rm -rf "$st_fill/tree"
}

# --- the shared generator ------------------------------------------------

# stable_tree_make_ DIR SCHEME MAINLINE LTS: generate the tree in DIR.
stable_tree_make_ () {
	st_repo=$1 st_p=$2 st_lts=" $4 "
	st_per_week=${STABLE_COMMITS_PER_WEEK:-3}
	st_light=${STABLE_LIGHTWEIGHT_TAGS:-0}
	st_signed=${STABLE_SIGNED_TAGS:-0}
	test "$st_signed" != 1 || st_light=0
	"${st_p}setup_"
	set -- $3
	st_n=$# st_first=${1%%:*}
	st_cycle=${STABLE_CYCLE_WEEKS:-$((st_rcs + 2))}
	test $st_cycle -ge $((st_rcs + 2)) || st_cycle=$((st_rcs + 2))
	st_window=$((st_cycle - st_rcs - 1))
	st_weeks=$((st_n * st_cycle + ${STABLE_TAIL_WEEKS:-4}))
	# Spread a week's commits over the week; the spare slots are for
	# stable releases.  stable_week_ keeps dates increasing regardless.
	st_step=$((STABLE_WEEK_ / (st_per_week + 48)))

	st_ref_format=$(stable_ref_format_option_) &&
	git init -q -b master $st_ref_format "$st_repo" &&
	{
		stable_stream_ "$@" 3>"$st_repo/.git/stable-events" &&
		echo done
	} | MALLOC_TOP_PAD_=$STABLE_TOP_PAD git -C "$st_repo" fast-import --quiet --done \
		--active-branches=64 &&
	stable_sign_tags_ &&
	stable_lookalikes_ &&
	stable_write_timeline_ &&
	# The tags packed, as a clone leaves them: a command reads 350 loose
	# tags ~10 ms slower.  t3201 and t3501 write loose and lying ones.
	git -C "$st_repo" pack-refs &&
	git -C "$st_repo" reset -q --hard
}

# stable_ref_format_: the ref format of the trees made now, for the cache
# key: STABLE_REF_FORMAT, else that of the repositories git makes (the
# trash directory's), so that a tree pinned to files and one made in
# files by default are one entry.  A git before 2.45 prints the option
# it does not know back: files is all it has.
stable_ref_format_ () {
	case ${STABLE_REF_FORMAT:-$(git -C "${TRASH_DIRECTORY:-.}" rev-parse --show-ref-format 2>/dev/null)} in
	reftable) echo reftable ;;
	*) echo files ;;
	esac
}

# stable_ref_format_option_: git init's option for STABLE_REF_FORMAT.
stable_ref_format_option_ () {
	case ${STABLE_REF_FORMAT:-} in
	'') ;;
	files) test_ref_format_files ;;
	*) echo "STABLE_REF_FORMAT=$STABLE_REF_FORMAT: only files can be asked for" >&2
	   return 1 ;;
	esac
}

# stable_stream_ VERSION...: the fast-import stream on stdout, and
# "<week> <tag>" lines on fd 3 in release order.
stable_stream_ () {
	st_now=$STABLE_EPOCH_ st_mark=0 st_count=0
	# Per-series state lives in st_<field>_<index> variables.
	st_i=0
	for st_ver
	do
		st_cap= st_every=1
		case $st_ver in
		*:*/*) st_every=${st_ver##*/} st_cap=${st_ver#*:} st_cap=${st_cap%/*} ;;
		*:*) st_cap=${st_ver#*:} ;;
		esac
		st_ver=${st_ver%%:*}
		st_final=$(((st_i + 1) * st_cycle))
		st_end=$((st_final + st_cycle + 3))
		case $st_lts in *" $st_ver "*) st_end=$st_weeks ;; esac
		test -z "$st_cap" || test $st_end -le $((st_final + st_cap * st_every)) ||
			st_end=$((st_final + st_cap * st_every))
		test $st_end -le $st_weeks || st_end=$st_weeks
		eval "st_ver_$st_i=\$st_ver st_final_$st_i=$st_final st_end_$st_i=$st_end st_every_$st_i=$st_every st_n_$st_i=0"
		st_i=$((st_i + 1))
	done

	stable_commit_ master "$st_boss" "$st_boss" "Initial commit" &&
	printf 'M 100644 inline README\ndata <<EOT\nA fixture tree for git-rolling tests.\nEOT\n' &&
	"${st_p}version_file_" init || return 1

	st_w=1
	while test $st_w -le $st_weeks
	do
		stable_week_ || return 1
		st_w=$((st_w + 1))
	done
}

stable_week_ () {
	st_start=$((STABLE_EPOCH_ + (st_w - 1) * STABLE_WEEK_))
	test $st_now -ge $st_start || st_now=$st_start

	st_j=0
	while test $st_j -lt $st_per_week
	do
		stable_change_ master "$st_boss" "" || return 1
		st_j=$((st_j + 1))
	done

	st_k=0
	while test $st_k -lt $st_n
	do
		eval "st_final=\$st_final_$st_k st_end=\$st_end_$st_k st_every=\$st_every_$st_k"
		if test $st_final -lt $st_w && test $st_w -le $st_end &&
		   test $(((st_w - st_final) % st_every)) = 0
		then
			eval "st_n_$st_k=\$((st_n_$st_k + 1)) st_nth=\$st_n_$st_k"
			stable_release_ $st_k $st_nth || return 1
		fi
		st_k=$((st_k + 1))
	done

	# Which mainline tag, if any, closes this week?
	st_k=$(((st_w - 1) / st_cycle))
	st_q=$(((st_w - 1) % st_cycle - st_window + 1))
	test $st_k -lt $st_n && test $st_q -ge 1 || return 0
	eval "st_ver=\$st_ver_$st_k"
	if test $st_q -le $st_rcs
	then
		stable_tag_commit_ master "$st_boss" rc "$st_ver" $st_q
	else
		stable_tag_commit_ master "$st_boss" final "$st_ver" &&
		eval "st_fork_$st_k=$st_mark"
	fi
}

# stable_release_ SERIES N: backports, then the release commit and tag.
stable_release_ () {
	eval "st_ver=\$st_ver_$1 st_from=\$st_fork_$1"
	"${st_p}name_" branch "$st_ver"
	st_branch=$st_tag
	st_j=$((1 + ($1 + $2) % 3))
	while test $st_j -gt 0
	do
		stable_change_ "$st_branch" "$st_maint" "$st_from" || return 1
		st_from=
		st_j=$((st_j - 1))
	done
	eval "st_fork_$1="
	# Every other release is made while travelling, so that the release
	# dates that rolling merges copy carry time zones of both signs.
	st_releaser=$st_maint
	test $(($2 % 2)) = 0 && st_releaser="${st_maint% *} -0330"
	stable_tag_commit_ "$st_branch" "$st_releaser" stable "$st_ver" $2
}

# stable_change_ BRANCH COMMITTER FROM-MARK: an ordinary commit touching
# one source file; authors rotate so identities and time zones vary.
stable_change_ () {
	st_count=$((st_count + 1))
	case $((st_count % 4)) in
	0) st_author='Ada Lovelace <ada@example.com> +0100' ;;
	1) st_author='Bob Builder <bob@example.net> -0700' ;;
	2) st_author='Chandra Rao <chandra@example.in> +0530' ;;
	3) st_author='Stable Dev <stable@example.org> +0000' ;;
	esac
	st_file=$st_dir/$((st_count % 50)).c
	stable_commit_ "$1" "$st_author" "$2" "$st_file: change $st_count" "$3" &&
	printf 'M 100644 inline %s\ndata <<EOT\n/* change %d on %s */\nEOT\n' \
		"$st_file" $st_count "$1"
}

# stable_tag_commit_ BRANCH WHO KIND VERSION [N]: the commit that bumps
# the version file, and its tag.
stable_tag_commit_ () {
	"${st_p}name_" "$3" "$4" "$5"
	stable_commit_ "$1" "$2" "$2" "$st_title" "" &&
	"${st_p}version_file_" "$3" "$4" "$5" || return 1
	if test "$st_light" = 1
	then
		printf 'reset refs/tags/%s\nfrom :%d\n\n' "$st_tag" $st_mark
	else
		printf 'tag %s\nfrom :%d\ntagger %s %d %s\ndata <<EOT\n%s\nEOT\n' \
			"$st_tag" $st_mark "${2% *}" $st_now "${2##* }" "$st_title"
	fi
	echo "$st_w $st_tag" >&3
}

# stable_commit_ BRANCH AUTHOR COMMITTER SUBJECT [FROM-MARK]: a commit
# header one step later than the previous commit.  Without FROM-MARK
# fast-import continues the branch from its current tip.
stable_commit_ () {
	st_now=$((st_now + st_step))
	st_mark=$((st_mark + 1))
	printf 'commit refs/heads/%s\nmark :%d\nauthor %s %d %s\ncommitter %s %d %s\ndata <<EOT\n%s\nEOT\n' \
		"$1" $st_mark "${2% *}" $st_now "${2##* }" \
		"${3% *}" $st_now "${3##* }" "$4"
	test -z "$5" || printf 'from :%d\n' "$5"
}

# Add the look-alikes on top of the imported history, dated after the
# end of the time line: resolve all anchors with one cat-file, then feed
# a second, small fast-import stream.
stable_lookalikes_ () {
	"${st_p}lookalikes_" "$st_first" >"$st_repo/.git/stable-lookalikes.spec" &&
	awk '{ print $3 "^{commit}" }' "$st_repo/.git/stable-lookalikes.spec" |
	git -C "$st_repo" cat-file --batch-check='%(objectname) %(objecttype)' |
	paste -d' ' "$st_repo/.git/stable-lookalikes.spec" - |
	{
		st_now=$((STABLE_EPOCH_ + st_weeks * STABLE_WEEK_))
		while read st_kind st_name st_anchor st_oid st_type
		do
			test "$st_type" = commit || continue
			st_now=$((st_now + 3600))
			case $st_kind in
			light)
				printf 'reset refs/tags/%s\nfrom %s\n\n' "$st_name" "$st_oid" ;;
			annotated)
				printf 'tag %s\nfrom %s\ntagger %s %d %s\ndata <<EOT\nnot a release: %s\nEOT\n' \
					"$st_name" "$st_oid" "${st_maint% *}" $st_now \
					"${st_maint##* }" "$st_name" ;;
			branch)
				printf 'commit refs/heads/%s\ncommitter %s %d %s\ndata <<EOT\nqueue: pending fix\nEOT\nfrom %s\nM 100644 inline %s/queued.c\ndata <<EOT\n/* queued */\nEOT\n' \
					"$st_name" "${st_maint% *}" $st_now "${st_maint##* }" \
					"$st_oid" "$st_dir" ;;
			esac
		done
		echo done
	} | MALLOC_TOP_PAD_=$STABLE_TOP_PAD git -C "$st_repo" fast-import --quiet --done
}

# Sign every tag fast-import wrote (releases and mainline; the
# look-alikes come later) with a throwaway key made on first use.
stable_sign_tags_ () {
	test "$st_signed" = 1 || return 0
	sign_all_tags "$st_repo" \
		"${STABLE_SIGNING_KEY:-${TRASH_DIRECTORY:-$st_repo/.git}/stable-signing.key}"
}

# Join the release events with the final tag objects: the time line gets
# the releases in order, everything else is a look-alike.
stable_write_timeline_ () {
	git -C "$st_repo" for-each-ref \
		--format='%(refname:lstrip=2) %(objectname) %(*objectname)' refs/tags |
	awk -v timeline="$st_repo/.git/stable-timeline" \
	    -v lookalikes="$st_repo/.git/stable-lookalikes" '
		NR == FNR { week[$2] = $1; order[++n] = $2; next }
		{
			line = $1 " " $2 " " ($3 == "" ? $2 : $3)
			if ($1 in week) found[$1] = week[$1] " " line
			else print "0 " line > lookalikes
		}
		END {
			printf "" > lookalikes
			for (i = 1; i <= n; i++) {
				if (!(order[i] in found)) exit 1
				print found[order[i]] > timeline
			}
		}
	' "$st_repo/.git/stable-events" -
}
