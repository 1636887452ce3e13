import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { resolvePolicy } from '../../../src/core/policy';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import { engineFor, engineRoots } from '../../../src/vscode/worker/load';
import { handlers } from '../../../src/vscode/worker/ops';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-evict-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function folder(name: string): string {
  const root = path.join(tmp, name);
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'AGENTS.md'), `# Rules\n\n- The ${name} rule.\n`);
  return root;
}

describe('the worker’s engines follow the workspace’s folders', () => {
  const [api, web, docs] = ['api', 'web', 'docs'].map(folder);
  const assembleIn = (root: string) => handlers.assemble({ snapshot: { root, task: 'Why?', policy: resolvePolicy(loadPolicy(root), { maxInput: undefined }), changes: false }, options: {} }, () => undefined);

  it('a removed folder’s engine is let go; the others stay the same engines', async () => {
    for (const r of [api, web, docs]) assembleIn(r);
    assert.deepEqual(engineRoots(), [api, web, docs]);
    const kept = engineFor(api);
    assert.deepEqual(await handlers.keepFolders({ roots: [docs, api] }, () => undefined), { evicted: [web], kept: [api, docs] });
    assert.deepEqual(engineRoots(), [api, docs]);
    assert.equal(engineFor(api), kept);
    assert.deepEqual(await handlers.keepFolders({ roots: [docs, api] }, () => undefined), { evicted: [], kept: [api, docs] });
  });

  it('a folder added back gets a fresh engine that assembles its own files', () => {
    const res = assembleIn(web) as { assembly: { serialized: string } };
    assert.deepEqual(engineRoots(), [api, docs, web]);
    assert.match(res.assembly.serialized, /The web rule\./);
    assert.doesNotMatch(res.assembly.serialized, /The api rule\./);
  });
});
