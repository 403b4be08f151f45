# bash completion for git-rolling.
#
# Git's completion (git-completion.bash) calls _git_rolling for
# "git rolling ..." and, through bash-completion's loader, sources this
# file on demand when it is installed as
# $prefix/share/bash-completion/completions/git-rolling.
#
# Commands, options and presets are asked from git-rolling itself
# (--list-cmds, --git-completion-helper, init --list-presets), so the
# completion never lags behind the code.

__git_rolling_branches ()
{
	__git config --name-only --get-regexp '^rolling\..*\.policy$' 2>/dev/null |
		sed -e 's/^rolling\.//' -e 's/\.policy$//'
}

# The first word after the subcommand that is not an option: fetch's and
# pull's <remote>.
__git_rolling_remote_on_cmdline ()
{
	local i seen=
	for ((i = 1; i < cword; i++)); do
		case "${words[i]}" in
		"$1")	seen=y ;;
		-*)	;;
		*)	if [ -n "$seen" ]; then
				echo "${words[i]}"
				return
			fi ;;
		esac
	done
}

_git_rolling ()
{
	local subcommands subcommand
	subcommands="$(git rolling --list-cmds 2>/dev/null)"
	subcommand="$(__git_find_on_cmdline "$subcommands")"

	if [ -z "$subcommand" ]; then
		case "$cur" in
		--*)	__gitcomp "--version --help" ;;
		*)	__gitcomp "$subcommands" ;;
		esac
		return
	fi

	case "$cur" in
	--preset=*)
		__gitcomp "$(git rolling init --list-presets 2>/dev/null | sed -e 's/ .*//')" \
			"" "${cur##--preset=}"
		return
		;;
	--switch=*)
		# The rules of rolling.<branch>.switch (lib/policy.c).
		__gitcomp "first-release first-point-release next-rc1" "" "${cur##--switch=}"
		return
		;;
	--*=*)
		return
		;;
	--*)
		__gitcomp "$(git rolling "$subcommand" --git-completion-helper 2>/dev/null)"
		return
		;;
	esac

	case "$subcommand" in
	advance|verify|log|status)
		__gitcomp_nl "$(__git_rolling_branches)"
		;;
	bisect-helper)
		local actions="steps start next run reset"
		if [ -z "$(__git_find_on_cmdline "$actions")" ]; then
			__gitcomp "$actions"
		else
			__git_complete_refs
		fi
		;;
	describe)
		__git_complete_refs
		;;
	fetch|pull)
		local remote="$(__git_rolling_remote_on_cmdline "$subcommand")"
		if [ -z "$remote" ]; then
			__gitcomp_nl "$(__git_remotes)"
		else
			__gitcomp_nl "$(__git config --get-all "rolling.remote.$remote.branches" 2>/dev/null)"
		fi
		;;
	init)
		# --follow names a remote-tracking branch; --adopt a branch that
		# exists; a new one is the user's to name.
		if [ "$prev" = "--follow" ]; then
			__gitcomp_nl "$(__git for-each-ref --format="%(refname:strip=2)" refs/remotes)"
		elif [ -n "$(__git_find_on_cmdline "--adopt")" ]; then
			__gitcomp_nl "$(__git_heads)"
		fi
		;;
	esac
}
