#!/usr/bin/env bash
# Prints the Debian archive this machine's own apt uses, for the lab's and the packaging tests'
# debootstrap: DEBIAN_MIRROR when set, else the first `URIs:` of a deb822 source in
# /etc/apt/sources.list.d/*.sources (or the first `deb URI SUITE` line of a sources.list) whose
# suites are not a security suite. Exits 1 (with a reason on stderr) when there is none.
set -euo pipefail
if [ -n "${DEBIAN_MIRROR:-}" ]; then printf '%s\n' "${DEBIAN_MIRROR%/}"; exit 0; fi
APT_DIR="${HOST_MIRROR_APT_DIR:-/etc/apt}"
# deb822: stanzas are separated by blank lines; a stanza names Types, URIs and Suites.
for f in "$APT_DIR"/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  uri="$(awk '
    function flush() { if (deb && !off && uri != "" && suites != "" && suites !~ /-security/) { print uri; found = 1; exit } deb = 0; off = 0; uri = ""; suites = "" }
    /^[[:space:]]*#/ { next }
    /^[[:space:]]*$/ { flush(); next }
    tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
    tolower($1) == "uris:" { uri = $2 }
    tolower($1) == "suites:" { suites = $0 }
    tolower($1) == "enabled:" && tolower($2) == "no" { off = 1 }
    END { if (!found) flush() }
  ' "$f")"
  if [ -n "$uri" ]; then printf '%s\n' "${uri%/}"; exit 0; fi
done
for f in "$APT_DIR"/sources.list "$APT_DIR"/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  # deb [options] URI SUITE COMPONENTS…
  uri="$(sed -E 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" && $3 !~ /-security/ { print $2; exit }')"
  if [ -n "$uri" ]; then printf '%s\n' "${uri%/}"; exit 0; fi
done
echo "host-mirror: no Debian archive in $APT_DIR's sources (set DEBIAN_MIRROR)" >&2
exit 1
