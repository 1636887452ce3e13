import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { defaultPolicy } from '../../../src/core/policy';
import { parseFrontMatter } from '../../../src/core/sources/frontmatter';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { fingerprint, previewJson, REPO, spawnCli, warningLines, workspace } from './hostile';

/** Front matter whose code, if it ever ran, would write `marker` (JavaScript, CoffeeScript, or JSON with code). */
function payloads(marker: string): Record<string, string> {
  const js = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
  return {
    js: `---js\n${js}\n---\n# A js document\n\nBody.\n`,
    javascript: `---javascript\nmodule.exports = (${js}, {})\n---\n# A javascript document\n\nBody.\n`,
    coffee: `---coffee\nrequire('fs').writeFileSync ${JSON.stringify(marker)}, 'ran'\n---\n# A coffee document\n\nBody.\n`,
    json: `---json\n{"title": (function () { ${js}; return "x"; })()}\n---\n# A json document\n\nBody.\n`,
  };
}

const warned = (file: string, lang: string) => `${file}:1: front matter in an unsupported language "${lang}" is not run or parsed (only YAML is); the file is read as text`;

describe('red team: documents (front matter is data)', () => {
  for (const lang of ['js', 'javascript', 'coffee', 'json']) {
    it(`---${lang} front matter in a document never runs in ctxctl preview or index; the document is still read as text`, () => {
      const root = workspace();
      const marker = path.join(root, `PWNED-${lang}`);
      fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n\nBe careful.\n');
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(path.join(root, 'docs', 'evil.md'), payloads(marker)[lang]);
      const before = fingerprint(root);
      const preview = spawnCli(['preview', '--workspace', root, '--task', 'Explain the evil document', '--json']);
      assert.equal(preview.code, 0, preview.err);
      const p = previewJson(preview);
      assert.deepEqual(warningLines(p), [warned('docs/evil.md', lang)]);
      const index = spawnCli(['index', '--workspace', root]);
      assert.equal(index.code, 0, index.err);
      assert.match(index.out, new RegExp(`docs/evil\\.md.*A ${lang} document`));
      assert.equal(fs.existsSync(marker), false, 'the front matter never ran');
      assert.deepEqual(fingerprint(root), before, 'nothing in the workspace changed');
    });
  }

  it('---js front matter in the task file never runs; the task is its whole text, with a warning at task.md:1', () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n' });
    const marker = path.join(root, 'PWNED-task');
    fs.writeFileSync(path.join(root, 'task.md'), payloads(marker).js.replace('A js document', 'Fix the checkout'));
    const r = spawnCli(['preview', '--workspace', root, '--task', path.join(root, 'task.md'), '--json']);
    const p = previewJson(r);
    assert.deepEqual(warningLines(p), [warned('task.md', 'js')]);
    assert.ok(JSON.stringify(p.request).includes('# Fix the checkout'));
    assert.equal(fs.existsSync(marker), false);
  });

  it('---javascript front matter in a .cursor/rules/*.mdc never runs; the rule is read as text with a warning', () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n' });
    const marker = path.join(root, 'PWNED-mdc');
    fs.mkdirSync(path.join(root, '.cursor', 'rules'), { recursive: true });
    fs.writeFileSync(path.join(root, '.cursor', 'rules', 'style.mdc'), payloads(marker).javascript);
    const p = previewJson(spawnCli(['preview', '--workspace', root, '--task', 'Fix the checkout', '--json']));
    assert.deepEqual(warningLines(p), [warned('.cursor/rules/style.mdc', 'javascript')]);
    assert.equal(fs.existsSync(marker), false);
  });

  it('the editor\'s assembly worker (dist/assemble-worker.js) never runs front matter either', async () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n' });
    const markers = ['js', 'javascript', 'coffee', 'json'].map((l) => path.join(root, `PWNED-worker-${l}`));
    const docs = ['js', 'javascript', 'coffee', 'json'];
    fs.mkdirSync(path.join(root, 'docs'));
    docs.forEach((l, i) => fs.writeFileSync(path.join(root, 'docs', `${l}.md`), payloads(markers[i])[l]));
    fs.writeFileSync(path.join(root, 'task.md'), payloads(path.join(root, 'PWNED-worker-task')).js);
    const worker = new Worker(path.join(REPO, 'dist', 'assemble-worker.js'));
    try {
      const res = await new Promise<{ ok: boolean; value?: { snapshot: { warnings: { source: string; line?: number; message: string }[] } } }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ id: 1, op: 'assemble', args: { snapshot: { root, task: path.join(root, 'task.md'), policy: defaultPolicy() }, options: {} } });
      });
      assert.equal(res.ok, true);
      assert.deepEqual(
        res.value?.snapshot.warnings.map((w) => `${w.source}:${w.line}: ${w.message}`),
        [warned('task.md', 'js'), ...[...docs].sort().map((l) => warned(`docs/${l}.md`, l))],
      );
    } finally {
      await worker.terminate();
    }
    for (const m of [...markers, path.join(root, 'PWNED-worker-task')]) assert.equal(fs.existsSync(m), false, m);
  });

  it('a YAML alias bomb (billion laughs) in front matter is refused, not expanded; the document still loads', () => {
    const bomb = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]', 'title: Bomb', '---', '# Bomb', ''].join('\n');
    const root = workspace({ 'docs/bomb.md': bomb });
    const s = loadSnapshot({ root, task: 'x' });
    assert.deepEqual(s.documents.map((d) => d.path), ['docs/bomb.md']);
    assert.deepEqual(s.warnings.map((w) => `${w.source}:${w.line}: ${w.message}`), ['docs/bomb.md:2: malformed front matter: Excessive alias count indicates a resource exhaustion attack; front matter read line by line']);
  });

  it('a __proto__ key in front matter is plain data: no prototype is polluted', () => {
    const parsed = parseFrontMatter('---\n__proto__:\n  polluted: yes\ntitle: T\n---\nBody\n', 'x.md');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(parsed.data.title, 'T');
    assert.equal(Object.getPrototypeOf(parsed.data), Object.prototype);
  });

  it('a !!js/function tag is not a constructor here: the value stays text, nothing runs', () => {
    const parsed = parseFrontMatter('---\ntitle: !!js/function "function () { globalThis.ranTag = 1 }"\n---\nBody\n', 'x.md');
    assert.equal((globalThis as Record<string, unknown>).ranTag, undefined);
    assert.equal(typeof parsed.data.title, 'string');
  });

  it('front matter with no closing fence is body text, not data', () => {
    const parsed = parseFrontMatter('---\ntitle: never closed\n# Heading\n', 'x.md');
    assert.deepEqual([parsed.data, parsed.bodyLine, parsed.body], [{}, 1, '---\ntitle: never closed\n# Heading\n']);
  });
});
