import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { preview } from '../../../src/core/chain/offload';
import { openOffloadStore } from '../../../src/core/offload/store';
import { defaultPolicy } from '../../../src/core/policy';
import { inspectFile } from '../../../src/core/inspect';
import { linesOf } from '../../../src/core/sources/scan';
import { admitToolResults } from '../../../src/core/send/results';
import { runTool, searchWorkspace, type ToolContext } from '../../../src/core/send/tools';
import { counter } from '../helpers';
import { makeWorkspace, snapshotOf, tree } from './fixture';

const call = (name: string, args: Record<string, unknown>, id = 'c1') => ({ id, name, arguments: JSON.stringify(args) });

describe('read-only tools', () => {
  const root = makeWorkspace({
    '.context/offload/search_workspace-c9-0123456789ab.txt': Array.from({ length: 30 }, (_, i) => `line ${i + 1}: ${i % 10 === 3 ? 'CartExpired cart=' + i : 'ok'}`).join('\n') + '\n',
    '.context/offload/payload-0123456789ab.json': JSON.stringify({ total: 2, items: [{ sku: 'A-1', price: 12.5 }, { sku: 'B-2', price: 3 }] }),
    // The store's marker and record: these two results are the store's own.
    '.context/offload/.context-control-offload.json': JSON.stringify({ store: 'context-control offload store', files: ['search_workspace-c9-0123456789ab.txt', 'payload-0123456789ab.json'] }),
    'docs/ops-notes.md': '# Ops notes\n\nThe staging token is api_key=9f8e7d6c5b4a39281706 (rotate monthly).\n',
  });
  const snapshot = snapshotOf(root);
  const ctx: ToolContext = { snapshot, tokenizer: counter, offloadDir: path.join(root, '.context', 'offload') };

  it('read_document (disclose.ts) returns one section by heading, unwrapped, with where it comes from', () => {
    const out = runTool(call('read_document', { path: './docs/runbook.md', heading: 'rollback' }), ctx);
    assert.equal(out.ok, true);
    assert.equal(out.source, 'docs/runbook.md#Rollback');
    assert.equal(out.text, 'docs/runbook.md, section "Rollback"\n\n## Rollback\n\nRun `make rollback VERSION=<previous>`; it drains the canary first.\nCheck the error rate on the dashboard before closing the incident.');
    assert.deepEqual(out.decisions?.selected?.map((d) => [d.source, d.reason, d.via]), [['docs/runbook.md', 'read_document: section "Rollback" fetched on demand', 'read_document']]);
  });

  it('read_document refusals come back as tool errors with their decision', () => {
    const missing = runTool(call('read_document', { path: 'docs/runbook.md', heading: 'Monitoring' }), ctx);
    assert.equal(missing.ok, false);
    assert.equal(missing.text, 'read_document: "docs/runbook.md" is not returned: no section "Monitoring"; its headings: "Checkout runbook", "Deploy", "Rollback", "Known errors"');
    assert.equal(missing.decisions?.rejected?.[0].source, 'docs/runbook.md');
    const outside = runTool(call('read_document', { path: '../etc/passwd' }), ctx);
    assert.equal(outside.text, 'read_document: "../etc/passwd" is not returned: the path must be a workspace-relative path, as listed in <available-documents>');
    assert.equal(runTool(call('read_document', { path: '.env' }), ctx).ok, false);
  });

  it('read_document redacts secrets in what it returns', () => {
    const out = runTool(call('read_document', { path: 'docs/ops-notes.md' }), ctx);
    assert.equal(out.text, 'docs/ops-notes.md\n\n# Ops notes\n\nThe staging token is api_key=[REDACTED:assigned-secret] (rotate monthly).');
  });

  it('search_workspace lists matching lines with paths, skipping ignored, secret and harness files', () => {
    assert.equal(
      searchWorkspace(snapshot, 'CartExpired').text,
      [
        '3 matching lines in 3 files for "CartExpired"',
        'docs/runbook.md:18: - `CartExpired`: the cart TTL is 30 minutes.',
        'logs/checkout.log:2: 2026-11-12T08:00:02.431Z ERROR [req=f6a7b8c9d0] POST /v1/checkout failed: CartExpired cart=9912',
        'src/CheckoutController.java:6:     if (cart.isExpired()) throw new CartExpired(cart.id());',
      ].join('\n'),
    );
    assert.equal(searchWorkspace(snapshot, 'password').text, '1 matching line in 1 file for "password"\nconfig/app.properties:2: db.password=[REDACTED:assigned-secret]');
    assert.equal(searchWorkspace(snapshot, 'POST /v1/checkout (201|failed)').text.split('\n')[0], '3 matching lines in 1 file for "POST /v1/checkout (201|failed)"');
    assert.equal(searchWorkspace(snapshot, 'price[').text, 'no match for "price[" in 8 files');
  });

  it('search_workspace shows the first 50 matches and counts them all', () => {
    const big = makeWorkspace({ 'notes/many.txt': Array.from({ length: 120 }, (_, i) => `todo ${i}`).join('\n') });
    const lines = searchWorkspace(snapshotOf(big), 'todo').text.split('\n');
    assert.equal(lines[0], '120 matching lines in 1 file for "todo" (first 50 shown)');
    assert.equal(lines.length, 51);
    assert.equal(lines[50], 'notes/many.txt:50: todo 49');
  });

  it('inspect_offloaded (inspect.ts): head, grep, count and shape of an offloaded result', () => {
    const file = '.context/offload/search_workspace-c9-0123456789ab.txt';
    const run = (args: Record<string, unknown>) => runTool(call('inspect_offloaded', { path: file, ...args }), ctx);
    assert.equal(run({ op: 'head', lines: 2 }).text, `${file} (head):\n     1  line 1: ok\n     2  line 2: ok`);
    assert.equal(
      run({ op: 'grep', pattern: 'cartexpired' }).text,
      `${file} (grep):\n     3- line 3: ok\n     4: line 4: CartExpired cart=3\n     5- line 5: ok\n--\n    13- line 13: ok\n    14: line 14: CartExpired cart=13\n    15- line 15: ok\n--\n    23- line 23: ok\n    24: line 24: CartExpired cart=23\n    25- line 25: ok\n3 matching lines`,
    );
    const counted = inspectFile(path.join(root, file), { op: 'count' });
    assert.match(counted, /^30 lines \(30 non-empty\), /);
    assert.equal(run({ op: 'count' }).text, `${file} (count):\n${counted}`);
    const shape = runTool(call('inspect_offloaded', { path: '.context/offload/payload-0123456789ab.json', op: 'shape' }), ctx);
    assert.equal(shape.ok, true);
    assert.match(shape.text, /^\.context\/offload\/payload-0123456789ab\.json \(shape\):\nJSON\n/);
    assert.equal(run({ op: 'tail' }).text, 'invalid arguments for inspect_offloaded: "op" must be one of "head", "grep", "count", "shape", got "tail"');
    assert.equal(run({ op: 'grep' }).text, 'grep needs "pattern"');
  });

  it('inspect_offloaded opens scanned workspace files (offloaded in place), never secret, ignored or outside files', () => {
    assert.equal(runTool(call('inspect_offloaded', { path: 'logs/checkout.log', op: 'count' }), ctx).ok, true);
    assert.equal(runTool(call('inspect_offloaded', { path: '.env', op: 'head' }), ctx).text, '".env" is a secret file (by name): never read');
    assert.equal(runTool(call('inspect_offloaded', { path: 'build/generated.txt', op: 'head' }), ctx).ok, false);
    assert.equal(runTool(call('inspect_offloaded', { path: '/etc/passwd', op: 'head' }), ctx).text, 'inspect_offloaded: /etc/passwd: outside the workspace and the offload store: not inspectable');
    assert.equal(runTool(call('inspect_offloaded', { path: 'config/app.properties', op: 'grep', pattern: 'password' }), ctx).text, 'config/app.properties (grep):\n     1- checkout.ttl.minutes=30\n     2: db.password=[REDACTED:assigned-secret]\n1 matching lines');
  });

  it('bad calls come back as tool errors, never as crashes', () => {
    assert.deepEqual(runTool({ id: 'x', name: 'read_document', arguments: '{"path": ' }, ctx), {
      ok: false,
      source: 'tool:read_document',
      text: 'invalid arguments for read_document: Unexpected end of JSON input',
    });
    assert.equal(runTool(call('write_file', { path: 'a' }), ctx).text, 'unknown tool "write_file"; the tools are read_document, search_workspace, inspect_offloaded');
    assert.equal(runTool(call('search_workspace', {}), ctx).text, 'invalid arguments for search_workspace: "pattern" is required');
    assert.match(runTool(call('inspect_offloaded', { path: '.context/offload/search_workspace-c9-0123456789ab.txt', op: 'grep', pattern: '(' }), ctx).text, /^inspect_offloaded: invalid regular expression \/\(\/: /);
  });

  it('no tool writes to the workspace', () => {
    const before = tree(root);
    runTool(call('read_document', { path: 'docs/runbook.md' }), ctx);
    runTool(call('search_workspace', { pattern: '.*' }), ctx);
    for (const op of ['head', 'grep', 'count', 'shape']) runTool(call('inspect_offloaded', { path: '.context/offload/payload-0123456789ab.json', op, pattern: 'sku' }), ctx);
    assert.deepEqual(tree(root), before);
  });
});

describe('tool results go back through offloading and trimming', () => {
  const base = defaultPolicy();
  const policy = { ...base, offload: { ...base.offload, per_result_tokens: 400, aggregate_tokens: 600, preview_chars: 20 }, zones: { tool_results: { max_tokens: 300 } } };
  const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i} value=${(i * 37) % 101}`).join('\n');
  const outcome = (text: string, source: string) => ({ text, ok: true, source });

  it('offloads over the per-result limit, then the largest until the step fits the aggregate, and trims over the zone cap', () => {
    const root = makeWorkspace();
    const dir = path.join(root, '.context', 'offload');
    const store = openOffloadStore(dir, { maxAgeDays: 0, maxMegabytes: 0 }, () => new Date('2026-11-12T10:00:00Z'));
    const display = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
    const big = words(80, 'big');
    const mid1 = words(40, 'alpha');
    const mid2 = words(45, 'beta');
    const small = 'one short result';
    const tokens = [big, mid1, mid2, small].map((t) => counter.count(t));
    assert.ok(tokens[0] > 400 && tokens[1] < 400 && tokens[2] < 400 && tokens[1] + tokens[2] > 600 && tokens[1] + tokens[3] <= 600 && tokens[1] > 300, tokens.join(','));
    const results = [
      { call: call('search_workspace', { query: 'big' }, 'c1'), outcome: outcome(big, 'search:"big"') },
      { call: call('read_document', { path: 'a.md' }, 'c2'), outcome: outcome(mid1, 'a.md') },
      { call: call('read_document', { path: 'b.md' }, 'c3'), outcome: outcome(mid2, 'b.md') },
      { call: call('read_document', { path: 'c.md' }, 'c4'), outcome: outcome(small, 'c.md') },
    ];
    const admitted = admitToolResults(results, { policy, tokenizer: counter, store, display });
    const [c1, c2, c3, c4] = admitted.value;
    assert.match(c1.offloaded ?? '', /^\.context\/offload\/search_workspace-c1-[0-9a-f]{12}\.txt$/);
    assert.match(c2.trimmed?.reference ?? '', /^\.context\/offload\/read_document-c2-[0-9a-f]{12}\.txt$/);
    assert.match(c3.offloaded ?? '', /^\.context\/offload\/read_document-c3-[0-9a-f]{12}\.txt$/);
    assert.deepEqual([c1.trimmed, c2.offloaded, c3.trimmed, c4.offloaded, c4.trimmed], [undefined, undefined, undefined, undefined, undefined]);
    assert.equal(fs.readFileSync(path.join(root, c1.offloaded ?? ''), 'utf8'), big);
    assert.equal(fs.readFileSync(path.join(root, c2.trimmed?.reference ?? ''), 'utf8'), mid1);
    assert.deepEqual(
      admitted.decisions.offloaded?.map((d) => [d.source, d.rule, d.reason, d.tokens]),
      [
        ['search:"big"', 'per_result', `${tokens[0]} tokens > per_result_tokens 400`, tokens[0]],
        ['b.md', 'aggregate', `returned together: ${tokens[1] + tokens[2] + tokens[3]} tokens > aggregate_tokens 600; offloaded largest first (${tokens[2]} tokens)`, tokens[2]],
      ],
    );
    const p = preview(() => linesOf(big), 20);
    assert.equal(
      c1.text,
      `[offloaded: the result of search_workspace (${tokens[0]} tokens) is not in this context (${tokens[0]} tokens > per_result_tokens 400); the full result is at ${c1.offloaded}. ` +
        'The preview below is for navigation only: inspect the file with inspect_offloaded (head, grep, count, shape) rather than reading it whole.]\n' +
        `preview, first 20 characters:\n${p.head}\npreview, last 20 characters:\n${p.tail}`,
    );
    assert.equal(p.head, big.slice(0, 20));
    assert.ok(c2.tokens <= 300, `trimmed to ${c2.tokens}`);
    assert.match(c2.text, new RegExp(`\\n\\[trimmed: \\d+ of 40 lines kept; the full result is at ${c2.trimmed?.reference.replace(/\./g, '\\.')} \\(inspect_offloaded reads it\\)\\]$`));
    assert.deepEqual(admitted.decisions.trimmed?.map((d) => [d.source, d.original_tokens, d.tokens, d.original_lines]), [['a.md', tokens[1], c2.tokens, 40]]);
    assert.deepEqual(c4, { call: results[3].call, outcome: results[3].outcome, text: small, tokens: tokens[3], originalTokens: tokens[3] });
  });
});
