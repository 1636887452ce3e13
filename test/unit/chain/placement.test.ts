import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { makeBlock } from '../../../src/core/chain/collect';
import { fill } from '../../../src/core/chain/fill';
import { indexBlock } from '../../../src/core/chain/index-block';
import { cacheKeyOf, RequestCounter } from '../../../src/core/chain/request-count';
import { wrap } from '../../../src/core/chain/render';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { TiktokenCounter } from '../../../src/core/tokens';
import type { Block } from '../../../src/core/types';
import { counter } from '../helpers';

const NOW = () => new Date('2026-11-12T10:00:00Z');
const WORDS = ['the', 'ledger', 'retry', 'settlement', 'export', 'batch', 'service', 'waits', 'for', 'a', 'slow', 'upstream', 'response', 'and', 'then', 'writes', 'every', 'record', 'to', 'storage', 'when', 'operators', 'review', 'nightly', 'reports', 'they', 'check', 'which', 'accounts', 'changed', 'before', 'closing', 'period'];

/** English prose, deterministic: sentences of common words (about 5.6 characters per o200k token). */
function prose(seed: number, paragraphs: number): string {
  let x = seed;
  const word = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return WORDS[(x >>> 8) % WORDS.length];
  };
  const sentence = () => {
    const w = Array.from({ length: 14 }, word).join(' ');
    return `${w[0].toUpperCase()}${w.slice(1)}.`;
  };
  return Array.from({ length: paragraphs }, () => Array.from({ length: 6 }, sentence).join(' ')).join('\n\n');
}

/** Eighty prose notes, all prioritized by the policy (so all compete for the budget), and a 35 000-token max_input. */
function workspace(): string {
  // A folder of its own: the request's prompt_cache_key costs five tokens whatever the root (cacheKeyOf), so two
  // concurrent runs need not share, and collide in, one fixed folder.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-placement-prose-'));
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.context'));
  for (let i = 0; i < 80; i++) fs.writeFileSync(path.join(dir, 'docs', `note-${String(i).padStart(2, '0')}.md`), `# Note ${i}\n\n${prose(i + 1, 5)}\n`);
  fs.writeFileSync(path.join(dir, 'task.md'), 'Why does the ledger retry time out during settlement export?\n');
  fs.writeFileSync(path.join(dir, '.context', 'policy.yaml'), 'envelope: { window: 40000, output_reserve: 4000, margin: 1000 }\npriorities:\n  - { match: "docs/**", priority: 40 }\n');
  return dir;
}

describe('placement by exact counts: English prose is not left out while the request has room', () => {
  const dir = workspace();
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const load = () => loadSnapshot({ root: dir, task: path.join(dir, 'task.md'), cwd: dir, changes: NO_GIT });
  const snapshot = load();
  const a = assemble(snapshot, { tokenizer: counter, now: NOW });
  const placed = a.manifest.selected.filter((d) => d.kind === 'document');
  const left = a.manifest.indexed.filter((d) => d.reason.startsWith('did not fit the budget'));
  const notes = snapshot.documents.map((d) => makeBlock(snapshot.policy, 'document', d.path, 'project-document', d.body.trim(), { title: d.title }));
  const requestOf = (docs: Block[], listed: Block[]) => {
    const index = indexBlock(snapshot.policy, listed, new Set(listed));
    const blocks = [...a.blocks.filter((b) => b.kind !== 'document' && b.kind !== 'index'), ...docs, ...(index ? [index] : [])];
    return new RequestCounter(counter, 'gpt-4o', 4000, 'openai', true, cacheKeyOf(dir)).count(blocks);
  };

  it('the old 3.6 characters-per-token estimate left 38 of 80 notes out while a third of the budget was unused', () => {
    // The chain's own fill on the same candidates and room, each note costed by the old estimate of its wrapped text.
    const available = a.manifest.budget.max_input - a.manifest.budget.mandatory;
    const old = fill({ candidates: notes, groups: [], available, toolResultsCap: 1500, cost: (b) => Math.ceil(wrap(b).length / 3.6) });
    assert.equal(old.value.selected.length, 42);
    assert.equal(old.value.overflow.length, 38);
    assert.equal(old.value.overflow[0].source, 'docs/note-42.md');
    // What those 42 notes really cost: the request would have used 22 512 of its 35 000 tokens.
    assert.equal(requestOf(old.value.selected, old.value.overflow), 22512);
  });

  it('exact counts place notes until the room is used: 67 placed, 13 in the index, the request 81 tokens under max_input', () => {
    assert.equal(placed.length, 67);
    assert.deepEqual(placed.map((d) => d.source).slice(-2), ['docs/note-65.md', 'docs/note-66.md'], 'in priority order, then by path');
    assert.equal(left.length, 13);
    assert.equal(left[0].source, 'docs/note-67.md');
    assert.equal(a.manifest.budget.final, 34919);
    assert.deepEqual(a.manifest.degraded, [], 'fill was exact: the ladder had nothing to do');
    // The next note does not fit: it alone adds 496 tokens to the request as sent, and 81 were left.
    const sent = new RequestCounter(counter, 'gpt-4o', 4000, 'openai', true, cacheKeyOf(dir));
    assert.equal(sent.count(a.blocks), 34919);
    assert.equal(sent.count([...a.blocks, notes[67]]) - 34919, 496);
  });

  it('counts only as far as the room, and each text once: a re-assembly after a one-note edit counts that note only', () => {
    const huge = path.join(dir, 'docs', 'zz-huge.md');
    fs.writeFileSync(huge, `# A very long note\n\n${prose(999, 2000)}\n`);
    const tk = new TiktokenCounter('o200k_base');
    const first = assemble(load(), { tokenizer: tk, now: NOW });
    assert.match(first.manifest.indexed.find((d) => d.source === 'docs/zz-huge.md')?.reason ?? '', /^did not fit the budget/);
    // 1.1 MB of prose (about 230 000 tokens) tried against the 144 tokens left: never counted whole, and decided by
    // its floor (tokens.ts tokenFloor) rather than by a step of encoding past the room (480 661 characters before).
    // Everything this assembly encoded (each placed note twice: its text as the manifest counts it, and as the
    // request's JSON holds it) is less than half the huge note.
    assert.equal(fs.statSync(huge).size, 1124852);
    assert.equal(tk.encodedChars, 439278);
    const cold = tk.encodedChars;
    const edited = path.join(dir, 'docs', 'note-05.md');
    fs.writeFileSync(edited, fs.readFileSync(edited, 'utf8').replace('# Note 5', '# Note 5 (edited)'));
    assemble(load(), { tokenizer: tk, now: NOW });
    // Only the edited note (2 816 characters, in its two forms) and the request pieces around it are encoded again.
    assert.equal(fs.statSync(edited).size, 2816);
    assert.equal(tk.encodedChars - cold, 6128);
    fs.rmSync(huge);
  });
});

