# shellcheck shell=bash
# lib.sh - shared by the host-side lab scripts (setup, run, check,
# buildroot).
#
# The lab kernels, one a line: short name, the Debian suite its meta
# package comes from, the meta package, and the build root its module is
# built in.  Suite "host" is the machine's own apt sources; any other
# suite gets a private apt configuration in $NETCOST_CACHE/apt/<suite>/
# on the mirror the machine already uses.  Build root "host" is the
# machine's own toolchain; any other is a Debian root of that release
# made by tests/lab/buildroot in $NETCOST_CACHE/roots/<root>/.
# The concrete image, ABI (KREL), headers and kbuild packages are
# resolved from the meta package with apt-cache every time setup runs;
# nothing here pins a version.  Adding a kernel is adding a line.
LAB_TABLE="
6.1      host              linux-image-amd64          host
6.1-rt   host              linux-image-rt-amd64       host
6.12     host              linux-image-6.12-amd64     host
6.12-rt  host              linux-image-6.12-rt-amd64  host
7.3      trixie-backports  linux-image-amd64          trixie
7.3-rt   trixie-backports  linux-image-rt-amd64       trixie
"

NETCOST_CACHE=${NETCOST_CACHE:-/var/cache/netcost}
LAB_ALL_KERNELS=$(awk 'NF { printf "%s%s", sep, $1; sep = " " }' <<<"$LAB_TABLE")
export LAB_ALL_KERNELS

# lab_field NAME COLUMN - column 2..4 of lab kernel NAME's line
lab_field() {
	local f
	f=$(awk -v n="$1" -v c="$2" '$1 == n { print $c; exit }' <<<"$LAB_TABLE")
	[[ -n $f ]] || return 1
	echo "$f"
}

# lab_suite NAME - the suite of lab kernel NAME ("host": the machine's)
lab_suite() { lab_field "$1" 2; }

# lab_meta NAME - the meta package of lab kernel NAME
lab_meta() { lab_field "$1" 3; }

# lab_root NAME - the build root of lab kernel NAME ("host": none)
lab_root() { lab_field "$1" 4; }

# lab_kdir NAME - the cache directory of lab kernel NAME
lab_kdir() { echo "$NETCOST_CACHE/kernels/$1"; }

# lab_rootdir ROOT - the directory of build root ROOT
lab_rootdir() { echo "$NETCOST_CACHE/roots/$1"; }

# lab_is_rt NAME - true for the PREEMPT_RT lab kernels
lab_is_rt() { [[ $1 == *-rt ]]; }

# lab_mirror - the Debian archive the machine's apt sources use (the URI
# that serves its own release), for private suites and build roots.
# NETCOST_MIRROR overrides it.
lab_mirror() {
	local codename f
	if [[ -n ${NETCOST_MIRROR:-} ]]; then echo "$NETCOST_MIRROR"; return; fi
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[[ -n $codename ]] || return 1
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk -v cn="$codename" '
			# one-line format: deb [opts] URI SUITE COMPONENT...
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				if ($(i + 1) == cn) { print $i; exit }
			}
			# deb822: a stanza with Types: deb, URIs: and Suites: cn
			/^[ \t]*$/ { if (deb && uri != "" && suite) { print uri; exit } deb = 0; uri = ""; suite = 0 }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "uris:" { uri = $2 }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == cn) suite = 1 }
			END { if (deb && uri != "" && suite) print uri }' "$f" | head -1
	done | head -1 | grep . || return 1
}

# lab_apt_dir SUITE - the private apt configuration of SUITE
lab_apt_dir() { echo "$NETCOST_CACHE/apt/$1"; }

# lab_apt_opts SUITE - fill the array LAB_APT with the apt options that
# make apt-get/apt-cache use SUITE's private configuration (empty for
# "host").  Nothing of the machine's apt configuration is read or written
# but its trusted keyrings.
lab_apt_opts() {
	local d
	# shellcheck disable=SC2034 # used by the scripts that source this
	LAB_APT=()
	[[ $1 == host ]] && return 0
	d=$(lab_apt_dir "$1")
	# shellcheck disable=SC2034
	LAB_APT=(-o "Dir::Etc::SourceList=$d/sources.list"
		-o "Dir::Etc::SourceParts=$d/sources.list.d"
		-o "Dir::Etc::Preferences=$d/preferences"
		-o "Dir::Etc::PreferencesParts=$d/preferences.d"
		-o "Dir::State::Lists=$d/lists"
		-o "Dir::State::Status=$d/status"
		-o "Dir::State::extended_states=$d/extended_states"
		-o "Dir::Cache::Archives=$d/archives"
		-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
		-o "APT::Architecture=amd64")
}

lab_die() { echo "${LAB_PROG:-lab}: error: $*" >&2; exit 1; }
lab_say() { echo "${LAB_PROG:-lab}: $*" >&2; }

# lab_elapsed START - seconds since START ($SECONDS value), for messages
lab_elapsed() { echo "$((SECONDS - $1))s"; }

# lab_host_verdict LOG RC LABEL NAME - what a host check's run adds to
# its own TAP (LOG: what it printed, RC: its exit status, NAME: the
# check): a "not ok - LABEL: NAME ..." line when it printed no plan
# ("1..N": it died), fewer "ok"/"not ok" lines than its plan, or exited
# non-zero without a failing line; nothing when it is whole.  A check
# that dies must not vanish from the count (tests/lab/check and
# tests/lab/threads-check both use it).
lab_host_verdict() {
	local log=$1 rc=$2 label=$3 name=$4 plan got bad
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | tail -1)
	got=$(grep -cE '^(not )?ok( |$)' "$log" || true)
	bad=$(grep -cE '^not ok( |$)' "$log" || true)
	if [[ -z $plan ]]; then
		echo "not ok - $label: $name printed no plan (exit status $rc, $got lines): it died"
	elif ((got != plan)); then
		echo "not ok - $label: $name printed $got of its $plan planned lines (exit status $rc)"
	elif ((rc != 0 && bad == 0)); then
		echo "not ok - $label: $name exited with status $rc without a failing line"
	fi
	return 0
}
