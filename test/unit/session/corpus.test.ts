import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { defaultPolicy } from '../../../src/core/policy';
import { extractiveSummary } from '../../../src/core/session/extractive';
import { parseSession } from '../../../src/core/session/file';
import { groupEvents, replayStart, type EventGroup } from '../../../src/core/session/group';
import { validateSummary } from '../../../src/core/session/validate';
import { compileVocabulary, VOCABULARY, type Lexicon, type Vocabulary } from '../../../src/core/session/vocabulary';
import { REPO } from '../helpers';
import { EXAMPLE_PATHS, exampleEvents, SESSION_SOURCE } from './fixtures';

/** The corpus of test/fixtures/sessions: five sessions of other projects, each with its expected summary. */
const CORPUS = path.join(REPO, 'test', 'fixtures', 'sessions');
const NAMES = ['adr-scheduler-lock', 'django-timezone', 'flaky-ci-redis', 'go-ledger-outage', 'ts-pricing-refactor'];

interface Case {
  name: string;
  groups: EventGroup[];
  known: string[];
}

function corpusCase(name: string): Case & { expected: unknown; warnings: number; events: number } {
  const { events, warnings } = parseSession(fs.readFileSync(path.join(CORPUS, name, 'session.jsonl'), 'utf8'), SESSION_SOURCE);
  const known = fs.readFileSync(path.join(CORPUS, name, 'paths.txt'), 'utf8').trim().split('\n');
  const expected = JSON.parse(fs.readFileSync(path.join(CORPUS, name, 'expected-summary.json'), 'utf8'));
  return { name, groups: groupEvents(events, SESSION_SOURCE).groups, known, expected, warnings: warnings.length, events: events.length };
}

/** The example's folded groups under the default policy (what its golden trace shows). */
function exampleCase(): Case {
  const { groups } = groupEvents(exampleEvents(), SESSION_SOURCE);
  return { name: 'payment-incident example', groups: groups.slice(0, replayStart(groups, defaultPolicy())), known: EXAMPLE_PATHS };
}

const summarise = (c: Case, lexicon?: Lexicon) => extractiveSummary(c.groups, { constraints: [], knownSources: c.known, lexicon });
const without = (cls: keyof Vocabulary, phrase: string): Lexicon => compileVocabulary({ ...VOCABULARY, [cls]: VOCABULARY[cls].filter((p) => p !== phrase) });

describe('extractive summariser on a corpus that is not the example', () => {
  it('holds five sessions of 20 to 80 events, in the session-file format, without a warning', () => {
    assert.deepEqual(fs.readdirSync(CORPUS).filter((d) => fs.statSync(path.join(CORPUS, d)).isDirectory()).sort(), NAMES);
    for (const name of NAMES) {
      const c = corpusCase(name);
      assert.equal(c.warnings, 0, name);
      assert.ok(c.events >= 20 && c.events <= 80, `${name}: ${c.events} events`);
    }
  });

  for (const name of NAMES) {
    it(`${name}: the summary is the expected one and passes validation`, () => {
      const c = corpusCase(name);
      const summary = summarise(c);
      assert.deepEqual(summary, c.expected);
      const events = c.groups.flatMap((g) => g.events);
      assert.deepEqual(validateSummary(summary, { events, constraints: [], knownSources: c.known }), { ok: true, summary });
    });
  }

  it('keeps hypotheses open, user directives as decisions and tool calls as actions in every session', () => {
    const go = summarise(corpusCase('go-ledger-outage'));
    assert.deepEqual(go.unresolved_questions, ['Do the 503s also come from the reconciliation job that shares this database?']);
    assert.ok(go.decisions.includes('No rollback to v1.42.0: it also carries the fix for the duplicate-posting bug.'));
    assert.ok(go.decisions.includes('Understood, no rollback;'), 'the acknowledgement of a directive is a decision, without a phrase for it');
    assert.equal(go.completed_actions.length, 7);
    const ci = summarise(corpusCase('flaky-ci-redis'));
    assert.ok(ci.unresolved_questions.includes('Whether CI runners show the same result is not confirmed yet: the loop ran on my machine, not on ubuntu-latest.'));
    assert.ok(!ci.established_facts.some((f) => /slow runner/.test(f)), 'a hypothesis never becomes a fact');
  });
});

describe('the vocabulary is data, and no single phrase carries a summary', () => {
  const cases = [exampleCase(), ...NAMES.map(corpusCase)];
  const base = cases.map((c) => summarise(c));

  it('removing "no revert" changes neither the example\'s summary nor the corpus\'s', () => {
    assert.ok(VOCABULARY.assistantDecision.includes('no revert'));
    const lexicon = without('assistantDecision', 'no revert');
    cases.forEach((c, i) => assert.deepEqual(summarise(c, lexicon), base[i], c.name));
    assert.ok(base[0].decisions.includes('Understood, no revert.'), 'kept as the acknowledgement of e15\'s directive');
  });

  for (const cls of ['assistantDecision', 'fact'] as const) {
    it(`removing any one phrase of "${cls}" changes no summary (position and the other markers carry them)`, () => {
      const changed: string[] = [];
      for (const phrase of VOCABULARY[cls]) {
        const lexicon = without(cls, phrase);
        cases.forEach((c, i) => {
          if (JSON.stringify(summarise(c, lexicon)) !== JSON.stringify(base[i])) changed.push(`${phrase} → ${c.name}`);
        });
      }
      assert.deepEqual(changed, []);
    });
  }

  it('a class emptied of its phrases stops matching, so the test above can fail', () => {
    const lexicon = compileVocabulary({ ...VOCABULARY, uncertain: [] });
    assert.notDeepEqual(summarise(cases[0], lexicon), base[0]);
  });
});
