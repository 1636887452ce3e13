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
 * The cache file is a SHA-256, then V8's data; the hash is of the bundle's bytes followed by that whole data, so a
 * cache of another bundle, or one damaged or cut anywhere, is never given to V8 (V8 itself checks only the source's
 * length, and crashes on some damaged data). It is read only from a regular file (not a link, a FIFO or a device,
 * opened without blocking) of at most MAX_CACHE_BYTES. A cache of another V8 or other flags is refused by V8. Either
 * way the bundle compiles as `require` would compile it, and the CLI behaves the same.
 */

interface Cli {
  run(argv: string[], io?: { stdout(s: string): void; stderr(s: string): void }): number | Promise<number>;
}

export const BUNDLE = path.join(__dirname, 'cli-main.js');
export const CACHE = `${BUNDLE}.cache`;
const HASH_BYTES = 32;
/** The build's cache is about 1 MiB; anything far larger is not one. */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** The bundle's script, with the build's code cache when it is the cache of these very bytes. */
export function bundleScript(file = BUNDLE, cacheFile = `${file}.cache`): { script: vm.Script; cached: 'used' | 'rejected' | 'none' } {
  const bytes = fs.readFileSync(file);
  let cachedData: Buffer | undefined;
  const cache = readCache(cacheFile);
  if (cache && cache.length > HASH_BYTES) {
    const data = cache.subarray(HASH_BYTES);
    if (digestOf(bytes, data).equals(cache.subarray(0, HASH_BYTES))) cachedData = data;
  }
  const script = new vm.Script(wrap(bytes.toString('utf8')), { filename: file, cachedData });
  return { script, cached: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}

function digestOf(bundle: Buffer, data: Buffer): Buffer {
  return crypto.createHash('sha256').update(bundle).update(data).digest();
}

/**
 * The cache file's bytes when it is a regular file of at most MAX_CACHE_BYTES, else undefined: no cache (a build
 * without one, a copy of dist/ without it), a link, a FIFO, a device, or a file too large all mean: compile.
 */
function readCache(cacheFile: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(cacheFile, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_CACHE_BYTES) return undefined;
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return got === buf.length ? buf : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Write the code cache of the loaded bundle as it now stands, after the digest of the bundle and it (the build calls this after its warm-up run). */
export function saveCache(): void {
  const data = loaded.script.createCachedData();
  fs.writeFileSync(CACHE, Buffer.concat([digestOf(fs.readFileSync(BUNDLE), data), data]));
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
