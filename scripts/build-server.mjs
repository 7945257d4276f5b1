#!/usr/bin/env node
// Bundles the app with esbuild into two entries sharing their chunks: dist/server.mjs (what
// `npm start`, the .deb's service and the container run: `node dist/server.mjs serve|start`) and
// dist/cli.mjs (every `zfs-advisor` command: server/bin/zfs-advisor.js runs it when it is fresh),
// and dist/assess-worker.mjs + dist/read-worker.mjs (the server's worker threads).
// Plain JavaScript instead of compiling TypeScript through tsx at startup (measured: see
// BENCHMARKS.md, server and CLI sections); tsx only runs the sources when the bundle is stale.
//
// What a bundle must keep working, and how:
// - Files read relative to their own module (demo snapshots, package.json, migrations, the
//   report schema, the CLI path): every module's `import.meta.url` is replaced by that source
//   file's URL computed at run time from the bundle's own place, so those paths resolve into the
//   tree the bundle lies in — this checkout, a copy moved elsewhere, or the installed package —
//   exactly as under tsx. The bundle names no path of the tree it was built in.
// - Migrations are discovered from server/src/store/migrations/*.ts at run time; plain Node
//   cannot import .ts, so the bundle imports them statically and hands the list to the
//   discovery function through a build-time table (the same files, the same order check).
// - Native or file-reading packages stay external: better-sqlite3, pdfkit (reads its font
//   files from its own directory).
// - Modules the server loads on first use (reports with pdfkit, remote clients, planner, OpenAPI
//   document) become separate chunks in dist/server-chunks/, loaded only then.
// `node scripts/build-server.mjs --if-stale` (npm's prepare and prestart) rebuilds only when a
// source is newer than the bundle, and a failed build there only warns: the CLI and `start` then
// fall back to tsx.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'server.mjs');
/** The bundle's entry; `node dist/server.mjs start|serve [options]` behaves like `zfs-advisor start|serve`. */
export const BUNDLE_FILE = out;
/** The CLI entry: `node dist/cli.mjs COMMAND …` is `zfs-advisor COMMAND …`. */
export const CLI_BUNDLE_FILE = join(root, 'dist', 'cli.mjs');
/** A worker thread entry (server/src/jobs/threads.ts); built with the others, so one stands for all. */
export const WORKER_BUNDLE_FILE = join(root, 'dist', 'read-worker.mjs');
const srcDirs = [join(root, 'server', 'src'), join(root, 'rules')];
const MIGRATIONS_DIR = join(root, 'server', 'src', 'store', 'migrations');
const CHUNK_DIR = 'server-chunks';
const MIGRATION_FILE = /^(\d{4})-([a-z0-9][a-z0-9-]*)\.ts$/;

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(path)) {
    if (e === 'node_modules' || e.startsWith('.')) continue;
    m = Math.max(m, newest(join(path, e)));
  }
  return m;
}

/** Both entries exist and are newer than every server/rules source, package.json and the lockfile. */
export function bundleIsFresh() {
  if (!existsSync(out) || !existsSync(CLI_BUNDLE_FILE) || !existsSync(WORKER_BUNDLE_FILE)) return false;
  const built = Math.min(statSync(out).mtimeMs, statSync(CLI_BUNDLE_FILE).mtimeMs, statSync(WORKER_BUNDLE_FILE).mtimeMs);
  const files = [join(root, 'package.json'), join(root, 'package-lock.json')].filter((f) => existsSync(f));
  return srcDirs.every((d) => !existsSync(d) || newest(d) <= built) && files.every((f) => statSync(f).mtimeMs <= built);
}

/**
 * Each module keeps its own import.meta.url, as a path relative to the app's root that is resolved
 * at run time from where the bundle file itself lies (`__zfsaRoot`, set by the banner): the tree
 * can be moved or installed elsewhere (the .deb's /usr/lib/zfs-advisor) and every module still
 * finds package.json, the demo, the migrations and the knowledge pages beside it.
 */
