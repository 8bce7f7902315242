// SPDX-License-Identifier: GPL-2.0
/*
 * range-read FILE OFFSET LENGTH pread|direct|mmap: write to stdout the bytes
 * of FILE from OFFSET, LENGTH of them or up to the end of the file (its size
 * when opened), read with pread(), with pread() on the file opened with
 * O_DIRECT, or through a shared mapping of the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n < 0) {
			perror("write");
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16] __attribute__((aligned(4096)));
	struct stat st;
	off_t off, len, end;
	char *map;
	int fd;

	if (argc != 5 || (strcmp(argv[4], "pread") && strcmp(argv[4], "direct") &&
			  strcmp(argv[4], "mmap"))) {
		fprintf(stderr, "usage: range-read FILE OFFSET LENGTH pread|direct|mmap\n");
		return 2;
	}
	off = strtoll(argv[2], NULL, 0);
	len = strtoll(argv[3], NULL, 0);
	fd = open(argv[1], strcmp(argv[4], "direct") ? O_RDONLY : O_RDONLY | O_DIRECT);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	end = off + len < st.st_size ? off + len : st.st_size;
	if (off >= end)
		return 0;

	if (!strcmp(argv[4], "mmap")) {
		map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		return write_all(map + off, end - off) ? 1 : 0;
	}
	while (off < end) {
		size_t want = end - off < (off_t)sizeof(buf) ? (size_t)(end - off) : sizeof(buf);
		ssize_t n = pread(fd, buf, want, off);

		if (n <= 0) {
			fprintf(stderr, "pread at %lld: %s\n", (long long)off,
				n ? strerror(errno) : "unexpected end of file");
			return 1;
		}
		if (write_all(buf, n))
			return 1;
		off += n;
	}
	return 0;
}
