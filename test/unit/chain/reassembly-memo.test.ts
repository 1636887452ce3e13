import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { render, wrap, wrapped } from '../../../src/core/chain/render';
import { countIncrementally, pieceMemo, pieces, serialize, SPLICE_MIN } from '../../../src/core/chain/request-count';
import { clearWrapMemo, entryCount, sameShape, WRAP_MEMO_SHAPES, wrapMemoShapes, wrapMemoSize, wrapShape } from '../../../src/core/chain/wrap-memo';
import { Placement, listFields } from '../../../src/core/chain/placement';
import { RequestCounter } from '../../../src/core/chain/request-count';
import { serializeRequest } from '../../../src/core/providers/shape';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { TiktokenCounter, type Tokenizer } from '../../../src/core/tokens';
import { block, EXAMPLE } from '../helpers';

const NOW = () => new Date('2026-11-12T10:00:00Z');

/** A counter that says how often it was asked (one token per character). */
function countingTokenizer(): Tokenizer & { calls: string[] } {
  const calls: string[] = [];
  return { encoding: 'test', calls, count: (t: string) => (calls.push(t), t.length) };
}

/** A copy of the example workspace the test may edit. */
function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-reasm-'));
  fs.cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}

const bytes = (a: Assembly) => [a.serialized, JSON.stringify(a.manifest), a.trace];

/** The assembly with every memo empty: the wrap memo cleared, a tokenizer no memo has seen. */
function fresh(root: string): Assembly {
  clearWrapMemo();
  return assemble(loadSnapshot({ root, task: path.join(root, 'ticket.md'), changes: NO_GIT }), { now: NOW, tokenizer: new TiktokenCounter('o200k_base') });
}

