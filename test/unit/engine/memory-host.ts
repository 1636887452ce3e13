import * as path from 'node:path';
import type { Host, HostDirent, HostFs, HostStats } from '../../../src/core/host';

/** A host whose file system is a map of absolute paths to contents: no disk, no git, a fixed clock. */
export function memoryHost(files: Record<string, string>, now = new Date('2026-01-02T03:04:05Z'), keys: Record<string, string> = {}): Host & { reads: string[]; touch(abs: string): void } {
  const content = new Map<string, Buffer>(Object.entries(files).map(([p, t]) => [path.resolve(p), Buffer.from(t)]));
  const dirs = new Set<string>();
  for (const p of content.keys()) for (let d = path.dirname(p); !dirs.has(d); d = path.dirname(d)) {
    dirs.add(d);
    if (d === path.dirname(d)) break;
  }
  const fds = new Map<number, { abs: string; at: number }>();
  const reads: string[] = [];
  let next = 0;
  const noEntry = (p: string) => Object.assign(new Error(`ENOENT: no such file or directory, '${p}'`), { code: 'ENOENT' });
  const statOf = (p: string): HostStats | undefined => {
    const abs = path.resolve(p);
    const file = content.get(abs);
    if (!file && !dirs.has(abs)) return undefined;
    const no = () => false;
    return { size: file?.length ?? 0, mtimeMs: now.getTime(), nlink: 1, isFile: () => !!file, isDirectory: () => !file, isSymbolicLink: no, isFIFO: no, isSocket: no, isCharacterDevice: no, isBlockDevice: no };
  };
  const stat = ((p: string, o?: { throwIfNoEntry: false }) => {
    const st = statOf(p);
    if (!st && !o) throw noEntry(p);
    return st;
  }) as HostFs['statSync'];
  const read = (p: string): Buffer => {
    const file = content.get(path.resolve(p));
    if (!file) throw noEntry(p);
    reads.push(path.resolve(p));
    return file;
  };
  const refused = (name: string) => () => {
    throw new Error(`memory host: ${name} is not served`);
  };
  const fs: HostFs = {
    existsSync: (p) => !!statOf(p),
    statSync: stat,
    lstatSync: stat,
    fstatSync: (fd) => statOf(fds.get(fd)?.abs ?? '')!,
    realpathSync: (p) => {
      if (!statOf(p)) throw noEntry(p);
      return path.resolve(p);
    },
    readdirSync: ((dir: string, o?: { withFileTypes: true }) => {
      const abs = path.resolve(dir);
      if (!dirs.has(abs)) throw noEntry(dir);
      const names = [...new Set([...content.keys(), ...dirs].filter((p) => p !== abs && path.dirname(p) === abs).map((p) => path.basename(p)))].sort();
      if (!o) return names;
      return names.map((name): HostDirent => {
        const isDir = dirs.has(path.join(abs, name));
        return { name, isFile: () => !isDir, isDirectory: () => isDir, isSymbolicLink: () => false };
      });
    }) as HostFs['readdirSync'],
    readFileSync: ((p: string, enc?: 'utf8') => (enc ? read(p).toString('utf8') : read(p))) as HostFs['readFileSync'],
    openSync: (p) => {
      read(p);
      const fd = 100 + next++;
      fds.set(fd, { abs: path.resolve(p), at: 0 });
      return fd;
    },
    readSync: (fd, buffer, offset, length, position) => {
      const open = fds.get(fd);
      const file = content.get(open?.abs ?? '') ?? Buffer.alloc(0);
      const from = position ?? open?.at ?? 0;
      const n = from >= file.length ? 0 : file.copy(buffer, offset, from, Math.min(file.length, from + length));
      if (open && position === null) open.at += n;
      return n;
    },
    closeSync: (fd) => void fds.delete(fd),
    accessSync: refused('accessSync'),
    writeFileSync: refused('writeFileSync'),
    appendFileSync: refused('appendFileSync'),
    mkdirSync: refused('mkdirSync'),
    renameSync: refused('renameSync'),
    copyFileSync: refused('copyFileSync'),
    utimesSync: refused('utimesSync'),
    rmSync: refused('rmSync'),
    rmdirSync: refused('rmdirSync'),
  };
  const watches = new Set<{ root: string; onChange: (abs: string) => void }>();
  return {
    fs,
    reads,
    watch: (root, onChange) => {
      const w = { root: path.resolve(root), onChange };
      watches.add(w);
      return { dispose: () => void watches.delete(w) };
    },
    /** A change of `abs`, told to every watch of a folder holding it. */
    touch: (abs) => {
      for (const w of watches) if (abs.startsWith(w.root + path.sep)) w.onChange(abs);
    },
    secret: async (provider) => keys[provider],
    git: () => {
      throw new Error('memory host: no git');
    },
    now: () => now,
    env: () => ({}),
  };
}

/** A host that fails every call: the default while a test checks that nothing reaches past the engine's own host. */
export function refusingHost(): Host {
  const fail = () => {
    throw new Error('the default host was reached: a core call ran outside its engine’s host');
  };
  return { fs: new Proxy({}, { get: () => fail }) as HostFs, git: fail, now: fail, env: fail, watch: fail, secret: fail };
}
