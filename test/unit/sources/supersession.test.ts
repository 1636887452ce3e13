import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fcOptions } from '../property-harness';
import { DECISION_STATUSES, UNKNOWN_STATUS } from '../../../src/core/sources/adr';
import { parseDocument } from '../../../src/core/sources/documents';
import { resolveSupersession } from '../../../src/core/sources/supersession';
import { fixture, lifecycleTable } from './fixtures';

const adr = (path: string, text: string) => parseDocument(path, text, true);

describe('supersession', () => {
  it('resolves by link, id, number and title; a missing target, a cycle and an unknown status are warnings', () => {
    const s = fixture('lifecycle');
    assert.deepEqual(lifecycleTable(s), [
      '0001-keep-sessions-in-redis.md | ADR-0001 | accepted | by= | of=',
      '0002-sign-webhooks-with-hmac.md | ADR-0002 | superseded | by=ADR-0099 | of=',
      '0003-version-the-api-in-the-path.md | ADR-0003 | superseded | by=ADR-0004 | of=ADR-0004',
      '0004-version-the-api-with-a-header.md | ADR-0004 | superseded | by=ADR-0003 | of=ADR-0003',
      // A proposal that says it supersedes ADR-0001 does not retire it before it is accepted.
      '0005-move-sessions-to-signed-cookies.md | ADR-0005 | proposed | by= | of=ADR-0001',
      '0006-publish-an-sdk-for-partners.md | ADR-0006 | unknown | by= | of=',
      // `Superseded by Rate-limit per partner account`: resolved by title (the `8.` numbering ignored).
      '0007-rate-limit-per-api-key.md | ADR-0007 | superseded | by=ADR-0008 | of=',
      '0008-rate-limit-per-partner-account.md | ADR-0008 | accepted | by= | of=ADR-0007',
    ]);
    assert.deepEqual(
      s.warnings.map((w) => `${w.source}: ${w.message}`),
      [
        'docs/adr/0006-publish-an-sdk-for-partners.md: unknown status "Implemented": status unknown, not taken for accepted',
        'docs/adr/0002-sign-webhooks-with-hmac.md: superseded by "ADR-0099", which is not a decision in the workspace',
        'docs/adr/0003-version-the-api-in-the-path.md: supersession cycle: ADR-0003 → ADR-0004 → ADR-0003; each keeps the status its own file declares',
      ],
    );
  });

  it('infers `superseded` from the other side only, and keeps an inferred status out of a cycle', () => {
    const docs = [
      adr('docs/adr/0001-a.md', '# 1. A\n\n## Status\n\nAccepted\n'),
      adr('docs/adr/0002-b.md', '# 2. B\n\n## Status\n\nAccepted\n\nSupersedes [1. A](0001-a.md)\n\nSupersedes [3. C](0003-c.md)\n'),
      adr('docs/adr/0003-c.md', '# 3. C\n\n## Status\n\nAccepted\n\nSupercedes [2. B](0002-b.md)\n'),
    ];
    const { documents, warnings } = resolveSupersession(docs);
    assert.deepEqual(documents.map((d) => [d.decision!.status, d.decision!.supersededBy]), [
      ['superseded', ['ADR-0002']],
      ['accepted', []],
      ['accepted', []],
    ]);
    assert.deepEqual(warnings.map((w) => w.message), ['supersession cycle: ADR-0002 → ADR-0003 → ADR-0002; each keeps the status its own file declares']);
    // The document-level status follows the decision's, so views and the index agree with the chain.
    assert.equal(documents[0].status, 'superseded');
  });

  it('prefers the decision in the same folder when two packages reuse a number, and links resolve relative to the file', () => {
    const docs = [
      adr('packages/api/adr/0001-rest.md', '# REST\n\n* Status: superseded by ADR-0002\n'),
      adr('packages/api/adr/0002-graphql.md', '# GraphQL\n\n* Status: accepted\n'),
      adr('packages/web/adr/0002-ssr.md', '# SSR\n\n* Status: accepted\n'),
      adr('packages/web/adr/0003-islands.md', '# Islands\n\n* Status: superseded by [SSR](../../web/adr/0002-ssr.md)\n'),
      adr('packages/web/adr/0004-self.md', '# Self\n\n* Status: superseded by [me](0004-self.md)\n'),
    ];
    const { documents, warnings } = resolveSupersession(docs);
    assert.deepEqual(documents.map((d) => `${d.decision!.status} ${d.decision!.supersededBy.join(',')}`), [
      'superseded ADR-0002',
      'accepted ',
      'accepted ',
      'superseded ADR-0002',
      'superseded ',
    ]);
    assert.deepEqual(documents[1].decision!.supersedes, ['ADR-0001']);
    assert.deepEqual(documents[2].decision!.supersedes, ['ADR-0003']);
    assert.deepEqual(warnings.map((w) => `${w.source}: ${w.message}`), ['packages/web/adr/0004-self.md: says it is superseded by "me", which is itself: ignored']);
  });

  it('never throws, and every status stays in the vocabulary, whatever the references say', (t) => {
    const ref = fc.oneof(fc.integer({ min: 0, max: 12 }).map((n) => `ADR-${n}`), fc.integer({ min: 0, max: 12 }).map((n) => `[x](${String(n).padStart(4, '0')}-x.md)`), fc.string());
    const status = fc.constantFrom(...DECISION_STATUSES, 'Implemented', '');
    fc.assert(
      fc.property(fc.array(fc.record({ status, by: fc.array(ref, { maxLength: 2 }), of: fc.array(ref, { maxLength: 2 }) }), { maxLength: 10 }), (specs) => {
        const docs = specs.map((spec, i) =>
          adr(
            `docs/adr/${String(i).padStart(4, '0')}-x.md`,
            `# ${i}. X\n\n## Status\n\n${spec.status}\n\n${spec.by.map((r) => `Superseded by ${r}`).join('\n\n')}\n\n${spec.of.map((r) => `Supersedes ${r}`).join('\n\n')}\n`,
          ),
        );
        const { documents } = resolveSupersession(docs);
        assert.equal(documents.length, docs.length);
        for (const d of documents) assert.ok([...DECISION_STATUSES, UNKNOWN_STATUS].includes(d.decision!.status), d.decision!.status);
      }),
      fcOptions(t),
    );
  });
});
