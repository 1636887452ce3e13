import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

/**
 * The npm package as a user gets it: `npm pack` (its prepack builds dist/ from the sources), `npm install` of the
 * tarball in an empty folder, then `npx ctxctl preview` on a copy of the example. The pack runs in a copy of the
 * sources (node_modules linked), so its build never rewrites the dist/ the other tests read.
 */

const REPO = path.resolve(__dirname, '..', '..', '..');
const EXAMPLE = path.join(REPO, 'examples', 'payment-incident');
/** What the build reads: the sources, the build script, the example it warms the CLI's code cache on. */
const SOURCES = ['package.json', '.npmignore', 'tsconfig.json', 'LICENSE', 'README.md', 'bin', 'src', 'scripts/build.mjs', 'scripts/tool-manifest.mjs', 'scripts/require-source.mjs', 'examples/payment-incident'];

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  // Inside node --test, a child node would report to this run instead of printing.
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} in ${cwd} exited ${r.status}:\n${r.stderr}`);
  return r;
}

describe('the npm package (npm pack → npm install → npx ctxctl)', { timeout: 120_000 }, () => {
  let tmp = '';
  let tarball = '';
  let installed = '';
  let packed: { files: { path: string }[]; size: number }[] = [];

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-pack-'));
    const src = path.join(tmp, 'src-copy');
    for (const p of SOURCES) fs.cpSync(path.join(REPO, p), path.join(src, p), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules')), path.join(src, 'node_modules'), 'dir');
    const pack = run('npm', ['pack', '--json', '--pack-destination', tmp], src);
    // npm prints the prepack script's output before the JSON.
    packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('\n[') + 1));
    tarball = path.join(tmp, 'context-control-0.1.0.tgz');
    installed = path.join(tmp, 'user');
    fs.mkdirSync(installed);
    fs.writeFileSync(path.join(installed, 'package.json'), '{"private":true}\n');
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], installed);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the tarball holds the CLI and what it loads at run time, and nothing of the extension', () => {
    assert.deepEqual(packed[0].files.map((f) => f.path).sort(), [
      'LICENSE', 'README.md', 'bin/ctxctl.js',
      'dist/cli-main.js', 'dist/cli-main.js.cache', 'dist/cli.js', 'dist/gateway-worker.js',
      'dist/ranks/cl100k_base.bin', 'dist/ranks/cl100k_base.index', 'dist/ranks/cl100k_base.json', 'dist/ranks/o200k_base.bin', 'dist/ranks/o200k_base.index', 'dist/ranks/o200k_base.json',
      'dist/vendor/anthropic.js', 'dist/vendor/mcp.js', 'dist/vendor/openai.js',
      'package.json',
    ]);
  });

  it('installs without pulling any other package: every bundle it ships is self-contained', () => {
    assert.deepEqual(fs.readdirSync(path.join(installed, 'node_modules')).sort(), ['.bin', '.package-lock.json', 'context-control']);
    assert.deepEqual(fs.readdirSync(path.join(installed, 'node_modules', '.bin')), ['ctxctl']);
  });

  it('npx ctxctl preview on the example prints the same report as the CLI built in the repository', () => {
    const ws = path.join(tmp, 'workspace');
    fs.cpSync(EXAMPLE, ws, { recursive: true });
    const args = ['preview', '--workspace', ws, '--task', path.join(ws, 'ticket.md'), '--no-git'];
    const out = run('npx', ['--no', 'ctxctl', ...args], installed).stdout;
    assert.match(out, /^MODEL REQUEST BUDGET\n {2}Maximum input +11\u202f000\n/);
    assert.match(out, /\n {2}Model +gpt-4o \(o200k_base, openai shape\)\n/);
    assert.match(out, /\nTOOL OUTPUT\n {2}application\.log +TRIMMED /);
    assert.equal(out, run(process.execPath, [path.join(REPO, 'dist', 'cli.js'), ...args], REPO).stdout);
  });
});
