import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { componentsOf, packageName, taskComponents } from '../../../src/core/relevance/components';
import { outcome } from './repos';

describe('components without front matter', () => {
  it('from monorepo folders, then the nearest package manifest; front matter first', () => {
    const packages = [{ dir: 'web', name: 'storefront', manifest: 'web/package.json' }, { dir: 'web/admin', name: 'admin', manifest: 'web/admin/package.json' }];
    assert.deepEqual(componentsOf('services/checkout/docs/adr/0001-x.md'), [{ name: 'checkout', from: 'services/checkout/', dir: 'services/checkout' }]);
    assert.deepEqual(componentsOf('web/admin/src/App.tsx', undefined, packages), [{ name: 'admin', from: 'web/admin/package.json', dir: 'web/admin' }]);
    assert.deepEqual(componentsOf('web/src/App.tsx', undefined, packages), [{ name: 'storefront', from: 'web/package.json', dir: 'web' }]);
    assert.deepEqual(componentsOf('web/src/App.tsx', ['Billing'], packages), [{ name: 'billing', from: 'front matter' }]);
    assert.deepEqual(componentsOf('docs/adr/0001-x.md', undefined, packages), []);
    assert.equal(packageName('web/package.json', '{"name":"@shop/Storefront"}'), 'storefront');
    assert.equal(packageName('web/package.json', '{not json'), undefined);
  });

  it('the task names a component by its words (stemmed, all parts of a dashed name), or by a file inside it', () => {
    const known = new Set(['checkout', 'order-history', 'search']);
    assert.deepEqual(taskComponents(known, ['orders', 'history', 'page', 'checkouts'], []), [{ name: 'checkout', from: 'named in the task' }, { name: 'order-history', from: 'named in the task' }]);
    assert.deepEqual(taskComponents(known, ['broken'], ['services/search/src/q.ts']), [{ name: 'search', from: 'services/search/src/q.ts is in services/search/' }]);
    assert.deepEqual(taskComponents(known, ['checkout'], [], 'Payment'), [{ name: 'payment', from: 'from its front matter' }]);
    assert.deepEqual(taskComponents(known, ['page'], []), []);
  });

  it('a decision of another package (by its manifest) is an unrelated component, with the manifest named', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-pkg-'));
    const write = (p: string, t: string) => {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), t);
    };
    write('web/package.json', '{ "name": "@shop/storefront" }');
    write('api/package.json', '{ "name": "@shop/pricing-api" }');
    write('web/docs/adr/0001-render-prices-from-the-pricing-feed.md', '# 1. Render prices from the pricing feed\n\n## Status\n\nAccepted\n\n## Decision\n\nThe storefront product page renders prices from the nightly pricing feed, cached for one hour.\n');
    write('api/docs/adr/0001-round-prices-per-line.md', '# 1. Round prices per line\n\n## Status\n\nAccepted\n\n## Decision\n\nThe pricing API rounds prices per order line, half to even, before taxes on the product page.\n');
    try {
      const o = outcome(root, 'The storefront product page shows an old price for an hour after a price change.');
      assert.match(o.selected.get('web/docs/adr/0001-render-prices-from-the-pricing-feed.md')!, /relevant: component storefront \(from web\/package\.json\) named in the task; mentions /);
      assert.equal(o.rejected.get('api/docs/adr/0001-round-prices-per-line.md'), "unrelated component: pricing-api (from api/package.json); the task's: storefront (named in the task)");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