describe('fill order: includes, then the session\'s share, then candidates, then older groups', () => {
  const policy = loadSnapshot({ root: path.join(__dirname, '..', '..', '..', '..', 'examples', 'payment-incident'), task: 'x', changes: NO_GIT }).policy;
  const doc = (source: string, priority: number, tokens: number, include = false): Block => ({ ...makeBlock(policy, 'document', source, 'project-document', source, include ? { override: 'include' } : {}, priority), tokens });
  const group = (n: number): Block => ({ ...makeBlock(policy, 'session_group', `s#e${n}`, 'session', `event ${n}`, { groupIndex: n, events: [] }), tokens: 100 });

  it('every candidate keeps room for its index line; the newest groups come before a higher-priority document', () => {
    const out = fill({
      candidates: [doc('a.md', 50, 300), doc('b.md', 10, 300, true)],
      groups: [group(1), group(2), group(3)],
      reservedGroups: 2,
      available: 800,
      toolResultsCap: 1500,
      listCost: () => 10,
      listWrapper: 5,
    });
    // b.md (included) 300 → 500 left; e3, e2 (the session's share, beside a.md's line and the index element) → 300;
    // a.md needs 300 but 295 are left beside the index element its own line would open → listed (10 + 5) → 285; e1 → 185.
    assert.deepEqual(out.value.selected.map((b) => b.source), ['b.md', 's#e1', 's#e2', 's#e3']);
    assert.deepEqual(out.decisions.indexed?.map((d) => [d.source, d.reason]), [['a.md', 'did not fit the budget (295 tokens left)']]);
    assert.deepEqual(out.value.droppedGroups, []);
  });

  it('without a share, the session takes what the documents leave, newest first, with no gaps', () => {
    const out = fill({ candidates: [doc('a.md', 50, 300)], groups: [group(1), group(2), group(3)], available: 520, toolResultsCap: 1500 });
    assert.deepEqual(out.value.selected.map((b) => b.source), ['a.md', 's#e2', 's#e3']);
    assert.deepEqual(out.decisions.rejected?.map((d) => [d.source, d.reason]), [['s#e1', 'session events omitted: at least 100 tokens needed, 20 left of the budget once documents and tool output were placed']]);
  });
});

describe('the example (examples/payment-incident) placed by exact counts', () => {
  const root = path.join(__dirname, '..', '..', '..', '..', 'examples', 'payment-incident');
  const a = assemble(loadSnapshot({ root, task: path.join(root, 'ticket.md'), changes: NO_GIT }), { tokenizer: counter, now: NOW });

  it('PaymentControllerTest.java is 988 tokens, under the 1 200-token excerpt threshold: sent whole (3.6 said 1 233)', () => {
    const test = a.blocks.find((b) => b.source === 'src/test/java/com/acme/payments/api/PaymentControllerTest.java');
    assert.equal(fs.readFileSync(path.join(root, test!.source), 'utf8').length, 4436);
    assert.equal(test!.tokens, 988);
    assert.equal(test!.meta.excerpt, undefined);
  });

  // The task's "paymentMethod is required" points at PaymentRequest.java (the @NotNull that is the
  // bug) and its paymentMethod at PaymentService.java; both are sent (the request is 10 960 tokens), so architecture.md finds 106 tokens left.
  it('the session\'s six recent groups are placed before the documents; architecture.md does not fit what is left', () => {
    assert.deepEqual(a.manifest.session, { ...a.manifest.session, kept_raw: 8, compacted: 16, omitted: 0 });
    assert.deepEqual(a.manifest.selected.filter((d) => d.kind === 'session_group').map((d) => d.source.replace(/^.*#/, '')), ['e17', 'e19', 'e20', 'e22', 'e23', 'e24']);
    assert.deepEqual(a.manifest.indexed.map((d) => [d.source, d.reason.replace(/: in the index.*$/, '')]), [
      ['docs/architecture.md', 'did not fit the budget (106 tokens left)'],
      ['docs/runbook.md', 'below the relevance threshold 30%'],
    ]);
    assert.equal(a.manifest.budget.final, 10960);
    assert.deepEqual(a.manifest.degraded, []);
  });
});
