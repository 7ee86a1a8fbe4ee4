# shellcheck shell=bash
# lib.sh - shared by the host-side lab scripts (setup, run, check).
#
# The four lab kernels, by short name, and the Debian meta package each
# one follows.  The concrete image, ABI (KREL), headers and kbuild
# packages are resolved from the meta package with apt-cache every time
# setup runs; nothing here pins a version.

NETCOST_CACHE=${NETCOST_CACHE:-/var/cache/netcost}
export LAB_ALL_KERNELS="6.1 6.1-rt 6.12 6.12-rt"

# lab_meta NAME - the meta package of lab kernel NAME
lab_meta() {
	case $1 in
	6.1)     echo linux-image-amd64 ;;
	6.1-rt)  echo linux-image-rt-amd64 ;;
	6.12)    echo linux-image-6.12-amd64 ;;
	6.12-rt) echo linux-image-6.12-rt-amd64 ;;
	*) return 1 ;;
	esac
}

# lab_kdir NAME - the cache directory of lab kernel NAME
lab_kdir() { echo "$NETCOST_CACHE/kernels/$1"; }

# lab_is_rt NAME - true for the PREEMPT_RT lab kernels
lab_is_rt() { [[ $1 == *-rt ]]; }

lab_die() { echo "${LAB_PROG:-lab}: error: $*" >&2; exit 1; }
lab_say() { echo "${LAB_PROG:-lab}: $*" >&2; }

# lab_elapsed START - seconds since START ($SECONDS value), for messages
lab_elapsed() { echo "$((SECONDS - $1))s"; }
