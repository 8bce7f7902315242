# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The counters a read moves (the mount's in /proc/self/mountstats, the
# cache's in /proc/fs/fscache/stats) and the bytes it got: count_reads is
# the one way to count a read.  Sourced by nfs.sh.
# A field of the fsc: or events: line of a mount's /proc/self/mountstats.
# fsc: counters are only in mountstats of kernels with NFS_FSCACHE.
mountstat() { # MOUNTPOINT LINE-KEY FIELD
	awk -v mp="$1" -v key="$2" -v f="$3" '
		$1 == "device" { this = ($5 == mp) }
		this && $1 == key { print $(f + 1); exit }' /proc/self/mountstats
}

# The count of READ and READ_PLUS operations sent for a mount.
nfs_reads() { # MOUNTPOINT
	awk -v mp="$1" '
		$1 == "device" { this = ($5 == mp) }
		this && ($1 == "READ:" || $1 == "READ_PLUS:") { n += $2 }
		END { print n + 0 }' /proc/self/mountstats
}

# A counter of the fsc mount's fsc: line: 1 pages read from the cache,
# 2 failed, 3 written to it, 4 not written, 5 uncached.
fsc() { mountstat "$FSC" fsc: "$1"; }
# Pages whose store in the cache has ended, written or not, for a mount
# ($FSC by default).
stored() { # [MOUNTPOINT]
	echo $(($(mountstat "${1:-$FSC}" fsc: 3) + $(mountstat "${1:-$FSC}" fsc: 4)))
}
# Stores end after the read that fetched the pages: wait_for this.
# shellcheck disable=SC2317 # called through wait_for
stored_since() { [ $(($(stored "$3") - $1)) -ge "$2" ]; } # STORED-BEFORE PAGES [MOUNTPOINT]
# cachefiles' error injection (cachefiles.rst).
INJECT=/proc/sys/cachefiles/error_injection

# A counter of /proc/fs/fscache/stats, e.g. "IO rd" or "NoSpace cull"; an
# empty answer when there is no such counter.
fscache_stat() { # LINE-NAME KEY
	awk -v p="$1" -v k="$2=" '
		{ sub(/:$/, "", $1) }
		$1 == p { for (i = 2; i <= NF; i++) if (index($i, k) == 1) { print substr($i, length(k) + 1); exit } }' \
		/proc/fs/fscache/stats
}

# One way to count what reads took: run COMMAND, its output kept in $got,
# and set from the counters before and after (those of MOUNTPOINT but the
# last):
#   reads         READ and READ_PLUS operations sent to the server
#   server_bytes  bytes read from the server (the bytes: line, field 5)
#   from_cache    pages read from the cache (fsc: 1)
#   missed        pages asked of the cache whose read failed (fsc: 2)
#   cache_reads   cache reads started, of every mount (fscache's "IO rd")
# Returns COMMAND's status.  A kernel without NFS's FS-Cache support counts
# 0 of the cache's.
count_reads() { # MOUNTPOINT COMMAND...
	cr_mount=$1
	shift
	cr_before=$(read_counters "$cr_mount")
	got=$("$@")
	cr_status=$?
	# shellcheck disable=SC2046,SC2086 # ten numbers
	set -- $cr_before $(read_counters "$cr_mount")
	reads=$(($6 - $1)) server_bytes=$(($7 - $2)) from_cache=$(($8 - $3))
	missed=$(($9 - $4)) cache_reads=$((${10} - $5))
	return "$cr_status"
}
read_counters() { # MOUNTPOINT
	echo "$(nfs_reads "$1") $(or_0 mountstat "$1" bytes: 5)" \
		"$(or_0 mountstat "$1" fsc: 1) $(or_0 mountstat "$1" fsc: 2)" \
		"$(or_0 fscache_stat IO rd)"
}
# A counter, 0 when there is none.
or_0() { # COMMAND...
	or_0=$("$@" 2>/dev/null)
	echo "${or_0:-0}"
}

# The SHA-256 of a file, read by USER ($READER by default) with cat, under
# $READ_PREFIX (say, runcon CONTEXT) when set.
READ_PREFIX=
read_sum() { # FILE [USER]
	su "${2:-$READER}" -s /bin/sh -c "$READ_PREFIX cat $1" | sha256sum | cut -d' ' -f1
}

# NAME of the export read through MOUNTPOINT (count_reads), what it took
# told, and a failure if the bytes are not the server's.
read_right() { # MOUNTPOINT NAME
	count_reads "$1" read_sum "$1/$2"
	diag "$2: $reads READs ($server_bytes bytes), $from_cache pages from the cache, $missed failed, $cache_reads cache reads"
	[ "$got" = "$(sum "$EXPORT/$2")" ] || { diag "$2: wrong bytes"; return 1; }
}

# How an NFS read of a file went, as "ops pages checksum" (count_reads):
# the READs sent, the pages read from the cache, the bytes' checksum.  In
# a subshell: the caller's variables (reads, from_cache, ...) stay its own.
read_counts() ( # MOUNTPOINT FILE [USER]
	count_reads "$1" read_sum "$1/$2" "${3:-$READER}"
	echo "$reads $from_cache $got"
)

# The SHA-256 of a file read through a mapping, one page a fault
# (guest/tools/mmap-read.c).
mmap_sum() { # FILE
	mmap-read "$1" | sha256sum | cut -d' ' -f1
}

# The SHA-256 of a file of the export, read by $READER through the fsc
# mount.
client_sum() { # NAME
	read_sum "$FSC/$1"
}

# Read a file twice through a mount, dropping caches between: "ops pages
# checksum" of the second read (read_counts).
read_twice() { # MOUNTPOINT NAME
	read_counts "$1" "$2" >/dev/null
	drop_caches
	read_counts "$1" "$2"
}
