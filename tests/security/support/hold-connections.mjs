/* global setInterval, clearInterval */
// The connection flood, played by an unprivileged user: opens N idle TCP connections to
// HOST:PORT (from many loopback source addresses when HOST is 127.0.0.1), writes "ready" to
// READY_FILE once each connected or failed, and holds them until STOP_FILE appears; then prints
// {"connected", "closedByServer"}. Usage: node hold-connections.mjs HOST PORT N READY_FILE STOP_FILE
import { connect } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const [host, port, n, readyFile, stopFile] = process.argv.slice(2);
let connected = 0;
let settled = 0;
let closedByServer = 0;
const sockets = [];
for (let i = 0; i < Number(n); i++) {
  const localAddress = host === '127.0.0.1' ? `127.0.${(i >> 8) & 255}.${(i & 255) || 1}` : undefined;
  const s = connect({ host, port: Number(port), localAddress });
  let up = false;
  s.on('connect', () => { up = true; connected++; settled++; });
  s.on('error', () => { if (!up) settled++; });
  s.on('close', () => { if (up && !stopping) closedByServer++; });
  sockets.push(s);
}
let stopping = false;
const t = setInterval(() => {
  if (settled >= Number(n) && !existsSync(readyFile)) writeFileSync(readyFile, 'ready\n');
  if (existsSync(stopFile)) {
    stopping = true;
    clearInterval(t);
    for (const s of sockets) s.destroy();
    process.stdout.write(JSON.stringify({ connected, closedByServer }));
    process.exit(0);
  }
}, 50);
