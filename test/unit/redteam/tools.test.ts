import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { openOffloadStore } from '../../../src/core/offload/store';
import { runTool, type ToolContext } from '../../../src/core/send/tools';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { counter } from '../helpers';
import { ctl, fingerprint, workspace } from './hostile';

/** A line on which a backtracking engine explodes for the patterns below: many a's, then a b. */
const EVIL_LINE = 'a'.repeat(30_000) + 'b';
const call = (name: string, args: Record<string, unknown>) => ({ id: 'c1', name, arguments: JSON.stringify(args) });

function toolWorkspace(extra: Record<string, string> = {}): { root: string; ctx: ToolContext; stored: string } {
  const root = workspace({ 'AGENTS.md': '# Rules\n', 'logs/evil.log': `start\n${EVIL_LINE}\nend\n`, '.env': 'STRIPE_KEY=sk_live_51HxCanaryCanaryCanary00\n', ...extra });
  const dir = path.join(root, '.context', 'offload');
  const stored = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }).put('search', { text: `one\n${EVIL_LINE}\nthree\n` });
  return { root, ctx: { snapshot: loadSnapshot({ root, task: 'x' }), tokenizer: counter, offloadDir: dir }, stored: path.relative(root, stored.abs) };
}

describe('red team: the tool loop and user regexes', () => {
  for (const pattern of ['^(a|a)*$', '^(a+)+$', '(a*)*b$', '^(a|aa)+$']) {
    it(`search_workspace with the model's pattern ${pattern} returns on a 30 000-character line (linear-time engine)`, () => {
      const { ctx } = toolWorkspace();
      const out = runTool(call('search_workspace', { pattern: pattern }), ctx);
      assert.equal(out.ok, true);
      const matches = pattern === '(a*)*b$' ? 1 : 0;
      assert.match(out.text, matches ? /^1 matching line in 1 file for / : /^no match for /);
    });
  }

  it('inspect_offloaded grep with ^(a+)+$ on an offloaded result returns promptly with the count', () => {
    const { ctx, stored } = toolWorkspace();
    const out = runTool(call('inspect_offloaded', { path: stored, op: 'grep', pattern: '^(a+)+$' }), ctx);
    assert.deepEqual([out.ok, out.text.split('\n').at(-1)], [true, '0 matching lines']);
  });

  it('inspect_offloaded grep with a pattern RE2 cannot run (a back-reference) is a tool error naming it, not a crash', () => {
    const { ctx, stored } = toolWorkspace();
    const out = runTool(call('inspect_offloaded', { path: stored, op: 'grep', pattern: '(a)\\1' }), ctx);
    assert.deepEqual([out.ok, out.text], [false, 'inspect_offloaded: invalid regular expression /(a)\\1/: invalid escape sequence: `\\1`']);
  });

  it('ctxctl inspect --grep "^(a+)+$" on a file with a 30 000-character line: exit 0 and the count', async () => {
    const { root } = toolWorkspace();
    const r = await ctl(['inspect', path.join(root, 'logs', 'evil.log'), '--grep', '^(a+)+$']);
    assert.deepEqual([r.code, r.out], [0, '0 matching lines\n']);
  });

  it('ctxctl inspect --grep with a look-behind (not in RE2): exit 2, one line naming the pattern', async () => {
    const { root } = toolWorkspace();
    const r = await ctl(['inspect', path.join(root, 'logs', 'evil.log'), '--grep', '(?<=a)b']);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: invalid regular expression /(?<=a)b/: invalid named capture: `(?<=a)b`\n']);
  });

  it('inspect_offloaded never follows a link in the store to .env', () => {
    const { root, ctx } = toolWorkspace();
    fs.symlinkSync(path.join(root, '.env'), path.join(root, '.context', 'offload', 'result-000000000000.txt'));
    const out = runTool(call('inspect_offloaded', { path: '.context/offload/result-000000000000.txt', op: 'head' }), ctx);
    assert.deepEqual([out.ok, out.text], [false, '".context/offload/result-000000000000.txt" is a secret file (by name): never read']);
    assert.equal(out.text.includes('sk_live_'), false);
  });

  it('inspect_offloaded refuses a path outside the workspace and the store', () => {
    const { ctx } = toolWorkspace();
    const out = runTool(call('inspect_offloaded', { path: '../../../../etc/passwd', op: 'head' }), ctx);
    assert.deepEqual([out.ok, out.text], [false, 'inspect_offloaded: ../../../../etc/passwd: outside the workspace and the offload store: not inspectable']);
  });

  it('search_workspace never reads .env, even when the model searches for its key', () => {
    const { ctx } = toolWorkspace();
    const out = runTool(call('search_workspace', { pattern: 'sk_live_' }), ctx);
    assert.equal(out.text.includes('Canary'), false);
    assert.match(out.text, /^no match for "sk_live_"/);
  });

  it('a search over a 3 MB single-line file shows a clipped line, and no tool writes to the workspace', () => {
    const { root, ctx } = toolWorkspace({ 'logs/big.log': 'needle ' + 'z'.repeat(3 * 1024 * 1024) + '\n' });
    const before = fingerprint(root);
    const out = runTool(call('search_workspace', { pattern: 'needle' }), ctx);
    const line = out.text.split('\n')[1];
    assert.match(line, /^logs\/big\.log:1: needle z+…$/);
    assert.ok(line.length < 400);
    for (const c of [call('inspect_offloaded', { path: 'logs/evil.log', op: 'count' }), call('read_document', { path: 'AGENTS.md' })]) runTool(c, ctx);
    assert.deepEqual(fingerprint(root), before);
  });

  it('a tool call with arguments that are not a JSON object is a tool error, never a crash', () => {
    const { ctx } = toolWorkspace();
    for (const args of ['[1,2]', 'null', '{"query": ', '"str"']) {
      const out = runTool({ id: 'c', name: 'search_workspace', arguments: args }, ctx);
      assert.equal(out.ok, false, args);
      assert.match(out.text, /^invalid arguments for search_workspace: /);
    }
  });
});
