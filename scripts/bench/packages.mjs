// The two packages as a user gets them, for `npm run bench` (it builds first): the VSIX (vsce package, from
// .vscodeignore) and the CLI's npm tarball (npm pack, from .npmignore; its prepack build is skipped, dist/ is fresh).
// Each: the packed bytes, the unpacked bytes and the file count, read from the package itself.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
  return r.stdout;
}

/** The entries of a zip file (a VSIX) from its central directory: name and uncompressed size. */
export function zipEntries(file) {
  const buf = fs.readFileSync(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file}: not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: damaged central directory at entry ${i}`);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    entries.push({ name: buf.toString('utf8', at + 46, at + 46 + nameLen), size });
    at += 46 + nameLen + extra + comment;
  }
  return entries;
}

export function packageSizes(root, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const vsixFile = path.join(dir, 'context-control.vsix');
  fs.rmSync(vsixFile, { force: true });
  run(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsixFile], root);
  const entries = zipEntries(vsixFile).filter((e) => !e.name.endsWith('/'));
  const ext = entries.find((e) => e.name === 'extension/dist/extension.js');
  const vsix = { bytes: fs.statSync(vsixFile).size, unpacked: entries.reduce((n, e) => n + e.size, 0), files: entries.length, extensionJs: ext?.size };
  const out = run('npm', ['pack', '--json', '--dry-run', '--ignore-scripts'], root);
  const [npm] = JSON.parse(out.slice(out.indexOf('[')));
  return { vsix, npm: { bytes: npm.size, unpacked: npm.unpackedSize, files: npm.entryCount } };
}
