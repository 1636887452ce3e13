import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { echo, oversizedArgument } from '../../../src/cli/mcp';
import { frameMessage, idInHead, LineFramer } from '../../../src/cli/mcp-frames';
import { CLI, fingerprint, workspace } from './hostile';

/**
 * `ctxctl mcp` fed hostile frames on stdin (the bundle in a child process, stdin written whole then closed): every
 * request gets exactly one answer, malformed ones a JSON-RPC error, and the requests after them are still served.
 */

type Answer = { id: number | string | null; result?: { content?: { text: string }[]; isError?: boolean; tools?: unknown[] }; error?: { code: number; message: string } };

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'redteam', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

function serve(root: string, lines: (string | object)[]): { code: number; answers: Answer[]; err: string; timedOut: boolean } {
  const input = [INIT, INITIALIZED, ...lines].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  const r = spawnSync(process.execPath, [CLI, 'mcp', '--workspace', root], { input, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024, cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '' } });
  const answers = (r.stdout ?? '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Answer);
  return { code: r.status ?? -1, answers, err: r.stderr ?? '', timedOut: r.error !== undefined && /ETIMEDOUT/.test(String(r.error)) };
}

const byId = (answers: Answer[], id: number | string | null) => answers.filter((a) => a.id === id);
const textOf = (a: Answer | undefined) => (a?.result?.content ?? []).map((c) => c.text).join('');

