import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { offloadToolResults } from '../../../src/core/chain/offload';
import { openOffloadStore } from '../../../src/core/offload/store';
import { defaultPolicy } from '../../../src/core/policy';
import { redactedFileLines } from '../../../src/core/trim/lines';
import { trimLog } from '../../../src/core/trim/log';
import { scanErrors } from '../../../src/core/trim/log-scan';
import { counter } from '../helpers';
import { options } from './fixtures';

/**
 * Issue 30: what pass 1 and pass 2 remember (the scan, the pools gathered once per scan, the wordings, the masked
 * messages, the token counts of a candidate's steps) is made of redacted text only. A secret in a kept error line,
 * in every occurrence of a template (so that the miner would keep it as a literal word), in a correlated line and in
 * a log offloaded whole never reaches the output, whichever budget trims the log, the first time or again.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-redact-reuse-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const AWS = 'AKIA' + 'Q3EGRFKZ7XNMTB5W';
const TEMPLATE_PASSWORD = 'S3cr3t' + 'Passw0rd9';
const CORR_TOKEN = 'ghp_' + 'Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c';
const HEAD_TOKEN = 'ghp_' + 'A1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2x';
const SECRETS = [AWS, TEMPLATE_PASSWORD, CORR_TOKEN, HEAD_TOKEN];

function log(): string {
  const out: string[] = [`2026-11-12T08:00:00.000Z  INFO 1 --- [main] c.a.Boot : started with token=${HEAD_TOKEN}`];
  for (let k = 0; k < 400; k++) {
    const t = `2026-11-12T08:${String(Math.floor(k / 60) % 60).padStart(2, '0')}:${String(k % 60).padStart(2, '0')}.000Z`;
    const id = `req-${String(k).padStart(6, '0')}`;
    out.push(`${t}  INFO 1 --- [exec-1] c.a.Api : [corr=${id}] calling ledger with token=${CORR_TOKEN}`);
    for (let i = 0; i < 5; i++) out.push(`${t}  INFO 1 --- [exec-2] c.a.Other : heartbeat ${k * 5 + i}`);
    if (k % 4 === 0) out.push(`${t} ERROR 1 --- [exec-1] c.a.Api : [corr=${id}] ledger login failed password=${TEMPLATE_PASSWORD} retry ${k}`);
    if (k === 201) out.push(`${t} ERROR 1 --- [exec-1] c.a.Aws : [corr=${id}] upstream rejected key ${AWS} for merchant m-42`);
  }
  out.push(`2026-11-12T09:00:00.000Z  INFO 1 --- [main] c.a.Boot : stopping, token=${HEAD_TOKEN}`);
  return out.join('\n') + '\n';
}

describe('what the log trimmer remembers holds no secret', () => {
  const abs = path.join(dir, 'app.log');
  fs.writeFileSync(abs, log());

  it('kept lines, template rows and correlated lines are redacted, under every budget, trimmed once or again', () => {
    const lines = redactedFileLines(abs);
    const scan = scanErrors(lines);
    for (const g of scan.groups) for (const s of [g.signature, g.sample, ...g.ids]) for (const secret of SECRETS) assert.ok(!s.includes(secret), `scan: ${s}`);
    const row = scan.groups.find((g) => g.signature.includes('ledger login failed'));
    assert.ok(row && row.signature.includes('password=[REDACTED:'), `the template keeps the placeholder: ${row?.signature}`);
    let sawCorrelated = false;
    let sawAws = false;
    for (const budget of [3_000, 600, 3_000, 12_000, 200]) {
      const out = trimLog(lines, options(budget));
      for (const secret of SECRETS) assert.ok(!out.text.includes(secret), `budget ${budget}: a secret in ${out.text}`);
      if (out.text.includes('calling ledger with token=[REDACTED:github-token]')) sawCorrelated = true;
      if (out.text.includes('upstream rejected key [REDACTED:aws-access-key]')) sawAws = true;
      // The same budget on a fresh snapshot of the file (nothing remembered) trims the same.
      assert.deepEqual(out, trimLog(redactedFileLines(abs), options(budget)), `budget ${budget}`);
    }
    assert.ok(sawCorrelated, 'a correlated line was kept (redacted)');
    assert.ok(sawAws, 'the error line with the key was kept (redacted)');
  });

  it('a log offloaded whole: its notice (digest, head, tail) is redacted, and so is what reading the stored file gives', async () => {
    const root = fs.mkdtempSync(path.join(dir, 'ws-'));
    const policy = defaultPolicy();
    policy.offload = { ...policy.offload, per_result_tokens: 100, aggregate_tokens: 100 };
    const result = { name: 'app_log', source: 'tool:app_log', abs, workspacePath: undefined, size: fs.statSync(abs).size, lines: redactedFileLines(abs) };
    const store = path.join(root, '.context', 'offload');
    const out = offloadToolResults([result], { policy, tokenizer: counter, store: () => openOffloadStore(store, { maxAgeDays: 7, maxMegabytes: 200 }, () => new Date('2026-11-12T10:00:00Z')), display: (p) => p });
    const entries = out.decisions.offloaded ?? [];
    assert.equal(entries.length, 1);
    const notice = out.value.blocks.map((b) => b.text).join('\n');
    assert.ok(notice.includes('started with token=[REDACTED:github-token]'), 'the head is in the notice, redacted');
    assert.ok(notice.includes('upstream rejected key [REDACTED:aws-access-key]'), 'the digest keeps the error, redacted');
    // The store keeps the payload as it was returned (local, git-ignored); what leaves it is read through inspect.
    const stored = String(entries[0].path);
    let printed = '';
    for (const argv of [['--head', '3'], ['--grep', 'ERROR', '--max-matches', '200'], ['--grep', 'corr=req-000201', '-C', '2']]) {
      let text = '';
      const code = await run(['inspect', stored, ...argv], { stdout: (t) => void (text += t), stderr: (t) => void (text += t) });
      assert.equal(code, 0, text);
      printed += text;
    }
    for (const secret of SECRETS) assert.ok(!notice.includes(secret) && !printed.includes(secret), `a secret left: ${secret}`);
    assert.ok(printed.includes('password=[REDACTED:') && printed.includes('token=[REDACTED:github-token]'));
  });
});
