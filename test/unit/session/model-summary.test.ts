import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeBlock } from '../../../src/core/chain/collect';
import { defaultPolicy } from '../../../src/core/policy';
import { shapeRequest } from '../../../src/core/providers/shape';
import { constraintsFrom } from '../../../src/core/session/constraints';
import { buildSummaryRequest, parseSummaryResponse, requestModelSummary, SUMMARY_INSTRUCTIONS } from '../../../src/core/session/model-summary';
import { SUMMARY_JSON_SCHEMA } from '../../../src/core/session/schema';
import { validateSummary } from '../../../src/core/session/validate';
import { EXAMPLE_PATHS, exampleEvents, faithfulSummary, foldedExampleEvents } from './fixtures';

const agents = makeBlock(defaultPolicy(), 'agents_md', 'AGENTS.md', 'project-rule', '- Defaults belong in the service layer, not in the client.\n- Never log card numbers, IBANs or tokens.');

describe('buildSummaryRequest', () => {
  const built = buildSummaryRequest({ model: 'gpt-4o', events: exampleEvents(), constraints: constraintsFrom([agents]), knownSources: ['application.log', 'AGENTS.md'] });

  it('writes the JSON schema into the request, and hands it to providers with structured output', () => {
    assert.equal(built.request.system, `${SUMMARY_INSTRUCTIONS}\n\nJSON schema (session_summary):\n${JSON.stringify(SUMMARY_JSON_SCHEMA, null, 2)}`);
    assert.equal(built.schemaName, 'session_summary');
    assert.deepEqual(built.schema.required, ['objective', 'established_facts', 'decisions', 'completed_actions', 'unresolved_questions', 'next_step', 'sources']);
    assert.equal(built.schema.additionalProperties, false);
    assert.deepEqual(built.request.tools, []);
    assert.equal(built.request.maxOutputTokens, 2000);
  });

  it('quotes the events with their ids, escaped, the constraints they quote and the paths that may be cited', () => {
    const content = built.request.messages[0].content;
    assert.equal(built.request.messages.length, 1);
    assert.ok(content.startsWith('<constraints>\n  <constraint source="AGENTS.md" quoted-in="e23">Defaults belong in the service layer, not in the client.</constraint>\n</constraints>'));
    assert.ok(content.includes('<workspace-paths>\n  application.log\n  AGENTS.md\n</workspace-paths>'));
    assert.ok(content.includes('<session-events from="e01" to="e24">'));
    assert.ok(content.includes('<event id="e03" type="tool_call" tool="read_logs" call-id="c1">'));
    assert.ok(content.includes('the mobile client may still use v1 of the API — not confirmed'));
    assert.ok(!content.includes('Never log card numbers'), 'a constraint no event quotes is not sent');
    assert.ok(content.endsWith('Summarize these events as one session_summary JSON object.'));
  });

  it('is a NeutralRequest any wire shape can carry', () => {
    const body = shapeRequest(built.request, 'openai') as { messages: { role: string }[] };
    assert.deepEqual(body.messages.map((m) => m.role), ['system', 'user']);
  });
});

describe('parseSummaryResponse', () => {
  const json = JSON.stringify(faithfulSummary());
  it('reads a bare object, a fenced one, or one with prose around it', () => {
    assert.deepEqual(parseSummaryResponse(json), { ok: true, value: faithfulSummary() });
    assert.deepEqual(parseSummaryResponse('```json\n' + json + '\n```'), { ok: true, value: faithfulSummary() });
    assert.deepEqual(parseSummaryResponse('Here is the summary:\n' + json + '\nDone.'), { ok: true, value: faithfulSummary() });
  });
  it('says why an answer cannot be read', () => {
    assert.deepEqual(parseSummaryResponse('I cannot summarize this.'), { ok: false, reason: 'the answer holds no JSON object: "I cannot summarize this."' });
    assert.deepEqual(parseSummaryResponse('{"objective": "x",}'), { ok: false, reason: 'the answer is not valid JSON: Expected double-quoted property name in JSON at position 18' });
  });
  it('runs through any transport, and the answer still goes through validation', async () => {
    const sent: string[] = [];
    const answer = await requestModelSummary({ model: 'm', events: foldedExampleEvents(), constraints: [], knownSources: EXAMPLE_PATHS }, async (req) => {
      sent.push(req.request.model);
      return '```json\n' + JSON.stringify({ ...faithfulSummary(), established_facts: ['The mobile client still uses v1 of the API.'] }) + '\n```';
    });
    assert.deepEqual(sent, ['m']);
    assert.equal(answer.ok, true);
    const verdict = validateSummary(answer.ok ? answer.value : undefined, { events: foldedExampleEvents(), constraints: [], knownSources: EXAMPLE_PATHS, eventIds: exampleEvents().map((e) => e.id) });
    assert.equal(verdict.ok, false);
  });
});
