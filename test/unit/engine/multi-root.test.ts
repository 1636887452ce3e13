import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { folderDir, run } from '../../../src/cli/main';
import { InputError } from '../../../src/core/errors';
import { codeWorkspaceFolders, uniqueFolders } from '../../../src/core/sources/code-workspace';
import { followedFolder, pinsKey } from '../../../src/vscode/folder-choice';
import { byFolder } from '../../../src/vscode/views/folder-groups';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-multi-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function folder(name: string, rule: string, doc: string): string {
  const root = path.join(tmp, name);
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'AGENTS.md'), `# Rules\n\n- ${rule}\n`);
  fs.writeFileSync(path.join(root, 'docs', 'notes.md'), `# Notes\n\n${doc}\n`);
  return root;
}
const api = folder('api', 'Every refund is idempotent.', 'The refund endpoint retries twice.');
const web = folder('web', 'Never log card numbers.', 'The checkout page shows the refund state.');
const TASK = 'Why is the refund shown twice?';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}
const single = async (root: string, json = false) => (await cli(['preview', '--workspace', root, '--task', TASK, '--no-git', ...(json ? ['--json'] : [])])).out;

describe('.code-workspace folders', () => {
  const file = path.join(tmp, 'shop.code-workspace');

  it('reads JSONC (comments, trailing commas), paths relative to the file, the names given or the base name', () => {
    const text = '{\n  // the two halves\n  "folders": [\n    { "path": "api", "name": "Backend" },\n    { "path": "./web", },\n  ],\n  "settings": {},\n}\n';
    assert.deepEqual(codeWorkspaceFolders(file, text), [
      { root: path.join(tmp, 'api'), name: 'Backend' },
      { root: path.join(tmp, 'web'), name: 'web' },
    ]);
  });

  it('refuses bad input with the file and line', () => {
    const fails = (text: string) => {
      try {
        codeWorkspaceFolders(file, text);
      } catch (e) {
        assert.ok(e instanceof InputError);
        return e.toString();
      }
      assert.fail('accepted');
    };
    assert.equal(fails('{\n  "folders": [\n    { "path": "api" }\n    { "path": "web" }\n  ]\n}'), `${file}:4: not a valid .code-workspace file: CommaExpected`);
    assert.equal(fails('{ "settings": {} }'), `${file}:1: a .code-workspace file needs a "folders" list`);
    assert.equal(fails('{\n  "folders": []\n}'), `${file}:2: the "folders" list is empty: no folder to read`);
    assert.equal(fails('{\n  "folders": [\n    { "path": "api" },\n    { "uri": "vscode-remote://ssh/x" }\n  ]\n}'), `${file}:4: a folder given by "uri" (a remote folder) is not supported: give a "path"`);
    assert.equal(fails('{ "folders": [\n "api"\n] }'), `${file}:2: a folder entry must be an object with a "path"`);
  });

  it('makes names unique and counts a root given twice once', () => {
    assert.deepEqual(uniqueFolders([{ root: '/a/app' }, { root: '/b/app' }, { root: '/a/app', name: 'again' }, { root: '/c/app' }]), [
      { root: '/a/app', name: 'app' },
      { root: '/b/app', name: 'app (2)' },
      { root: '/c/app', name: 'app (3)' },
    ]);
  });

  it('turns a folder name into a record folder name', () => {
    assert.equal(folderDir('Backend'), 'Backend');
    assert.equal(folderDir('a/b:c'), 'a_b_c');
    assert.equal(folderDir('..'), '_');
  });
});

