import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContextEngine } from '../../../src/core/engine';
import { FolderEngine } from '../../../src/core/folder-engine';
import { diskHostOf } from '../../../src/host/disk';
import { useDefaultHost, withHost, host, type Host } from '../../../src/core/host';
import { memoryHost, refusingHost } from './memory-host';

// Both folders sit at the same path, so only the host tells them apart; neither path exists on this disk.
const ROOT = '/ctxctl-memory/shop';
const TASK = 'Why is the refund shown twice?';
const folderFiles = (rule: string, doc: string) => ({ [`${ROOT}/AGENTS.md`]: `# Rules\n\n- ${rule}\n`, [`${ROOT}/docs/notes.md`]: `# Notes\n\n${doc}\n` });

describe('two engines, two hosts, one process', () => {
  const api = memoryHost(folderFiles('Every refund is idempotent.', 'The refund endpoint retries twice.'), new Date('2026-03-01T00:00:00Z'));
  const web = memoryHost(folderFiles('Never log card numbers.', 'The checkout page shows the refund state.'), new Date('2026-04-01T00:00:00Z'));
  let before_: Host | undefined;
  // The process's default host fails every call: nothing the engines do may reach past their own host.
  before(() => void (before_ = useDefaultHost(refusingHost())));
  after(() => void useDefaultHost(before_));

  it('each engine reads only its own host’s files, interleaved', () => {
    const a = new ContextEngine(api, ROOT);
    const b = new ContextEngine(web, ROOT);
    const pa = a.preview({ task: TASK, changes: false });
    const pb = b.preview({ task: TASK, changes: false });
    const again = a.preview({ task: TASK, changes: false });
    const serialized = (p: typeof pa) => p.assembly.serialized;
    assert.match(serialized(pa), /Every refund is idempotent\./);
    assert.match(serialized(pa), /The refund endpoint retries twice\./);
    assert.doesNotMatch(serialized(pa), /card numbers|checkout page/);
    assert.match(serialized(pb), /Never log card numbers\./);
    assert.match(serialized(pb), /The checkout page shows the refund state\./);
    assert.doesNotMatch(serialized(pb), /idempotent|retries twice/);
    assert.equal(serialized(again), serialized(pa));
    assert.deepEqual([...new Set(api.reads)].sort(), [`${ROOT}/AGENTS.md`, `${ROOT}/docs/notes.md`]);
    assert.deepEqual([...new Set(web.reads)].sort(), [`${ROOT}/AGENTS.md`, `${ROOT}/docs/notes.md`]);
    assert.deepEqual(pa.snapshot.files.map((f) => f.path).sort(), ['AGENTS.md', 'docs/notes.md']);
  });

  it('the tools and the clock are the engine’s host’s too', () => {
    const a = new ContextEngine(api, ROOT);
    const b = new ContextEngine(web, ROOT);
    const sa = a.load({ task: TASK, changes: false });
    const sb = b.load({ task: TASK, changes: false });
    assert.match(a.search(sa, "refund").text, /docs\/notes\.md:3: The refund endpoint retries twice\./);
    assert.match(b.search(sb, "refund").text, /docs\/notes\.md:3: The checkout page shows the refund state\./);
    assert.equal(a.assemble(sa).manifest.created_at, '2026-03-01T00:00:00.000Z');
    assert.equal(b.assemble(sb).manifest.created_at, '2026-04-01T00:00:00.000Z');
  });

  it('the scope follows each engine across awaits, and ends with the call', async () => {
    const seen = await Promise.all([api, web].map((h, i) => withHost(h, async () => {
      await new Promise((r) => setTimeout(r, i ? 1 : 5));
      await Promise.resolve();
      return host().now().toISOString();
    })));
    assert.deepEqual(seen, ['2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z']);
    assert.throws(() => host().now(), /the default host was reached/);
  });
});

describe('the folder engine’s watch, keys and model counter come from its host', () => {
  it('watch gives workspace paths of the engine’s folder only, until disposed', () => {
    const h = memoryHost({ [`${ROOT}/a.md`]: 'a' });
    const seen: string[] = [];
    const w = new FolderEngine(h, ROOT).watch((rel) => seen.push(rel));
    h.touch(`${ROOT}/docs/notes.md`);
    h.touch('/ctxctl-memory/shop-other/x.md');
    h.touch(`${ROOT}/a.md`);
    w.dispose();
    h.touch(`${ROOT}/a.md`);
    assert.deepEqual(seen, ['docs/notes.md', 'a.md']);
  });

  it('secret is the host’s key; modelCount is undefined without a model counter', async () => {
    const h = memoryHost({}, undefined, { anthropic: 'sk-memory' });
    const e = new FolderEngine(h, ROOT);
    assert.equal(await e.secret('anthropic'), 'sk-memory');
    assert.equal(await e.secret('openai'), undefined);
    assert.equal(e.modelCount('three words here'), undefined);
    const counting = new FolderEngine({ ...h, countTokens: async (t) => t.split(' ').length }, ROOT);
    assert.equal(await counting.modelCount('three words here'), 3);
  });

  it('the disk host reads keys from its environment: the provider’s variable, then CTXCTL_API_KEY', async () => {
    assert.equal(await diskHostOf({ ANTHROPIC_API_KEY: 'a', CTXCTL_API_KEY: 'c' }).secret('anthropic'), 'a');
    assert.equal(await diskHostOf({ CTXCTL_API_KEY: 'c' }).secret('openai'), 'c');
    assert.equal(await diskHostOf({ CTXCTL_API_KEY: 'c' }).secret('vscode-lm'), undefined);
    assert.equal(await diskHostOf({}).secret('anthropic'), undefined);
  });

  it('the disk host’s watch reports a file written under the folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-watch-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      const seen = new Promise<string>((resolve) => {
        const w = new FolderEngine(diskHostOf({}), dir).watch((rel) => {
          if (rel !== 'docs/new.md') return;
          w.dispose();
          resolve(rel);
        });
      });
      fs.writeFileSync(path.join(dir, 'docs', 'new.md'), '# New\n');
      assert.equal(await seen, 'docs/new.md');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
