import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { decideOffload, offloadToolResults } from '../../../src/core/chain/offload';
import { assemble } from '../../../src/core/chain/assemble';
import { openOffloadStore } from '../../../src/core/offload/store';
import { defaultPolicy } from '../../../src/core/policy';
import { displayPath, loadSnapshot } from '../../../src/core/sources/snapshot';
import { counter } from '../helpers';
import { payload, tempDir, writeResults } from './results';

const LIMITS = { per_result_tokens: 6000, aggregate_tokens: 10000 };
const NOW = () => new Date('2026-11-12T10:00:00Z');

describe('offload decision (per result, then aggregate)', () => {
  it('four results of 4 600, 4 400, 3 800 and 3 500 tokens returned together: exactly the two largest go', () => {
    const verdicts = decideOffload(
      [
        { source: 'tool:c', tokens: 3800 },
        { source: 'tool:a', tokens: 4600 },
        { source: 'tool:d', tokens: 3500 },
        { source: 'tool:b', tokens: 4400 },
      ],
      LIMITS,
    );
    assert.deepEqual(verdicts, [
      { source: 'tool:a', rule: 'aggregate', reason: 'returned together: 16300 tokens > aggregate_tokens 10000; offloaded largest first (4600 tokens)' },
      { source: 'tool:b', rule: 'aggregate', reason: 'returned together: 11700 tokens > aggregate_tokens 10000; offloaded largest first (4400 tokens)' },
    ]);
  });

  it('a result above per_result_tokens goes on its own; four of 4 000 each pass one by one but not together', () => {
    assert.deepEqual(decideOffload([{ source: 'tool:big', tokens: 6001 }, { source: 'tool:small', tokens: 6000 }], LIMITS), [
      { source: 'tool:big', rule: 'per_result', reason: '6001 tokens > per_result_tokens 6000' },
    ]);
    const four = ['a', 'b', 'c', 'd'].map((s) => ({ source: s, tokens: 4000 }));
    assert.deepEqual(decideOffload(four, LIMITS).map((v) => v.source), ['a', 'b']);
    assert.deepEqual(decideOffload(four.slice(0, 2), LIMITS), []);
  });
});

