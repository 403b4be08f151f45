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
	--*=*)
		return
		;;
	--*)
		__gitcomp "$(git rolling "$subcommand" --git-completion-helper 2>/dev/null)"
		return
		;;
	esac

	case "$subcommand" in
	advance|verify)
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
	init)
		# --adopt names a branch that exists; a new one is the user's to name.
		if [ -n "$(__git_find_on_cmdline "--adopt")" ]; then
			__gitcomp_nl "$(__git_heads)"
		fi
		;;
	esac
}
