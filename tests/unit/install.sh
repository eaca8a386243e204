#!/bin/bash
# make install / make uninstall into a DESTDIR (PREFIX=/usr): every file
# in its place (the module for KVER, lunqctl and lunqbench executable, the
# man pages, lunqctl's bash completion, the udev rule naming PREFIX's
# lunqctl, lunq.conf.example),
# an existing /etc/lunq/lunq.conf left as it was, no depmod run; uninstall
# leaves no file behind but that lunq.conf.  dkms.conf's version is the
# target's.  With dkms installed, `dkms build` of `make dkms-source`'s tree
# in a private DKMS tree (--dkmstree, --sourcetree; no module signing)
# produces a dm-lunq.ko for KVER; nothing outside the temp dir changes.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'
export PATH=$PATH:/usr/sbin:/sbin
kver=$("$top/scripts/kver" 2>&1) || { fail install "$kver"; exit 0; }

# install_fail NAME REASON [LOG]: a "not ok" line, the log's tail as comments
install_fail() {
	[ -z "${3:-}" ] || tail -n 15 "$3" | sed 's/^/# /'
	fail install-$1 "$2"
}
# files DIR: the regular files and symlinks under DIR, relative, sorted
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort); }

d=$tmp/root
want="etc/lunq/lunq.conf.example
etc/udev/rules.d/60-lunq.rules
lib/modules/$kver/updates/dm-lunq.ko
usr/bin/blknotes
usr/bin/lunqbench
usr/sbin/lunqctl
usr/share/bash-completion/completions/lunqctl
usr/share/lunq/kmod/uapi/lunq.h
usr/share/lunq/policies/aimd.bpf.c
usr/share/lunq/policies/kyber.bpf.c
usr/share/lunq/policies/lunq_policy.bpf.h
usr/share/lunq/policies/parda.bpf.c
usr/share/lunq/trace/lunq-qfull.bt
usr/share/lunq/trace/lunq-throttle.bt
usr/share/lunq/trace/lunq-wait.bt
usr/share/man/man1/lunqbench.1
usr/share/man/man5/lunq.conf.5
usr/share/man/man8/lunqctl.8"
if ! make -C "$top" install DESTDIR="$d" PREFIX=/usr > "$tmp/install.log" 2>&1; then
	install_fail layout "make install failed" "$tmp/install.log"
else
	bad=
	got=$(files "$d")
	[ "$got" = "$want" ] || bad="$bad; files: $(echo $got)"
	for x in usr/sbin/lunqctl usr/bin/lunqbench usr/bin/blknotes usr/share/lunq/trace/lunq-wait.bt; do
		[ -x "$d/$x" ] || bad="$bad; $x not executable"
	done
	for x in usr/share/man/man1/lunqbench.1 usr/share/man/man5/lunq.conf.5 \
		usr/share/man/man8/lunqctl.8 etc/lunq/lunq.conf.example \
		usr/share/bash-completion/completions/lunqctl; do
		[ "$(stat -c %a "$d/$x" 2>/dev/null)" = 644 ] || bad="$bad; $x not mode 644"
	done
	cmp -s "$d/lib/modules/$kver/updates/dm-lunq.ko" "$top/build/kmod/$kver/kmod/dm-lunq.ko" ||
		bad="$bad; the module is not build/kmod/$kver's"
	vm=$(modinfo -F vermagic "$d/lib/modules/$kver/updates/dm-lunq.ko" 2>&1)
	[ "${vm%% *}" = "$kver" ] || bad="$bad; vermagic '$vm'"
	grep -q depmod "$tmp/install.log" && bad="$bad; depmod ran with DESTDIR set"
	if [ -z "$bad" ]; then ok install-layout; else install_fail layout "${bad#; }" "$tmp/install.log"; fi

	run=$(grep '^RUN+=' "$d/etc/udev/rules.d/60-lunq.rules")
	case $run in
	"RUN+=\"/usr/sbin/lunqctl apply --quiet --device '\$env{DM_NAME}' /etc/lunq/lunq.conf\"")
		ok install-udev-prefix ;;
	*) install_fail udev-prefix "the rule runs: ${run:-nothing}" ;;
	esac

	if ! make -C "$top" uninstall DESTDIR="$d" PREFIX=/usr > "$tmp/uninstall.log" 2>&1; then
		install_fail uninstall "make uninstall failed" "$tmp/uninstall.log"
	elif [ -n "$(files "$d")" ]; then
		install_fail uninstall "left: $(files "$d" | tr '\n' ' ')"
	elif [ -e "$d/etc/lunq" ]; then
		install_fail uninstall "left the empty /etc/lunq"
	else
		ok install-uninstall
	fi
