import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture, lifecycleTable, raw } from './fixtures';

/** Status and supersession, both directions, for every ADR format; each fixture workspace is written for the purpose. */
describe('ADR formats', () => {
  it('MADR 2: bullets under the title, a Links section, and the template left out', () => {
    const s = fixture('madr-2');
    assert.deepEqual(lifecycleTable(s), [
      '0001-use-markdown-architectural-decision-records.md | ADR-0001 | accepted | by= | of=',
      '0002-store-orders-in-postgresql.md | ADR-0002 | superseded | by=ADR-0004 | of=',
      '0003-use-graphql-for-the-storefront-api.md | ADR-0003 | rejected | by= | of=',
      '0004-store-orders-in-an-event-log.md | ADR-0004 | accepted | by= | of=ADR-0002',
      'template.md | template | draft | by= | of=',
    ]);
    const first = s.documents[0].decision!;
    assert.deepEqual([first.date, first.deciders], ['2019-02-18', ['Oliver Kopp', 'Stefan Kapferer']]);
    assert.equal(s.documents[4].decision!.template, true);
    // `Refined by [ADR-0005]` is another kind of link, not a supersession; the template's placeholders warn nothing.
    assert.deepEqual(s.warnings, []);
  });

  it('MADR 3: front matter status, date, deciders, consulted, informed; `superseded by [ADR-0003](…)`', () => {
    const s = fixture('madr-3');
    assert.deepEqual(lifecycleTable(s), [
      '0001-use-markdown-any-decision-records.md | ADR-0001 | accepted | by= | of=',
      '0002-deploy-with-helm-charts.md | ADR-0002 | superseded | by=ADR-0003 | of=',
      '0003-deploy-with-argo-cd-and-kustomize.md | ADR-0003 | accepted | by= | of=ADR-0002',
      '0004-adopt-opentelemetry-for-tracing.md | ADR-0004 | proposed | by= | of=',
      '0005-record-feature-flag-owners.md | ADR-0005 | unknown | by= | of=',
      'adr-template.md | adr-template | draft | by= | of=',
    ]);
    const [one, two, three, four] = s.documents.map((d) => d.decision!);
    assert.deepEqual(
      { date: one.date, deciders: one.deciders, consulted: one.consulted, informed: one.informed },
      { date: '2022-11-08', deciders: ['Oliver Kopp', 'Olaf Zimmermann'], consulted: ['Platform guild'], informed: ['All engineering teams'] },
    );
    assert.deepEqual(two.refs.supersededBy, [{ text: 'ADR-0003', target: '0003-deploy-with-argo-cd-and-kustomize.md' }]);
    assert.equal(three.status, 'accepted'); // written `status: "accepted"`
    // Odd cases: `status: 'proposed'` quoted, a DD/MM/YYYY date, an `informed` left as the template's placeholder.
    assert.deepEqual([four.status, four.date, four.informed], ['proposed', '2024-02-14', undefined]);
    assert.deepEqual(
      s.warnings.map((w) => `${w.source}:${w.line ?? ''} ${w.message}`),
      [
        'docs/decisions/0004-adopt-opentelemetry-for-tracing.md: unfilled template placeholder in informed: ignored',
        'docs/decisions/0005-record-feature-flag-owners.md:2 malformed front matter: Missing , or : between flow map items; front matter read line by line',
        'docs/decisions/0005-record-feature-flag-owners.md: unfilled template placeholder in status, date: ignored',
      ],
    );
  });

  it('MADR 4: decision-makers, `status: "superseded by ADR-0003"`, and a status left as the template placeholder', () => {
    const s = fixture('madr-4');
    assert.deepEqual(lifecycleTable(s), [
      '0001-use-postgresql-row-level-security-for-tenancy.md | ADR-0001 | accepted | by= | of=',
      '0002-send-notifications-through-a-queue-table.md | ADR-0002 | superseded | by=ADR-0003 | of=',
      '0003-send-notifications-through-rabbitmq.md | ADR-0003 | accepted | by= | of=ADR-0002',
      '0004-expose-search-through-opensearch.md | ADR-0004 | unknown | by= | of=',
      '0005-retire-the-legacy-soap-endpoint.md | ADR-0005 | deprecated | by= | of=',
    ]);
    const [one, two, three] = s.documents.map((d) => d.decision!);
    assert.deepEqual(one.deciders, ['Hannah Schulz', 'Diego Alvarez']);
    assert.deepEqual(two.refs.supersededBy, [{ text: 'ADR-0003' }]);
    assert.deepEqual([three.deciders, three.consulted, three.date], [['Diego Alvarez', 'Hannah Schulz'], ['Platform team'], '2025-03-11']);
    assert.deepEqual(s.warnings.map((w) => w.message), ['unfilled template placeholder in status, date, deciders: ignored']);
  });

  it('Nygard: a ## Status section, with CRLF line endings and a BOM among the files', () => {
    assert.ok(raw('nygard', 'doc/adr/0001-record-architecture-decisions.md').includes('\r\n## Status\r\n'), 'fixture 0001 keeps CRLF');
    assert.equal(raw('nygard', 'doc/adr/0002-serve-the-web-tier-with-rails-3-0.md').charCodeAt(0), 0xfeff, 'fixture 0002 starts with a BOM');
    const s = fixture('nygard');
    assert.deepEqual(lifecycleTable(s), [
      '0001-record-architecture-decisions.md | ADR-0001 | accepted | by= | of=',
      '0002-serve-the-web-tier-with-rails-3-0.md | ADR-0002 | superseded | by=ADR-0003 | of=',
      '0003-serve-the-web-tier-with-rails-3-2.md | ADR-0003 | accepted | by= | of=ADR-0002',
      '0004-nightly-batch-for-availability.md | ADR-0004 | deprecated | by= | of=',
      '0005-cache-search-results-in-redis.md | ADR-0005 | proposed | by= | of=',
    ]);
    assert.equal(s.documents[0].title, 'ADR 1: Record architecture decisions');
    assert.equal(s.documents[1].title, 'ADR 2: Serve the web tier with Rails 3.0');
    assert.deepEqual(s.documents[2].decision!.refs.supersedes, [{ text: 'ADR 2' }]); // `Accepted (supersedes ADR 2)`
    assert.deepEqual(s.warnings, []);
  });

  it('adr-tools: `.adr-dir`, `Superceded by [4. …](0004-….md)` and `Supercedes …`, other links ignored', () => {
    const s = fixture('adr-tools');
    assert.deepEqual(lifecycleTable(s), [
      '0001-record-architecture-decisions.md | ADR-0001 | accepted | by= | of=',
      '0002-use-rabbitmq-for-inventory-events.md | ADR-0002 | superseded | by=ADR-0004 | of=',
      '0003-split-the-catalogue-service.md | ADR-0003 | accepted | by= | of=',
      '0004-use-kafka-for-inventory-events.md | ADR-0004 | accepted | by= | of=ADR-0002',
      '0005-keep-prices-in-the-catalogue-service.md | ADR-0005 | accepted | by= | of=',
    ]);
    assert.ok(s.documents.every((d) => d.path.startsWith('architecture/decisions/')));
    assert.deepEqual(s.documents[1].decision!.refs.supersededBy, [{ text: '4. Use Kafka for inventory events', target: '0004-use-kafka-for-inventory-events.md' }]);
    assert.deepEqual(s.documents[3].decision!.refs.supersedes, [{ text: '2. Use RabbitMQ for inventory events', target: '0002-use-rabbitmq-for-inventory-events.md' }]);
    assert.equal(s.documents[1].decision!.date, '2021-04-12');
    assert.deepEqual(s.warnings, []);
  });

  it('log4brains: `.log4brains.yml` folders (packages too), bullets, dated slugs, DD/MM/YYYY and DD.MM.YYYY dates', () => {
    const s = fixture('log4brains');
    assert.deepEqual(lifecycleTable(s), [
      '20200923-use-log4brains-to-manage-the-adrs.md | 20200923-use-log4brains-to-manage-the-adrs | accepted | by= | of=',
      '20201012-use-markdown-architectural-decision-records.md | 20201012-use-markdown-architectural-decision-records | accepted | by= | of=',
      'template.md | template | draft | by= | of=',
      '20210105-call-the-payment-provider-synchronously.md | 20210105-call-the-payment-provider-synchronously | superseded | by=20210412-confirm-payments-through-webhooks | of=',
      '20210412-confirm-payments-through-webhooks.md | 20210412-confirm-payments-through-webhooks | accepted | by= | of=20210105-call-the-payment-provider-synchronously',
    ]);
    const byName = new Map(s.documents.map((d) => [d.path.replace(/^.*\//, ''), d]));
    assert.equal(byName.get('README.md')?.decision, undefined, 'the folder README is a document, not a decision');
    assert.equal(byName.get('20200923-use-log4brains-to-manage-the-adrs.md')?.decision?.date, '2020-09-23');
    assert.deepEqual(byName.get('20200923-use-log4brains-to-manage-the-adrs.md')?.tags, ['dev-tools', 'doc']);
    assert.equal(byName.get('20210412-confirm-payments-through-webhooks.md')?.decision?.date, '2021-04-12');
    assert.deepEqual(s.warnings, []);
  });
});
