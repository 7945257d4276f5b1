#!/bin/sh
# /usr/bin/zfs-advisor: the CLI of the installed app (same commands as `npx zfs-advisor`).
exec /usr/bin/node /usr/lib/zfs-advisor/server/bin/zfs-advisor.js "$@"
