import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looksLikeDecision, parseDecision, parseStatus, statusLabel } from '../../../src/core/sources/adr';
import { parseDocument } from '../../../src/core/sources/documents';

const meta = (body: string, data: Record<string, unknown> = {}, file = 'x/0007-x.md') => parseDecision(file, data, body).meta;
const line = (m: ReturnType<typeof meta>) => `${m.status} by=${m.supersededBy.join(',')} of=${m.supersedes.join(',')}`;

describe('decision statuses in every common form', () => {
  it('after an emoji: ✅ Accepted, ❌ Rejected, 🤔 Proposed, ⌛ Superseded, with or without a variation selector', () => {
    assert.equal(parseStatus('✅ Accepted').status, 'accepted');
    assert.equal(parseStatus('❌ Rejected').status, 'rejected');
    assert.equal(parseStatus('🤔 Proposed').status, 'proposed');
    assert.equal(parseStatus('⌛ Superseded').status, 'superseded');
    assert.equal(parseStatus('⌛️ Superseded').status, 'superseded');
    assert.equal(parseStatus('🟢 **Accepted**').status, 'accepted');
  });

  it('`Superseded [0019](0019-x.md)` and a bare `Superseded [0019]` name the successor', () => {
    assert.deepEqual(parseStatus('⌛️ Superseded [0019](0019-use-bash-go-as-core-languages.md)'), { status: 'superseded', refs: [{ text: '0019', target: '0019-use-bash-go-as-core-languages.md' }], supersedes: [] });
    assert.deepEqual(parseStatus('Superseded [0019]'), { status: 'superseded', refs: [{ text: '0019' }], supersedes: [] });
    assert.deepEqual(parseStatus('Superseded by [ADR-7][adr7]'), { status: 'superseded', refs: [{ text: 'ADR-7' }], supersedes: [] });
    assert.deepEqual(parseStatus('Replaced by ADR-9').status, 'superseded');
    // A successor line of its own, after an emoji, anywhere in the record.
    assert.equal(line(meta('# T\n\n## Status\n\n✅ Accepted\n\n⌛️ Superseded by [ADR-0019](0019-x.md)\n')), 'superseded by=ADR-0019 of=');
  });

  it('table rows: `| Status | Superseded by ADR-3 |`, `| **Status** | Accepted |`; an index table of other records is not a status', () => {
    assert.equal(line(meta('# T\n\n| Field | Value |\n|---|---|\n| Date | 2024-01-02 |\n| Status | Superseded by ADR-3 |\n\n## Context\n')), 'superseded by=ADR-3 of=');
    assert.equal(line(meta('# T\n\n| **Status** | Accepted |\n| --- | --- |\n| x | y |\n', {}, 'x/0008-y.md')), 'unknown by= of=');
    assert.equal(line(meta('# T\n\n| Key | Value |\n| --- | --- |\n| **Status** | Accepted |\n')), 'accepted by= of=');
    assert.equal(line(meta('# Log\n\n| ID | Title | Status |\n|---|---|---|\n| 1 | Use X | Accepted |\n')), 'unknown by= of=');
  });

  it('headings: `## Status: Deprecated`, `### Status` (then its first line), `#### Status — Rejected`, indented `## Status`', () => {
    assert.equal(meta('# T\n\n## Status: Deprecated\n').status, 'deprecated');
    assert.equal(meta('# T\n\n### Status\n\nDecided.\n').status, 'accepted');
    assert.equal(meta('# T\n\n#### Status — Rejected\n').status, 'rejected');
    assert.equal(meta('# T\n\n    ## Status\n\n    Accepted\n').status, 'accepted');
  });

  it('lists and bullets in any case: `* Status: ACCEPTED`, `- **status:** superseded by [ADR-2](0002-b.md)`', () => {
    assert.equal(meta('# T\n\n* Status: ACCEPTED\n* Date: 2020-01-02\n').status, 'accepted');
    assert.equal(line(meta('# T\n\n- **status:** superseded by [ADR-2](0002-b.md)\n')), 'superseded by=ADR-2 of=');
    assert.equal(meta('# T\n\nStatus: Approved\n\n## Context\n').status, 'accepted');
  });

  it('front matter: `status: Deprecated`, `status: "⌛ superseded by ADR-0123"`, synonyms, and a template placeholder', () => {
    assert.equal(meta('# T\n', { status: 'Deprecated' }).status, 'deprecated');
    assert.equal(line(meta('# T\n', { status: '⌛ superseded by ADR-0123' })), 'superseded by=ADR-0123 of=');
    assert.equal(meta('# T\n', { status: 'obsolete' }).status, 'deprecated');
    assert.equal(meta('# T\n', { status: 'withdrawn' }).status, 'rejected');
    assert.equal(meta('# T\n', { status: 'WIP' }).status, 'draft');
    assert.equal(meta('# T\n', { status: '{proposed | accepted}' }).status, 'unknown');
    assert.equal(meta('# T\n\nStatus: Draft/Final/Postponed/Cancelled\n').status, 'unknown');
  });

  it('a record whose status cannot be read is "status unknown", never accepted', () => {
    assert.equal(meta('# 7. Use X\n\n## Context\n\nWhy.\n\n## Decision\n\nX.\n').status, 'unknown');
    assert.equal(meta('# T\n\n## Status\n\nImplemented\n').status, 'unknown');
    assert.equal(statusLabel('unknown'), 'status unknown');
    assert.equal(statusLabel(undefined), 'status unknown');
    assert.equal(statusLabel('accepted'), 'accepted');
  });
});