describe('offload stage, on files', () => {
  const policy = defaultPolicy();
  const targets = [
    { name: 'search_prs', tokens: 4600 },
    { name: 'list_issues', tokens: 4400 },
    { name: 'get_metrics', tokens: 3800 },
    { name: 'read_runbook', tokens: 3500 },
  ];

  it('offloads exactly the two largest, whole, and leaves a notice, the path and a 100-character head and tail', () => {
    const outside = tempDir('results');
    const root = tempDir('ws');
    const texts = targets.map((t, i) => payload(t.tokens, 20 + i));
    texts.forEach((text, i) => assert.ok(Math.abs(counter.count(text) - targets[i].tokens) <= 60, `${targets[i].name} is about ${targets[i].tokens} tokens`));
    const results = writeResults(outside, targets.map((t, i) => ({ name: t.name, text: texts[i] })));
    const dir = path.join(root, '.context', 'offload');
    const out = offloadToolResults(results, { policy, tokenizer: counter, store: () => openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, NOW), display: (abs) => displayPath(root, abs) });

    const entries = out.decisions.offloaded ?? [];
    assert.deepEqual(entries.map((e) => e.source), ['tool:search_prs', 'tool:list_issues']);
    for (const [i, e] of entries.entries()) {
      assert.match(String(e.path), new RegExp(`^\\.context/offload/${targets[i].name}-[0-9a-f]{12}\\.json$`));
      assert.equal(fs.readFileSync(path.join(root, String(e.path)), 'utf8'), texts[i], 'the offload file holds the full text');
      assert.equal(e.tokens, counter.count(texts[i]));
      assert.equal(e.in_place, false);
      assert.equal(e.rule, 'aggregate');
    }
    assert.deepEqual(out.value.inline.map((r) => r.path), ['tool:get_metrics', 'tool:read_runbook']);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.context-control-offload.json', '.gitignore', path.basename(String(entries[1].path)), path.basename(String(entries[0].path))].sort());

    const notice = out.value.blocks[0];
    assert.equal(notice.source, 'tool:search_prs');
    assert.deepEqual(notice.meta.offload, { path: entries[0].path, tokens: entries[0].tokens });
    const lines = notice.text.split('\n');
    assert.match(lines[0], new RegExp(`^\\[offloaded: the result of search_prs \\(${entries[0].tokens} tokens, ${Buffer.byteLength(texts[0])} bytes\\) is not in this context \\(returned together: \\d+ tokens > aggregate_tokens 10000; offloaded largest first \\(\\d+ tokens\\)\\); the full result is at ${String(entries[0].path).replace(/\./g, '\\.')}\\.`));
    const full = texts[0].replace(/\n$/, '');
    assert.equal(notice.text.slice(notice.text.indexOf('preview, first 100 characters:\n') + 31, notice.text.indexOf('\npreview, last 100 characters:')), full.slice(0, 100));
    assert.ok(notice.text.endsWith(`preview, last 100 characters:\n${full.slice(-100)}`));
    assert.ok(out.value.tokens < 600, 'the notices are small');
  });

  it('a result that is already a workspace file is referenced in place, not copied', () => {
    const root = tempDir('ws');
    fs.mkdirSync(path.join(root, 'out'));
    const [result] = writeResults(path.join(root, 'out'), [{ name: 'dump', text: payload(6500, 40) }], root);
    const dir = path.join(root, '.context', 'offload');
    const out = offloadToolResults([result], { policy, tokenizer: counter, store: () => openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, NOW), display: (abs) => displayPath(root, abs) });
    const [entry] = out.decisions.offloaded ?? [];
    assert.equal(entry.path, 'out/dump.json');
    assert.equal(entry.in_place, true);
    assert.match(entry.reason, /^\d+ tokens > per_result_tokens 6000$/);
    assert.equal(fs.existsSync(dir), false, 'nothing was copied to the store');
    assert.match(out.value.blocks[0].text, /it is the workspace file out\/dump\.json\./);
  });

  it('through the whole chain: the manifest lists the offloaded entries, the rest is trimmed with a stored reference', () => {
    const outside = tempDir('results');
    const root = tempDir('ws');
    const texts = targets.map((t, i) => payload(t.tokens, 20 + i));
    texts.forEach((text, i) => fs.writeFileSync(path.join(outside, `${targets[i].name}.json`), text));
    // The zone as a cap (grow: false): with the default, the two inline results grow into the free room and are sent
    // whole, which is not what this test is about.
    const capped = { ...policy, zones: { ...policy.zones, tool_results: { ...policy.zones.tool_results, grow: false } } };
    const snapshot = loadSnapshot({ root, task: 'Why are legacy POS payments rejected?', policy: capped, toolResults: targets.map((t) => ({ name: t.name, file: path.join(outside, `${t.name}.json`) })) });
    const result = assemble(snapshot, { tokenizer: counter, now: NOW });
    const m = result.manifest;
    assert.deepEqual(m.offloaded.map((o) => o.source), ['tool:search_prs', 'tool:list_issues']);
    for (const [i, o] of m.offloaded.entries()) assert.equal(fs.readFileSync(path.join(root, String(o.path)), 'utf8'), texts[i]);
    assert.deepEqual(m.trimmed.map((t) => t.source), ['tool:get_metrics', 'tool:read_runbook']);
    for (const [i, t] of m.trimmed.entries()) {
      assert.match(String(t.reference), /^\.context\/offload\/(get_metrics|read_runbook)-[0-9a-f]{12}\.json$/);
      assert.equal(fs.readFileSync(path.join(root, String(t.reference)), 'utf8'), texts[i + 2], 'the trimmed result points at its full text');
      assert.equal(t.original_tokens, counter.count(texts[i + 2]));
    }
    assert.match(result.trace, /tool:search_prs +OFFLOADED 4\u202f6\d\d → \.context\/offload\/search_prs-[0-9a-f]{12}\.json\n/);
    assert.ok(m.zones.tool_results <= policy.zones.tool_results.max_tokens);
    assert.ok(result.serialized.includes('[offloaded: the result of list_issues'));
  });
});
