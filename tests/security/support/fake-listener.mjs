/* global setInterval, clearInterval */
// The relay's first half, played by an unprivileged user: listens on ADDRESS:PORT (e.g. [::1]
// while the service holds 127.0.0.1), writes "listening" or the bind error to STATUS_FILE, records
// every request it receives (method, path, Authorization) in STATUS_FILE as JSON lines, and exits
// when STOP_FILE appears. Usage: node fake-listener.mjs ADDRESS PORT STATUS_FILE STOP_FILE
import { createServer } from 'node:http';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const [address, port, statusFile, stopFile] = process.argv.slice(2);
const server = createServer((req, res) => {
  appendFileSync(statusFile, `${JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization ?? null })}\n`);
  res.writeHead(401, { 'Content-Type': 'application/json' });
  res.end('{"error":{"code":"unauthorized","message":"relay"}}');
});
server.once('error', (err) => { writeFileSync(statusFile, `error ${err.code}\n`); process.exit(0); });
server.listen({ host: address, port: Number(port), exclusive: true }, () => {
  writeFileSync(statusFile, 'listening\n');
  const t = setInterval(() => { if (existsSync(stopFile)) { clearInterval(t); server.close(); process.exit(0); } }, 50);
});
