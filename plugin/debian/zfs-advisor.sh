#!/bin/sh
# /usr/bin/zfs-advisor: the CLI of the installed app (same commands as `npx zfs-advisor`), on the
# Node runtime the package carries.
exec /usr/lib/zfs-advisor/bin/node /usr/lib/zfs-advisor/server/bin/zfs-advisor.js "$@"
