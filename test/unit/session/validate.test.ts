import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeBlock } from '../../../src/core/chain/collect';
import { defaultPolicy } from '../../../src/core/policy';
import { constraintsFrom, constraintsInPlay } from '../../../src/core/session/constraints';
import { checkSchema } from '../../../src/core/session/schema';
import { validateSummary, type ValidationInput } from '../../../src/core/session/validate';
import { EXAMPLE_PATHS, exampleEvents, faithfulSummary, foldedExampleEvents } from './fixtures';

const input = (over: Partial<ValidationInput> = {}): ValidationInput => ({
  events: foldedExampleEvents(),
  constraints: [],
  knownSources: EXAMPLE_PATHS,
  eventIds: exampleEvents().map((e) => e.id),
  sessionSource: '.context/session.jsonl',
  ...over,
});

const HYPOTHESIS_E15 = `"Also, Store Ops says the mobile client may still use v1 of the API — not confirmed, I've asked the mobile team."`;

describe('validateSummary: the hypothesis check (a hypothesis must not become a fact)', () => {
  it('the folded range is e01…e16 and holds the hypothesis only as such', () => {
    assert.deepEqual(foldedExampleEvents().map((e) => e.id), ['e01', 'e02', 'e03', 'e04', 'e05', 'e06', 'e07', 'e08', 'e09', 'e10', 'e11', 'e12', 'e13', 'e14', 'e15', 'e16']);
  });

  it('accepts a summary that keeps "the mobile client may still use v1" under unresolved_questions', () => {
    const verdict = validateSummary(faithfulSummary(), input());
    assert.deepEqual(verdict, { ok: true, summary: faithfulSummary() });
  });

  it('rejects it under established_facts, worded as a hypothesis', () => {
    const summary = { ...faithfulSummary(), unresolved_questions: [], established_facts: ['The mobile client may still use v1 of the API.'] };
    assert.deepEqual(validateSummary(summary, input()), {
      ok: false,
      reasons: ['established_facts[0] is worded as a hypothesis or question: "The mobile client may still use v1 of the API."'],
    });
  });

  it('rejects it under established_facts, reworded as a certainty, and names the event it came from', () => {
    const summary = { ...faithfulSummary(), established_facts: [...faithfulSummary().established_facts, 'The mobile client still uses v1 of the API.'] };
    assert.deepEqual(validateSummary(summary, input()), {
      ok: false,
      reasons: [`established_facts[2] "The mobile client still uses v1 of the API." states as a fact what e15 only raises as a hypothesis or question: ${HYPOTHESIS_E15}`],
    });
  });

  it('keeps a fact the events establish, even when a hypothesis shares some of its words', () => {
    const summary = { ...faithfulSummary(), established_facts: ['The only mobile traffic in the log is mobile-bff/7.4.2, which sends paymentMethod.'] };
    assert.equal(validateSummary(summary, input()).ok, true);
  });
});

describe('validateSummary: the other reasons to reject', () => {
  it('rejects what does not match the schema, naming each field', () => {
    const verdict = validateSummary({ objective: '', established_facts: 'x', decisions: [1], completed_actions: [], unresolved_questions: [], sources: [], extra: true }, input());
    assert.deepEqual(verdict, {
      ok: false,
      reasons: [
        'schema: unknown field "extra"',
        'schema: "objective" must not be empty',
        'schema: "established_facts" must be a list of strings',
        'schema: decisions[0] must be a string',
        'schema: missing field "next_step"',
      ],
    });
    assert.deepEqual(checkSchema([]).errors, ['the summary must be a JSON object']);
  });

  it('rejects completed actions mixed with proposals', () => {
    const summary = {
      ...faithfulSummary(),
      completed_actions: ['Reverted 3e91c7a and shipped 2.14.1.', 'Will add a contract test for the legacy payload.', 'Ran grep for paymentMethod in src/main/java (c3).'],
    };
    assert.deepEqual(validateSummary(summary, input()), {
      ok: false,
      reasons: [
        'completed_actions[0] "Reverted 3e91c7a and shipped 2.14.1." reports as done what e14 only proposes: "Proposal: revert 3e91c7a and ship 2.14.1 today."',
        'completed_actions[1] is worded as a proposal, not a completed action: "Will add a contract test for the legacy payload."',
      ],
    });
  });

  it('rejects a summary that cites sources that do not exist, and accepts event ids and anchors', () => {
    const summary = { ...faithfulSummary(), sources: ['docs/adr-012-current.md', 'e09', 'session:e24', 'application.log#L340', './ticket.md', 'e99'] };
    assert.deepEqual(validateSummary(summary, input()), {
      ok: false,
      reasons: [
        'sources[0] "docs/adr-012-current.md" does not exist in the workspace or the session',
        'sources[5] "e99" does not exist in the workspace or the session',
      ],
    });
  });

  it('rejects a summary that drops a mandatory constraint the folded events quote', () => {
    const agents = makeBlock(defaultPolicy(), 'agents_md', 'AGENTS.md', 'project-rule', [
      '## Rules',
      '- **Public HTTP APIs must stay backward compatible.** Defaults belong in the service layer, not in the client.',
      '- Keep the diff minimal and explain the root cause in the PR description.',
    ].join('\n'));
    const constraints = constraintsFrom([agents]);
    assert.deepEqual(constraints.map((c) => c.text), [
      'Public HTTP APIs must stay backward compatible.',
      'Defaults belong in the service layer, not in the client.',
      'Keep the diff minimal and explain the root cause in the PR description.',
    ]);
    const all = exampleEvents();
    assert.deepEqual(constraintsInPlay(constraints, all).map((c) => `${c.event}: ${c.text}`), ['e23: Defaults belong in the service layer, not in the client.']);
    const verdict = validateSummary(faithfulSummary(), input({ events: all, constraints }));
    assert.deepEqual(verdict, {
      ok: false,
      reasons: ['agents_md constraint missing: "Defaults belong in the service layer, not in the client." (AGENTS.md, quoted in e23)'],
    });
    const kept = { ...faithfulSummary(), decisions: [...faithfulSummary().decisions, 'Defaults belong in the service layer (AGENTS.md).'] };
    assert.equal(validateSummary(kept, input({ events: all, constraints })).ok, true);
  });
});
