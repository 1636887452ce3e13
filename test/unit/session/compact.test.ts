import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectSession } from '../../../src/core/chain/session';
import { extractiveSummary, FALLBACK_MAX_ITEMS } from '../../../src/core/session/extractive';
import { groupEvents, replayStart } from '../../../src/core/session/group';
import { defaultPolicy } from '../../../src/core/policy';
import { emptySummary, mergeSummaries, renderSummary } from '../../../src/core/session/schema';
import { validateSummary } from '../../../src/core/session/validate';
import type { SessionEvent } from '../../../src/core/types';
import { EXAMPLE_PATHS, exampleEvents } from './fixtures';

function olderGroups() {
  const { groups } = groupEvents(exampleEvents(), 's');
  return groups.slice(0, replayStart(groups, defaultPolicy()));
}

describe('extractive fallback (no model configured)', () => {
  it('copies the hypotheses of the example to unresolved_questions, never to established_facts', () => {
    const s = extractiveSummary(olderGroups(), { constraints: [], knownSources: EXAMPLE_PATHS });
    assert.equal(s.objective, "Prod is returning 400s on POST /v1/payments since this morning's 2.14.0 release (PAY-1423, Store Ops is on my back).");
    assert.deepEqual(s.unresolved_questions, [
      "Also, Store Ops says the mobile client may still use v1 of the API — not confirmed, I've asked the mobile team.",
      "I'm keeping the mobile point as an open question, not a fact: the mobile client may still use v1 of the API — not confirmed.",
    ]);
    assert.equal(s.established_facts.some((f) => /mobile/i.test(f)), false);
    assert.ok(s.established_facts.includes('Legacy POS clients do not send paymentMethod (confirmed in the log).'));
  });

  it('lists tool calls as completed actions, with a failed outcome, and the last proposal as the next step', () => {
    const s = extractiveSummary(olderGroups(), { constraints: [], knownSources: EXAMPLE_PATHS });
    assert.equal(s.completed_actions.length, 4);
    assert.equal(s.completed_actions[0], 'Ran read_logs (c1) {"path": "application.log", "grep": "400 BAD_REQUEST", "max_matches": 6}');
    assert.equal(s.completed_actions[2], 'Ran grep (c3) {"pattern": "paymentMethod", "path": "src/main/java"}');
    assert.equal(s.completed_actions[3], 'Ran git_log (c4) {"path": "src/main/java/com/acme/payments/api", "max_count": 4, "stat": true, "show": "3e91c7a"}');
    assert.match(s.completed_actions[1], / → failed: error: POST https:\/\/payment-service\.payments\.svc:8080\/actuator\/loggers\//);
    assert.equal(s.completed_actions.some((a) => /revert/i.test(a)), false, 'the proposed revert (e14) is not an action');
    assert.deepEqual(s.next_step, ["I'll run the contract suite to see what already covers payloads without paymentMethod."]);
    assert.ok(s.decisions.includes('Understood, no revert.'));
  });

  it('cites only paths that exist, resolved to their workspace path', () => {
    const s = extractiveSummary(olderGroups(), { constraints: [], knownSources: EXAMPLE_PATHS });
    // e11 names CreatePaymentCommand.java and PaymentService.java, which are not in this list: not cited.
    assert.deepEqual(s.sources, ['application.log', 'src/main/java/com/acme/payments/api/PaymentController.java', 'src/main/java/com/acme/payments/api/PaymentRequest.java']);
    const resolved = extractiveSummary([{ index: 0, events: [{ id: 'x1', type: 'assistant', text: 'Reading adr-012-optional-fields-at-http-boundary.md and a missing notes.md.' }] }], { constraints: [], knownSources: EXAMPLE_PATHS });
    assert.deepEqual(resolved.sources, ['docs/adr/adr-012-optional-fields-at-http-boundary.md']);
  });

  it('passes its own validation, and is deterministic', () => {
    const ctx = { constraints: [], knownSources: EXAMPLE_PATHS };
    const a = extractiveSummary(olderGroups(), ctx);
    assert.deepEqual(extractiveSummary(olderGroups(), ctx), a);
    const events = olderGroups().flatMap((g) => g.events);
    assert.equal(validateSummary(a, { events, constraints: [], knownSources: EXAMPLE_PATHS }).ok, true);
  });

  it('carries a quoted constraint verbatim when no clause of the events kept it', () => {
    const events: SessionEvent[] = [
      { id: 'u1', type: 'user', text: 'Fix the checkout timeout.' },
      { id: 'a1', type: 'assistant', text: 'Noted that error bodies keep the public format of POST /v1/payments unchanged here.' },
    ];
    const constraint = { source: 'docs/contract.md', kind: 'pinned' as const, text: 'Never change the public error body format of POST /v1/payments.' };
    const s = extractiveSummary([{ index: 0, events: [events[0]] }, { index: 1, events: [events[1]] }], { constraints: [constraint], knownSources: [] });
    assert.deepEqual(s.decisions, ['Never change the public error body format of POST /v1/payments. (docs/contract.md)']);
  });
});

describe('extractive fallback on a long session', () => {
  // A seeded generator: 150 turns of an incident, each assistant turn states a confirmed fact.
  function longSession(turns: number): SessionEvent[] {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const events: SessionEvent[] = [{ id: 'e0', type: 'user', text: 'Find why shard retries time out.' }];
    for (let i = 1; i <= turns; i++) {
      events.push({ id: `u${i}`, type: 'user', text: `Keep the retry budget of shard ${i} unchanged.` });
      events.push({ id: `a${i}`, type: 'assistant', text: `The log shows that shard ${i} failed after ${next() % 900 + 100} ms.` });
    }
    return events;
  }

  it('keeps the newest items, at most FALLBACK_MAX_ITEMS per list, and says how many it left out', () => {
    const events = longSession(150);
    const r = selectSession(events, 's', defaultPolicy(), { knownSources: [] });
    assert.equal(r.value.report.summary?.label, `extractive fallback (no model configured): sentences copied from the events, not rewritten; ${2 * (147 - FALLBACK_MAX_ITEMS)} older items left out (at most ${FALLBACK_MAX_ITEMS} per list)`);
    const s = extractiveSummary(groupEvents(events, 's').groups.slice(0, 295), { constraints: [], knownSources: [] });
    assert.equal(s.established_facts.length, FALLBACK_MAX_ITEMS);
    assert.match(s.established_facts[FALLBACK_MAX_ITEMS - 1], /^The log shows that shard 147 failed after \d+ ms\.$/);
    assert.deepEqual(s.decisions, [140, 141, 142, 143, 144, 145, 146, 147].map((i) => `Keep the retry budget of shard ${i} unchanged.`));
  });
});

describe('mergeSummaries and renderSummary', () => {
  it('extends a stored summary with what was folded since; the newer next step wins', () => {
    const base = { ...emptySummary(), objective: 'A', established_facts: ['f1'], next_step: ['n1'], sources: ['a.md'] };
    const extra = { ...emptySummary(), objective: 'B', established_facts: ['f1', 'f2'], next_step: ['n2'], sources: ['a.md', 'b.md'] };
    assert.deepEqual(mergeSummaries(base, extra), { ...emptySummary(), objective: 'A', established_facts: ['f1', 'f2'], next_step: ['n2'], sources: ['a.md', 'b.md'] });
    assert.deepEqual(base.established_facts, ['f1'], 'inputs are not changed');
  });

  it('renders a labelled YAML document', () => {
    const text = renderSummary({ ...emptySummary(), objective: 'Fix it', unresolved_questions: ['Is v1 still used?'] }, 'Summary of session events e01…e02 (2 events), extractive');
    assert.equal(text, [
      '# Summary of session events e01…e02 (2 events), extractive',
      'objective: Fix it',
      'established_facts: []',
      'decisions: []',
      'completed_actions: []',
      'unresolved_questions:',
      '  - Is v1 still used?',
      'next_step: []',
      'sources: []',
    ].join('\n'));
  });
});
