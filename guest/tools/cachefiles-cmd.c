// SPDX-License-Identifier: GPL-2.0
/*
 * Talk to /dev/cachefiles as cachefilesd does, one step a call, and print
 * what the kernel answered: "ok", or the error's name (EINVAL, ...).
 *
 *   cachefiles-cmd open           open the device, close it again
 *   cachefiles-cmd FD COMMAND     write COMMAND, in one write(), to FD
 *                                 (the device, opened by the calling shell)
 *
 * COMMAND takes C escapes, so that a test can send any bytes: \n, \t,
 * \\, \0 and \xHH.  Exits 0 when the kernel accepted, 1 when it did not,
 * 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int answer(int ret)
{
	if (ret >= 0) {
		puts("ok");
		return 0;
	}
	puts(strerrorname_np(errno) ?: strerror(errno));
	return 1;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode ARG's escapes into BUF (as long as ARG at least); its length. */
static size_t unescape(const char *arg, char *buf)
{
	size_t len = 0;

	while (*arg) {
		if (*arg != '\\' || !arg[1]) {
			buf[len++] = *arg++;
			continue;
		}
		arg++;
		switch (*arg) {
		case 'n':
			buf[len++] = '\n';
			break;
		case 't':
			buf[len++] = '\t';
			break;
		case '0':
			buf[len++] = '\0';
			break;
		case 'x':
			if (hex(arg[1]) >= 0 && hex(arg[2]) >= 0) {
				buf[len++] = hex(arg[1]) << 4 | hex(arg[2]);
				arg += 2;
			} else {
				buf[len++] = *arg; /* not an escape */
			}
			break;
		default:
			buf[len++] = *arg;
		}
		arg++;
	}
	return len;
}

int main(int argc, char **argv)
{
	char *buf;
	size_t len;
	int fd;

	if (argc == 2 && !strcmp(argv[1], "open")) {
		fd = open("/dev/cachefiles", O_RDWR);
		if (fd >= 0)
			close(fd);
		return answer(fd);
	}
	if (argc != 3) {
		fprintf(stderr, "usage: cachefiles-cmd open | FD COMMAND\n");
		return 2;
	}
	fd = atoi(argv[1]);
	buf = malloc(strlen(argv[2]) + 1);
	if (!buf)
		return 2;
	len = unescape(argv[2], buf);
	return answer(write(fd, buf, len));
}
