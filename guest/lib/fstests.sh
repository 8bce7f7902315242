# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# fstests (scripts/fstests-build.sh) in the Debian system, as
# scripts/debian-image.sh installs it: in /var/lib/xfstests, with the
# sections of guest/fstests/local.config (NFS 4.2 and 3, each with and
# without fsc) over an export of the system's own knfsd, and the lists of
# tests of guest/fstests/ in /etc/credrec/fstests.
# shellcheck source=guest/lib/counters.sh
. /lib/guest/counters.sh
FSTESTS=/var/lib/xfstests
FSTESTS_LISTS=/etc/credrec/fstests
# Each section's results (fstests' check.log, result.xml, and each test's
# output): RESULT_BASE of local.config.  make fstests takes them out of the
# image after the boot.
FSTESTS_RESULTS=/var/lib/fstests-results

# knfsd exports the test and the scratch directory of local.config to this
# machine: read-write, root not squashed (the tests run as root and chown),
# each with an fsid of its own, so that each is a superblock of its own for
# the client (and apart from the system's /srv/nfs).  The system's own
# fsc mount of that goes first: NFS shares a superblock between mounts
# whatever fsc says (nfs_compare_mount_options), and NFS 4 reaches an
# export from the server's root, of the same filesystem as that mount's
# export here, so a section without fsc would be cached (FSTESTS.md).
fstests_export() {
	{ ! grep -q ' /mnt/nfs ' /proc/mounts || umount /mnt/nfs; } &&
		mkdir -p /srv/fstests/test /srv/fstests/scratch /mnt/fstests/test /mnt/fstests/scratch \
		"$FSTESTS_RESULTS" &&
		exportfs -o rw,no_subtree_check,no_root_squash,fsid=4201 localhost:/srv/fstests/test &&
		exportfs -o rw,no_subtree_check,no_root_squash,fsid=4202 localhost:/srv/fstests/scratch
}

# The sections of local.config, on one line.
fstests_sections() { sed -n 's/^\[\(.*\)\]$/\1/p' "$FSTESTS/local.config" | xargs; }

# The tests of a list of guest/fstests/ (one "generic/NNN" a line, "#"
# comments), on one line.
fstests_list() { # NAME
	sed -e 's/#.*//' "$FSTESTS_LISTS/$1" | xargs
}

# fstests' check over TESTS in SECTION of local.config, its results new in
# $FSTESTS_RESULTS/SECTION (its own output in SECTION.out there).  Returns
# check's status: 1 when a test failed, 2 for no test (check would run its
# whole "auto" group).  check is given a configuration of that section
# alone (the first section's settings, then the section's): given all of
# local.config it mounts the test directory with the first section's
# options before its own, an fsc mount in every section.  Sets what the
# cache did meanwhile, from
# /proc/fs/fscache/stats: cookies (acquired: by fsc mounts, whether or not
# a cache is bound), cache_reads and cache_writes (I/O started); uncached,
# the mounts NFS left without the cache ("Cache volume key already in
# use"); and mounts, the mounts of the test and scratch directories seen
# while check ran (each "DIR TYPE OPTIONS" of /proc/mounts, once, sampled
# every second: check unmounts them when it ends).
fstests_check() { # SECTION TEST...
	fstests_section=$1
	shift
	[ "$#" -gt 0 ] || return 2
	fstests_config=$FSTESTS_RESULTS/$fstests_section.config
	awk -v section="[$fstests_section]" '
		NR == 1 { print section }
		/^\[/ { n++; this = ($0 == section); next }
		n == 1 || this' "$FSTESTS/local.config" >"$fstests_config"
	fstests_mounts=$FSTESTS_RESULTS/$fstests_section.mounts
	fstests_watch_mounts >"$fstests_mounts" &
	fstests_watcher=$!
	rm -rf "${FSTESTS_RESULTS:?}/$fstests_section"
	mkdir -p "$FSTESTS_RESULTS/$fstests_section"
	fstests_before="$(or_0 fscache_stat Acquire n) $(or_0 fscache_stat IO rd)"
	fstests_before="$fstests_before $(or_0 fscache_stat IO wr) $(fstests_uncached)"
	(cd "$FSTESTS" && HOST_OPTIONS=$fstests_config ./check -s "$fstests_section" -R xunit "$@") \
		>"$FSTESTS_RESULTS/$fstests_section.out" 2>&1
	fstests_status=$?
	# shellcheck disable=SC2086 # three numbers
	set -- $fstests_before
	cookies=$(($(or_0 fscache_stat Acquire n) - $1))
	cache_reads=$(($(or_0 fscache_stat IO rd) - $2))
	cache_writes=$(($(or_0 fscache_stat IO wr) - $3))
	uncached=$(($(fstests_uncached) - $4))
	kill "$fstests_watcher"
	wait "$fstests_watcher" 2>/dev/null
	mounts=$(sort -u "$fstests_mounts")
	return "$fstests_status"
}
fstests_watch_mounts() {
	while :; do
		awk '$2 ~ /^\/mnt\/fstests\// { print $2, $3, $4 }' /proc/mounts
		sleep 1
	done
}

# Whether every mount of MOUNTS (fstests_check's) is as SECTION asks, and
# the test directory was mounted.
fstests_mounts_are() { # SECTION MOUNTS
	[ -n "$(echo "$2" | awk '$1 == "/mnt/fstests/test"')" ] || return 1
	echo "$2" | {
		while read -r fstests_dir fstests_mount; do
			fstests_mount_is "$1" "$fstests_mount" || return 1
		done
		return 0
	}
}

# Whether a mount's "TYPE OPTIONS" are what SECTION of
# local.config asks for: nfs42 vers=4.2, nfs3 vers=3, fsc with "_fsc"
# only.
fstests_mount_is() { # SECTION MOUNT
	case $1 in
	nfs42_*) fstests_vers=4.2 ;;
	nfs3_*) fstests_vers=3 ;;
	*) return 1 ;;
	esac
	case ,${2#* }, in
	*,vers=$fstests_vers,*) ;;
	*) return 1 ;;
	esac
	case $1,${2#* }, in
	*_fsc,*,fsc,*) return 0 ;;
	*_nofsc,*,fsc,*) return 1 ;;
	*_nofsc,*) return 0 ;;
	esac
	return 1
}

