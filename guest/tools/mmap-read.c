// SPDX-License-Identifier: GPL-2.0
/*
 * mmap-read FILE: read a file through a shared mapping, one byte a page,
 * with MADV_RANDOM, so that each page is brought in by its own fault and
 * the filesystem's ->read_folio(), without readahead.  Then writes the
 * whole mapping to standard output, for the caller to compare every byte
 * (guest/lib/nfs.sh: mmap_sum).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	volatile unsigned char touched;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	const unsigned char *map;
	ssize_t written;
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
		touched = map[pos];
	(void)touched;
	for (pos = 0; pos < st.st_size; pos += written) {
		written = write(STDOUT_FILENO, map + pos, st.st_size - pos);
		if (written <= 0) {
			perror("write");
			return 1;
		}
	}
	return 0;
}
