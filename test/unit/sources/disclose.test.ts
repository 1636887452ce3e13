import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { listAvailable, readDocument, workspacePath } from '../../../src/core/disclose';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { counter, EXAMPLE } from '../helpers';
import { FIXTURES, tempWorkspace } from './fixtures';

const TICKET = path.join(EXAMPLE, 'ticket.md');
const example = () => loadSnapshot({ root: EXAMPLE, task: TICKET });
const options = { tokenizer: counter };

describe('progressive disclosure', () => {
  it('lists what read_document can fetch: retired decisions and other components left out, with estimated tokens', () => {
    const listed = listAvailable(example());
    assert.deepEqual(listed.value.map((e) => e.path), [
      'docs/adr/adr-012-optional-fields-at-http-boundary.md',
      'docs/architecture.md',
      'docs/runbook.md',
      'src/main/java/com/acme/payments/api/PaymentController.java',
      // The ticket's "paymentMethod is required" and paymentMethod point at these two.
      'src/main/java/com/acme/payments/api/PaymentRequest.java',
      'src/main/java/com/acme/payments/service/PaymentService.java',
      'src/test/java/com/acme/payments/api/PaymentControllerTest.java',
    ]);
    const architecture = listed.value[1];
    const body = fs.readFileSync(path.join(EXAMPLE, 'docs/architecture.md'), 'utf8').split(/^---$/m)[2].trim();
    assert.deepEqual(architecture, {
      path: 'docs/architecture.md',
      title: 'Payment service architecture',
      summary: 'Describes the HTTP path, validation and dependencies of the payment service.',
      tags: ['payment', 'http', 'validation'],
      // Prose, estimated at 4.2 characters per token (estimate.ts); its exact count is 5 625 (not tokenized here).
      estimatedTokens: Math.ceil(body.length / 4.2),
    });
    assert.deepEqual(listed.decisions.rejected?.map((d) => `${d.source}: ${d.reason}`), [
      'docs/adr/adr-008-payment-method-mandatory.md: superseded by ADR-012',
      'docs/marketing-notes.md: unrelated component',
    ]);
  });

  it('returns a whole document wrapped with its provenance, counted exactly and recorded as selected', () => {
    const out = readDocument(example(), { path: 'docs/runbook.md' }, { ...options, maxTokens: 5000 });
    assert.ok(out.text.startsWith('<document source="docs/runbook.md" trust="project-document">\n<content>\n# Payment service runbook\n'));
    assert.ok(out.text.endsWith('</content>\n</document>'));
    assert.equal(out.block?.tokens, counter.count(out.text));
    assert.deepEqual(out.decisions, {
      selected: [{ source: 'docs/runbook.md', kind: 'document', reason: 'read_document: fetched on demand', tokens: counter.count(out.text), zone: 'documents', via: 'read_document' }],
    });
  });

  it('returns one section by heading (case and `#` marks ignored), or `path#heading`', () => {
    const out = readDocument(example(), { path: './docs/architecture.md', heading: '## idempotency' }, options);
    const content = out.text.split('\n');
    assert.equal(content[0], '<document source="docs/architecture.md#Idempotency" trust="project-document">');
    assert.equal(content[2], '## Idempotency');
    assert.equal(out.text.includes('## Asynchronous processing'), false);
    assert.equal(out.decisions.selected?.[0].reason, 'read_document: section "Idempotency" fetched on demand');
    assert.equal(out.decisions.selected?.[0].heading, 'Idempotency');
    assert.equal(readDocument(example(), { path: 'docs/architecture.md#Idempotency' }, options).text, out.text);
  });

  it('trims a document over the budget to its longest head that fits, naming the sections left out', () => {
    const out = readDocument(example(), { path: 'docs/architecture.md' }, options);
    const tokens = counter.count(out.text);
    assert.ok(tokens <= 1500 && tokens > 1400, `${tokens} tokens`);
    const notice = /\[trimmed: (\d+) of (\d+) lines kept to fit 1500 tokens; the full text is docs\/architecture\.md\. Sections not shown in full: "([^"]+)" \(cut\), "([^"]+)", /.exec(out.text);
    assert.ok(notice, out.text.slice(-600));
    const trimmed = out.decisions.trimmed?.[0];
    assert.deepEqual(
      { reason: trimmed?.reason, retained: trimmed?.retained_lines, original: trimmed?.original_lines, tokens: trimmed?.tokens, reference: trimmed?.reference },
      { reason: 'read_document: trimmed to the budget of 1500 tokens', retained: Number(notice[1]), original: Number(notice[2]), tokens, reference: 'docs/architecture.md' },
    );
    assert.ok(Number(trimmed?.original_tokens) > 5000);
    // The notice names the section the cut fell in, then the next one, which is the first heading after the kept head.
    const lines = out.block!.text.split('\n');
    assert.equal(lines.length, Number(notice[1]) + 1);
    assert.equal(lines.filter((l) => l.startsWith('## ')).at(-1), `## ${notice[3]}`);
    const full = fs.readFileSync(path.join(EXAMPLE, 'docs/architecture.md'), 'utf8');
    assert.ok(full.indexOf(`## ${notice[4]}`) > full.indexOf(`## ${notice[3]}`));
    assert.equal(out.decisions.selected?.[0].reason, 'read_document: fetched on demand, trimmed');
  });

  it('passes the same prune: a superseded decision and another component are refused with the manifest reason', () => {
    const adr = readDocument(example(), { path: 'docs/adr/adr-008-payment-method-mandatory.md' }, options);
    assert.equal(adr.text, 'read_document: "docs/adr/adr-008-payment-method-mandatory.md" is not returned: superseded by ADR-012');
    assert.deepEqual(adr.decisions.rejected, [
      { source: 'docs/adr/adr-008-payment-method-mandatory.md', kind: 'decision', reason: 'read_document: superseded by ADR-012', tokens: 508, via: 'read_document' },
    ]);
    const other = readDocument(example(), { path: 'docs/marketing-notes.md' }, options);
    assert.equal(other.text, 'read_document: "docs/marketing-notes.md" is not returned: unrelated component');
    assert.equal(other.block, undefined);
  });

  it('refuses, with a reason and never an exception: bad arguments, paths outside, unknown files, missing headings, tiny budgets', () => {
    const s = example();
    const text = (args: Record<string, unknown>, maxTokens?: number) => readDocument(s, args, { ...options, maxTokens }).text;
    assert.equal(text({ path: 42 }), 'read_document: "" is not returned: the path must be a workspace-relative path, as listed in <available-documents>');
    assert.equal(text({ path: '../../package.json' }), 'read_document: "../../package.json" is not returned: the path must be a workspace-relative path, as listed in <available-documents>');
    assert.equal(text({ path: '/etc/passwd' }), 'read_document: "/etc/passwd" is not returned: the path must be a workspace-relative path, as listed in <available-documents>');
    assert.equal(text({ path: 'application.log' }), 'read_document: "application.log" is not returned: it is not an available document (<available-documents> lists what can be read)');
    assert.equal(text({ path: 'AGENTS.md' }), 'read_document: "AGENTS.md" is not returned: it is already in the request (agents_md)');
    assert.equal(
      text({ path: 'docs/runbook.md', heading: 'Escalation' }),
      'read_document: "docs/runbook.md" is not returned: no section "Escalation"; its headings: "Payment service runbook", "Health checks", "Dashboards", "Common alerts", "Rollback", "Manual jobs"',
    );
    assert.match(text({ path: 'docs/runbook.md' }, 20), /^read_document: "docs\/runbook\.md" is not returned: over budget: \d+ tokens and not even its first line fits in 20$/);
    assert.deepEqual(['docs/x.md', './docs/../docs/x.md', path.join(EXAMPLE, 'docs/x.md'), 'docs\\x.md', '..', ''].map((p) => workspacePath(EXAMPLE, p)), [
      'docs/x.md', 'docs/x.md', 'docs/x.md', 'docs/x.md', undefined, undefined,
    ]);
  });

  it('fetches a disclosed instruction file (a Cursor rule requested by its description) as project rules', () => {
    const root = path.join(FIXTURES, 'instructions');
    const s = loadSnapshot({ root, task: path.join(root, 'task.md') });
    assert.ok(listAvailable(s).value.some((e) => e.path === '.cursor/rules/database-migrations.mdc'));
    const out = readDocument(s, { path: '.cursor/rules/database-migrations.mdc' }, options);
    assert.equal(out.text.split('\n')[0], '<document source=".cursor/rules/database-migrations.mdc" trust="project-rule">');
    assert.ok(out.text.includes('Expand, deploy, backfill, then contract'));
    assert.equal(readDocument(s, { path: 'services/search/AGENTS.md' }, options).text,
      'read_document: "services/search/AGENTS.md" is not returned: AGENTS.md does not apply: no file of the task lies below services/search/');
  });

  it('redacts secrets in what it returns, as the chain does', () => {
    const root = tempWorkspace({ 'docs/setup.md': '# Setup\n\nExport the key: `api_key = "k3y-live-9f8e7d6c5b4a"` then start.\n' });
    const out = readDocument(loadSnapshot({ root, task: 'set up' }), { path: 'docs/setup.md' }, options);
    assert.equal(out.text.includes('k3y-live-9f8e7d6c5b4a'), false);
    assert.ok(out.text.includes('api_key = "[REDACTED:assigned-secret]"'), out.text);
  });
});
