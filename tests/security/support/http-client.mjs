// One HTTP request as whichever user runs this (the local-attacker tests run it through setpriv).
// Usage: node http-client.mjs BASE_URL METHOD PATH [JSON_BODY]; prints {"status", "body"} as JSON.
/* global fetch, URL */
import process from 'node:process';

const [base, method, path, body] = process.argv.slice(2);
const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
if (method !== 'GET' && body === undefined) headers['Content-Type'] = 'application/json';
const res = await fetch(new URL(path.replace(/^\//, ''), base), { method, headers, body });
const text = await res.text();
let parsed = text;
try { parsed = JSON.parse(text); } catch { /* not JSON */ }
process.stdout.write(JSON.stringify({ status: res.status, body: parsed }));
