#ifndef ROLLING_MAIN_H
#define ROLLING_MAIN_H

/*
 * What every command does before its own work: answer `--version`
 * (returns 1: the command is done), else install the terminal's warning
 * printer and progress meter into the library and set up libgit2, dying
 * when that fails (returns 0).
 */
int rolling_cli_start(int argc, const char **argv);

void rolling_cli_finish(void);

/*
 * The same in two, for a command that starts work before libgit2 is
 * set up (fetch starts listing the server's refs): it calls
 * rolling_cli_setup() itself, before its first use of libgit2.
 */
int rolling_cli_start_early(int argc, const char **argv);
void rolling_cli_setup(void);

/* main() that starts with `start` (one of the two above), then runs `cmd`. */
#define ROLLING_MAIN_WITH(start, cmd) \
	int main(int argc, const char **argv) \
	{ \
		int ret; \
		if (start(argc, argv)) \
			return 0; \
		ret = cmd(argc, argv); \
		rolling_cli_finish(); \
		return ret; \
	}

/* The main() of every builtin/<cmd>.c: `ROLLING_MAIN(cmd_<cmd>)`. */
#define ROLLING_MAIN(cmd) ROLLING_MAIN_WITH(rolling_cli_start, cmd)

/* ROLLING_MAIN for a command that sets libgit2 up itself. */
#define ROLLING_MAIN_EARLY(cmd) ROLLING_MAIN_WITH(rolling_cli_start_early, cmd)

#endif
