#!/usr/bin/env bash
# Builds a Debian 13 (trixie) guest image with a pinned OpenZFS for the lab (tests/lab/), under a
# cache directory keyed by this script's inputs, so a developer builds each version once.
#
#   lab/build-image.sh [2.4|2.3]      prints the directory holding root.img, vmlinuz, initrd.img
#
# 2.4 is zfs-dkms from trixie-backports contrib, 2.3 from trixie contrib (the lines Proxmox VE 9 and
# TrueNAS 25.10/26 run). 2.1 (Debian 12) is no longer built: its recorded captures stay as fixtures.
#
# Two layers: a base root (debootstrap, kernel, tools: shared by both versions) and one root per
# OpenZFS version (zfs-dkms built by DKMS for the *guest's* kernel, not the host's).
# Environment: ZFS_ADVISOR_LAB_CACHE (default ~/.cache/zfs-advisor-lab), DEBIAN_MIRROR (default: the
# archive this machine's own apt uses, lab/host-mirror.sh).
# Needs root (debootstrap, chroot, mounts) and the host packages debootstrap, e2fsprogs, qemu-utils.
set -euo pipefail
# The whole script is one function, read before it runs: editing this file during a build is safe.
main() {
VERSION="${1:-2.4}"
# Exact versions, as `apt-cache policy zfs-dkms` printed them in a trixie root with contrib enabled.
case "$VERSION" in
  2.4) SUITE=trixie-backports; ZFS_PIN='2.4.4-1~bpo13+1' ;;
  2.3) SUITE=trixie; ZFS_PIN='2.3.9-0+deb13u1' ;;
  *) echo "build-image: unknown OpenZFS version '$VERSION' (2.4 or 2.3)" >&2; exit 64 ;;
esac
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${ZFS_ADVISOR_LAB_CACHE:-$HOME/.cache/zfs-advisor-lab}"
MIRROR="$(bash "$HERE/host-mirror.sh")"
BASE_PKGS="linux-image-amd64 linux-headers-amd64 systemd systemd-sysv udev kmod dbus procps iproute2 \
  fio smartmontools nvme-cli gdisk parted dmsetup util-linux e2fsprogs ca-certificates less \
  libstdc++6 build-essential dkms file"
