import assert from 'node:assert/strict';
import type { Assembly } from '../../../src/core/chain/assemble';
import { escapeAttr, wrap } from '../../../src/core/chain/render';
import { redact } from '../../../src/core/redact/apply';
import type { Block } from '../../../src/core/types';
import { counter } from '../helpers';

/** Kinds whose wrapped text carries a `source="…"` attribute in the request. */
const TAGGED = new Set<Block['kind']>(['agents_md', 'pinned', 'session_summary', 'decision', 'document', 'source_code', 'tool_result', 'current_task']);

/** Every string of the request body, as the provider receives them (JSON decoded), joined by NUL. */
export function requestStrings(serialized: string): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(serialized));
  return out.join('\u0000');
}

/** The paths the sent `<available-documents>` block lists, in order ([] when no index was sent). */
export function listedPaths(strings: string): string[] {
  const at = strings.indexOf('<available-documents>');
  if (at < 0) return [];
  const body = strings.slice(at, strings.indexOf('</available-documents>', at));
  return [...body.matchAll(/<document path="([^"]*)"/g)].map((m) => m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

const tag = (source: string) => `source="${escapeAttr(source)}"`;

/**
 * Every manifest entry agrees with the bytes of request.json: each selected block is in the body as wrapped, each
 * indexed path is in the sent index (and nothing else is), nothing rejected or indexed is in the body as a block, the
 * trimmed figures are those of the block sent, and the budget adds up (zones + overhead = final ≤ max_input; with
 * free, the output reserve and the margin, the window). `final` equals a full recount of the serialized request.
 */
export function assertAgreement(a: Assembly, where: string): void {
  const m = a.manifest;
  const all = requestStrings(a.serialized);
  const at = (what: string) => `${where}: ${what}`;
  assert.deepEqual(m.selected.map((s) => s.source), a.blocks.map((b) => b.source), at('selected = the blocks sent, in order'));
  for (const b of a.blocks) {
    const entry = m.selected.find((s) => s.source === b.source)!;
    assert.equal(entry.tokens, b.tokens, at(`${b.source}: the manifest carries the block's figure`));
    if (b.kind === 'tool_definitions') assert.ok(JSON.parse(a.serialized).tools?.length > 0, at('tools sent'));
    else if (b.kind === 'session_group') {
      for (const e of b.meta.events ?? []) if ((e.type === 'user' || e.type === 'assistant') && e.text) assert.ok(all.includes(redact(e.text).text), at(`${b.source}: event ${e.id} in the request`));
    } else assert.ok(all.includes(wrap(b)), at(`${b.source}: selected, so its wrapped text is in the request`));
    if (TAGGED.has(b.kind)) assert.ok(all.includes(tag(b.source)), at(`${b.source}: its source attribute is in the request`));
  }
  const listed = listedPaths(all);
  assert.deepEqual([...m.indexed.map((d) => d.source)].sort(), [...listed].sort(), at('indexed = the paths the sent index lists'));
  const sent = new Set(a.blocks.map((b) => b.source));
  for (const d of [...m.rejected, ...m.indexed]) {
    assert.ok(!sent.has(d.source), at(`${d.source}: rejected or indexed, yet sent as a block`));
    if (TAGGED.has(d.kind as Block['kind'])) assert.ok(!all.includes(tag(d.source)), at(`${d.source}: rejected or indexed, yet in the request`));
  }
  for (const t of m.trimmed) {
    const b = a.blocks.find((x) => x.source === t.source);
    assert.ok(b?.meta.trim, at(`${t.source}: trimmed, so a trimmed block was sent`));
    assert.equal(t.tokens, b.tokens, at(`${t.source}: trimmed figure = the block sent`));
    assert.equal(t.retained_lines, b.meta.trim.retained_lines, at(`${t.source}: retained lines of the block sent`));
    assert.ok(all.includes(`retained-lines="${b.meta.trim.retained_lines}"`), at(`${t.source}: its trim figures are in the request`));
  }
  for (const o of m.offloaded) assert.ok(sent.has(o.source), at(`${o.source}: offloaded, so its notice was sent`));
  const b = m.budget;
  const zones = Object.values(m.zones).reduce((n, z) => n + z, 0);
  assert.equal(zones + b.overhead, b.final, at('zones + overhead = final'));
  assert.ok(b.overhead >= 0, at(`overhead ${b.overhead} ≥ 0`));
  assert.ok(b.final <= b.max_input, at(`final ${b.final} ≤ max_input ${b.max_input}`));
  assert.equal(zones + b.overhead + b.free + b.output_reserve + b.margin, b.window, at('zones + overhead + free + reserve + margin = window'));
  assert.equal(counter.count(a.serialized), b.final, at('final = a full recount of request.json'));
  assert.equal(Buffer.byteLength(a.serialized), m.request_bytes, at('request bytes'));
}
