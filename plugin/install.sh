#!/bin/bash
# ZFS Advisor installer for Proxmox VE 8/9 and Debian 12/13 (amd64).
#
# What it does, in this order, and nothing else:
#   1. checks the system (Debian 12 or 13, amd64, root, apt)
#   2. prints the plan and asks before changing anything (--yes skips the question)
#   3. downloads the .deb (or takes the file given with --deb) and checks its SHA-256 against
#      the checksum written into this script when the release was built (or given with
#      --sha256); a mismatch stops everything
#   4. installs it with `apt-get install ./file.deb` (apt pulls fio and the recommends from the
#      distribution's own repositories; the package carries its own Node.js runtime)
# It never edits Proxmox VE's files (/etc/pve, /usr/share/pve-manager) and never opens a port
# to the network: the UI listens on 127.0.0.1:8077 until you change /etc/zfs-advisor/zfs-advisor.conf.
# Running it again is safe: an installed copy of the same version is left alone.
#
# Uninstall:  apt remove zfs-advisor   (keeps data)
#             apt purge zfs-advisor    (also deletes /etc/zfs-advisor and /var/lib/zfs-advisor)
#             or: bash install.sh --uninstall [--purge]
set -euo pipefail

# Filled in by plugin/debian/build-deb.sh for each release (dist/install.sh); the release URL
# comes from plugin/release.env, the one place the project's release location is set.
DEB_NAME=""
DEB_SHA256=""
RELEASE_URL=""

PKG=zfs-advisor
ASSUME_YES=no
DRY_RUN=no
ACTION=install
PURGE=no
DEB_SOURCE=""

usage() {
    cat <<'USAGE'
usage: install.sh [--yes] [--dry-run] [--deb FILE_OR_URL --sha256 HEX]
       install.sh --uninstall [--purge] [--yes]
  --yes        do not ask before installing/removing
  --dry-run    check the system and the download, print the plan, change nothing
  --deb        a local .deb or a URL (default: the release this script was built with)
  --sha256     the expected SHA-256 of that .deb (required with --deb unless it is this release's)
  --uninstall  remove the package (--purge: also its configuration and data)
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --yes|-y) ASSUME_YES=yes; shift ;;
        --dry-run) DRY_RUN=yes; shift ;;
        --deb) DEB_SOURCE=$2; shift 2 ;;
        --sha256) DEB_SHA256=$2; shift 2 ;;
        --uninstall) ACTION=uninstall; shift ;;
        --purge) PURGE=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 64 ;;
    esac
done

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

confirm() {
    [ "$ASSUME_YES" = yes ] && return 0
    [ -t 0 ] || die "not a terminal: re-run with --yes to proceed without the question"
    printf '%s [y/N] ' "$1"
    read -r answer
    case "$answer" in y|Y|yes|YES) return 0 ;; *) say "Nothing was changed."; exit 0 ;; esac
}

installed_version() { { dpkg-query -W -f='${Status} ${Version}\n' "$PKG" 2>/dev/null || true; } | sed -n 's/^install ok installed //p'; }

if [ "$ACTION" = uninstall ]; then
    [ "$(id -u)" -eq 0 ] || die "run as root"
    current=$(installed_version)
    if [ -z "$current" ]; then say "$PKG is not installed: nothing to do."; exit 0; fi
    if [ "$PURGE" = yes ]; then verb=purge; what="the package, /etc/zfs-advisor and /var/lib/zfs-advisor (history, token)"; else verb=remove; what="the package (configuration and data stay)"; fi
    say "This will remove $what: apt-get $verb $PKG"
    [ "$DRY_RUN" = yes ] && { say "(dry run: nothing was changed)"; exit 0; }
    confirm "Continue?"
    apt-get "$verb" -y "$PKG"
    exit 0
fi

# ---- 1. checks
[ -r /etc/os-release ] || die "cannot read /etc/os-release: is this Debian?"
# shellcheck disable=SC1091 # the target system's release file
. /etc/os-release
case "${ID:-}:${VERSION_ID:-}" in
    debian:12|debian:13) ;;
    *) die "this installer supports Debian 12/13 (Proxmox VE 8/9); found ${PRETTY_NAME:-unknown}" ;;
