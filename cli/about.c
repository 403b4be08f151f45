#include <stdio.h>
#include <string.h>
#include "about.h"

#ifndef ROLLING_VERSION
#error "ROLLING_VERSION is set by the Makefile"
#endif

const char rolling_version[] = ROLLING_VERSION;

int rolling_version_option(int argc, const char **argv)
{
	if (argc != 2 || strcmp(argv[1], "--version"))
		return 0;
	printf("git-rolling version %s\n", rolling_version);
	return 1;
}
