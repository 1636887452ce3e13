import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assemble } from '../../../src/core/chain/assemble';
import { countIncrementally, countSegments, pieces, RequestCounter, serialize, serializeSegments } from '../../../src/core/chain/request-count';
import { render } from '../../../src/core/chain/render';
import { serializeRequest } from '../../../src/core/providers/shape';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { counterFor, TiktokenCounter } from '../../../src/core/tokens';
import type { BlockKind } from '../../../src/core/types';
import { block, EXAMPLE } from '../helpers';

const NOW = () => new Date('2026-11-12T10:00:00Z');
const fresh = () => new TiktokenCounter('o200k_base');

describe('counting the request incrementally (chain/request-count.ts)', () => {
  it('cuts only before a `<` that follows a letter, and the pieces join back to the text', () => {
    assert.deepEqual(pieces('a<b c<d'), ['a', '<b c', '<d']);
    assert.deepEqual(pieces('x\\n<document source=\\"a\\">'), ['x\\n', '<document source=\\"a\\">']);
    assert.deepEqual(pieces('1<2 ><a'), ['1<2 ><a'], 'no cut after a digit or a `>`');
    const long = 'y'.repeat(1000) + 'n<tag';
    assert.deepEqual(pieces(long), ['y'.repeat(1000) + 'n', '<tag'], 'a long run is cut too: the counter is exact on it');
    assert.deepEqual(pieces('é<x 𝒜<y 😀<z \ud835<w'), ['é', '<x 𝒜', '<y 😀<z \ud835<w'], 'letters outside ASCII, astral ones too; no cut after an emoji or a lone surrogate');
  });

  it('cuts exactly where a letter (\\p{L}) meets `<`, on random text', () => {
    const reference = (text: string) => {
      const out: string[] = [];
      let at = 0;
      for (const m of text.matchAll(/\p{L}(?=<)/gu)) {
        out.push(text.slice(at, m.index + m[0].length));
        at = m.index + m[0].length;
      }
      return [...out, text.slice(at)];
    };
    const unit = fc.constantFrom('<', '<', 'a', 'Z', '1', ' ', '>', 'é', 'ß', '中', '𝒜', '😀', '\ud835', '\udc9c', '\n', '"');
    fc.assert(fc.property(fc.array(unit, { maxLength: 60 }).map((xs) => xs.join('')), (text) => assert.deepEqual(pieces(text), reference(text))), { numRuns: 2000, seed: 18 });
  });

  it('equals a full recount on the example\'s request, in both shapes and both encodings', () => {
    const snapshot = loadSnapshot({ root: EXAMPLE, task: path.join(EXAMPLE, 'ticket.md'), changes: NO_GIT });
    for (const shape of ['openai', 'anthropic'] as const) {
      const a = assemble(snapshot, { shape, now: NOW });
      assert.ok(pieces(a.serialized).length > 20, 'the request is cut into many pieces');
      for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
        assert.equal(countIncrementally(new TiktokenCounter(encoding), a.serialized), new TiktokenCounter(encoding).count(a.serialized), `${shape} ${encoding}`);
      }
      assert.equal(a.manifest.budget.final, counterFor('o200k_base').count(a.serialized), `${shape}: the manifest's final is the full count`);
    }
  });

  it('re-tokenizes only the pieces of the block that changed after an edit', () => {
    /** Records the texts it is asked to count for the first time. */
    class Spy extends TiktokenCounter {
      readonly seen = new Set<string>();
      fresh: string[] = [];
      override count(text: string): number {
        if (!this.seen.has(text)) this.fresh.push(text);
        this.seen.add(text);
        return super.count(text);
      }
    }
    const spy = new Spy('o200k_base');
    const docs = ['alpha', 'beta', 'gamma'].map((n) => block('document', `docs/${n}.md`, `# ${n}\n${n} text `.repeat(40)));
    const request = (blocks: typeof docs) => serializeRequest(render(blocks, 'gpt-4o', 2000), 'openai', true);
    const first = countIncrementally(spy, request(docs));
    assert.ok(spy.fresh.length > 6, 'the first count tokenizes every piece');
    spy.fresh = [];
    const edited = [docs[0], { ...docs[1], text: docs[1].text + 'one more line' }, docs[2]];
    const second = countIncrementally(spy, request(edited));
    assert.equal(spy.fresh.length, 1, 'one piece is new: the edited block\'s content');
    assert.ok(spy.fresh[0].includes('beta text') && spy.fresh[0].endsWith('one more line\\n'), spy.fresh[0].slice(-40));
    assert.equal(second, new TiktokenCounter('o200k_base').count(request(edited)));
    assert.ok(second > first);
  });

  it('counts text joined from segments as the joined text, whatever the junctions (fast-check)', () => {
    // Segments as the splice makes them: whole characters, some starting with `<`, some ending with a letter, some empty
    // or with no boundary of their own, repeated (a block's escaped text seen again).
    const unit = fc.constantFrom('<', '<d', 'a', 'Z', '1', ' ', '>', 'é', '中', '𝒜', '😀', '\\n', '"', 'ok ', '</document>');
    const segment = fc.array(unit, { maxLength: 12 }).map((xs) => xs.join(''));
    const counter = fresh();
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 14 }), fc.array(fc.nat(13), { maxLength: 6 }), (segs, repeats) => {
        const all = [...segs, ...repeats.filter((r) => r < segs.length).map((r) => segs[r])];
        assert.equal(countSegments(counter, all), countIncrementally(counter, all.join('')), JSON.stringify(all));
        assert.equal(countSegments(counter, all), fresh().count(all.join('')));
      }),
      { numRuns: 1500, seed: 30 },
    );
  });

  it('counts a large request from its segments: the same tokens and bytes as the joined request, in both encodings', () => {
    const big = (i: number) => block('document', `docs/d${i}.md`, `# D${i}\n\n${'The ledger retry backs off. <b>bold</b> é中😀\n'.repeat(400)}`);
    const blocks = [block('system_instructions', 'builtin:system', 'You are a coding agent.'), ...[1, 2, 3, 4].map(big), block('current_task', 'task', 'Why does the ledger <retry> fail?')];
    const neutral = render(blocks, 'gpt-4o', 1000);
    const segments = serializeSegments(neutral, 'openai', false);
    assert.ok(segments && segments.length > 8, 'the user message is spliced');
    assert.equal(segments.join(''), serialize(neutral, 'openai', false));
    assert.equal(segments.join(''), serializeRequest(neutral, 'openai', false));
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const counter = new RequestCounter(new TiktokenCounter(encoding), 'gpt-4o', 1000, 'openai', false);
      const text = serializeRequest(neutral, 'openai', false);
      assert.equal(counter.count(blocks), new TiktokenCounter(encoding).count(text), encoding);
      assert.equal(counter.bytesOf(blocks), Buffer.byteLength(text));
      assert.equal(counter.serializedOf(blocks), text);
      assert.equal(counter.countSerialized(text), new TiktokenCounter(encoding).count(text));
    }
  });

  it('equals a full recount on random requests (fast-check)', () => {
    const kinds: BlockKind[] = ['agents_md', 'pinned', 'document', 'decision', 'source_code', 'tool_result'];
    const text = fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('<', '</', '>', 'a<b', '\n', '  ', 'ünïcödé', '日本語<タグ', '😀<x', '"\\', 'x'.repeat(300), 'é<' + 'z'.repeat(260))), { maxLength: 12 }).map((p) => p.join(''));
    const spec = fc.array(fc.record({ kind: fc.constantFrom(...kinds), source: fc.string({ minLength: 1, maxLength: 20 }), text }), { minLength: 1, maxLength: 6 });
    const counter = counterFor('o200k_base');
    fc.assert(
      fc.property(spec, fc.constantFrom('openai', 'anthropic') as fc.Arbitrary<'openai' | 'anthropic'>, (specs, shape) => {
        const blocks = [block('system_instructions', 'builtin:system', 'You are a careful engineer.'), ...specs.map((s, i) => block(s.kind, `${s.source}#${i}`, s.text)), block('current_task', 'task.md', 'Fix it.')];
        const serialized = serializeRequest(render(blocks, 'gpt-4o', 2000), shape, true);
        assert.equal(pieces(serialized).join(''), serialized);
        assert.equal(countIncrementally(counter, serialized), fresh().count(serialized));
      }),
      { numRuns: 150 },
    );
  });
});

