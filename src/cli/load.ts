import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire, wrap } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * dist/cli.js: it loads the CLI's bundle, dist/cli-main.js, with the V8 code cache the build made for it
 * (scripts/build.mjs runs the bundle once on the example, then keeps what V8 compiled). A run then skips
 * compiling the bundle and every function the example ran: about 60 ms of a short preview's 300.
 *
 * The cache file is the SHA-256 of the bundle's bytes, then V8's data. A cache of another bundle is never
 * given to V8 (V8 itself checks only the source's length); one of another V8 or other flags is refused by V8.
 * Either way the bundle compiles as `require` would compile it, and the CLI behaves the same.
 */

interface Cli {
  run(argv: string[], io?: { stdout(s: string): void; stderr(s: string): void }): number | Promise<number>;
}

export const BUNDLE = path.join(__dirname, 'cli-main.js');
export const CACHE = `${BUNDLE}.cache`;
const HASH_BYTES = 32;

/** The bundle's script, with the build's code cache when it is the cache of these very bytes. */
export function bundleScript(file = BUNDLE, cacheFile = `${file}.cache`): { script: vm.Script; cached: 'used' | 'rejected' | 'none' } {
  const bytes = fs.readFileSync(file);
  let cachedData: Buffer | undefined;
  try {
    const cache = fs.readFileSync(cacheFile);
    if (cache.length > HASH_BYTES && digestOf(bytes).equals(cache.subarray(0, HASH_BYTES))) cachedData = cache.subarray(HASH_BYTES);
  } catch {
    // No cache (a build without one, or a copy of dist/ without it): compile.
  }
  const script = new vm.Script(wrap(bytes.toString('utf8')), { filename: file, cachedData });
  return { script, cached: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}

function digestOf(bytes: Buffer): Buffer {
  return crypto.createHash('sha256').update(bytes).digest();
}

/** Write the code cache of the loaded bundle as it now stands, after its bytes' digest (the build calls this after its warm-up run). */
export function saveCache(): void {
  fs.writeFileSync(CACHE, Buffer.concat([digestOf(fs.readFileSync(BUNDLE)), loaded.script.createCachedData()]));
}

/** Run the bundle's top level as `require` would, and return its exports. */
export function evaluate(script: vm.Script, file = BUNDLE): Cli {
  const mod = { exports: {} as Cli, filename: file, id: file, loaded: false };
  const compiled = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  compiled.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}

const loaded = bundleScript();
/** Whether the code cache was used. */
export const cached = loaded.cached;
export const run = evaluate(loaded.script).run;

// `node dist/cli.js …`: the bundle sees itself as a required module, so the loader starts the command.
if (require.main === module) {
  void Promise.resolve(run(process.argv.slice(2))).then((code) => (process.exitCode = code));
}
