#include "main.h"
#include "about.h"
#include "progress.h"
#include "report.h"
#include "../lib/setup.h"

int rolling_cli_start(int argc, const char **argv)
{
	if (rolling_version_option(argc, argv))
		return 1;
	rolling_set_warning_handler(print_warning);
	rolling_progress_set_display(&rolling_terminal_progress);
	if (rolling_setup() < 0)
		die_last_error();
	return 0;
}

void rolling_cli_finish(void)
{
	rolling_teardown();
}