fi

# an administrator's /etc/lunq/lunq.conf: install and uninstall leave it be
d=$tmp/conf
mkdir -p "$d/etc/lunq"
printf '[*]\nqdepth = 3\n' > "$d/etc/lunq/lunq.conf"
cp "$d/etc/lunq/lunq.conf" "$tmp/lunq.conf.orig"
if ! make -C "$top" install DESTDIR="$d" PREFIX=/usr > "$tmp/install2.log" 2>&1; then
	install_fail keep-conf "make install failed" "$tmp/install2.log"
elif ! cmp -s "$d/etc/lunq/lunq.conf" "$tmp/lunq.conf.orig"; then
	install_fail keep-conf "make install changed lunq.conf"
elif ! make -C "$top" uninstall DESTDIR="$d" PREFIX=/usr > "$tmp/uninstall2.log" 2>&1; then
	install_fail keep-conf "make uninstall failed" "$tmp/uninstall2.log"
elif [ "$(files "$d")" != etc/lunq/lunq.conf ] || ! cmp -s "$d/etc/lunq/lunq.conf" "$tmp/lunq.conf.orig"; then
	install_fail keep-conf "after uninstall: $(files "$d" | tr '\n' ' ')"
else
	ok install-keep-conf
fi

# dkms.conf's PACKAGE_VERSION is the target's .version = {x, y, z}
tv=$(sed -n 's/^[[:space:]]*\.version[[:space:]]*= *{\([0-9]*\), *\([0-9]*\), *\([0-9]*\)}.*/\1.\2.\3/p' "$top/kmod/lunq_target.c")
pv=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
if [ -n "$tv" ] && [ "$tv" = "$pv" ]; then
	ok install-dkms-version
else
	install_fail dkms-version "dkms.conf says '$pv', lunq_target.c '$tv'"
fi

if ! command -v dkms > /dev/null; then
	skip install-dkms-build "dkms is not installed (make deps)"
	exit 0
fi
# a private DKMS tree; sign_file unset would make dkms sign with (and
# first create) /var/lib/dkms/mok.key
src=$tmp/dkms-src tree=$tmp/dkms
mkdir -p "$tree"
export sign_file=/nonexistent
opts=(-m lunq -v "$pv" --sourcetree "$src/usr/src" --dkmstree "$tree")
if ! { make -C "$top" dkms-source DESTDIR="$src" &&
	dkms add "${opts[@]}" &&
	dkms build "${opts[@]}" -k "$kver"; } > "$tmp/dkms.log" 2>&1; then
	# the compiler's last words (dkms's make.log), then dkms's
	log=$(find "$tree" -name make.log | head -1)
	{ [ -z "$log" ] || tail -n 10 "$log"; tail -n 8 "$tmp/dkms.log"; } > "$tmp/dkms-fail.log"
	install_fail dkms-build "make dkms-source, dkms add or dkms build failed" "$tmp/dkms-fail.log"
else
	ko=$(find "$tree/lunq/$pv/$kver" -name 'dm-lunq.ko*' -path '*/module/*' | head -1)
	vm=$(modinfo -F vermagic "$ko" 2>&1)
	if [ -z "$ko" ]; then
		install_fail dkms-build "no dm-lunq.ko in the DKMS tree" "$tmp/dkms.log"
	elif [ "${vm%% *}" != "$kver" ]; then
		install_fail dkms-build "vermagic '$vm', want $kver"
	else
		ok install-dkms-build
	fi
fi