function ownUrlPlugin(root) {
  return {
    name: 'own-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
        if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
        let text = readFileSync(args.path, 'utf8');
        const rel = relative(root, args.path).split(sep).join('/');
        if (rel.startsWith('../')) throw new Error(`build-server: ${args.path} is outside the app's root ${root}`);
        const url = `new URL(${JSON.stringify(rel)}, __zfsaRoot).href`;
        const dir = `__zfsaToPath(new URL(${JSON.stringify(`${posix.dirname(rel)}/`)}, __zfsaRoot)).replace(/\\/$/, '')`;
        text = text.replaceAll('import.meta.url', url).replaceAll('import.meta.dirname', dir);
        if (args.path === join(root, 'server', 'src', 'store', 'db.ts')) text = withStaticMigrations(text);
        return { contents: text, loader: args.path.endsWith('ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * The first lines of every output file: a `require` for packages bundled from CommonJS, and the
 * app's root as a URL, from this file's own place (entries in OUTDIR, chunks one level below).
 */
function banner(outdir) {
  const up = `${relative(outdir, root).split(sep).join('/') || '.'}/`;
  return [
    "import { createRequire as __zfsaCreateRequire } from 'node:module';",
    "import { fileURLToPath as __zfsaToPath } from 'node:url';",
    'const require = __zfsaCreateRequire(import.meta.url);',
    `const __zfsaRoot = new URL(${JSON.stringify(up)}, /\\/${CHUNK_DIR}\\/[^/]*$/.test(import.meta.url) ? new URL('../', import.meta.url) : import.meta.url);`,
  ].join(' ');
}

/** db.ts imports each migration by computed URL; the bundle answers from a static table instead. */
function withStaticMigrations(text) {
  const needle = 'await import(pathToFileURL(join(dir, name)).href)';
  if (!text.includes(needle)) throw new Error(`build-server: server/src/store/db.ts no longer contains \`${needle}\`; update scripts/build-server.mjs`);
  const names = readdirSync(MIGRATIONS_DIR).filter((n) => MIGRATION_FILE.test(n)).sort();
  const imports = names.map((n, i) => `import * as __migration${i} from ${JSON.stringify(`./migrations/${n}`)};`).join('\n');
  const table = `const __MIGRATIONS = { ${names.map((n, i) => `${JSON.stringify(n)}: __migration${i}`).join(', ')} };`;
  // Outside the migrations directory (tests pass their own) the bundle still fails plainly.
  const lookup = `(dir === MIGRATIONS_DIR && Object.hasOwn(__MIGRATIONS, name) ? __MIGRATIONS[name] : await import(pathToFileURL(join(dir, name)).href))`;
  return `${imports}\n${table}\n${text.replace(needle, lookup)}`;
}

export async function buildServer({ entry = join(root, 'server', 'src', 'api', 'bundle-entry.ts'), cliEntry = join(root, 'server', 'src', 'cli', 'bundle-entry.ts'), outdir = join(root, 'dist') } = {}) {
  const { build } = await import('esbuild');
  // Chunks of an earlier build would linger, and a failed build must not leave an entry whose
  // chunks are gone (it would look fresh): remove both first.
  rmSync(join(outdir, CHUNK_DIR), { recursive: true, force: true });
  rmSync(join(outdir, 'server.mjs'), { force: true });
  rmSync(join(outdir, 'cli.mjs'), { force: true });
  rmSync(join(outdir, 'assess-worker.mjs'), { force: true });
  rmSync(join(outdir, 'read-worker.mjs'), { force: true });
  const result = await build({
    entryPoints: { server: entry, cli: cliEntry, 'assess-worker': join(root, 'server', 'src', 'jobs', 'assess-worker.ts'), 'read-worker': join(root, 'server', 'src', 'api', 'read-worker.ts') },
    // threads.ts starts dist/<worker>.mjs instead of the tsx boot file when bundled.
    define: { __ZFSA_BUNDLED__: 'true' },
    outdir,
    absWorkingDir: root,
    outExtension: { '.js': '.mjs' },
    // Modules the server imports on first use (reports, pdfkit, remote clients, planner) become
    // chunks loaded only then, as under tsx.
    splitting: true,
    chunkNames: `${CHUNK_DIR}/[name]-[hash]`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    charset: 'ascii',
    external: ['better-sqlite3', 'pdfkit'],
    plugins: [ownUrlPlugin(root)],
    banner: { js: banner(outdir) },
    logLevel: 'warning',
    metafile: true,
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
  });
  const outputs = Object.keys(result.metafile.outputs);
  return { out: join(outdir, 'server.mjs'), cli: join(outdir, 'cli.mjs'), files: outputs.length, inputs: Object.keys(result.metafile.inputs).length, bytes: outputs.reduce((n, f) => n + statSync(join(root, f)).size, 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--if-stale') && bundleIsFresh()) process.exit(0);
  try {
    const r = await buildServer();
    process.stdout.write(`built ${relative(root, r.out)} and ${relative(root, r.cli)} (${r.files} files, ${(r.bytes / 1024).toFixed(0)} KiB, from ${r.inputs} sources)\n`);
  } catch (err) {
    process.stderr.write(`server build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    // As `prestart` a failed build must not stop the app: `start` then runs the sources through tsx.
    if (process.argv.includes('--if-stale')) process.stderr.write('zfs-advisor and npm start continue with the TypeScript sources (tsx).\n');
    else process.exit(1);
  }
}
