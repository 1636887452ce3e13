import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headingsOf, normalizeHeading, parseDocument, readFrontMatter, sectionOf } from '../../../src/core/sources/documents';
import { fixture, raw } from './fixtures';

describe('document metadata', () => {
  it('takes title, summary, component (string or list), status, tags and priority from front matter', () => {
    const s = fixture('documents');
    const meta = s.documents.map((d) => ({ path: d.path, title: d.title, summary: d.summary, components: d.components, status: d.status, tags: d.tags, priority: d.priority }));
    assert.deepEqual(meta, [
      {
        path: 'docs/billing-architecture.md',
        title: 'Billing service architecture',
        summary: 'How invoices, credit notes and tax rates flow through the billing service.',
        components: ['billing', 'invoicing'],
        status: 'current',
        tags: ['billing', 'tax', 'invoices'],
        priority: 70,
      },
      {
        path: 'docs/onboarding.md',
        title: 'Onboarding for new engineers',
        summary:
          'Welcome to the invoicing team. This guide walks you through the accounts you need on your first day, how to run every service on your laptop with Docker Compose, where the dashboards are, and who to…',
        components: undefined,
        status: undefined,
        tags: undefined,
        priority: undefined,
      },
      // Malformed front matter (a mis-indented key) is read line by line: the document is not lost.
      { path: 'docs/release-process.md', title: 'Release process', summary: 'How a release is cut', components: ['billing'], status: undefined, tags: undefined, priority: undefined },
      { path: 'docs/search-tuning.md', title: 'Search relevance tuning', summary: 'Boosts, synonyms and the weekly relevance review.', components: ['search'], status: undefined, tags: ['search'], priority: undefined },
      // CRLF and a BOM before the front matter.
      {
        path: 'docs/windows-notes.md',
        title: 'Running the stack on Windows',
        summary: 'WSL 2 setup, line endings and Docker Desktop settings.',
        components: ['tooling'],
        status: undefined,
        tags: ['windows', 'wsl'],
        priority: undefined,
      },
    ]);
    assert.ok(raw('documents', 'docs/windows-notes.md').startsWith('\uFEFF---\r\n'));
    assert.deepEqual(s.warnings, [
      { source: 'docs/release-process.md', line: 3, column: 10, message: 'malformed front matter: Nested mappings are not allowed in compact mappings; front matter read line by line' },
    ]);
    assert.equal(s.documents[4].body.startsWith('# Running the stack on Windows\n\nUse WSL 2'), true);
    assert.equal(s.documents[4].bodyLine, 8);
  });

  it('falls back to the file name, and clips the first prose paragraph (headings, lists, code skipped)', () => {
    const doc = parseDocument('notes/untitled.md', '- a list first\n\n```sh\nmake\n```\n\nThe actual prose.\n', false);
    assert.deepEqual([doc.title, doc.summary], ['untitled.md', 'The actual prose.']);
  });

  it('reads front matter leniently: lists of items survive, flow placeholders stay text', () => {
    const fm = readFrontMatter('---\ntitle: A: B\ntags:\n  - one\n  - two\nstatus: {proposed | accepted}\n---\n\nBody\n', 'x.md');
    assert.deepEqual(fm.data, { title: 'A: B', tags: ['one', 'two'], status: '{proposed | accepted}' });
    assert.deepEqual([fm.body, fm.bodyLine], ['Body\n', 9]);
    assert.equal(fm.warnings.length, 1);
    assert.deepEqual(readFrontMatter('---\nglobs: *.ts\n---\nx', 'r.mdc', { quiet: true }).warnings, []);
  });

  it('finds headings outside code fences, and one section up to the next heading of its level', () => {
    const body = '# Title\n\nIntro\n\n## Setup\n\n```md\n## not a heading\n```\n\n### Sub\n\nDetail\n\n## Usage\n\nRun it.\n';
    const headings = headingsOf(body);
    assert.deepEqual(headings.map((h) => [h.level, h.text, h.line]), [[1, 'Title', 0], [2, 'Setup', 4], [3, 'Sub', 10], [2, 'Usage', 14]]);
    assert.deepEqual(sectionOf(body, headings[1]), { text: '## Setup\n\n```md\n## not a heading\n```\n\n### Sub\n\nDetail', startLine: 4, endLine: 13 });
    assert.equal(sectionOf(body, headings[3]).text, '## Usage\n\nRun it.');
    assert.deepEqual(['## 2. **Decision** Outcome ##', '`HTTP`  request   path'].map(normalizeHeading), ['decision outcome', 'http request path']);
  });
});