describe('the wrap memo: a block wrapped, redacted and counted once', () => {
  it('the same text and shape give the same entry; an edit, another source or another status give a new one', () => {
    const a = block('document', 'docs/a.md', 'alpha beta');
    const e = wrapped(a);
    assert.equal(wrapped({ ...a }), e, 'a copy of the block (stages copy blocks) finds the same entry');
    assert.equal(wrapped({ ...a, tokens: 99, priority: 3 }), e, 'tokens and priority are not part of the wrapped text');
    const edited = wrapped({ ...a, text: 'alpha beta gamma' });
    assert.notEqual(edited, e);
    assert.equal(edited.text, '<document source="docs/a.md" trust="project-document">\n<content>\nalpha beta gamma\n</content>\n</document>');
    assert.notEqual(wrapped({ ...a, source: 'docs/b.md' }).text, e.text);
    assert.equal(wrapped({ ...a, meta: { status: 'accepted' } }).text, '<document source="docs/a.md" trust="project-document" status="accepted">\n<content>\nalpha beta\n</content>\n</document>');
    assert.equal(wrapped(a), e, 'the first entry is still known');
  });

  it('the shape holds what the wrapped text reads and nothing else (a trim figure the text does not show is left out)', () => {
    const trim = { trimmed: true as const, original_lines: 10, retained_lines: 2, original_tokens: 80, original_tokens_exact: true, tokens: 0, reference: 'logs/a.log', format: 'log' };
    const t = block('tool_result', 'logs/a.log', 'ERROR x', { meta: { trim } });
    assert.ok(sameShape(wrapShape(t), wrapShape({ ...t, meta: { trim: { ...trim, tokens: 41 } } })));
    assert.ok(!sameShape(wrapShape(t), wrapShape({ ...t, meta: { trim: { ...trim, retained_lines: 3 } } })));
    assert.ok(!sameShape(wrapShape(t), wrapShape({ ...t, meta: {} })), 'no trim is not a trim of undefined figures');
    assert.deepEqual(wrapShape(block('index', 'builtin:index', 'x')), ['index']);
  });

  it('keeps what the redaction found, and render reports it for the block every time', () => {
    const secret = block('document', 'docs/s.md', 'password = "hunter2-correct-horse-battery"');
    const first = render([secret], 'gpt-4o', 100).redactions;
    const second = render([{ ...secret }], 'gpt-4o', 100).redactions;
    assert.deepEqual(first, [{ source: 'docs/s.md', rule: 'assigned-secret', line: 3 }]);
    assert.deepEqual(second, first);
    assert.ok(!wrap(secret).includes('hunter2'));
  });

  it('counts an entry once per tokenizer', () => {
    const t1 = countingTokenizer();
    const t2 = countingTokenizer();
    const e = wrapped(block('document', 'docs/c.md', 'counted once'));
    assert.equal(entryCount(e, t1), e.text.length);
    assert.equal(entryCount(e, t1), e.text.length);
    assert.equal(t1.calls.length, 1);
    assert.equal(entryCount(e, t2), e.text.length);
    assert.equal(t2.calls.length, 1);
  });

  it('keeps the last WRAP_MEMO_SHAPES shapes of one text, the oldest forgotten first', () => {
    const text = 'ERROR one text, trimmed to new figures at every call';
    const shaped = (n: number) => block('tool_result', 'logs/s.log', text, { meta: { trim: { trimmed: true as const, original_lines: 100 + n, retained_lines: 1, original_tokens: 500, original_tokens_exact: true, tokens: 0, reference: 'logs/s.log', format: 'log' } } });
    const first = wrapped(shaped(0));
    for (let n = 1; n < 3 * WRAP_MEMO_SHAPES; n++) wrapped(shaped(n));
    assert.equal(wrapMemoShapes(text), WRAP_MEMO_SHAPES);
    const last = 3 * WRAP_MEMO_SHAPES - 1;
    assert.equal(wrapped(shaped(last)), wrapped(shaped(last)), 'a recent shape is still known');
    const again = wrapped(shaped(0));
    assert.notEqual(again, first, 'the oldest was forgotten: a new entry');
    assert.equal(again.text, first.text);
    assert.equal(wrapMemoShapes(text), WRAP_MEMO_SHAPES);
  });

  it('clearing it forgets every block', () => {
    wrapped(block('document', 'docs/d.md', 'to forget'));
    assert.ok(wrapMemoSize() > 0);
    clearWrapMemo();
    assert.equal(wrapMemoSize(), 0);
  });
});

describe('counting the request from the pieces of the last two assemblies', () => {
  it('equals a count of the whole text, before and after an edit, and counts only the pieces that changed', () => {
    const tokenizer = new TiktokenCounter('o200k_base');
    const blocks = Array.from({ length: 40 }, (_, i) => block('document', `docs/n-${i}.md`, `Note ${i}: the ledger retries ${i} times, then gives up.\n`.repeat(30)));
    const counter = new RequestCounter(tokenizer, 'gpt-4o', 4096, 'openai', true);
    const before = serializeRequest(counter.render(blocks), 'openai', true);
    const whole = (text: string) => new TiktokenCounter('o200k_base').countUpTo(text, Infinity, false);
    assert.equal(countIncrementally(tokenizer, before), whole(before));
    // The next assembly: one document edited.
    const next = new RequestCounter(tokenizer, 'gpt-4o', 4096, 'openai', true);
    const edited = blocks.map((b, i) => (i === 7 ? { ...b, text: b.text + 'Edit: the retry now backs off.\n' } : b));
    const after = serializeRequest(next.render(edited), 'openai', true);
    const chars = tokenizer.encodedChars;
    assert.equal(countIncrementally(tokenizer, after), whole(after));
    const changed = pieces(after).filter((p) => !pieces(before).includes(p));
    assert.ok(changed.length > 0 && changed.length <= 3, `${changed.length} pieces changed`);
    assert.equal(tokenizer.encodedChars - chars, changed.reduce((n, p) => n + p.length, 0), 'only the changed pieces were encoded');
  });

  it('rotates once per assembly: a piece neither of the last two assemblies counted is forgotten', () => {
    const tokenizer = new TiktokenCounter('o200k_base');
    const memo = pieceMemo(tokenizer);
    memo.count('alpha');
    memo.rotate();
    memo.count('beta');
    assert.equal(memo.size, 2);
    memo.rotate();
    assert.equal(memo.size, 1, 'alpha is gone, beta stays one more assembly');
    memo.rotate();
    assert.equal(memo.size, 0);
  });

  it('the counter serializes the blocks it counted last once, and says so only for those very blocks', () => {
    const tokenizer = new TiktokenCounter('o200k_base');
    const blocks = [block('document', 'docs/a.md', 'one'), block('current_task', 'task.md', 'why?')];
    const counter = new RequestCounter(tokenizer, 'gpt-4o', 4096, 'openai', true);
    const n = counter.count(blocks);
    assert.equal(counter.serializedOf(blocks), serializeRequest(render(blocks, 'gpt-4o', 4096), 'openai', true));
    assert.equal(counter.count([...blocks]), n);
    assert.equal(counter.serializedOf([blocks[1], blocks[0]]), undefined);
    assert.equal(counter.serializedOf([{ ...blocks[0] }, blocks[1]]), undefined);
  });
});

