import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAnswer, checkEvidence, requestText } from '../../../src/core/compare/checks';
import { parseChecks } from '../../../src/core/compare/checks-file';
import { costOf, priceFor } from '../../../src/core/compare/cost';
import { InputError } from '../../../src/core/errors';
import { manifestOf } from './fixture';

const FILE = '.context/checks.yaml';

function parseError(text: string): string {
  try {
    parseChecks(text, FILE);
  } catch (e) {
    assert.ok(e instanceof InputError, String(e));
    return e.toString();
  }
  assert.fail('expected an InputError');
}

describe('checks.yaml', () => {
  it('parses cases with the line of every expectation, evidence in file order, answer apart', () => {
    const cases = parseChecks(
      [
        '# guard',
        '- name: keeps the log',
        '  task: ticket.md',
        '  policy: .context/policy.yaml',
        '  contains: "paymentMethod is required"',
        '  select: [application.log, "docs/adr/adr-012-*.md"]',
        '  max_tokens: 9000',
        '  reject:',
        '    - docs/marketing-notes.md',
        '  answer:',
        '    mentions: [ADR-012]',
        '    cites: application.log',
        '    not_claims: ["ADR-008 applies"]',
        '- name: literal task',
        '  task: why do legacy clients get a 400?',
        '  excludes: secret',
      ].join('\n'),
      FILE,
    );
    assert.equal(cases.length, 2);
    assert.deepEqual(
      { ...cases[0], evidence: cases[0].evidence.map((e) => `${e.line} ${e.kind} ${e.value}`), answer: cases[0].answer.map((e) => `${e.line} ${e.kind} ${e.value}`) },
      {
        name: 'keeps the log', task: 'ticket.md', policy: '.context/policy.yaml', line: 2,
        evidence: ['5 contains paymentMethod is required', '6 select application.log', '6 select docs/adr/adr-012-*.md', '7 max_tokens 9000', '9 reject docs/marketing-notes.md'],
        answer: ['11 mentions ADR-012', '12 cites application.log', '13 not_claims ADR-008 applies'],
      },
    );
    assert.deepEqual([cases[1].line, cases[1].task, cases[1].policy], [14, 'why do legacy clients get a 400?', undefined]);
  });

  it('rejects bad files with file:line:col and a precise message', () => {
    assert.equal(parseError('name: x\ntask: y\n'), '.context/checks.yaml:1:1: the checks file must be a list of cases (- name: …, task: …)');
    assert.equal(parseError('- name: a\n  task: t\n  contians: x\n'), '.context/checks.yaml:3:3: unknown key "contians" in case 1; did you mean "contains"? (keys: name, task, policy, max_tokens, select, reject, contains, excludes, answer)');
    assert.equal(parseError('- name: a\n  task: t\n  max_tokens: lots\n'), '.context/checks.yaml:3:15: case 1 ("a"): max_tokens must be a positive whole number');
    assert.equal(parseError('- name: a\n  contains: x\n'), '.context/checks.yaml:1:3: case 1 has no "task"');
    assert.equal(parseError('- name: a\n  task: t\n'), '.context/checks.yaml:1:3: case "a" states no expectation: add max_tokens, select, reject, contains, excludes or answer');
    assert.equal(parseError('- name: a\n  task: t\n  excludes: x\n- name: a\n  task: u\n  excludes: y\n'), '.context/checks.yaml:4:3: two cases are named "a": names must be unique (they name the tests)');
    assert.equal(parseError('- name: a\n  task: t\n  answer:\n    mention: [x]\n'), '.context/checks.yaml:4:5: unknown key "answer.mention" in case 1; did you mean "mentions"? (keys: mentions, cites, not_claims)');
    assert.equal(parseError('- name: a\n  task: t\n  select: []\n'), '.context/checks.yaml:3:11: case 1 ("a"): select is an empty list');
    assert.equal(parseError('- name: a\n  task: t\n  select: [{x: 1}]\n'), '.context/checks.yaml:3:12: case 1 ("a"): select must be a string or a list of non-empty strings');
    assert.match(parseError('- name: a\n  task: [t\n'), /^\.context\/checks\.yaml:\d+:\d+: invalid YAML: /);
  });
});