describe('ctxctl preview over several folders', () => {
  it('--workspace once per folder: one preview per folder, each named, each the same as that folder alone', async () => {
    const r = await cli(['preview', '--workspace', api, '--workspace', web, '--task', TASK, '--no-git']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `== folder api (${api}) ==\n${await single(api)}\n== folder web (${web}) ==\n${await single(web)}`);
    // Not the same preview twice: each folder's own files.
    assert.notEqual(await single(api), await single(web));
  });

  it('--json: the folders with their names, roots and requests; each request is the single folder\'s', async () => {
    const r = await cli(['preview', '--workspace', api, '--workspace', web, '--task', TASK, '--no-git', '--json']);
    assert.equal(r.code, 0, r.err);
    const parsed = JSON.parse(r.out) as { folders: { name: string; root: string; request: unknown }[] };
    assert.deepEqual(parsed.folders.map((f) => [f.name, f.root]), [['api', api], ['web', web]]);
    assert.deepEqual(parsed.folders[0].request, (JSON.parse(await single(api, true)) as { request: unknown }).request);
    assert.deepEqual(parsed.folders[1].request, (JSON.parse(await single(web, true)) as { request: unknown }).request);
    assert.notDeepEqual(parsed.folders[0].request, parsed.folders[1].request);
  });

  it('a .code-workspace file: its folders under their names, each record in its own folder under --out', async () => {
    const file = path.join(tmp, 'shop.code-workspace');
    fs.writeFileSync(file, '{ "folders": [ { "path": "web", "name": "Front end" }, { "path": "api" } ] }');
    const out = path.join(tmp, 'records');
    const r = await cli(['preview', '--workspace', file, '--task', TASK, '--no-git', '--out', out]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.startsWith(`== folder Front end (${web}) ==\n`), r.out.slice(0, 200));
    assert.ok(r.out.includes(`\n== folder api (${api}) ==\n`));
    assert.ok(r.out.endsWith(`Wrote request.json, manifest.json and trace.txt of each folder to ${path.join(out, 'Front end')}, ${path.join(out, 'api')}\n`));
    for (const name of ['Front end', 'api']) for (const f of ['request.json', 'manifest.json', 'trace.txt']) assert.ok(fs.existsSync(path.join(out, name, f)), `${name}/${f}`);
    const webRequest = JSON.parse(fs.readFileSync(path.join(out, 'Front end', 'request.json'), 'utf8')) as unknown;
    assert.deepEqual(webRequest, (JSON.parse(await single(web, true)) as { request: unknown }).request);
  });

  it('a folder of the .code-workspace file that does not exist: exit 2 naming the file and the folder, nothing printed', async () => {
    const file = path.join(tmp, 'broken.code-workspace');
    fs.writeFileSync(file, '{ "folders": [ { "path": "api" }, { "path": "gone" } ] }');
    const r = await cli(['preview', '--workspace', file, '--task', TASK, '--no-git']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.ok(r.err.includes(`${file}: folder "gone" (${path.join(tmp, 'gone')}) not found`), r.err);
  });

  it('a --workspace that is a file but not a .code-workspace: exit 2', async () => {
    const r = await cli(['preview', '--workspace', api, '--workspace', path.join(api, 'AGENTS.md'), '--task', TASK]);
    assert.equal(r.code, 2);
    assert.ok(r.err.includes(`${path.join(api, 'AGENTS.md')}: --workspace must be a folder or a .code-workspace file`), r.err);
  });
});

describe('the editor follows the folder of the active editor', () => {
  const folders = [
    { root: '/w/api', name: 'api' },
    { root: '/w/web', name: 'web' },
    { root: '/w/web/packages/ui', name: 'ui' },
  ];

  it('follows the folder holding the active file, the innermost when folders nest', () => {
    assert.equal(followedFolder(folders, '/w/web/index.ts', 'api')?.name, 'web');
    assert.equal(followedFolder(folders, '/w/web/packages/ui/button.tsx', '/w/api')?.name, 'ui');
    assert.equal(followedFolder(folders, '/w/api', undefined)?.name, 'api');
  });

  it('keeps the folder it followed for a file outside every folder (or no file), else the first', () => {
    assert.equal(followedFolder(folders, '/elsewhere/notes.md', '/w/web')?.name, 'web');
    assert.equal(followedFolder(folders, undefined, '/w/web')?.name, 'web');
    assert.equal(followedFolder(folders, undefined, '/w/closed')?.name, 'api');
    assert.equal(followedFolder(folders, '/w/api-v2/x.ts', undefined)?.name, 'api');
    assert.equal(followedFolder([], '/w/api/x.ts', undefined), undefined);
  });

  it('keeps the single-folder pins key for the first folder, one key per other folder', () => {
    assert.equal(pinsKey('contextControl.pins', folders, '/w/api'), 'contextControl.pins');
    assert.equal(pinsKey('contextControl.pins', folders, '/w/web'), 'contextControl.pins@/w/web');
    assert.equal(pinsKey('contextControl.pins', [], undefined), 'contextControl.pins');
  });

  it('groups a tree by folder, the followed one open, ids unique and each item opened in its folder', () => {
    const nodesOf = (root: string) => [{ id: 'doc:README.md', label: `README of ${root}`, open: { source: 'README.md' }, children: [{ id: 'leaf', label: 'x' }] }];
    assert.deepEqual(byFolder(folders.slice(0, 1), '/w/api', nodesOf, 'index'), nodesOf('/w/api'));
    const grouped = byFolder(folders.slice(0, 2), '/w/web', nodesOf, 'index');
    assert.deepEqual(grouped.map((g) => [g.id, g.label, g.description, g.expanded]), [
      ['index:folder:/w/api', 'api', undefined, false],
      ['index:folder:/w/web', 'web', 'followed (active editor)', true],
    ]);
    assert.deepEqual(grouped[1].children, [{ id: '/w/web::doc:README.md', label: 'README of /w/web', open: { source: 'README.md', root: '/w/web' }, children: [{ id: '/w/web::leaf', label: 'x' }] }]);
    assert.equal(new Set(grouped.flatMap((g) => [g.id, ...(g.children ?? []).map((c) => c.id)])).size, 4);
  });
});