describe('serializing a large message from its parts', () => {
  const big = Array.from({ length: 30 }, (_, i) => block('document', `docs/b-${i}.md`, `Ünïcode "quoted" \\ back\tslash \u2028 line ${i} 😀\n`.repeat(120)));
  const task = block('current_task', 'task.md', 'why?');
  const rules = block('agents_md', 'AGENTS.md', 'be brief');

  it('gives serializeRequest\'s bytes in every shape, spliced (OpenAI) or not', () => {
    const neutral = render([rules, ...big, task], 'gpt-4o', 4096);
    assert.ok(neutral.messages.some((m) => m.content.length >= SPLICE_MIN), 'the message is large enough to be spliced');
    for (const shape of ['openai', 'anthropic', 'vscode-lm'] as const) {
      for (const stream of [true, false]) assert.equal(serialize(neutral, shape, stream), serializeRequest(neutral, shape, stream), `${shape} ${stream}`);
    }
    // Again, now that every part's escaped text is known.
    assert.equal(serialize(neutral, 'openai', true), serializeRequest(neutral, 'openai', true));
  });

  it('a copied message (no parts known) serializes the plain way; astral characters throughout: the same bytes', () => {
    const neutral = render([...big, task], 'gpt-4o', 4096);
    const copied = { ...neutral, messages: neutral.messages.map((m) => ({ ...m })) };
    assert.equal(serialize(copied, 'openai', true), serializeRequest(copied, 'openai', true));
    const halves = block('document', 'docs/h.md', '😀'.repeat(SPLICE_MIN));
    const n2 = render([halves, task], 'gpt-4o', 4096);
    assert.equal(serialize(n2, 'openai', true), serializeRequest(n2, 'openai', true));
  });
});

