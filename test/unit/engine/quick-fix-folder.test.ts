import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { fixesOfFile } from '../../../src/vscode/fix-folder';
import { folderOfFile } from '../../../src/vscode/folder-choice';

/**
 * Multi-root: a quick fix of a settings file works in that file's folder, whichever folder the panel follows. The
 * second folder's overrides.json names a file that exists there only: no fix there; the same text checked in the
 * first folder would offer to remove the entry.
 */
describe('quick fixes in the folder of the document they fix', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-fix-folder-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const api = path.join(tmp, 'api');
  const web = path.join(tmp, 'web');
  const nested = path.join(web, 'packages', 'ui');
  for (const d of [api, web, nested]) fs.mkdirSync(path.join(d, '.context'), { recursive: true });
  fs.mkdirSync(path.join(web, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(web, 'docs', 'checkout.md'), '# Checkout\n');
  const overrides = JSON.stringify({ include: ['docs/checkout.md'] }, null, 2) + '\n';
  const roots = [api, web, nested];

  it('the folder of a file is the innermost open folder holding it; none outside', () => {
    assert.equal(folderOfFile(roots, path.join(web, '.context', 'overrides.json')), web);
    assert.equal(folderOfFile(roots, path.join(nested, '.context', 'policy.yaml')), nested);
    assert.equal(folderOfFile(roots, path.join(api, '.context', 'pins.json')), api);
    assert.equal(folderOfFile(roots, path.join(tmp, 'elsewhere', '.context', 'pins.json')), undefined);
    assert.equal(folderOfFile(roots, `${web}-old/.context/pins.json`), undefined, 'a sibling with the same prefix is not inside');
  });

  it("the second folder's overrides.json is checked against its own files: no fix; in the first folder the entry would be removed", () => {
    assert.deepEqual(fixesOfFile(roots, path.join(web, '.context', 'overrides.json'), overrides), { root: web, fixes: [] });
    const inApi = fixesOfFile(roots, path.join(api, '.context', 'overrides.json'), overrides);
    assert.equal(inApi.root, api);
    assert.equal(inApi.fixes.length, 1);
    assert.match(inApi.fixes[0].message, /docs\/checkout\.md/);
    assert.deepEqual(fixesOfFile(roots, path.join(tmp, 'elsewhere', '.context', 'overrides.json'), overrides), { fixes: [] });
  });
});
