import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { templatePattern } from '../../../src/core/trim/templates';
import { counter } from '../helpers';
import { tempDir } from '../offload/results';

const CORPUS = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'tool-output');
const NOW = () => new Date('2026-11-12T10:00:00Z');
const SIXTEEN = ['android', 'apache-error', 'bgl', 'github-actions', 'hadoop', 'hdfs', 'healthapp', 'hpc', 'klog', 'linux-syslog', 'mac', 'openssh', 'openstack', 'proxifier', 'spark', 'zookeeper'];

/** A clipped row (`… ` at its end) holds the start of the template: its first words, up to the clip. */
function clippedMatch(template: string, row: string): boolean {
  if (!row.endsWith(' …')) return false;
  const words = row.replace(/^ {2}[EW] ×\d+(?: \([^)]*\))?: /, '').replace(/ …$/, '').split(/\s+/).length - 1;
  const start = template.trim().split(/\s+/).slice(0, Math.max(2, Math.ceil(words / 2))).join(' ');
  return templatePattern(start).test(row);
}

/** A masked row: at least 80 % of the template's literal words (those without variable parts) are in it, in order. */
function wordsMatch(template: string, row: string): boolean {
  const words = template.split(/\s+/).filter((w) => /^[A-Za-z][A-Za-z.,:'-]*$/.test(w));
  let at = 0;
  let found = 0;
  for (const w of words) {
    const i = row.indexOf(w, at);
    if (i >= 0) {
      found++;
      at = i + w.length;
    }
  }
  return words.length >= 3 && found / words.length >= 0.8;
}

describe('the zone follows the evidence', () => {
  it('a log with more distinct errors gets more than one with fewer; a log without evidence gets a glance', () => {
    const root = tempDir('evidence');
    for (const name of ['openssh', 'hdfs']) fs.copyFileSync(path.join(CORPUS, `${name}.log`), path.join(root, `${name}.log`));
    fs.writeFileSync(path.join(root, 'clean.log'), Array.from({ length: 3000 }, (_, i) => `2026-11-12T09:00:00.000Z INFO step ${i} done`).join('\n'));
    const result = assemble(loadSnapshot({ root, task: 'Why?' }), { tokenizer: counter, now: NOW });
    const share = (s: string) => Number(result.manifest.trimmed.find((t) => t.source === s)!.share);
    assert.equal(share('clean.log'), 80, 'the glance');
    assert.ok(share('openssh.log') > share('hdfs.log'), `openssh (11 templates) ${share('openssh.log')} > hdfs (6) ${share('hdfs.log')}`);
    // The request has room left after the fill, so the zone grows into it (chain/grow.ts) and is shared
    // the same way: the sum of the shares is the grown zone the warning states (it was the 1 500-token cap).
    const grown = result.manifest.warnings.find((w) => w.source === 'zones.tool_results');
    assert.match(String(grown?.message), /^tool-results zone grown from 1500 to 10250 tokens into the \d+ tokens the fill left free/);
    assert.equal(share('openssh.log') + share('hdfs.log') + share('clean.log'), 10250);
    assert.match(String(result.manifest.trimmed.find((t) => t.source === 'clean.log')!.reason), /^no error or warning found: head and tail kept/);
  });
});

describe('sixteen different logs in one workspace, default policy', () => {
  const root = tempDir('sixteen');
  for (const name of SIXTEEN) fs.copyFileSync(path.join(CORPUS, `${name}.log`), path.join(root, `${name}.log`));
  const result = assemble(loadSnapshot({ root, task: 'Why are the services failing?' }), { tokenizer: counter, now: NOW });
  const sent = (source: string) => result.blocks.find((b) => b.source === source)?.text ?? '';

  // The zone first grows for the evidence floors, then into the room the fill left free (it used to stop
  // at the floors, under 2 500 tokens, with 8 000 tokens of the request unused); the warning says the second.
  it('every log is in the request; the zone grew past 1 500 tokens into the free room, and says so', () => {
    const entries = SIXTEEN.map((n) => result.manifest.trimmed.find((t) => t.source === `${n}.log`));
    for (const [k, e] of entries.entries()) assert.ok(e, `${SIXTEEN[k]}.log trimmed`);
    for (const n of SIXTEEN) assert.ok(sent(`${n}.log`).length > 0, `${n}.log sent`);
    const total = entries.reduce((a, e) => a + Number(e!.share), 0);
    const grown = result.manifest.warnings.find((w) => w.source === 'zones.tool_results');
    assert.ok(grown, 'a warning says the zone grew');
    assert.match(grown!.message, new RegExp(`^tool-results zone grown from 1500 to ${total} tokens into the \\d+ tokens the fill left free, so that tool output and logs send more of their evidence \\(errors first\\)$`));
    assert.ok(total > 2500, `${total}`);
    assert.ok(result.manifest.budget.final <= 11000);
    // One round of growth shows every template of every log here, so no second round trims them again (it runs
    // only while a log still leaves templates out: the Loghub case of eval-logs).
    for (const e of entries) {
      const c = e!.templates as { errors: number; warnings: number; kept_errors: number; kept_warnings: number } | undefined;
      if (c) assert.equal(c.kept_errors + c.kept_warnings, c.errors + c.warnings, e!.source);
    }
  });

  it('every log with errors has at least its most important template in the request, with its count', () => {
    for (const n of SIXTEEN) {
      const truth = JSON.parse(fs.readFileSync(path.join(CORPUS, `${n}.truth.json`), 'utf8')) as { templates: { severity: string; template: string }[] };
      // A true error or warning template (the detector may rank a true warning as an error: mac's "Link Down").
      const errors = truth.templates;
      const text = sent(`${n}.log`);
      const rows = text.split('\n').filter((l) => /^ {2}E ×\d+(?: \(|: )/.test(l));
      assert.ok(rows.length >= 1, `${n}.log: an error row in\n${text}`);
      // A row holds a true error template: the row matches the template, or (a compact row, masked) the template matches the row.
      const message = (r: string) => r.replace(/^ {2}E ×\d+(?: \([^)]*\))?: /, '').replace(/ …$/, '');
      assert.ok(
        errors.some((t) => rows.some((r) => templatePattern(t.template).test(r) || templatePattern(message(r)).test(t.template) || clippedMatch(t.template, r) || wordsMatch(t.template, r))),
        `${n}.log: a true error or warning template in its rows\n${rows.join('\n')}`,
      );
    }
  });

  it('the manifest says what was left out of each log: counts per severity in the reason and a warning with the free room', () => {
    for (const n of SIXTEEN) {
      const entry = result.manifest.trimmed.find((t) => t.source === `${n}.log`)!;
      const c = entry.templates as { errors: number; warnings: number; kept_errors: number; kept_warnings: number };
      const left = c.errors - c.kept_errors + c.warnings - c.kept_warnings;
      if (left === 0) continue;
      assert.match(String(entry.reason), new RegExp(`; ${left} templates? left out: inspect with \`ctxctl inspect ${n}\\.log --grep `));
      assert.ok(result.manifest.warnings.some((w) => w.source === `${n}.log` && /left out to fit the tool-results zone \(\d+ tokens\) while the request had \d+ tokens free/.test(w.message)), `${n}.log: warning`);
    }
  });
});