describe('evidence checks', () => {
  const manifest = manifestOf({
    selected: [
      { source: 'application.log', kind: 'tool_result', reason: 'tool output, priority 100, trimmed', tokens: 269 },
      { source: 'docs/adr/adr-012-optional.md', kind: 'decision', reason: 'applicable decision (accepted)', tokens: 946 },
    ],
    trimmed: [{ source: 'application.log', kind: 'tool_result', reason: 'error lines', original_tokens: 396938, tokens: 269 }],
    rejected: [{ source: 'docs/adr/adr-008.md', kind: 'decision', reason: 'superseded by ADR-012' }],
    indexed: [{ source: 'docs/architecture.md', kind: 'document', reason: 'no component: disclosed in the index, available on demand' }],
  });
  manifest.budget.final = 6876;
  const text = '<document source="docs/adr/adr-012-optional.md">new fields stay optional &lt;at the HTTP boundary&gt;</document>\n<tool-output source="application.log">400 BAD_REQUEST</tool-output>';
  const ex = (kind: 'max_tokens' | 'select' | 'reject' | 'contains' | 'excludes', value: string, line = 7) => ({ kind, value, line });

  it('each result says what was found, passing or failing', () => {
    const results = checkEvidence(
      [
        ex('max_tokens', '7000'), ex('max_tokens', '6000'),
        ex('select', 'docs/adr/adr-012-*.md'), ex('select', 'docs/architecture.md'), ex('select', 'docs/nope.md'),
        ex('reject', 'docs/adr/adr-008.md'), ex('reject', 'application.log'), ex('reject', 'docs/typo.md'),
        ex('contains', 'optional <at the HTTP boundary>'), ex('contains', 'MethodArgumentNotValidException'),
        ex('excludes', 'password'), ex('excludes', 'BAD_REQUEST'),
      ],
      manifest,
      requestText({ model: 'm', system: 'sys', messages: [{ role: 'user', content: text, blocks: [] }], tools: [], maxOutputTokens: 1 }),
    );
    assert.deepEqual(results.map((r) => [r.ok, r.expectation, r.found]), [
      [true, 'max_tokens 7\u202f000', '6\u202f876 tokens'],
      [false, 'max_tokens 6\u202f000', '6\u202f876 tokens, 876 over'],
      [true, 'select docs/adr/adr-012-*.md', 'selected docs/adr/adr-012-optional.md (946 tokens)'],
      [false, 'select docs/architecture.md', 'indexed docs/architecture.md: no component: disclosed in the index, available on demand'],
      [false, 'select docs/nope.md', 'no block of the request or the manifest matches this path'],
      [true, 'reject docs/adr/adr-008.md', 'rejected docs/adr/adr-008.md: superseded by ADR-012'],
      [false, 'reject application.log', 'selected application.log (269 tokens): tool output, priority 100, trimmed'],
      [false, 'reject docs/typo.md', 'no decision of the manifest names this path: check the path'],
      [true, 'contains "optional <at the HTTP boundary>"', 'in the request (docs/adr/adr-012-optional.md)'],
      [false, 'contains "MethodArgumentNotValidException"', 'not in the request (6\u202f876 tokens); application.log trimmed 396\u202f938 → 269 tokens'],
      [true, 'excludes "password"', 'not in the request'],
      [false, 'excludes "BAD_REQUEST"', 'in the request: "… source="application.log">400 BAD_REQUEST</tool-output>"'],
    ]);
    assert.ok(results.every((r) => r.line === 7));
  });

  it('answer checks: mentions and not_claims ignore case; cites accepts the path or its file name', () => {
    const answer = 'The PaymentController now rejects requests without paymentMethod (see application.log and PaymentController.java); ADR-012 applies.';
    const results = checkAnswer(
      [
        { kind: 'mentions', value: 'adr-012', line: 3 }, { kind: 'mentions', value: 'contract test', line: 4 },
        { kind: 'cites', value: 'application.log', line: 5 }, { kind: 'cites', value: 'src/main/java/com/acme/payments/api/PaymentController.java', line: 5 }, { kind: 'cites', value: 'docs/adr/adr-012.md', line: 5 },
        { kind: 'not_claims', value: 'ADR-008 applies', line: 6 }, { kind: 'not_claims', value: 'adr-012 APPLIES', line: 6 },
      ],
      answer,
    );
    assert.deepEqual(results.map((r) => [r.ok, r.expectation, r.found]), [
      [true, 'mentions "adr-012"', '"… and PaymentController.java); ADR-012 applies."'],
      [false, 'mentions "contract test"', 'not in the answer (131 characters)'],
      [true, 'cites application.log', 'cited as application.log'],
      [true, 'cites src/main/java/com/acme/payments/api/PaymentController.java', 'cited as PaymentController.java'],
      [false, 'cites docs/adr/adr-012.md', 'neither docs/adr/adr-012.md nor adr-012.md appears in the answer'],
      [true, 'not_claims "ADR-008 applies"', 'not in the answer'],
      [false, 'not_claims "adr-012 APPLIES"', 'the answer says "… and PaymentController.java); ADR-012 applies."'],
    ]);
  });
});

describe('cost', () => {
  it('prices a model by its longest listed prefix; cached input at the cached rate; unknown models and missing usage have no cost', () => {
    assert.equal(priceFor('gpt-4o-2024-08-06')?.model, 'gpt-4o');
    assert.equal(priceFor('gpt-4o-mini')?.model, 'gpt-4o-mini');
    assert.equal(priceFor('llama3.1:8b'), undefined);
    // gpt-4o: 2.5 input, 1.25 cached, 10 output per million.
    assert.equal(costOf('gpt-4o', { input: 8000, cached: 2000, output: 500 }), (6000 * 2.5 + 2000 * 1.25 + 500 * 10) / 1e6);
    // Anthropic reports cache reads beside input_tokens.
    assert.equal(costOf('claude-sonnet-4-20250514', { input: 1000, cached: 4000, output: 100, cachedInInput: false }), (1000 * 3 + 4000 * 0.3 + 100 * 15) / 1e6);
    assert.equal(costOf('llama3.1:8b', { input: 1, output: 1 }), undefined);
    assert.equal(costOf('gpt-4o', { output: 1 }), undefined);
  });
});
