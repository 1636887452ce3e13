import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { redactLines, redactSecrets } from '../../../src/core/sources/secrets';
import { loadSnapshot } from '../../../src/core/sources/snapshot';

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GH = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const KEY_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';

describe('secrets are never sent', () => {
  it('redacts single-line secrets and whole private key blocks read line by line', () => {
    const lines = ['ok', `aws_access_key_id=${AWS}`, '-----BEGIN RSA PRIVATE KEY-----', KEY_BODY, 'more', '-----END RSA PRIVATE KEY-----', 'after'];
    const out = [...redactLines(() => lines)()];
    assert.deepEqual(out, ['ok', 'aws_access_key_id=[REDACTED:aws-access-key]', '[REDACTED:private-key…]', '[REDACTED:private-key]', 'after']);
    assert.equal(redactSecrets('db_password: "correct-horse-battery"').text, 'db_password: "[REDACTED:assigned-secret]"');
    assert.equal(redactSecrets(`see ${GH} here`).text, 'see [REDACTED:github-token] here');
  });

  it('keeps secrets in logs, session events and documents out of the request, and says so', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-secrets-'));
    fs.mkdirSync(path.join(ws, '.context'));
    const log = Array.from({ length: 50 }, (_, i) => `2026-11-12T09:00:${String(i).padStart(2, '0')}Z INFO tick ${i}`);
    log.splice(20, 0, `2026-11-12T09:00:20Z ERROR boot failed with key ${AWS}`, '-----BEGIN PRIVATE KEY-----', KEY_BODY, '-----END PRIVATE KEY-----');
    fs.writeFileSync(path.join(ws, 'app.log'), log.join('\n'));
    fs.writeFileSync(path.join(ws, '.context', 'session.jsonl'), JSON.stringify({ id: 'e1', type: 'user', text: `use my token ${GH}` }) + '\n');
    fs.writeFileSync(path.join(ws, 'notes.md'), `---\ncomponent: payment\n---\n# Notes\npassword = "hunter2-very-secret"\n`);
    fs.writeFileSync(path.join(ws, '.env'), `API_KEY=${AWS}\n`);
    const snapshot = loadSnapshot({ root: ws, task: 'Why does boot fail?', component: 'payment' });
    const a = assemble(snapshot);
    for (const secret of [AWS, GH, KEY_BODY, 'hunter2-very-secret']) assert.ok(!a.serialized.includes(secret), `${secret.slice(0, 8)}… not sent`);
    assert.ok(a.serialized.includes('ERROR boot failed with key [REDACTED:aws-access-key]'), 'the error line stays, redacted');
    const warnings = a.manifest.warnings.map((w) => `${w.source}: ${w.message}`);
    assert.ok(warnings.some((w) => w.startsWith('app.log: ') && /secret\(s\) redacted/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => w.startsWith('.context/session.jsonl: secret redacted in session event')), warnings.join('\n'));
    assert.ok(warnings.some((w) => w.startsWith('notes.md: secret redacted')), warnings.join('\n'));
    assert.ok(warnings.some((w) => w === '.env: secret file (by name): never read or sent'), warnings.join('\n'));
  });

  it('reports a document\'s secret at its file line at every assembly, the unchanged document served from memory', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-secrets-'));
    const note = path.join(ws, 'notes.md');
    const write = (lead: string) => fs.writeFileSync(note, `---\ntitle: Boot\n---\n${lead}# Notes\n\npassword = "hunter2-very-secret"\n`);
    const found = () => {
      const a = assemble(loadSnapshot({ root: ws, task: 'Why does boot fail? notes', changes: false }));
      assert.ok(!a.serialized.includes('hunter2-very-secret'));
      return a.manifest.warnings.filter((w) => w.source === 'notes.md').map((w) => `${w.line}: ${w.message}`);
    };
    write('');
    const first = found();
    assert.deepEqual(first, ['6: secret redacted (assigned-secret): not sent']);
    assert.deepEqual(found(), first, 'the same warning from the remembered body');
    write('\n\n');
    assert.deepEqual(found(), ['8: secret redacted (assigned-secret): not sent'], 'blank lines before the body move it');
  });
});
