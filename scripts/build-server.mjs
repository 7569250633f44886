/**
 * Builds what `npm start` runs: hub/main.ts and everything it imports from this repository, as ES
 * modules (hub/dist/main.js and its chunks, with source maps); packages stay imports from node_modules.
 *
 * Why not run the TypeScript through tsx: tsx's loader lives on a second thread with its own V8
 * heap and transpiles on every start — ~40 MB of resident memory and ~0.5 s of start-up on the
 * mini-PC (measured on the bench's 1M store: 164 → 124 MB idle, 1.08 → 0.51 s to the first answer).
 * esbuild does the whole build in ~0.1 s, so `npm start` builds every time and can never run stale
 * code. Plain JavaScript so it starts without a loader.
 *
 * Several hubs may start at once from one checkout (the tests do): each output file is written
 * only when its content changed, and then to a temporary name renamed over the old one, so a
 * process loading the bundle never reads a half-written file.
 */
import { build } from 'esbuild';
import { readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// `node scripts/build-server.mjs hq` builds head office's service (hub/hq/main.ts → hub/dist/hq.js) the same way.
// The hub's build is split: what main.ts imports only when it needs it (the chain, with NATS's client,
// loaded when POS_HUB_HQ_URL is set) goes to chunks in hub/dist/chunks, so a hub alone does not load
// and compile it at every start (one bundle hoisted those packages' imports to its top). Chunks of
// older builds are left in place: a hub started from one may still import it.
const TARGETS = {
  hub: { entry: 'hub/main.ts', bundle: join(ROOT, 'hub', 'dist', 'main.js'), split: true },
  hq: { entry: 'hub/hq/main.ts', bundle: join(ROOT, 'hub', 'dist', 'hq.js') },
};
const target = TARGETS[process.argv[2] ?? 'hub'];
if (!target) {
  process.stderr.write(`build-server: unknown target '${process.argv[2]}' (hub or hq)\n`);
  process.exit(2);
}

/**
 * Our modules find their files next to themselves (`new URL('migrations', import.meta.url)`, the
 * manager page's hub/web/dist, package.json). In one bundle every module would share the
 * bundle's URL, so each source file's `import.meta.url` is replaced by that file's own URL.
 * The bundle is rebuilt at every start, so the absolute paths always name this checkout.
 */
const ownUrls = {
  name: 'own-import-meta-url',
  /** @param {import('esbuild').PluginBuild} b */
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** Builds the bundle, writing only the output files that changed. */
async function buildServer() {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [target.entry],
    ...(target.split
      ? { outdir: dirname(target.bundle), entryNames: '[name]', chunkNames: 'chunks/[name]-[hash]', splitting: true }
      : { outfile: target.bundle }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    write: false,
    logLevel: 'error',
    plugins: [ownUrls],
  });
  for (const file of result.outputFiles) {
    const old = await readFile(file.path).catch(() => null);
    if (old && Buffer.compare(old, file.contents) === 0) continue;
    await mkdir(dirname(file.path), { recursive: true });
    const temp = `${file.path}.${process.pid}.tmp`;
    await writeFile(temp, file.contents);
    await rename(temp, file.path);
  }
}

await buildServer().catch((e) => {
  process.stderr.write(`build failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
