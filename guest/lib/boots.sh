# shellcheck shell=sh
# Reading the table of boots, guest/boots: in the guest /etc/boots; the host
# sets BOOTS to its path before it sources this.  And what every boot does
# with it: run what its row says, scan for leaks at its end.
BOOTS=${BOOTS:-/etc/boots}

# A field of BOOT's row, by the name of its column in the table's
# "# name ..." line.  Fails for a boot or a column the table lacks.
boot_field() { # BOOT COLUMN
	awk -v boot="$1" -v column="$2" '
		$1 == "#" && $2 == "name" {
			for (i = 2; i <= NF; i++)
				if ($i == column) field = i - 1
			next
		}
		/^#/ || NF == 0 { next }
		$1 == boot && field { print $field; found = 1; exit }
		END { exit !found }' "$BOOTS"
}

# The names of the boots, in the table's order.
boot_names() {
	awk '/^#/ || NF == 0 { next } { print $1 }' "$BOOTS"
}
first_boot() { boot_names | head -n 1; }
# The names of the boots STEP makes, in order.
boots_of_step() { # STEP
	for boots_name in $(boot_names); do
		[ "$(boot_field "$boots_name" step)" != "$1" ] || echo "$boots_name"
	done
}

# The boot this guest is (guest.boot= on its command line), the first by
# default.
this_boot() {
	boots_this=$(sed -n 's/.*guest\.boot=\([^ ]*\).*/\1/p' /proc/cmdline)
	echo "${boots_this:-$(first_boot)}"
}

# Run what this boot runs, its KTAP on the second serial port: a directory
# of guest tests (those of guest.tests=A,B,... when the host names some and
# the boot reports guest tests), or a program (the benchmark).  guest/init
# calls it, and a Debian system's guest-tests (guest/debian/).
run_this_boot() {
	boots_this=$(this_boot)
	boots_runs=/$(boot_field "$boots_this" runs)
	boots_only=
	read -r boots_cmdline </proc/cmdline
	for boots_word in $boots_cmdline; do
		case $boots_word in
		guest.tests=*)
			case ,$(boot_field "$boots_this" reports), in
			*,guest,*) boots_only=$(echo "${boots_word#guest.tests=}" | tr , ' ') ;;
			esac
			;;
		guest.test_timeout=*) export TEST_TIMEOUT="${boots_word#guest.test_timeout=}" ;;
		esac
	done
	if [ -d "$boots_runs" ]; then
		# shellcheck disable=SC2086 # one word a test name
		/tests/run-tests "$boots_runs" $boots_only >/dev/ttyS1 2>&1
	else
		"$boots_runs" >/dev/ttyS1 2>&1
	fi
}

# The debug kernel's kmemleak (configs/debug.config): a scan of the whole
# run, tests and teardown, made twice as kmemleak.rst advises; what it
# suspects goes to the console, where the host's report fails the run.
# At the end of a boot, on kernels that have it: guest/init, guest-tests.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_scan() {
	echo scan >"$KMEMLEAK" && sleep 5 && echo scan >"$KMEMLEAK" &&
		cat "$KMEMLEAK" >/tmp/kmemleak
	echo "$KMEMLEAK_SCANNED $?, $(grep -c '^unreferenced object' /tmp/kmemleak) suspected leak(s)"
	sed 's/^/guest: kmemleak: /' /tmp/kmemleak
}