# NFS's word for a mount it left without the cache, in the kernel log.
fstests_uncached() { dmesg | grep -c 'Cache volume key already in use'; }

# What became of TEST in SECTION's last check: pass, fail, notrun, or
# missing (check did not get to it), from check.log's lists.
fstests_result() { # SECTION TEST
	awk -v test="$2" '
		function has(line, t) { return index(" " line " ", " " t " ") > 0 }
		/^Ran:/ { ran = has($0, test) }
		/^Not run:/ { notrun = has($0, test) }
		/^Failures:/ { failed = has($0, test) }
		END {
			if (!ran) print "missing"
			else if (failed) print "fail"
			else if (notrun) print "notrun"
			else print "pass"
		}' "$FSTESTS_RESULTS/$1/check.log" 2>/dev/null || echo missing
}

# The first lines of a failed test's output against what it should have
# printed (fstests' .out.bad), as KTAP diagnostics.
fstests_why() { # SECTION TEST
	if [ -f "$FSTESTS_RESULTS/$1/$2.out.bad" ]; then
		diff -u "$FSTESTS/tests/$2.out" "$FSTESTS_RESULTS/$1/$2.out.bad" 2>&1 | head -n 12
	fi
	head -n 12 "$FSTESTS_RESULTS/$1/$2.dmesg" 2>/dev/null
}

# A KTAP case for SECTION: fstests_check over TESTS, then check ran every
# test, every mount of the test and scratch directories had the section's
# NFS version and fsc or not, the cache was used in the fsc sections and
# not in the others (cookies acquired) and stayed bound (cachefilesd
# alive), no mount was left uncached; with WANT "pass" every test passed
# too (with "any" a failed test is check's verdict, for make fstests to
# compare: scripts/fstests-report.py).
fstests_case() { # SECTION any|pass TEST...
	fstests_case_section=$1
	fstests_want=$2
	shift 2
	fstests_start=$(date +%s)
	fstests_check "$fstests_case_section" "$@"
	diag "$fstests_case_section: check exited $?, $(($(date +%s) - fstests_start)) s;" \
		"cache: $cookies cookies, $cache_reads reads, $cache_writes writes"
	echo "$mounts" | while read -r line; do diag "$fstests_case_section mount: $line"; done
	fstests_missing=
	fstests_failed=
	for fstests_test; do
		fstests_result=$(fstests_result "$fstests_case_section" "$fstests_test")
		diag "$fstests_case_section $fstests_test $fstests_result"
		case $fstests_result in
		missing) fstests_missing="$fstests_missing $fstests_test" ;;
		fail)
			fstests_failed="$fstests_failed $fstests_test"
			fstests_why "$fstests_case_section" "$fstests_test" |
				while read -r line; do diag "  $line"; done
			;;
		esac
	done
	[ -z "$fstests_missing" ] ||
		tail -n 20 "$FSTESTS_RESULTS/$fstests_case_section.out" |
		while read -r line; do diag "  $line"; done
	[ "$fstests_want" = pass ] || fstests_failed=
	case $fstests_case_section in
	*_nofsc) expect_eq "cookies acquired" 0 "$cookies" ;;
	*) expect_ge "cookies acquired" 1 "$cookies" ;;
	esac
	fstests_mounts_are "$fstests_case_section" "$mounts" ||
		expect_eq "mounts" "as $fstests_case_section" "$mounts"
	expect_ge "caches bound" 1 "$(active_caches | wc -l)"
	expect_eq "tests check did not run" "" "$(echo "$fstests_missing" | xargs)" &&
		expect_eq "tests failed" "" "$(echo "$fstests_failed" | xargs)" &&
		expect_eq "mounts left uncached" 0 "$uncached"
	ok $? "$fstests_case_section"
}
