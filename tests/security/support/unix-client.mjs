// One HTTP request over a Unix socket as whichever user runs this (the attack tests run it through
// setpriv). Usage: node unix-client.mjs SOCKET METHOD PATH; prints {"status", "body"} or {"error": CODE}.
import { request } from 'node:http';
import process from 'node:process';

const [socketPath, method, path] = process.argv.slice(2);
const req = request({ socketPath, method, path, headers: { Host: 'localhost', 'Content-Type': 'application/json' } }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (c) => { text += c; });
  res.on('end', () => {
    let body = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    process.stdout.write(JSON.stringify({ status: res.statusCode, body }));
  });
});
req.on('error', (err) => process.stdout.write(JSON.stringify({ error: err.code ?? err.message })));
req.end();