describe('decision records by content, not by folder name', () => {
  it('recognises Nygard, MADR and titled records anywhere; README listings, guides and templates are not decisions', () => {
    assert.equal(looksLikeDecision('notes/lambda.md', {}, '# 4. Use bash\n\n## Status\n\n✅ Accepted\n\n## Context\n\nWhy.\n\n## Decision\n\nBash.\n'), true);
    assert.equal(looksLikeDecision('docs/x.md', {}, '# Use YAML\n\n## Context and Problem Statement\n\nQ?\n\n## Considered Options\n\n* a\n\n## Decision Outcome\n\nChosen option: a.\n'), true);
    assert.equal(looksLikeDecision('examples/go/index.md', {}, '# Architecture Decision Record: Go\n\nTitle: Adoption of Go\n\nStatus: Accepted\n'), true);
    assert.equal(looksLikeDecision('adr-012-optional-fields.md', {}, '# Optional fields\n\nStatus: accepted\n'), true);
    assert.equal(looksLikeDecision('README.md', {}, '# Decision log\n\n| ID | Title | Status |\n|---|---|---|\n| 1 | Use X | Accepted |\n'), false);
    assert.equal(looksLikeDecision('docs/guide.md', {}, '# Guide\n\n## Install\n\nnpm i\n\n## Usage\n\nRun it.\n'), false);
    assert.equal(looksLikeDecision('docs/howto.md', {}, '# How to write a good decision\n\nA decision record says why.\n'), false);
  });

  it('parseDocument: a record outside any ADR folder is a decision with its status; an index.md record too; a template by name is not', () => {
    const root = parseDocument('adr-004-use-bash.md', '# 4. Use bash\n\n## Status\n\n⌛️ Superseded [0019](adr-019-use-go.md)\n\n## Context\n\nA.\n\n## Decision\n\nB.\n', false);
    assert.deepEqual([root.decision?.id, root.decision?.status, root.decision?.supersededBy], ['ADR-004', 'superseded', ['0019']]);
    const folder = parseDocument('examples/timestamp-format/index.md', '# Timestamp format\n\n## Summary\n\n### Issue\n\nTimes.\n\n### Decision\n\nISO 8601.\n\n### Status\n\nDecided.\n', false);
    assert.deepEqual([folder.decision?.status, folder.title], ['accepted', 'Timestamp format']);
    const noStatus = parseDocument('architecture/0002-postgres.md', '# Use PostgreSQL\n\n## Context\n\nA.\n\n## Decision\n\nPostgreSQL.\n', false);
    assert.equal(noStatus.decision?.status, 'unknown');
    const template = parseDocument('template/adr-template.md', '# {title}\n\n## Context\n\n{…}\n\n## Decision\n\n{…}\n', false);
    assert.equal(template.decision?.template, true);
    assert.equal(parseDocument('docs/guide.md', '# Guide\n\n## Install\n\nnpm i\n', false).decision, undefined);
  });
});
