/**
 * Builds a directory tree with a known size distribution for the sizing test and benchmark:
 * deep and wide directories, empty/small/medium/large files (large ones sparse via truncate, so
 * a million files fit on a small disk), hard links, symlinks (to files and to directories).
 * Deterministic: the same `files` count gives the same tree.
 */
import { closeSync, linkSync, mkdirSync, openSync, symlinkSync, ftruncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface GeneratedTree {
  root: string;
  files: number;
  hardLinks: number;
  symlinks: number;
  dirs: number;
}

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sizes shaped like a file share: many tiny files, a long tail of large ones, exact powers of two included. */
export function sizeFor(r: () => number): number {
  const x = r();
  if (x < 0.05) return 0;
  if (x < 0.1) return 2 ** Math.floor(r() * 21) ; // exact powers of two: bin edges
  if (x < 0.55) return 1 + Math.floor(r() * 4096);
  if (x < 0.85) return 4097 + Math.floor(r() * 128 * 1024);
  if (x < 0.98) return 131073 + Math.floor(r() * 16 * 1024 * 1024);
  return 16 * 1024 * 1024 + Math.floor(r() * 4 * 1024 ** 3);
}

const PAYLOAD = Buffer.alloc(4096, 0x5a);

export function generateTree(root: string, files: number, seed = 8): GeneratedTree {
  const r = rng(seed);
  mkdirSync(root, { recursive: true });
  // Wide: 100 top directories; deep: every 10th file goes into a chain 12 levels down.
  const top = Math.max(1, Math.min(100, Math.ceil(files / 1000)));
  const dirs: string[] = [];
  for (let i = 0; i < top; i++) {
    const d = join(root, `d${i}`);
    mkdirSync(d);
    dirs.push(d);
    let deep = d;
    for (let k = 0; k < 12; k++) deep = join(deep, `l${k}`);
    mkdirSync(deep, { recursive: true });
    dirs.push(deep);
  }
  let hardLinks = 0;
  let symlinks = 0;
  let lastFile = '';
  for (let i = 0; i < files; i++) {
    const dir = dirs[(i % top) * 2 + (i % 10 === 9 ? 1 : 0)]!;
    const path = join(dir, `f${i}`);
    const size = sizeFor(r);
    const fd = openSync(path, 'w');
    // Small files get real bytes (allocated); larger ones are sparse (apparent size only).
    if (size > 0 && size <= 4096) writeSync(fd, PAYLOAD, 0, size);
    else if (size > 0) ftruncateSync(fd, size);
    closeSync(fd);
    if (i % 997 === 5) { linkSync(path, join(dir, `h${i}`)); hardLinks++; }
    if (i % 991 === 7) { symlinkSync(lastFile || path, join(dir, `s${i}`)); symlinks++; }
    if (i % 4999 === 11) { symlinkSync('..', join(dir, `up${i}`)); symlinks++; }
    lastFile = path;
  }
  return { root, files, hardLinks, symlinks, dirs: 1 + top * 13 };
}
