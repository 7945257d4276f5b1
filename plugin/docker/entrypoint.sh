#!/bin/sh
# Container entrypoint (run by tini): registers the TrueNAS host from the environment in the
# background, then becomes the server process, so SIGTERM from `docker stop` reaches it.
set -eu

: "${ZFS_ADVISOR_PORT:=8077}"
: "${ZFS_ADVISOR_DATA_DIR:=/data}"
export ZFS_ADVISOR_PORT ZFS_ADVISOR_DATA_DIR

if [ -n "${TRUENAS_API_KEY_FILE:-}" ] || [ -n "${TRUENAS_API_KEY:-}" ]; then
    node /app/plugin/docker/register-truenas-host.mjs &
fi

set -- serve --host 0.0.0.0 --port "$ZFS_ADVISOR_PORT" --data-dir "$ZFS_ADVISOR_DATA_DIR" "$@"
if [ -n "${ZFS_ADVISOR_BASE_PATH:-}" ]; then
    set -- "$@" --base-path "$ZFS_ADVISOR_BASE_PATH"
fi
# The bundled server (built in the image); the CLI (`zfs-advisor.js`) stays on tsx.
exec node /app/dist/server.mjs "$@"
