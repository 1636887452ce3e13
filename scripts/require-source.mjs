// A module of src/ as the scripts need it at build time (the build's rank index, the line kernel's filter tables):
// bundled with esbuild to a temporary CommonJS file, required, and the file removed. The code is the sources' own.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

/** The exports of `entry` (a path to a .ts file of src/), bundled as it is now. */
export function requireSource(entry) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-source-'));
  try {
    const file = path.join(dir, `${path.basename(entry, '.ts')}.cjs`);
    esbuild.buildSync({ bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning', entryPoints: [entry], outfile: file });
    return require(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
