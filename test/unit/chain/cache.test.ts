import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { cacheKeyOf } from '../../../src/core/chain/request-count';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { counter, EXAMPLE } from '../helpers';

const NOW = () => new Date('2026-11-12T10:00:00Z');
const snap = (task: string) => loadSnapshot({ root: EXAMPLE, task, changes: NO_GIT });

describe('a cache-friendly request', () => {
  const ticket = assemble(snap(path.join(EXAMPLE, 'ticket.md')), { now: NOW });
  const other = assemble(snap('Why does the scoring service time out on POST /v1/payments? Check the runbook.'), { now: NOW, previousPrefixHash: ticket.manifest.cache!.prefix_hash });

  it('two previews with different tasks report the same stable prefix, at least 1 024 tokens', () => {
    const [a, b] = [ticket.manifest.cache!, other.manifest.cache!];
    assert.equal(a.prefix_hash, b.prefix_hash);
    assert.match(a.prefix_hash, /^[0-9a-f]{16}$/);
    assert.ok(a.prefix_tokens >= 1024, `prefix ${a.prefix_tokens} tokens`);
    assert.equal(a.prefix_tokens, b.prefix_tokens);
    assert.equal(b.changed, false);
    assert.notEqual(ticket.serialized, other.serialized, 'the requests differ after the prefix');
    assert.match(other.trace, /stable prefix [\d\u202f]+ tokens \([0-9a-f]{16}\), unchanged since the previous call/);
  });

  it('the prefix is the start of the first user message, byte for byte, in both requests', () => {
    const firstUser = (s: string) => (JSON.parse(s) as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content;
    const cut = ticket.neutral.messages[0].cacheBreak!;
    assert.ok(cut > 0);
    assert.equal(firstUser(ticket.serialized).slice(0, cut), firstUser(other.serialized).slice(0, cut));
    assert.ok(firstUser(ticket.serialized).slice(0, cut).endsWith('</session-summary>'), 'the stable part ends with the session summary');
  });

  it('orders the tool definitions by name, system text first', () => {
    const body = JSON.parse(ticket.serialized) as { messages: { role: string }[]; tools: { function: { name: string } }[] };
    assert.deepEqual(body.tools.map((t) => t.function.name), ['inspect_offloaded', 'read_document', 'search_workspace']);
    assert.equal(body.messages[0].role, 'system');
  });

  it('the OpenAI shape sends a prompt_cache_key derived from the workspace, never its path', () => {
    const body = JSON.parse(ticket.serialized) as { prompt_cache_key: string };
    assert.equal(body.prompt_cache_key, cacheKeyOf(EXAMPLE));
    assert.match(body.prompt_cache_key, /^ctx-\d{15}$/);
    assert.ok(!ticket.serialized.includes(EXAMPLE), 'the workspace path is not in the request');
  });

  it('the prompt_cache_key costs the same tokens in every checkout (the budget does not move with the path)', () => {
    const costs = new Set(Array.from({ length: 400 }, (_, i) => counter.count(JSON.stringify({ prompt_cache_key: cacheKeyOf(`/home/u${i}/work/repo-${i * 7919}`) }))));
    assert.deepEqual([...costs], [counter.count(JSON.stringify({ prompt_cache_key: 'ctx-000000000000000' }))]);
    assert.notEqual(cacheKeyOf('/a'), cacheKeyOf('/b'));
  });

  it('the Anthropic shape marks three cache_control breakpoints at the end of the stable zones', () => {
    const a = assemble(snap(path.join(EXAMPLE, 'ticket.md')), { now: NOW, shape: 'anthropic' });
    const body = JSON.parse(a.serialized) as { system: { text: string; cache_control?: object }[]; tools: { name: string; cache_control?: object }[]; messages: { content: string | { text: string; cache_control?: object }[] }[] };
    const marks = (a.serialized.match(/"cache_control"/g) ?? []).length;
    assert.equal(marks, 3);
    assert.deepEqual(body.tools.map((t) => Boolean(t.cache_control)), [false, false, true]);
    assert.deepEqual(body.system[0].cache_control, { type: 'ephemeral' });
    const first = body.messages[0].content as { text: string; cache_control?: object }[];
    assert.deepEqual(first[0].cache_control, { type: 'ephemeral' });
    assert.ok(first[0].text.endsWith('</session-summary>'));
    assert.ok(first[1].text.startsWith('\n\n<available-documents>'), first[1].text.slice(0, 40));
    assert.equal(a.manifest.cache!.prefix_hash, ticket.manifest.cache!.prefix_hash, 'the prefix is the same text in both shapes');
  });

  it('the budget adds up to the window: zones + overhead + free + output reserve + margin', () => {
    const b = ticket.manifest.budget;
    const zones = Object.values(ticket.manifest.zones).reduce((n, z) => n + z, 0);
    assert.equal(zones + b.overhead + b.free + b.output_reserve + b.margin, b.window);
    assert.equal(b.free, b.max_input - b.final);
    // The JSON framing and escaping of the blocks: 1 157 since the ticket's message also points at PaymentRequest.java
    // and PaymentService.java (the task's pointers): Java's quotes and newlines cost more once escaped.
    assert.ok(b.overhead > 0 && b.overhead < 1500, `overhead ${b.overhead}`);
  });
});