describe('the request counter renders the same blocks once (chain/request-count.ts RequestCounter)', () => {
  it('the same blocks in the same order give an equal request and count, each caller its own copy; other blocks render afresh', () => {
    const blocks = [block('agents_md', 'AGENTS.md', '# Rules\n\n- Keep payments idempotent.\n'), block('document', 'docs/a.md', 'The ledger retry backs off.\n'), block('document', 'docs/b.md', 'Settlement export runs at night.\n')];
    const counter = new RequestCounter(fresh(), 'gpt-4o', 8000, 'openai', true, 'ctx-000000000000001');
    const first = counter.render(blocks);
    const again = counter.render([...blocks]);
    assert.deepEqual(again, first);
    assert.notEqual(again, first);
    again.messages[0].content = 'changed by a caller';
    again.messages[0].blocks.push('other');
    assert.deepEqual(counter.render(blocks), first, 'what a caller changes does not leak into the next render');
    const reference = new RequestCounter(fresh(), 'gpt-4o', 8000, 'openai', true, 'ctx-000000000000001');
    assert.equal(counter.count(blocks), reference.count(blocks));
    assert.equal(counter.count(blocks), countIncrementally(fresh(), serializeRequest(first, 'openai', true)));
    const fewer = blocks.slice(0, 2);
    assert.equal(counter.count(fewer), reference.count(fewer));
    assert.ok(counter.count(fewer) < counter.count(blocks));
    assert.deepEqual(counter.render(fewer), reference.render(fewer));
    assert.notDeepEqual(counter.render(fewer), first);
  });
});
