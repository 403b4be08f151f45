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

/* The main() of every builtin/<cmd>.c: `ROLLING_MAIN(cmd_<cmd>)`. */
#define ROLLING_MAIN(cmd) \
	int main(int argc, const char **argv) \
	{ \
		int ret; \
		if (rolling_cli_start(argc, argv)) \
			return 0; \
		ret = cmd(argc, argv); \
		rolling_cli_finish(); \
		return ret; \
	}

#endif
