import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { parsePolicy } from '../../../src/core/policy';
import type { PreparedRequest } from '../../../src/core/providers/provider';
import type { WireShape } from '../../../src/core/providers/shape';
import { loadSnapshot, type Snapshot } from '../../../src/core/sources/snapshot';
import { ContextEngine } from '../../../src/core/engine';
import type { SendLoopOptions, SendOutcome } from '../../../src/core/send/loop';
import { diskHost } from '../../../src/host/disk';

/** A small checkout-service workspace written for these tests: rules, a runbook with sections, an ADR, code, a log. */
export const FILES: Record<string, string> = {
  'AGENTS.md': '# Rules\n\n- Never change the public API of /v1/checkout without an ADR.\n- Every fix comes with a regression test.\n',
  'docs/runbook.md': [
    '---',
    'title: Checkout runbook',
    'summary: How to deploy, roll back and diagnose the checkout service.',
    '---',
    '# Checkout runbook',
    '',
    '## Deploy',
    '',
    'Deploy with `make release`; the canary takes 10% of traffic for 15 minutes.',
    '',
    '## Rollback',
    '',
    'Run `make rollback VERSION=<previous>`; it drains the canary first.',
    'Check the error rate on the dashboard before closing the incident.',
    '',
    '## Known errors',
    '',
    '- `CartExpired`: the cart TTL is 30 minutes.',
    '',
  ].join('\n'),
  'docs/adr/adr-003-idempotency-keys.md': '---\nstatus: accepted\ncomponent: checkout\n---\n# ADR-003 Idempotency keys\n\nEvery POST /v1/checkout carries an Idempotency-Key header; replays return the first answer.\n',
  'src/CheckoutController.java': 'package shop;\n\npublic class CheckoutController {\n  // POST /v1/checkout\n  public Receipt checkout(Cart cart, String idempotencyKey) {\n    if (cart.isExpired()) throw new CartExpired(cart.id());\n    return service.charge(cart, idempotencyKey);\n  }\n}\n',
  'logs/checkout.log': [
    '2026-11-12T08:00:01.120Z INFO  [req=a1b2c3d4e5] POST /v1/checkout 201 in 88ms',
    '2026-11-12T08:00:02.431Z ERROR [req=f6a7b8c9d0] POST /v1/checkout failed: CartExpired cart=9912',
    '2026-11-12T08:00:03.002Z INFO  [req=0a1b2c3d4e] POST /v1/checkout 201 in 91ms',
  ].join('\n') + '\n',
  '.gitignore': 'build/\n',
  'build/generated.txt': 'CartExpired appears here but build/ is ignored\n',
  '.env': 'PAYMENT_API_KEY=sk-live-should-never-be-read-0000000000\n',
  'config/app.properties': 'checkout.ttl.minutes=30\ndb.password=hunter2hunter2\n',
};

export const TASK = 'Customers get CartExpired on POST /v1/checkout after 10 minutes. Find the cause and propose a fix.';

export function makeWorkspace(extra: Record<string, string> = {}, policyYaml?: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-send-'));
  for (const [rel, text] of Object.entries({ ...FILES, ...extra })) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  if (policyYaml) {
    fs.mkdirSync(path.join(root, '.context'), { recursive: true });
    fs.writeFileSync(path.join(root, '.context', 'policy.yaml'), policyYaml);
  }
  return root;
}

export function snapshotOf(root: string, policyYaml?: string): Snapshot {
  return loadSnapshot({ root, task: TASK, policy: policyYaml ? parsePolicy(policyYaml, 'policy.yaml') : undefined });
}

export const NOW = () => new Date('2026-11-12T10:00:00Z');

export function prepare(assembly: Assembly, shape: WireShape, model = 'gpt-4o'): PreparedRequest {
  return { shape, model, neutral: assembly.neutral, body: assembly.request, serialized: assembly.serialized, stream: true };
}

export function assembled(shape: WireShape, model = 'gpt-4o'): { assembly: Assembly; request: PreparedRequest; root: string } {
  const root = makeWorkspace();
  const assembly = assemble(snapshotOf(root), { model, shape, stream: true, now: NOW });
  return { assembly, request: prepare(assembly, shape, model), root };
}

/** Every file in a folder with its bytes, to prove nothing was written. */
export function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const abs = path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
      out[path.relative(root, abs)] = fs.readFileSync(abs, 'utf8');
    }
  }
  return out;
}

/** The send loop as the surfaces run it: through the snapshot's folder's engine. */
export function sendThroughEngine(snapshot: Snapshot, options: SendLoopOptions): Promise<SendOutcome> {
  return new ContextEngine(diskHost, snapshot.root).send(snapshot, options);
}