describe('red team: the MCP server on hostile frames', () => {
  it('a 10.8 MB JSON-RPC line: answered -32600 with its id, and the requests queued behind it are answered', () => {
    const root = workspace({ 'notes.md': '# Notes\n' });
    const big = JSON.stringify(call(1, 'read_document', { path: 'x'.repeat(10.8 * 1024 * 1024) }));
    const r = serve(root, [big, list(2), call(3, 'read_document', { path: 'notes.md' })]);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(byId(r.answers, 1).map((a) => a.error?.code), [-32600]);
    assert.match(byId(r.answers, 1)[0].error!.message, /above the 4 MiB limit; not read/);
    assert.equal(byId(r.answers, 2)[0].result?.tools?.length, 4, 'tools/list after it is served');
    assert.match(textOf(byId(r.answers, 3)[0]), /# Notes/);
    assert.ok(r.err.length < 10_000, 'the line is not echoed to the log');
  });

  it('"params":"str" and "jsonrpc":"1.0": each answered -32600 with its id; the server goes on', () => {
    const r = serve(workspace({}), ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"str"}', '{"jsonrpc":"1.0","id":2,"method":"tools/list"}', list(3)]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(byId(r.answers, 1).map((a) => a.error?.code), [-32600]);
    assert.match(byId(r.answers, 1)[0].error!.message, /"params" must be an object/);
    assert.deepEqual(byId(r.answers, 2).map((a) => a.error?.code), [-32600]);
    assert.match(byId(r.answers, 2)[0].error!.message, /"jsonrpc" must be "2\.0"/);
    assert.equal(byId(r.answers, 3)[0].result?.tools?.length, 4);
  });

  it('a line that is not JSON, a batch (both id null), and a message nested 100 000 deep (its id): -32700, -32600, -32600; the server goes on', () => {
    const deep = '{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}}';
    const r = serve(workspace({}), ['{not json', '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', deep, list(3)]);
    assert.equal(r.code, 0, r.err);
    const nulls = byId(r.answers, null).map((a) => a.error?.code);
    assert.deepEqual(nulls, [-32700, -32600]);
    assert.deepEqual(byId(r.answers, 9).map((a) => a.error?.code), [-32600], 'the deep one is answered with its id, found in its head');
    assert.equal(byId(r.answers, 3)[0].result?.tools?.length, 4);
  });

  it('an 80 KB glob: a one-line refusal naming the limit, no stack trace in the log', () => {
    const r = serve(workspace({ 'a.md': 'x\n' }), [call(1, 'search_workspace', { pattern: 'x', glob: '*'.repeat(80_000) })]);
    assert.equal(r.code, 0, r.err);
    const a = byId(r.answers, 1)[0];
    assert.equal(a.result?.isError, true);
    assert.match(textOf(a), /^search_workspace: glob is 80000 characters, above the limit of 4096: refused \("\*{200}… \(80000 characters\)"\)$/);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  });

  it('a 1 MB path: refused quoting its first 200 characters and its length, nothing offloaded, on every call', () => {
    const root = workspace({ 'a.md': 'x\n' });
    const before = fingerprint(root);
    const huge = 'y'.repeat(1024 * 1024);
    const r = serve(root, [call(1, 'read_document', { path: huge }), call(2, 'inspect_offloaded', { path: huge }), call(3, 'read_document', { path: huge })]);
    assert.equal(r.code, 0, r.err);
    for (const id of [1, 2, 3]) {
      const text = textOf(byId(r.answers, id)[0]);
      assert.ok(text.length < 1000, `${text.length} characters`);
      assert.match(text, /path is 1048576 characters, above the limit of 4096: refused \("y{200}… \(1048576 characters\)"\)/);
    }
    assert.deepEqual(fingerprint(root), before, 'no offload file written');
    assert.equal(fs.existsSync(path.join(root, '.context')), false);
  });

  it('a task of 1 MB: refused before it is tokenized or offloaded; a later call is served', () => {
    const root = workspace({ 'a.md': '# A\n' });
    const r = serve(root, [call(1, 'assemble_context', { task: 'z'.repeat(1024 * 1024) }), call(2, 'read_document', { path: 'a.md' })]);
    assert.equal(r.code, 0, r.err);
    assert.match(textOf(byId(r.answers, 1)[0]), /^assemble_context: task is 1048576 characters, above the limit of 200000: refused/);
    assert.match(textOf(byId(r.answers, 2)[0]), /# A/);
    assert.equal(fs.existsSync(path.join(root, '.context', 'offload')), false);
  });

  it('stdin ends right after many requests: each is answered before the server exits (exit 0)', () => {
    const r = serve(workspace({ 'a.md': '# A\n' }), Array.from({ length: 20 }, (_, i) => (i % 2 ? list(i + 1) : call(i + 1, 'read_document', { path: 'a.md' }))));
    assert.equal(r.code, 0, r.err);
    for (let id = 1; id <= 20; id++) assert.equal(byId(r.answers, id).length, 1, `request ${id} answered once`);
  });

  it('two requests with the same id, and max_input 1e12: both answered before the end; the envelope refused, not taken', () => {
    const r = serve(workspace({ 'a.md': '# A\n' }), [call(5, 'assemble_context', { task: 'what is A?', max_input: 1e12 }), call(5, 'read_document', { path: 'a.md' })]);
    assert.equal(r.code, 0, r.err);
    const both = byId(r.answers, 5);
    assert.equal(both.length, 2);
    const refusal = both.find((a) => /max_input|window/.test(textOf(a)) || a.error);
    assert.ok(refusal, JSON.stringify(both).slice(0, 500));
    assert.ok(refusal.result?.isError === true || refusal.error !== undefined);
    assert.match(textOf(refusal) || refusal.error!.message, /max_input.*(100000000|1e8)|(100000000|1e8).*max_input/);
    assert.ok(both.some((a) => /# A/.test(textOf(a))));
  });

  it('a last line with no newline and CRLF line ends are read; blank lines are skipped without an answer', () => {
    const root = workspace({});
    const input = [INIT, INITIALIZED, list(1)].map((l) => JSON.stringify(l)).join('\r\n') + '\r\n\r\n\n' + JSON.stringify(list(2));
    const r = spawnSync(process.execPath, [CLI, 'mcp', '--workspace', root], { input, encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir() });
    const answers = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Answer);
    assert.deepEqual(answers.map((a) => a.id), [0, 1, 2]);
  });

  it('frames, as pure functions: the framer never holds more than its limit; ids are read from the top level only', () => {
    const framer = new LineFramer(16);
    const frames = [...framer.push(Buffer.from('{"a":1}\n' + 'x'.repeat(40))), ...framer.push(Buffer.from('yy\n{"b":2}')), ...framer.end()];
    assert.deepEqual(frames.map((f) => ('line' in f ? f.line : `oversized ${f.oversized}`)), ['{"a":1}', 'oversized 42', '{"b":2}']);
    assert.equal(idInHead('{"jsonrpc":"2.0","params":{"id":99},"id":"abc","method":"x"'), 'abc');
    assert.equal(idInHead('{"params":{"id":99},"method":"x'), null);
    assert.deepEqual(frameMessage('{"jsonrpc":"2.0","id":1.5,"method":"x"}'), { error: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: "id" must be a string or a whole number' } } });
    assert.equal(echo('a'.repeat(201)), `${'a'.repeat(200)}… (201 characters)`);
    assert.equal(oversizedArgument('read_document', { path: 'a'.repeat(4096) }), undefined);
  });
});
