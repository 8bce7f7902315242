#!/bin/sh
# A Debian 12 system booted from the series' kernel package, as an admin
# installs it (scripts/debian-image.sh): the kernel running is the
# package's, systemd brought every unit up, Debian's SELinux policy is
# enforcing with only the project's two local modules added
# (guest/selinux/debian/), and cachefilesd, started by its unit, has bound
# its cache and runs in its own domain, its address space not randomised
# (guest/debian/sysctl-cachefilesd.conf says why).
# shellcheck source=guest/lib/debian-system.sh
. /lib/guest/debian-system.sh
plan 6

package=linux-image-$(uname -r)
diag "$package $(dpkg-query -W -f='${Version}' "$package")"
expect_eq "package of the running kernel's image" "$package: /boot/vmlinuz-$(uname -r)" \
	"$(dpkg -S "/boot/vmlinuz-$(uname -r)" 2>&1)" &&
	expect_eq "its state" "install ok installed" "$(dpkg-query -W -f='${Status}' "$package")"
ok $? kernel_from_package

expect_eq "multi-user.target" active "$(systemctl is-active multi-user.target)"
ok $? multi_user_reached

system_whole

expect_eq "SELinux mode" Enforcing "$(getenforce)" &&
	expect_eq "policy" SELINUXTYPE=default "$(grep '^SELINUXTYPE=' /etc/selinux/config)" &&
	expect_eq "local modules (priority 400)" "cachefilesd_dir_watch cachefilesd_sigio" \
		"$(semodule --list-modules=full | awk '$1 == 400 { print $2 }' | sort | xargs)"
ok $? debian_policy_enforcing

pid=$(cat /run/cachefilesd.pid 2>/dev/null)
diag "cachefilesd's personality $(cat "/proc/$pid/personality" 2>&1)," \
	"kernel.randomize_va_space $(cat /proc/sys/kernel/randomize_va_space)"
expect_eq "cachefilesd.service" active "$(systemctl is-active cachefilesd.service)" &&
	expect_ne "cachefilesd's pid" "" "$pid" &&
	expect_eq "cachefilesd's context" system_u:system_r:cachefilesd_t:s0 \
		"$(tr -d '\0' <"/proc/$pid/attr/current")" &&
	expect_ne "active caches" "" "$(active_caches)" &&
	expect_eq "cachefilesd's address space randomised" no "$(address_space_randomised "$pid")"
ok $? cachefilesd_bound_in_its_domain
finish
