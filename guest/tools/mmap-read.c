// SPDX-License-Identifier: GPL-2.0
/*
 * mmap-read FILE: read a file through a shared mapping, one byte a page,
 * with MADV_RANDOM, so that each page is brought in by its own fault and
 * the filesystem's ->read_folio(), without readahead.  Prints the sum of
 * the bytes read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long sum = 0;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	const unsigned char *map;
	off_t pos;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: mmap-read FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	if (st.st_size == 0)
		return 0;
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || madvise((void *)map, st.st_size, MADV_RANDOM) < 0) {
		perror("mmap");
		return 1;
	}
	for (pos = 0; pos < st.st_size; pos += page)
		sum += map[pos];
	printf("%lu\n", sum);
	return 0;
}