describe('the index line memo', () => {
  it('a line is known by what it says: another title, figure, status or score is another line', () => {
    const d = block('decision', 'docs/adr/1.md', 'x', { meta: { title: 'One', status: 'accepted', relevance: { score: 0.5, rank: 1, of: 2, reason: 'r' } } });
    const key = listFields(d);
    assert.ok(sameShape(listFields({ ...d, text: 'another body', priority: 9 }), key));
    const tagged = { ...d, meta: { ...d.meta, tags: ['a', 'b'] } };
    for (const other of [{ ...d, tokens: d.tokens + 1 }, { ...d, meta: { ...d.meta, title: 'Two' } }, { ...d, meta: { ...d.meta, status: 'proposed' } }, { ...d, meta: { ...d.meta, relevance: { ...d.meta.relevance!, score: 0.6 } } }, { ...d, kind: 'document' as const }, { ...d, meta: { ...d.meta, tags: [] } }, tagged]) {
      assert.ok(!sameShape(listFields(other), key));
    }
    assert.ok(!sameShape(listFields({ ...d, meta: { ...d.meta, tags: ['a', 'c'] } }), listFields(tagged)));
    assert.ok(sameShape(listFields({ ...d, meta: { ...d.meta, tags: ['a', 'b'] } }), listFields(tagged)));
  });

  it('a known line costs what counting it again costs', () => {
    const tokenizer = new TiktokenCounter('o200k_base');
    const counter = new RequestCounter(tokenizer, 'gpt-4o', 4096, 'openai', true);
    const d = block('document', 'docs/a.md', 'x', { meta: { title: 'A', summary: 'about a' } });
    const policy = loadSnapshot({ root: EXAMPLE, task: path.join(EXAMPLE, 'ticket.md'), changes: NO_GIT }).policy;
    const first = new Placement(tokenizer, counter).listCost(policy, d);
    const again = new Placement(tokenizer, counter).listCost(policy, { ...d });
    const cold = new Placement(new TiktokenCounter('o200k_base'), new RequestCounter(new TiktokenCounter('o200k_base'), 'gpt-4o', 4096, 'openai', true)).listCost(policy, d);
    assert.equal(again, first);
    assert.equal(cold, first);
  });
});

describe('re-assembly with the memos gives the bytes of an assembly without them', () => {
  const root = workspace();
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const tokenizer = new TiktokenCounter('o200k_base');
  const warm = () => assemble(loadSnapshot({ root, task: path.join(root, 'ticket.md'), changes: NO_GIT }), { now: NOW, tokenizer });
  const doc = path.join(root, 'docs', 'adr', 'adr-012-optional-fields-at-http-boundary.md');

  it('the example, assembled again and again: the same request, manifest and trace as with empty memos', () => {
    const first = warm();
    assert.deepEqual(bytes(warm()), bytes(first));
    assert.deepEqual(bytes(fresh(root)), bytes(first));
  });

  it('after an edit of one document', () => {
    warm();
    fs.appendFileSync(doc, '\nEdit: the ledger retry now backs off.\n');
    const edited = warm();
    assert.ok(edited.serialized.includes('the ledger retry now backs off'));
    assert.deepEqual(bytes(fresh(root)), bytes(edited));
    assert.equal(edited.manifest.budget.final, new TiktokenCounter('o200k_base').countUpTo(edited.serialized, Infinity, false), 'the count is exact');
  });

  it('after a document is deleted', () => {
    warm();
    fs.rmSync(doc);
    const gone = warm();
    assert.ok(!gone.serialized.includes('source="docs/adr/adr-012-optional-fields-at-http-boundary.md"'));
    assert.deepEqual(bytes(fresh(root)), bytes(gone));
  });

  it('after a policy change (a priority), then a budget change (a smaller window)', () => {
    const policyFile = path.join(root, '.context', 'policy.yaml');
    const original = fs.readFileSync(policyFile, 'utf8');
    const before = warm();
    fs.writeFileSync(policyFile, original.replace('{ match: "docs/architecture.md", priority: 30 }', '{ match: "docs/architecture.md", priority: 95 }'));
    const prioritized = warm();
    assert.notDeepEqual(bytes(prioritized), bytes(before));
    assert.deepEqual(bytes(fresh(root)), bytes(prioritized));
    warm();
    fs.writeFileSync(policyFile, original.replace('window: 14000', 'window: 12500'));
    const smaller = warm();
    assert.equal(smaller.manifest.budget.window, 12500);
    assert.notDeepEqual(bytes(smaller), bytes(before));
    assert.deepEqual(bytes(fresh(root)), bytes(smaller));
    fs.writeFileSync(policyFile, original);
    assert.deepEqual(bytes(warm()), bytes(fresh(root)));
  });
});
