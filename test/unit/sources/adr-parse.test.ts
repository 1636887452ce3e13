import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adrDirectories, adrRole, idFromPath, isPlaceholder, normalizeDate, numberOf, parseDecision, parseStatus, refsFrom } from '../../../src/core/sources/adr';
import { parseDocument } from '../../../src/core/sources/documents';

describe('ADR parsing, piece by piece', () => {
  it('reads every status of the vocabulary, both spellings of superseded, quoted or emphasised', () => {
    const cases: [string, string | undefined][] = [
      ['draft', 'draft'],
      ['Proposed', 'proposed'],
      ['"Accepted"', 'accepted'],
      ["'rejected'", 'rejected'],
      ['`Deprecated`', 'deprecated'],
      ['**Accepted**', 'accepted'],
      ['Superseded', 'superseded'],
      ['Superceded by [2. Title](0002-title.md)', 'superseded'],
      ['Accepted on 2021-03-02', 'accepted'],
      ['Implemented', undefined],
    ];
    assert.deepEqual(cases.map(([written]) => parseStatus(written).status), cases.map(([, want]) => want));
  });

  it('takes the references out of `superseded by …` in its three written forms', () => {
    assert.deepEqual(parseStatus('superseded by [ADR-0005](0005-example.md)').refs, [{ text: 'ADR-0005', target: '0005-example.md' }]);
    assert.deepEqual(parseStatus('superseded by ADR-0123').refs, [{ text: 'ADR-0123' }]);
    assert.deepEqual(parseStatus('Superceded by [2. Use PostgreSQL](0002-use-postgresql.md)').refs, [{ text: '2. Use PostgreSQL', target: '0002-use-postgresql.md' }]);
    assert.deepEqual(parseStatus('Accepted, superseded by ADR 7').refs, [{ text: 'ADR 7' }]);
    assert.deepEqual(parseStatus('Accepted (supersedes ADR 2)').supersedes, [{ text: 'ADR 2' }]);
  });

  it('recognises template placeholders and never reads a supersession out of them', () => {
    const madr3 = '{proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)}';
    const madr4 = '{proposed | rejected | accepted | deprecated | … | superseded by ADR-0123';
    const madr2 = '[proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)] <!-- optional -->';
    assert.deepEqual([madr3, madr4, madr2].map((t) => parseStatus(t)), [
      { refs: [], supersedes: [], placeholder: true },
      { refs: [], supersedes: [], placeholder: true },
      { refs: [], supersedes: [], placeholder: true },
    ]);
    assert.deepEqual(['[YYYY-MM-DD when the decision was last updated]', '[ADR-0005](0005-example.md)', 'Jane Doe'].map(isPlaceholder), [true, false, false]);
  });

  it('normalises dates: ISO, DD/MM/YYYY, DD.MM.YYYY; null for a placeholder, undefined for nonsense', () => {
    assert.deepEqual(
      ['2024-02-14', '14/02/2024', '4/3/2025', '12.04.2021', '31/02/2024', '2024-13-01', 'last Tuesday', '{YYYY-MM-DD when the decision was last updated}'].map(normalizeDate),
      ['2024-02-14', '2024-02-14', '2025-03-04', '2021-04-12', undefined, undefined, undefined, null],
    );
    // The years 0–99 are those years, not 1900–1999.
    assert.deepEqual(['0000-01-01', '0099-12-31', '31/12/0050', '0100-01-01'].map(normalizeDate), ['0000-01-01', '0099-12-31', '0050-12-31', '0100-01-01']);
  });

  it('splits references: links, lists of ids, or one title', () => {
    assert.deepEqual(refsFrom('[ADR-1](0001-a.md) and [ADR-2](<0002-b c.md> "title")'), [{ text: 'ADR-1', target: '0001-a.md' }, { text: 'ADR-2', target: '0002-b c.md' }]);
    assert.deepEqual(refsFrom('ADR-3, ADR-4 and 5.'), [{ text: 'ADR-3' }, { text: 'ADR-4' }, { text: '5' }]);
    assert.deepEqual(refsFrom('Rate-limit per partner account'), [{ text: 'Rate-limit per partner account' }]);
    assert.deepEqual(refsFrom('  '), []);
  });

  it('numbers and ids: ADR-012, adr 12, #12, 0012, `12. Title` carry 12; a dated slug carries none', () => {
    assert.deepEqual(['ADR-012', 'adr 12', '#12', '0012', '12. Use Kafka', 'Use Kafka', '20200923-use-x'].map(numberOf), [12, 12, 12, 12, 12, undefined, undefined]);
    assert.deepEqual(
      ['docs/adr/0005-x.md', 'docs/adr/adr-012-y.md', 'docs/adr/20200923-use-log4brains.md', 'docs/adr/use-http2-for-grpc.md'].map(idFromPath),
      [{ id: 'ADR-0005', number: 5 }, { id: 'ADR-012', number: 12 }, { id: '20200923-use-log4brains' }, { id: 'use-http2-for-grpc' }],
    );
    assert.deepEqual(['docs/adr/README.md', 'docs/adr/index.md', 'docs/adr/template.md', 'docs/decisions/adr-template.md', 'docs/adr/0000-template.md', 'docs/adr/0001-x.md'].map(adrRole), [
      'document', 'document', 'template', 'template', 'template', 'decision',
    ]);
  });

  it('a file with no status is "status unknown", never accepted; an unknown status warns with the file line', () => {
    const none = parseDecision('docs/adr/0007-x.md', {}, '# 7. Use X\n\n## Context\n\nWhy.\n');
    assert.deepEqual([none.meta.status, none.warnings], ['unknown', []]);
    const doc = parseDocument('docs/adr/0006-sdk.md', '---\nid: ADR-6\n---\n# 6. Publish an SDK\n\n## Status\n\nImplemented\n', true);
    assert.deepEqual(doc.warnings, [{ source: 'docs/adr/0006-sdk.md', line: 8, message: 'unknown status "Implemented": status unknown, not taken for accepted' }]);
    assert.deepEqual([doc.decision?.id, doc.decision?.number, doc.decision?.status], ['ADR-6', 6, 'unknown']);
  });

  it('reads `## Status: Accepted` headings, `**Status:**` bullets and a `superseded_by` front-matter key', () => {
    assert.equal(parseDecision('a/0001-a.md', {}, '# A\n\n## Status: Deprecated\n').meta.status, 'deprecated');
    assert.equal(parseDecision('a/0002-b.md', {}, '# B\n\n- **Status:** "Rejected"\n- **Date:** 03/01/2022\n').meta.status, 'rejected');
    assert.equal(parseDecision('a/0002-b.md', {}, '# B\n\n- **Status:** "Rejected"\n- **Date:** 03/01/2022\n').meta.date, '2022-01-03');
    const fm = parseDecision('a/0003-c.md', { status: 'accepted', superseded_by: ['ADR-0009'] }, '# C\n');
    assert.deepEqual([fm.meta.status, fm.meta.supersededBy], ['superseded', ['ADR-0009']]);
    // A retired decision keeps its own word: a deprecated decision that names a successor stays deprecated.
    assert.equal(parseDecision('a/0004-d.md', { status: 'deprecated', 'superseded-by': 'ADR-0010' }, '# D\n').meta.status, 'deprecated');
  });

  it('ADR folders: the policy\'s, `.adr-dir`, `.log4brains.yml` (packages too); outside folders and bad YAML warn', () => {
    const log4brains = 'project:\n  adrFolder: ./docs/adr\n  packages:\n    - name: api\n      adrFolder: ./packages/api/adr/\n';
    assert.deepEqual(adrDirectories(['doc/adr', 'docs/adr/'], { adrDir: 'doc/architecture/decisions\n', log4brains }), {
      dirs: ['doc/adr', 'docs/adr', 'doc/architecture/decisions', 'packages/api/adr'],
      warnings: [],
    });
    const bad = adrDirectories([], { adrDir: '../elsewhere', log4brains: 'project:\n  adrFolder: [docs\n' });
    assert.deepEqual(bad.dirs, []);
    assert.equal(bad.warnings[0].message, 'ADR folder "../elsewhere" is outside the workspace: ignored');
    assert.equal(bad.warnings[1].source, '.log4brains.yml');
    assert.match(bad.warnings[1].message, /^invalid YAML: /);
    assert.equal(bad.warnings[1].line, 3);
  });
});