esac
[ "$(dpkg --print-architecture)" = amd64 ] || die "only amd64 packages are built"
if [ "$DRY_RUN" = no ]; then [ "$(id -u)" -eq 0 ] || die "run as root (apt-get install needs it)"; fi
if command -v pveversion >/dev/null 2>&1; then platform="Proxmox VE $(pveversion | cut -d/ -f2)"; else platform="${PRETTY_NAME}"; fi

# ---- where the .deb comes from
if [ -z "$DEB_SOURCE" ]; then
    [ -n "$DEB_NAME" ] || die "this copy of install.sh has no release filled in: pass --deb FILE_OR_URL --sha256 HEX"
    if [ -f "$(dirname "$0")/$DEB_NAME" ]; then DEB_SOURCE="$(dirname "$0")/$DEB_NAME"
    elif [ -n "$RELEASE_URL" ]; then DEB_SOURCE="${RELEASE_URL%/}/$DEB_NAME"
    else die "no $DEB_NAME next to this script and no release URL: pass --deb FILE_OR_URL"; fi
fi
printf '%s' "$DEB_SHA256" | grep -Eq '^[0-9a-f]{64}$' || die "no valid SHA-256 to check the package against (--sha256 HEX)"
deb_version=$(printf '%s' "$(basename "$DEB_SOURCE")" | sed -n 's/^zfs-advisor_\([^_]*\)_.*\.deb$/\1/p')
current=$(installed_version)

# ---- 2. the plan
say "ZFS Advisor installer"
say "  system:     $platform"
say "  package:    $DEB_SOURCE"
say "  sha256:     $DEB_SHA256 (must match, or nothing is installed)"
say "  installed:  ${current:-no}"
if [ -n "$current" ] && [ -n "$deb_version" ] && [ "$current" = "$deb_version" ]; then
    say "$PKG $current is already installed: nothing to do."
    exit 0
fi
say "Plan:"
case "$DEB_SOURCE" in http://*|https://*) say "  - download $DEB_SOURCE with curl (HTTPS)" ;; esac
say "  - verify its SHA-256"
say "  - apt-get install the .deb (adds fio if missing; recommends smartmontools, nvme-cli;"
say "    Node.js comes inside the package, no nodejs package is installed)"
say "  - the package creates /etc/zfs-advisor, /var/lib/zfs-advisor and zfs-advisor.service,"
say "    bound to 127.0.0.1:8077 (not reachable from the network)"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
case "$DEB_SOURCE" in
    http://*) die "refusing a plain-HTTP download; use https://" ;;
    https://*)
        command -v curl >/dev/null || die "curl is needed to download (apt-get install curl)"
        [ "$DRY_RUN" = yes ] || confirm "Download and install?"
        local_deb="$WORK/$(basename "$DEB_SOURCE")"
        curl --proto '=https' --tlsv1.2 -fsSL -o "$local_deb" "$DEB_SOURCE" ;;
    *)
        [ -f "$DEB_SOURCE" ] || die "$DEB_SOURCE does not exist"
        local_deb=$DEB_SOURCE ;;
esac

# ---- 3. checksum
actual=$(sha256sum "$local_deb" | cut -d' ' -f1)
if [ "$actual" != "$DEB_SHA256" ]; then
    die "SHA-256 mismatch for $local_deb: expected $DEB_SHA256, got $actual. Nothing was installed."
fi
say "checksum OK"

if [ "$DRY_RUN" = yes ]; then say "(dry run: nothing was changed)"; exit 0; fi
case "$DEB_SOURCE" in https://*) ;; *) confirm "Install?" ;; esac

# ---- 4. install
apt-get install -y "$(realpath "$local_deb")"
say ""
say "Done. Uninstall with: apt remove zfs-advisor (keeps data) or apt purge zfs-advisor (deletes it)."
