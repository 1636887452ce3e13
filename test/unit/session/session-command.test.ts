import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { run } from '../../../src/cli/main';
import { sessionCommand } from '../../../src/cli/session-command';
import { EXAMPLE } from '../helpers';
import { faithfulSummary, SESSION_SOURCE } from './fixtures';

// A copy of the example workspace with a small log (the summary store must not be written into examples/).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-session-cli-'));
fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => path.basename(src) !== 'application.log' });
fs.writeFileSync(path.join(root, 'application.log'), '2026-11-12T08:03:41.205Z ERROR 400 BAD_REQUEST POST /v1/payments: paymentMethod is required\n');
after(() => fs.rmSync(root, { recursive: true, force: true }));

const STORE = path.join(root, '.context', 'session.summaries.jsonl');
const clock = (iso: string) => () => new Date(iso);
function cli(argv: string[], now = clock('2026-11-12T10:20:00Z')): string {
  let out = '';
  assert.equal(sessionCommand(argv, (s) => (out += s), now), 0);
  return out;
}
function failing(argv: string[]): { code: number; stderr: string } {
  let stderr = '';
  const code = run(argv, { stdout: () => undefined, stderr: (s) => (stderr += s) }) as number; // session and preview are synchronous
  return { code, stderr };
}

describe('ctxctl session show|compact|edit|undo', () => {
  const sessionBefore = fs.readFileSync(path.join(root, SESSION_SOURCE), 'utf8');

  it('show previews the fold before anything is stored', () => {
    const out = cli(['show', '--workspace', root]);
    assert.deepEqual(out.split('\n').slice(0, 8), [
      `SESSION ${SESSION_SOURCE}`,
      '  24 stored events',
      '  16 folded (e01…e16, 12 groups)',
      '  8 kept raw (e17…e24, 6 groups)',
      '  0 omitted',
      out.split('\n')[5],
      '  summary: extractive fallback (no model configured): sentences copied from the events, not rewritten',
      '  validation: ACCEPTED',
    ]);
    assert.match(out.split('\n')[5], /^ {2}tokens \d[\d\u202f]* → \d[\d\u202f]*$/);
    assert.equal(fs.existsSync(STORE), false);
  });

  it('compact stores the fallback summary beside the events, with the range it covers', () => {
    const out = cli(['compact', '--workspace', root]);
    assert.equal(out.split('\n')[0], 'Stored summary s1 (extractive) of e01…e16 in .context/session.summaries.jsonl');
    const records = fs.readFileSync(STORE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(records.map((r) => [r.id, r.action, r.producer, r.covers.from, r.covers.to, r.covers.events, r.created_at]), [['s1', 'compact', 'extractive', 'e01', 'e16', 16, '2026-11-12T10:20:00.000Z']]);
    assert.ok(out.includes('\nHISTORY\n  s1   compact extractive e01…e16  2026-11-12T10:20:00.000Z  ACTIVE\n'));
  });

  it('edit refuses a summary that turns the hypothesis into a fact (exit 2, with the reason)', () => {
    const file = path.join(root, 'bad-summary.yaml');
    fs.writeFileSync(file, stringify({ ...faithfulSummary(), established_facts: ['The mobile client may still use v1 of the API.'] }));
    const { code, stderr } = failing(['session', 'edit', '--workspace', root, '--file', file]);
    assert.equal(code, 2);
    assert.equal(stderr, 'ctxctl: .context/session.summaries.jsonl: edited summary rejected, not stored: established_facts[0] is worded as a hypothesis or question: "The mobile client may still use v1 of the API."\n');
    assert.equal(fs.readFileSync(STORE, 'utf8').trim().split('\n').length, 1);
  });

  it('edit stores a valid summary; undo brings the previous one back', () => {
    const file = path.join(root, 'summary.json');
    fs.writeFileSync(file, JSON.stringify(faithfulSummary()));
    const edited = cli(['edit', '--workspace', root, '--file', file], clock('2026-11-12T10:21:00Z'));
    assert.equal(edited.split('\n')[0], 'Stored edit s2 of s1 in .context/session.summaries.jsonl');
    assert.ok(edited.includes('  summary: edited by the user (stored summary s2)\n'));
    const undone = cli(['undo', '--workspace', root], clock('2026-11-12T10:22:00Z'));
    assert.equal(undone.split('\n')[0], 'Undid summary s2 (record s3 in .context/session.summaries.jsonl)');
    assert.ok(undone.includes('  s2   edit    edit e01…e16  2026-11-12T10:21:00.000Z  undone\n  s3   undo s2  2026-11-12T10:22:00.000Z\n'));
    const preview = JSON.parse(cli(['show', '--workspace', root, '--json']));
    assert.equal(preview.preview.summary_id, 's1');
  });

  it('preview reuses the active stored summary', () => {
    let out = '';
    assert.equal(run(['preview', '--workspace', root, '--task', path.join(root, 'ticket.md'), '--json'], { stdout: (s) => (out += s), stderr: () => undefined }), 0);
    const { manifest } = JSON.parse(out);
    assert.deepEqual(manifest.compacted.map((d: { producer: string; summary_id: string }) => [d.producer, d.summary_id]), [['extractive', 's1']]);
  });

  it('reads another session with --session: a corrupt line is reported with its line number and skipped, the rest survives', () => {
    const other = path.join(root, 'other-session.jsonl');
    const lines = fs.readFileSync(path.join(root, SESSION_SOURCE), 'utf8').trim().split('\n');
    fs.writeFileSync(other, [lines[0], '{"id":"e02","type":"assistant","text":"cut off', ...lines.slice(2)].join('\n') + '\n');
    const out = cli(['show', '--workspace', root, '--session', other]);
    assert.deepEqual(out.split('\n').slice(0, 3), ['SESSION other-session.jsonl', '  23 stored events', '  15 folded (e01…e16, 11 groups)']);
    assert.ok(out.endsWith('\nWARNINGS\n  other-session.jsonl:2: corrupt session line skipped: Unterminated string in JSON at position 46\n'));
    assert.equal(fs.existsSync(path.join(root, 'other-session.summaries.jsonl')), false, 'show stores nothing');
  });

  it('reports bad usage with exit 2, and never touches the stored session', () => {
    assert.deepEqual(failing(['session', 'frob', '--workspace', root]).code, 2);
    assert.match(failing(['session', 'frob']).stderr, /^ctxctl: session: expected one of show, compact, edit, undo, got "frob"/);
    assert.equal(failing(['session', 'show']).stderr, 'ctxctl: session show: --workspace DIR is required\n');
    assert.equal(failing(['session', 'edit', '--workspace', root]).stderr, 'ctxctl: session edit: --file SUMMARY.(json|yaml) is required\n');
    assert.equal(fs.readFileSync(path.join(root, SESSION_SOURCE), 'utf8'), sessionBefore);
  });
});