# Cache keys: the inputs of each layer. Bump a revision when that layer's build steps below change;
# the guest's boot files are keyed by their content. The agent itself is not in the image: the guest
# runs it from the shared checkout, so changing it needs no rebuild.
BASE_REV=2
IMAGE_REV=6
BASE_KEY="$(printf 'base %s %s %s' "$BASE_REV" "$MIRROR" "$BASE_PKGS" | sha256sum | cut -c1-12)"
KEY="$(printf 'zfs %s %s %s %s' "$BASE_KEY" "$IMAGE_REV" "$ZFS_PIN" "$(cat "$HERE/guest/lab-boot" "$HERE/guest/lab-boot.service" | sha256sum)" | sha256sum | cut -c1-12)"
BASE="$CACHE/base-$BASE_KEY"
OUT="$CACHE/zfs-$VERSION-$KEY"
# CPU seconds this build has used so far: its shell's own and its finished children's (apt, dpkg, DKMS,
# gcc), from /proc ($$ is this script's shell even inside $(…)).
cpu_s() { awk -v tck="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); split($0, f, " "); printf "%d", (f[12] + f[13] + f[14] + f[15]) / tck + 0.5 }' "/proc/$$/stat"; }
log() { printf '[lab build %s] %s\n' "$(date +%T)" "$*" >&2; }

if [ -f "$OUT/ok" ]; then echo "$OUT"; exit 0; fi
[ "$(id -u)" = 0 ] || { echo "build-image: must run as root (debootstrap, chroot)" >&2; exit 77; }
mkdir -p "$CACHE"
# Two locks: the base (shared by both lines) is built by one caller while the others wait; each
# line's own layer has its own lock, so the two lines' DKMS builds run side by side (CI starts both
# at once: the second line's image is no longer queued behind the first's). While waiting, look every
# few seconds whether this image is done meanwhile (another caller built it).
BUILD_START=$(date +%s)
exec 9>"$CACHE/.build.lock"
until flock -w 5 9; do
  if [ -f "$OUT/ok" ]; then echo "$OUT"; exit 0; fi
done
if [ -f "$OUT/ok" ]; then echo "$OUT"; exit 0; fi

in_root() { chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C "${@:2}"; }
mount_api() { for d in proc sys dev dev/pts; do mount --bind "/$d" "$1/$d"; done; }
umount_api() { for d in dev/pts dev sys proc; do umount -l "$1/$d" 2>/dev/null || true; done; }

if [ ! -f "$BASE/ok" ]; then
  rm -rf "$BASE" "$BASE.tmp"; mkdir -p "$BASE.tmp"
  R="$BASE.tmp/root"
  trap 'umount_api "$R"' EXIT
  log "debootstrap trixie (minbase)"
  debootstrap --variant=minbase --include=apt-utils trixie "$R" "$MIRROR" >"$BASE.tmp/debootstrap.log" 2>&1 \
    || { tail -20 "$BASE.tmp/debootstrap.log" >&2; exit 1; }
  cat >"$R/etc/apt/sources.list" <<SRC
deb $MIRROR trixie main contrib
deb $MIRROR trixie-updates main contrib
deb $MIRROR trixie-backports main contrib
SRC
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$R/etc/apt/apt.conf.d/90lab"
  mount_api "$R"
  log "kernel, systemd, udev and tools"
  in_root "$R" apt-get update -qq
  in_root "$R" apt-get install -y -qq $BASE_PKGS >"$BASE.tmp/install.log" 2>&1 || { tail -30 "$BASE.tmp/install.log" >&2; exit 1; }
  umount_api "$R"; trap - EXIT
  touch "$BASE.tmp/ok"; mv "$BASE.tmp" "$BASE"
fi
exec 9>&-
exec 8>"$CACHE/.build-$VERSION.lock"
until flock -w 5 8; do
  if [ -f "$OUT/ok" ]; then echo "$OUT"; exit 0; fi
done
if [ -f "$OUT/ok" ]; then echo "$OUT"; exit 0; fi

rm -rf "$OUT.tmp"; mkdir -p "$OUT.tmp"
R="$OUT.tmp/root"
log "copying the base root for OpenZFS $VERSION"
cp -a "$BASE/root" "$R"
trap 'umount_api "$R"' EXIT
mount_api "$R"
KVER="$(ls "$R/lib/modules" | sort -V | tail -1)"
log "zfs-dkms $ZFS_PIN from $SUITE for kernel $KVER (DKMS builds the module: about 9 minutes)"
DKMS_START=$(date +%s); DKMS_CPU0=$(cpu_s)
echo 'zfs-dkms zfs-dkms/note-incompatible-licenses note' | in_root "$R" debconf-set-selections
# DKMS's postinst builds for the root's kernel (and tries the host's, which has no headers here, and
# fails softly); if the guest's module is missing we build it by name right after. On trixie DKMS
# installs it compressed (zfs.ko.xz).
# No debug information and no BTF in the module: the guest's kernel config asks for both (DWARF in
# every object, then pahole turning it into BTF per module); nobody reads them in the lab and they
# cost build time. KCFLAGS=-g0 comes last on kbuild's command lines, so it wins over -g. Without
# DWARF pahole fails, and kbuild runs it only when the headers hold a vmlinux to base the BTF on:
# that file is set aside for the build (kbuild then says "Skipping BTF generation") and put back.
NODEBUG=(KCFLAGS=-g0)
HDRS="$R/usr/src/linux-headers-$KVER"
[ -f "$HDRS/vmlinux" ] && mv "$HDRS/vmlinux" "$HDRS/vmlinux.lab-aside"
in_root "$R" "${NODEBUG[@]}" apt-get install -y -qq -t "$SUITE" "zfs-dkms=$ZFS_PIN" "zfsutils-linux=$ZFS_PIN" "zfs-test=$ZFS_PIN" >"$OUT.tmp/zfs.log" 2>&1 \
  || { tail -30 "$OUT.tmp/zfs.log" >&2; exit 1; }
ZVER="$(in_root "$R" dpkg-query -W -f '${Version}' zfs-dkms | sed 's/-.*//')"
if ! ls "$R/lib/modules/$KVER/updates/dkms/zfs.ko"* >/dev/null 2>&1; then
  in_root "$R" "${NODEBUG[@]}" dkms install "zfs/$ZVER" -k "$KVER" >>"$OUT.tmp/zfs.log" 2>&1 || { tail -30 "$OUT.tmp/zfs.log" >&2; exit 1; }
fi
ls "$R/lib/modules/$KVER/updates/dkms/zfs.ko"* >/dev/null 2>&1 || { echo "build-image: zfs.ko was not built for $KVER" >&2; exit 1; }
[ -f "$HDRS/vmlinux.lab-aside" ] && mv "$HDRS/vmlinux.lab-aside" "$HDRS/vmlinux"
DKMS_S=$(( $(date +%s) - DKMS_START )); DKMS_CPU=$(( $(cpu_s) - DKMS_CPU0 ))
log "OpenZFS $ZVER built and installed in $DKMS_S s ($DKMS_CPU s of CPU)"
# Uncompressed: every boot loads spl and zfs, and unpacking zfs.ko.xz took 1.2 of the 4.6 s of emulated
# CPU that `modprobe zfs` costs (insmod of the same module uncompressed: 3.4 s; one guest, 2026-12-01).
in_root "$R" xz -d "/lib/modules/$KVER/updates/dkms/zfs.ko.xz" "/lib/modules/$KVER/updates/dkms/spl.ko.xz" 2>/dev/null \
  || ls "$R/lib/modules/$KVER/updates/dkms/zfs.ko" >/dev/null \
  || { echo "build-image: zfs.ko is neither compressed as DKMS on trixie installs it nor plain" >&2; exit 1; }
in_root "$R" depmod "$KVER"
if [ "$VERSION" = 2.4 ]; then
  # Debian's Cockpit, so the installed .deb's Cockpit page runs where the package is installed
  # (tests/lab/installed-deb.test.ts; the guest has no network to fetch it then). Served as Debian
  # sets it up (cockpit.socket on 9090), over plain HTTP because the forwarded port is the host's
  # loopback.
  log "Cockpit (for the installed package's page)"
  in_root "$R" apt-get install -y -qq cockpit-ws cockpit-bridge cockpit-system sudo >"$OUT.tmp/cockpit.log" 2>&1 \
    || { tail -30 "$OUT.tmp/cockpit.log" >&2; exit 1; }
  mkdir -p "$R/etc/cockpit"; printf '[WebService]\nAllowUnencrypted=true\n' >"$R/etc/cockpit/cockpit.conf"
fi

log "guest setup"
install -m 0755 "$HERE/guest/lab-boot" "$R/usr/local/sbin/lab-boot"
# The host's node, which the agent otherwise copies over 9p at every boot (95 MB: seconds of emulated
# CPU per guest). The agent still copies when the host's node differs from this one (size and mtime).
NODE_BIN="${ZFS_ADVISOR_LAB_NODE:-$(command -v node || true)}"
if [ -n "$NODE_BIN" ] && [ -x "$NODE_BIN" ]; then
  install -m 0755 "$(readlink -f "$NODE_BIN")" "$R/usr/local/bin/node"
  mkdir -p "$R/usr/local/share/zfs-advisor-lab"; stat -L -c '%s %Y' "$NODE_BIN" >"$R/usr/local/share/zfs-advisor-lab/node.stamp"
fi
install -m 0644 "$HERE/guest/lab-boot.service" "$R/etc/systemd/system/lab-boot.service"
# Two udev rules with nothing to do in a lab guest, yet run at every block-device event (making and
# wiping one case's pool sends ~60 of them): OpenZFS's 69-vdev.rules starts vdev_id, a shell script that
# exits 1 without /etc/zfs/vdev_id.conf (the lab has none), and 90-zfs.rules starts `modprobe zfs` for
# every zfs_member (the agent loads ZFS at boot). Each start costs emulated CPU: without them a
# raidz2-and-special pool was made in 7.8 s instead of 10.3 and wiped in 7 instead of 12 (one guest,
# A/B, 2026-11-29). The rest of 90-zfs.rules (/dev/zfs's mode) stays.
[ -f "$R/usr/lib/udev/rules.d/90-zfs.rules" ] && [ -f "$R/usr/lib/udev/rules.d/69-vdev.rules" ] \
  || { echo "build-image: OpenZFS's udev rules are not where they were (69-vdev.rules, 90-zfs.rules)" >&2; exit 1; }
ln -sf /dev/null "$R/etc/udev/rules.d/69-vdev.rules"
grep -v 'RUN+="/sbin/modprobe zfs"' "$R/usr/lib/udev/rules.d/90-zfs.rules" >"$R/etc/udev/rules.d/90-zfs.rules"
echo zfs-lab >"$R/etc/hostname"
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$R/etc/fstab"
printf 'virtio_pci\nvirtio_blk\next4\n9p\n9pnet_virtio\n' >>"$R/etc/initramfs-tools/modules"
# The initramfs holds the modules listed above (and what they need), not "most": 38 MB became 12,
# which the emulated CPU unpacks at every boot.
printf 'MODULES=list\n' >"$R/etc/initramfs-tools/conf.d/lab-modules"
# The journal stays in memory: no flush to /var/log at boot, no journal files written beside the tests.
mkdir -p "$R/etc/systemd/journald.conf.d"; printf '[Journal]\nStorage=volatile\n' >"$R/etc/systemd/journald.conf.d/lab.conf"
in_root "$R" passwd -d root >/dev/null
in_root "$R" systemctl enable lab-boot.service >/dev/null 2>&1
# A clean, un-imported start: the tests build their own pools.
# Nor what the packages' dependencies start at every boot with nothing to do in a lab guest (each one
# costs seconds of emulated CPU per boot; systemd-analyze blame of a guest named them): NVMe-oF
# autoconnect, smartd, sysstat, mdadm's checks (mdadm comes with the tools), the getty on a console
# nobody has (-nodefaults: no VGA), pstore, and the periodic timers.
for u in zfs-import-cache zfs-import-scan zfs-import.target zfs-mount zfs-zed zfs-share zfs-volume-wait zfs-volumes.target \
         apt-daily.timer apt-daily-upgrade.timer e2scrub_reap systemd-timesyncd \
         nvmf-autoconnect nvmefc-boot-connections smartmontools sysstat sysstat-collect.timer sysstat-rotate.timer \
         sysstat-summary.timer mdcheck_continue.timer mdcheck_start.timer mdmonitor-oneshot.timer mdmonitor \
         getty@tty1 systemd-pstore dpkg-db-backup.timer e2scrub_all.timer fstrim.timer \
         modprobe@drm modprobe@efi_pstore sys-kernel-debug.mount sys-kernel-tracing.mount \
         systemd-binfmt proc-sys-fs-binfmt_misc.automount proc-sys-fs-binfmt_misc.mount cockpit-issue; do
  in_root "$R" systemctl disable "$u" >/dev/null 2>&1 || true
  in_root "$R" systemctl mask "$u" >/dev/null 2>&1 || true
done
in_root "$R" update-initramfs -c -k "$KVER" >"$OUT.tmp/initramfs.log" 2>&1 || in_root "$R" update-initramfs -u -k "$KVER" >>"$OUT.tmp/initramfs.log" 2>&1
cp "$R/boot/vmlinuz-$KVER" "$OUT.tmp/vmlinuz"; cp "$R/boot/initrd.img-$KVER" "$OUT.tmp/initrd.img"
# The first boot after an install runs ldconfig, rebuilds the journal catalog and stamps /etc and /var
# (ConditionNeedsUpdate): every guest boots the image as built, so each would do it again. Done here.
in_root "$R" ldconfig
in_root "$R" journalctl --update-catalog
# Not needed at run time; keeps the image small.
in_root "$R" apt-get clean
rm -rf "$R/var/lib/apt/lists/"* "$R/usr/share/doc" "$R/usr/share/man" "$R/var/lib/dkms/zfs/$ZVER/build" 2>/dev/null || true
umount_api "$R"; trap - EXIT
touch -r "$R/usr" "$R/etc/.updated" "$R/var/.updated"
printf '%s\n' "$ZFS_PIN" >"$OUT.tmp/zfs-version"; printf '%s\n' "$KVER" >"$OUT.tmp/kernel-version"
log "ext4 image"
mkfs.ext4 -q -L labroot -d "$R" "$OUT.tmp/root.img" 6G
rm -rf "$R"
touch "$OUT.tmp/ok"; rm -rf "$OUT"; mv "$OUT.tmp" "$OUT"
# For the test run's timing table (tests/support/timing-table.ts): line, start, end, DKMS seconds,
# then the CPU seconds of the whole build (with the shared base when this build made it) and of DKMS,
# and who built it: a lab test file (vitest sets VITEST in its workers; the build's CPU is then also
# in that file's own) or another caller (.ci/run, a developer).
printf '%s %s %s %s %s %s %s\n' "$VERSION" "$BUILD_START" "$(date +%s)" "$DKMS_S" "$(cpu_s)" "$DKMS_CPU" \
  "$([ -n "${VITEST:-}" ] && echo test-file || echo caller)" >>"$CACHE/build-times"
log "done: $OUT"
echo "$OUT"
}
main "$@"; exit $?  # on one line: bash has read it before main runs, so an edit of this file during a build cannot be read as its tail
