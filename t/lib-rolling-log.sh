# Oracles for `git rolling log`, written with plain git (git log
# --first-parent, git rev-list --count, git rev-parse --short, git tag)
# so that they share no code with git-rolling.  Source after test-lib.sh.

# log_steps_ <branch>: "<commit> <date> <release>" per step, newest
# first; the base (the release commit at the bottom of the first-parent
# chain) last, its release found with git tag --points-at.
log_steps_ () {
	git log --first-parent --format='%H %cd %s' --date=short "$1" >"$TRASH_DIRECTORY/log.fp" &&
	while read commit date subject
	do
		case $subject in
		"Merge "*)
			echo "$commit $date ${subject#Merge }" ;;
		*)
			release=$(git tag --points-at "$commit" | grep -E "$LOG_RELEASE_RE" | sort -V | tail -n 1) &&
			echo "$commit $date $release" &&
			return 0 ;;
		esac
	done <"$TRASH_DIRECTORY/log.fp"
}

# The series of a release tag: v6.6.4 -> 6.6, v255.3 -> 255.
log_series_ () {
	echo "$1" | sed -e 's/^v//' -e 's/\.[0-9]*$//'
}

# log_windows_ <from-series> <to-series>: "the 6.8 merge window", or
# "the 6.7 and 6.8 merge windows": the series with release tags after
# <from> up to <to>, in version order.
log_windows_ () {
	git tag -l | grep -E "$LOG_RELEASE_RE" | sed -e 's/^v//' -e 's/\.[0-9]*$//' | sort -u -V |
	awk -v from="$1" -v to="$2" '
		$0 == from { on = 1; next }
		on { list[++n] = $0 }
		$0 == to { exit }
		END {
			s = list[1]
			for (i = 2; i <= n; i++)
				s = s (i == n ? " and " : ", ") list[i]
			printf "the %s merge window%s", s, (n > 1 ? "s" : "")
		}'
}

# 14872 -> 14,872
log_thousands_ () {
	echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'
}

# expected_log_fields <branch>: "date|release|id|what it brought" per
# step, newest first, each step with rev-list --count of the previous
# release .. this one.
expected_log_fields () {
	log_steps_ "$1" >"$TRASH_DIRECTORY/log.steps" &&
	tail -n +2 "$TRASH_DIRECTORY/log.steps" >"$TRASH_DIRECTORY/log.prev" &&
	{
		while read commit date release
		do
			if read prev_commit prev_date prev_release
			then
				:
			else
				prev_release=
			fi <&3
			short=$(git rev-parse --short "$commit") &&
			if test -z "$prev_release"
			then
				what=base
			else
				count=$(git rev-list --count "$prev_release..$release") &&
				what="$(log_thousands_ "$count") commit" &&
				{ test "$count" = 1 || what="${what}s"; } &&
				from=$(log_series_ "$prev_release") to=$(log_series_ "$release")
				if test "$from" != "$to"
				then
					what="series $from -> $to, includes $(log_windows_ "$from" "$to"): $what"
				fi
			fi &&
			echo "$date|$release|$short|$what" || return 1
		done 3<"$TRASH_DIRECTORY/log.prev"
	} <"$TRASH_DIRECTORY/log.steps"
}

# log_format [<prefix>]: the fields on stdin as lines, the columns padded
# to the widest release name and id among them.
log_format () {
	awk -F'|' -v prefix="$1" '
		{ line[NR] = $0; if (length($2) > w2) w2 = length($2); if (length($3) > w3) w3 = length($3) }
		END {
			for (i = 1; i <= NR; i++) {
				split(line[i], f, "|")
				printf "%s%s %-" w2 "s %-" w3 "s %s\n", prefix, f[1], f[2], f[3], f[4]
			}
		}'
}

# expected_log <branch> [<prefix>]: what `git rolling log <branch>` prints.
expected_log () {
	expected_log_fields "$1" >"$TRASH_DIRECTORY/log.fields" &&
	log_format "$2" <"$TRASH_DIRECTORY/log.fields"
}
