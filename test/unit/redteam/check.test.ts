import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CLI, fifo, fingerprint, spawnCli, workspace } from './hostile';

/** `ctxctl check` against hostile checks files and report targets, as a user runs it (dist/cli.js in a child). */

const OPENAI = 'sk-proj-' + 'Rk3vT8mW2nQ6yK1pL9sX3cB7Hd5fJ0gA'.repeat(2);
const GITHUB = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const AWS = 'AKIA' + 'Q3EGRFKZ7XNMTB5W';

function checks(yaml: string[]): string {
  return workspace({ 'notes.md': '# Notes\n\nThe payment service retries twice.\n', '.context/checks.yaml': yaml.join('\n') + '\n' });
}

function oneLine(err: string, pattern: RegExp): void {
  assert.match(err, pattern);
  assert.equal(err.trim().split('\n').length, 1, `one line: ${err}`);
  assert.doesNotMatch(err, /internal error|\n\s+at /);
}

/** The CLI with GITHUB_ACTIONS=true. */
function underActions(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '', GITHUB_ACTIONS: 'true' } });
  return { code: r.status ?? -1, out: r.stdout ?? '', err: r.stderr ?? '' };
}

describe('red team: check', () => {
  it('--junit: secrets in a case name and in contains values are redacted in the JUnit file, as on stdout', () => {
    const root = checks([`- name: "leaks ${AWS}"`, '  task: "how does the payment service retry?"', '  contains:', `    - "api_key = ${OPENAI}"`, `    - "token: ${GITHUB}"`, `    - "password=${'hunter2hunter2'} from 10.0.0.1"`]);
    const junit = path.join(root, 'reports', 'context.xml');
    const r = spawnCli(['check', '--workspace', root, '--junit', junit]);
    assert.equal(r.code, 1, r.err);
    const xml = fs.readFileSync(junit, 'utf8');
    for (const secret of [OPENAI, GITHUB, AWS]) {
      assert.ok(!xml.includes(secret), `the JUnit file has no ${secret.slice(0, 4)}…`);
      assert.ok(!r.out.includes(secret) && !r.err.includes(secret));
    }
    assert.match(xml, /\[REDACTED:[a-z0-9-]+\]/);
    assert.match(xml, /<testcase classname="[^"]*" name="leaks \[REDACTED:[a-z0-9-]+\]"/);
  });

  it('GITHUB_ACTIONS=true: a case name with newlines cannot write a workflow command; values are escaped %0A %0D %25', () => {
    const root = checks(['- name: "x\\n::set-output name=leak::1\\r\\n::add-mask::y 100%"', '  task: "retries"', '  contains: ["not there\\n::warning::z"]']);
    const r = underActions(['check', '--workspace', root]);
    assert.equal(r.code, 1, r.err);
    const commands = r.out.split('\n').filter((l) => l.startsWith('::'));
    assert.ok(commands.length > 0, 'the failing expectation is annotated');
    for (const line of commands) assert.match(line, /^::error file=[^,:]*,line=\d+,title=[^:]*::/, `only our ::error commands start a line: ${line}`);
    assert.ok(!r.out.split('\n').some((l) => /^::(set-output|add-mask|warning)/.test(l)));
    assert.match(r.out, /x%0A::set-output name=leak::1%0D%0A::add-mask::y 100%25/);
  });

  it('a FIFO named .context/checks.yaml: exit 2 at once, one line naming it (no hang)', () => {
    const root = workspace({});
    fifo(path.join(root, '.context', 'checks.yaml'));
    const r = spawnCli(['check', '--workspace', root], { cwd: root });
    assert.equal(r.timedOut, false, 'no hang');
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: \.context\/checks\.yaml: is a FIFO \(named pipe\): never opened$/m);
    assert.equal(r.out, '');
  });

  it('--checks DIR: exit 2, one line naming it', () => {
    const root = checks(['- name: a', '  task: b']);
    const r = spawnCli(['check', '--workspace', root, '--checks', path.join(root, '.context')], { cwd: root });
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: \.context: is a folder, not a file: refused, never read$/m);
  });

  it('a checks file above 4 MiB: exit 2 before it is parsed', () => {
    const root = checks(['- name: a', '  task: b', `  contains: ["${'a'.repeat(4 * 1024 * 1024)}"]`]);
    const r = spawnCli(['check', '--workspace', root], { cwd: root });
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: \.context\/checks\.yaml: is larger than 4 MiB \([\d.]+ MiB\): not read$/m);
  });

  it('--junit /proc/x.xml: exit 2, one line naming it, no internal error', () => {
    const root = checks(['- name: a', '  task: "retries"', '  contains: ["retries twice"]']);
    const r = spawnCli(['check', '--workspace', root, '--junit', '/proc/x.xml']);
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: \/proc\/x\.xml: cannot write the JUnit report \(E[A-Z]+\)$/m);
  });

  it('--junit a folder: exit 2 before any case runs, the folder untouched', () => {
    const root = checks(['- name: a', '  task: "retries"']);
    fs.mkdirSync(path.join(root, 'reports'));
    const before = fingerprint(root);
    const r = spawnCli(['check', '--workspace', root, '--junit', path.join(root, 'reports')], { cwd: root });
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: reports: is not a regular file \(a folder, a link or a device\): the JUnit report is not written there$/m);
    assert.equal(r.out, '', 'no case ran');
    assert.deepEqual(fingerprint(root), before);
  });

  it('--junit below a file: exit 2 before any case runs, nothing written', () => {
    const root = checks(['- name: a', '  task: "retries"']);
    const before = fingerprint(root);
    const r = spawnCli(['check', '--workspace', root, '--junit', path.join(root, 'notes.md', 'sub', 'x.xml')], { cwd: root });
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: notes\.md\/sub\/x\.xml: notes\.md is not a folder: the JUnit report cannot be written below it$/m);
    assert.equal(r.out, '');
    assert.deepEqual(fingerprint(root), before);
  });

  it('--checks /dev/zero: exit 2 at once (never read), one line naming it', () => {
    const r = spawnCli(['check', '--workspace', workspace({}), '--checks', '/dev/zero']);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 2, r.err);
    oneLine(r.err, /^ctxctl: \/dev\/zero: /m);
  });
});
