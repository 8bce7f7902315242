# shellcheck shell=sh
# Reading the table of boots, guest/boots: in the guest /etc/boots; the host
# sets BOOTS to its path before it sources this.
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
