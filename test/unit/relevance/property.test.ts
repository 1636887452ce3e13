import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EXAMPLE } from '../helpers';
import { CASES } from './repos.test';
import { docSets, outcome, REPOS } from './repos';
import { checkProperty } from '../property-harness';

/** Unrelated documents (team life, marketing, tooling), written the way real repositories have them. */
const NOISE = [
  ['Team offsite', 'Two days in Porto in September. Bring comfortable shoes; the dinner is on Thursday.'],
  ['Newsletter schedule', 'The marketing newsletter goes out every second Tuesday with the product highlights.'],
  ['Editor setup', 'Install the recommended extensions and enable format on save in your editor settings.'],
  ['Office plants', 'Water the plants on the third floor every Monday; the ficus needs less water in winter.'],
  ['Hiring process', 'Candidates meet two engineers and a manager; the take-home exercise takes two hours.'],
  ['Design review checklist', 'Check contrast ratios, focus states and the empty states of every screen.'],
] as const;

function copyWith(repo: string, extra: number[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ctx-prop-${repo}-`));
  fs.cpSync(path.join(REPOS, repo), dir, { recursive: true });
  extra.forEach((n, i) => {
    const [title, body] = NOISE[n];
    fs.mkdirSync(path.join(dir, 'docs', 'misc'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'docs', 'misc', `note-${i}.md`), `# ${title}\n\n${body}\n`);
  });
  return dir;
}

describe('relevance properties', () => {
  // Each run copies a fixture repository and runs the whole chain with the real tokenizer (about 0.1 s): 1 000 runs
  // in CI (CI=true, as .ci/run is run), 40 in a local unit run, ten times that under `npm run fuzz`.
  it('adding irrelevant documents never removes a relevant one from the request', (t) => {
    checkProperty(t, {
      runs: process.env.CI ? 1000 : 40,
      labels: [...new Set(CASES.map((c) => `repo ${c.repo}`)), '4 or more notes added'],
      floors: { '4 or more notes added': 0.2, ...Object.fromEntries(CASES.map((c) => [`repo ${c.repo}`, 0.1])) },
      arbitraries: [fc.constantFrom(...CASES), fc.array(fc.integer({ min: 0, max: NOISE.length - 1 }), { minLength: 1, maxLength: 6 })],
      check: (cov, c, extra: number[]) => {
        cov.hit(`repo ${c.repo}`);
        cov.hit('4 or more notes added', extra.length >= 4);
        const dir = copyWith(c.repo, extra);
        try {
          const selected = docSets(outcome(dir, c.task)).selected;
          for (const g of c.governing) assert.ok(selected.includes(g), `${g} dropped after adding ${extra.length} notes`);
          assert.deepEqual(selected.filter((s) => s.startsWith('docs/misc/')), []);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    });
  });

  it('pasting a task file\'s body gives the same decisions as naming the file, for every case', () => {
    for (const c of CASES) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ctx-paste-${c.repo}-`));
      try {
        fs.cpSync(path.join(REPOS, c.repo), dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'TASK.md'), c.task + '\n');
        const named = docSets(outcome(dir, 'TASK.md'));
        const pasted = docSets(outcome(dir, c.task));
        assert.deepEqual(pasted, named, c.task);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('the example: pasting ticket.md as text gives the decisions of naming it (ADR-012 selected, ADR-008 superseded, marketing notes out)', () => {
    const ticket = fs.readFileSync(path.join(EXAMPLE, 'ticket.md'), 'utf8');
    const body = ticket.replace(/^---\n[\s\S]*?\n---\n/, '');
    const named = outcome(EXAMPLE, path.join(EXAMPLE, 'ticket.md'));
    for (const pasted of [outcome(EXAMPLE, body), outcome(EXAMPLE, ticket)]) {
      assert.deepEqual(docSets(pasted), docSets(named));
      assert.ok(pasted.selected.has('docs/adr/adr-012-optional-fields-at-http-boundary.md'));
      assert.equal(pasted.rejected.get('docs/adr/adr-008-payment-method-mandatory.md'), 'superseded by ADR-012');
      assert.match(pasted.rejected.get('docs/marketing-notes.md')!, /^unrelated component: marketing \(front matter\); the task's: payment \((named in the task|from its front matter)\)$/);
    }
    assert.deepEqual(docSets(named), {
      selected: ['docs/adr/adr-012-optional-fields-at-http-boundary.md'],
      rejected: ['docs/adr/adr-008-payment-method-mandatory.md', 'docs/marketing-notes.md'],
      indexed: ['docs/architecture.md', 'docs/runbook.md'],
    });
    assert.deepEqual(outcome(EXAMPLE, body).warnings.filter((w) => w.startsWith('task:')), ['task: the pasted task is the text of ticket.md: that file is the task, not offered as a document']);
  });

  it('a typed task that looks like a missing file name is a warning, and is read as text', () => {
    const o = outcome(EXAMPLE, 'tickets.md');
    assert.deepEqual(o.warnings.filter((w) => w.startsWith('task:')), ['task: tickets.md does not exist; treated as text']);
    assert.equal(o.manifest.task.source, 'task');
  });
});
