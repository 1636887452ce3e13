import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { openOffloadStore } from '../../../src/core/offload/store';
import { tempDir } from './results';

const NOW = new Date('2026-11-12T10:00:00Z');
const AWS = 'AKIAIOSFODNN7EXAMPLQ';
const GH = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const KEY = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA1234567890abcdefghijklmnopqrstuvwxyzABCDEFGH', '-----END RSA PRIVATE KEY-----'];

function store(label: string) {
  return openOffloadStore(path.join(tempDir(label), '.context', 'offload'), { maxAgeDays: 7, maxMegabytes: 200 }, () => NOW);
}

describe('offload store: secrets are never written', () => {
  it('a file holding secrets is stored with them redacted, line for line as the trimmer and inspect read it', () => {
    const src = path.join(tempDir('secret-src'), 'run.log');
    const lines = ['INFO start', `ERROR login failed: token ${GH}`, ...KEY, `WARN aws key=${AWS} rejected`, 'INFO done'];
    fs.writeFileSync(src, lines.join('\r\n') + '\r\n');
    const stored = store('secret-file').put('bash', { file: src });
    const text = fs.readFileSync(stored.abs, 'utf8');
    assert.equal(text.includes(GH) || text.includes(AWS) || text.includes('MIIEpAIB'), false, text);
    assert.deepEqual(text.split('\n'), [
      'INFO start',
      'ERROR login failed: token [REDACTED:github-token]',
      '[REDACTED:private-key…]',
      '[REDACTED:private-key]',
      'WARN aws key=[REDACTED:aws-access-key] rejected',
      'INFO done',
      '',
    ]);
    assert.match(path.basename(stored.abs), /^bash-[0-9a-f]{12}\.log$/);
    assert.deepEqual([stored.bytes, stored.written], [Buffer.byteLength(text), true]);
  });

  it('a text payload holding a secret is stored redacted; the same payload again reuses the stored file', () => {
    const s = store('secret-text');
    const first = s.put('Bash', { text: `curl -H "Authorization: Bearer ${GH}"\nok\n` }, '.txt');
    const text = fs.readFileSync(first.abs, 'utf8');
    assert.equal(text.includes(GH), false, text);
    assert.match(text, /\[REDACTED:[a-z-]+\]/);
    assert.equal(s.put('Bash', { text: `curl -H "Authorization: Bearer ${GH}"\nok\n` }, '.txt').written, false);
  });

  it('a file with no secret is copied byte for byte (line endings and a missing last line break kept)', () => {
    const src = path.join(tempDir('clean-src'), 'out.txt');
    fs.writeFileSync(src, 'a\r\nb\n\nlast');
    const stored = store('clean').put('run', { file: src });
    assert.deepEqual(fs.readFileSync(stored.abs), fs.readFileSync(src));
  });

  it('a line too long to read whole is stored clipped: its unread middle, which could hold a secret, is not written', () => {
    const src = path.join(tempDir('long-src'), 'bundle.js');
    const long = 'x'.repeat(700_000) + ` ${GH} ` + 'y'.repeat(700_000);
    fs.writeFileSync(src, `head\n${long}\ntail\n`);
    const stored = store('long').put('build', { file: src });
    const text = fs.readFileSync(stored.abs, 'utf8');
    assert.equal(text.includes(GH), false);
    assert.match(text, /…\[\d+ chars clipped\]…/);
    assert.deepEqual([text.split('\n')[0], text.split('\n')[2]], ['head', 'tail']);
  });
});
