import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { EXAMPLE } from '../helpers';

async function ctxctl(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe('the payment-incident example', async () => {
  it('the manifest rejects ADR-008 as `superseded by ADR-012` and the marketing notes as `unrelated component`', async () => {
    const { code, out } = await ctxctl('preview', '--workspace', EXAMPLE, '--task', path.join(EXAMPLE, 'ticket.md'), '--json');
    assert.equal(code, 0);
    const manifest = JSON.parse(out).manifest as { rejected: { source: string; reason: string }[]; indexed: { source: string }[]; selected: { source: string }[] };
    assert.deepEqual(manifest.rejected.map((r) => `${r.source}: ${r.reason}`), [
      'docs/adr/adr-008-payment-method-mandatory.md: superseded by ADR-012',
      "docs/marketing-notes.md: unrelated component: marketing (front matter); the task's: payment (from its front matter)",
    ]);
    assert.ok(manifest.selected.some((s) => s.source === 'docs/adr/adr-012-optional-fields-at-http-boundary.md'));
    assert.ok(manifest.indexed.some((s) => s.source === 'docs/architecture.md'));
  });

  it('`ctxctl index --workspace examples/payment-incident` lists docs/architecture.md with its estimated tokens', async () => {
    const { code, out, err } = await ctxctl('index', '--workspace', EXAMPLE);
    assert.deepEqual([code, err], [0, '']);
    const lines = out.split('\n');
    assert.equal(lines[0], '<available-documents>');
    const architecture = lines.find((l) => l.includes('path="docs/architecture.md"'));
    assert.match(
      architecture ?? '',
      /^ {2}<document path="docs\/architecture\.md" title="Payment service architecture" summary="Describes the HTTP path, validation and dependencies of the payment service\." tags="payment,http,validation" estimated-tokens="\d+" \/>$/,
    );
    assert.equal(lines.some((l) => l.includes('adr-008')), false, 'a superseded decision is not offered');

    const json = JSON.parse((await ctxctl('index', '--workspace', EXAMPLE, '--component', 'payment', '--json')).out);
    const entry = json.documents.find((d: { path: string }) => d.path === 'docs/architecture.md');
    assert.equal(architecture, `  <document path="docs/architecture.md" title="Payment service architecture" summary="${entry.summary}" tags="payment,http,validation" estimated-tokens="${entry.estimated_tokens}" />`);
    assert.ok(entry.estimated_tokens > 5000);
    assert.deepEqual(json.rejected.map((r: { source: string; reason: string }) => `${r.source}: ${r.reason}`), [
      'docs/adr/adr-008-payment-method-mandatory.md: superseded by ADR-012',
      'docs/marketing-notes.md: unrelated component',
    ]);
  });

  it('`ctxctl index` without a workspace is a usage error (exit 2), and --help prints its usage', async () => {
    const bad = await ctxctl('index');
    assert.equal(bad.code, 2);
    assert.equal(bad.err, 'ctxctl: --workspace DIR is required\nUsage: ctxctl index --workspace DIR [--component NAME] [--policy FILE] [--json]\n');
    const missing = await ctxctl('index', '--workspace', path.join(EXAMPLE, 'no-such-folder'));
    assert.equal(missing.code, 2);
    assert.match(missing.err, /workspace folder not found/);
    assert.ok((await ctxctl('index', '--help')).out.startsWith('Usage:\n  ctxctl index --workspace DIR'));
  });
});
