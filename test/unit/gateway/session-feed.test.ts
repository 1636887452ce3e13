import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { newSessionEvents, sessionEventsOf } from '../../../src/core/gateway/session-feed';
import type { JsonObject } from '../../../src/core/gateway/wire';
import { runRecordJob, type RecordJob } from '../../../src/cli/gateway-recorder';
import { DecisionStore } from '../../../src/core/gateway/decisions';
import { groupEvents } from '../../../src/core/session/group';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import type { SessionEvent } from '../../../src/core/session/event';
import { anthropicRequest, chatRequest, removeTemps, responsesRequest, SECRET, tempDir } from './shapes';

/** The agent's conversation, from the gateway's recorded calls, as session events. */

after(removeTemps);

const CONV = '0123456789abcdef';
const strip = (events: SessionEvent[]) => events.map(({ id: _id, ...rest }) => rest);
const LOG = 'line 1\nERROR boom\nline 3';

describe('session feed: a recorded call as session events', () => {
  it('Anthropic: user text, assistant text, tool call with its id and arguments, results (text parts; the image left out), thinking left out, secrets redacted', () => {
    const events = sessionEventsOf('anthropic', anthropicRequest(LOG) as JsonObject, CONV, '2026-12-01T10:00:00.000Z');
    assert.deepEqual(strip(events), [
      { ts: '2026-12-01T10:00:00.000Z', type: 'user', text: '<system-reminder>context</system-reminder>\n\nWhy does checkout fail? Look at logs/app.log' },
      { ts: '2026-12-01T10:00:00.000Z', type: 'assistant', text: 'Reading the log.' },
      { ts: '2026-12-01T10:00:00.000Z', type: 'tool_call', call_id: 'toolu_01', tool: 'Bash', text: '{"command":"cat logs/app.log"}' },
      { ts: '2026-12-01T10:00:00.000Z', type: 'tool_result', call_id: 'toolu_01', text: LOG },
      { ts: '2026-12-01T10:00:00.000Z', type: 'tool_result', call_id: 'toolu_01b', text: events[4].text },
    ]);
    assert.ok(!events[4].text.includes(SECRET), 'the secret is redacted');
    assert.match(events[4].text, /^token /);
    for (const [i, e] of events.entries()) assert.match(e.id, new RegExp(`^gw-${CONV}-\\d+-\\d+-[0-9a-f]{12}$`), `event ${i}`);
    assert.equal(new Set(events.map((e) => e.id)).size, events.length);
  });

  it('Responses: user and assistant messages, function_call and function_call_output; developer text and reasoning left out; a string input is the user turn', () => {
    const events = sessionEventsOf('responses', responsesRequest(LOG, [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Found it: a null payment method.' }] }]) as JsonObject, CONV);
    assert.deepEqual(strip(events), [
      { type: 'user', text: '<environment_context><cwd>/work/ws</cwd></environment_context>' },
      { type: 'user', text: 'Why does checkout fail?' },
      { type: 'tool_call', call_id: 'call_1', tool: 'shell', text: '{"command":["cat","logs/app.log"]}' },
      { type: 'tool_result', call_id: 'call_1', text: LOG },
      { type: 'assistant', text: 'Found it: a null payment method.' },
    ]);
    assert.deepEqual(strip(sessionEventsOf('responses', { model: 'gpt-5', input: 'hello' }, CONV)), [{ type: 'user', text: 'hello' }]);
  });

  it('Chat Completions: the system message left out, an assistant turn that only calls a tool gives the call alone, a tool message its result', () => {
    const events = sessionEventsOf('chat', chatRequest(LOG) as JsonObject, CONV);
    assert.deepEqual(strip(events), [
      { type: 'user', text: 'Why does checkout fail?' },
      { type: 'tool_call', call_id: 'call_9', tool: 'run', text: '{"cmd":"cat logs/app.log"}' },
      { type: 'tool_result', call_id: 'call_9', text: LOG },
    ]);
  });

  it('two calls of one conversation (the history resent): the second adds only its new turns', () => {
    const seen = new Set<string>();
    const first = newSessionEvents(sessionEventsOf('chat', chatRequest(LOG) as JsonObject, CONV), seen);
    const second = newSessionEvents(sessionEventsOf('chat', chatRequest(LOG, [{ role: 'assistant', content: 'A null payment method.' }, { role: 'user', content: 'Fix it.' }]) as JsonObject, CONV), seen);
    assert.equal(first.length, 3);
    assert.deepEqual(strip(second), [
      { type: 'assistant', text: 'A null payment method.' },
      { type: 'user', text: 'Fix it.' },
    ]);
    // The same words later in the conversation are a new turn (another position), not a duplicate.
    const third = newSessionEvents(sessionEventsOf('chat', chatRequest(LOG, [{ role: 'assistant', content: 'A null payment method.' }, { role: 'user', content: 'Fix it.' }, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Fix it.' }]) as JsonObject, CONV), seen);
    assert.deepEqual(strip(third), [{ type: 'assistant', text: 'Done.' }, { type: 'user', text: 'Fix it.' }]);
    // Another conversation with the same words is its own.
    assert.equal(newSessionEvents(sessionEventsOf('chat', chatRequest(LOG) as JsonObject, 'fedcba9876543210'), seen).length, 3);
  });

  it('the ids already written are left out before their turns are read again, the others come as without them', () => {
    const later = chatRequest(LOG, [{ role: 'assistant', content: 'A null payment method.' }, { role: 'user', content: 'Fix it.' }]) as JsonObject;
    const known = new Set(sessionEventsOf('chat', chatRequest(LOG) as JsonObject, CONV).map((e) => e.id));
    const all = sessionEventsOf('chat', later, CONV);
    const fresh = sessionEventsOf('chat', later, CONV, undefined, known);
    assert.equal(known.size, 3);
    assert.deepEqual(fresh, all.slice(3));
    assert.deepEqual(strip(fresh), [
      { type: 'assistant', text: 'A null payment method.' },
      { type: 'user', text: 'Fix it.' },
    ]);
  });
});

describe('session feed: written by the recorder, replayed by loadSnapshot', () => {
  function job(root: string, n: number, body: object, extra: Partial<RecordJob> = {}): RecordJob {
    const received = JSON.stringify(body);
    return { n, started: Date.UTC(2026, 11, 1, 10, 0, n), ended: Date.UTC(2026, 11, 1, 10, 0, n) + 5, mode: 'observe', api: 'responses', path: '/v1/responses', received, status: 200, recordDir: path.join(root, '.context', 'gateway'), keep: 200, observe: { policy: undefined as never, durable: [], track: true }, ...extra };
  }

  it('two calls of a Codex conversation: each turn once in .context/gateway/session.jsonl, in order, each tool call grouped with its result; count_tokens adds nothing', async () => {
    const { defaultPolicy } = await import('../../../src/core/policy');
    const root = tempDir('ctxctl-feed-');
    fs.mkdirSync(path.join(root, '.context', 'gateway'), { recursive: true });
    const state = { store: new DecisionStore() };
    const withPolicy = (j: RecordJob): RecordJob => ({ ...j, observe: { policy: defaultPolicy(), durable: [], track: true } });
    const first = responsesRequest(LOG);
    const second = responsesRequest(LOG, [
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A null payment method in PaymentController.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it and run the tests.' }] },
      { type: 'function_call', call_id: 'call_2', name: 'shell', arguments: '{"command":["./mvnw","-q","verify"]}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'BUILD SUCCESS' },
    ]);
    runRecordJob(withPolicy(job(root, 1, first)), state);
    runRecordJob(withPolicy(job(root, 2, second)), state);
    runRecordJob(withPolicy(job(root, 3, second, { path: '/v1/messages/count_tokens' })), state);
    // A fresh recorder (a restart) reads the ids already written: the resent history adds nothing.
    runRecordJob(withPolicy(job(root, 4, second)), { store: new DecisionStore() });
    const file = path.join(root, '.context', 'gateway', 'session.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 8, lines.join('\n'));
    const snap = loadSnapshot({ root, task: 'why', sessionFile: file, changes: false });
    assert.deepEqual(snap.session.map((e) => [e.type, e.call_id ?? '', e.text.slice(0, 30)]), [
      ['user', '', '<environment_context><cwd>/wor'],
      ['user', '', 'Why does checkout fail?'],
      ['tool_call', 'call_1', '{"command":["cat","logs/app.lo'],
      ['tool_result', 'call_1', LOG],
      ['assistant', '', 'A null payment method in Payme'],
      ['user', '', 'Fix it and run the tests.'],
      ['tool_call', 'call_2', '{"command":["./mvnw","-q","ver'],
      ['tool_result', 'call_2', 'BUILD SUCCESS'],
    ]);
    const { groups, orphans } = groupEvents(snap.session, 'session');
    assert.equal(orphans.length, 0);
    assert.deepEqual(groups.map((g) => g.events.map((e) => e.type).join('+')), ['user', 'user', 'tool_call+tool_result', 'assistant', 'user', 'tool_call+tool_result']);
  });
});
