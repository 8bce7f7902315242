// SPDX-License-Identifier: GPL-2.0
/*
 * The credential series kept two behaviours that userspace sees: access()
 * and faccessat() without AT_EACCESS check the real uid and gid, not the
 * effective ones, and /proc/self/status shows the task's objective ids.
 * Checked from a setuid-style process: real uid and gid 1000, effective 0.
 * Prints KTAP; exits 0 when every case passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USER 1000
#define DIR "/tmp/real-ids"

static int failed, number;

static void result(int ok, const char *name)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++number, name);
	failed |= !ok;
}

/* Report that CALL returned 0, or failed with errno ERR (0: succeeded). */
static void expect(int ret, int err, const char *name)
{
	int got = ret == 0 ? 0 : errno;

	if (got != err)
		printf("# %s: expected %s, got %s\n", name,
		       err ? strerror(err) : "success",
		       got ? strerror(got) : "success");
	result(got == err, name);
}

/* A new file: one left by an earlier run is replaced. */
static void make_file(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
	int fd;

	if (unlink(path) && errno != ENOENT) {
		printf("Bail out! removing %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0 || fchown(fd, uid, gid) || fchmod(fd, mode) || close(fd)) {
		printf("Bail out! creating %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* The "Uid:" or "Gid:" line of /proc/self/status, values only. */
static void status_ids(const char *key, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key))) {
			snprintf(buf, size, "%s", line + strlen(key));
			buf[strcspn(buf, "\n")] = '\0';
		}
	}
	if (f)
		fclose(f);
}

static void expect_status(const char *key, const char *want, const char *name)
{
	char got[128];

	status_ids(key, got, sizeof(got));
	if (strcmp(got, want))
		printf("# %s: /proc/self/status %s\"%s\", expected \"%s\"\n",
		       name, key, got, want);
	result(!strcmp(got, want), name);
}

int main(void)
{
	int fd;

	printf("KTAP version 1\n1..10\n");
	if (getuid() != 0) {
		printf("Bail out! must start as root\n");
		return 1;
	}
	if (mkdir(DIR, 0755) && errno != EEXIST) {
		printf("Bail out! mkdir %s: %s\n", DIR, strerror(errno));
		return 1;
	}
	make_file(DIR "/root-only", 0, 0, 0600);
	make_file(DIR "/user-only", USER, USER, 0600);
	make_file(DIR "/group-only", 0, USER, 0040);

	/* setuid-style: real ids 1000, effective (and saved) ids 0. */
	if (setgroups(0, NULL) || setresgid(USER, 0, 0) || setresuid(USER, 0, 0)) {
		printf("Bail out! setting ids: %s\n", strerror(errno));
		return 1;
	}

	expect(access(DIR "/root-only", R_OK), EACCES,
	       "access_uses_real_uid_denied");
	fd = open(DIR "/root-only", O_RDONLY);
	result(fd >= 0, "open_uses_effective_uid");
	if (fd >= 0)
		close(fd);
	expect(faccessat(AT_FDCWD, DIR "/root-only", R_OK, 0), EACCES,
	       "faccessat_uses_real_uid_denied");
	expect(faccessat(AT_FDCWD, DIR "/root-only", R_OK, AT_EACCESS), 0,
	       "faccessat_eaccess_uses_effective_uid");
	expect(access(DIR "/user-only", R_OK | W_OK), 0,
	       "access_uses_real_uid_allowed");
	expect(faccessat(AT_FDCWD, DIR "/user-only", R_OK | W_OK, 0), 0,
	       "faccessat_uses_real_uid_allowed");
	expect(access(DIR "/group-only", R_OK), 0,
	       "access_uses_real_gid_allowed");
	expect(access(DIR "/group-only", W_OK), EACCES,
	       "access_uses_real_gid_denied");
	/* Real, effective, saved set and filesystem ids. */
	expect_status("Uid:", "\t1000\t0\t0\t0", "status_shows_objective_uids");
	expect_status("Gid:", "\t1000\t0\t0\t0", "status_shows_objective_gids");
	return failed;
}
