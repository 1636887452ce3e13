import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { startGateway } from '../../../src/cli/gateway';
import { declaredLength } from '../../../src/cli/gateway-http';
import { recordFiles } from '../../../src/core/gateway/records';
import type { CallRecord } from '../../../src/core/gateway/record';
import { removeTemps, tempDir } from './shapes';

/**
 * Observe mode forwards a request's body as it arrives (a copy kept for the record): the upstream sees the first
 * bytes before the client has sent the rest. No clock: each step waits for the one before it.
 */

interface Seen {
  /** Resolves with the first body bytes the upstream received. */
  first: Promise<Buffer>;
  /** Resolves with the whole body, or undefined when the request was aborted. */
  whole: Promise<Buffer | undefined>;
}

function teeUpstream(): Promise<{ url: string; next: () => Seen; close: () => Promise<void> }> {
  const waiting: ((s: { req: http.IncomingMessage; res: http.ServerResponse }) => void)[] = [];
  const arrived: { req: http.IncomingMessage; res: http.ServerResponse }[] = [];
  const server = http.createServer((req, res) => {
    const w = waiting.shift();
    if (w) w({ req, res });
    else arrived.push({ req, res });
  });
  const next = (): Seen => {
    const got = new Promise<{ req: http.IncomingMessage; res: http.ServerResponse }>((r) => {
      const a = arrived.shift();
      if (a) r(a);
      else waiting.push(r);
    });
    const chunks: Buffer[] = [];
    let firstDone: (b: Buffer) => void = () => undefined;
    const first = new Promise<Buffer>((r) => (firstDone = r));
    const whole = got.then(({ req, res }) => new Promise<Buffer | undefined>((r) => {
      req.on('data', (c: Buffer) => {
        if (chunks.length === 0) firstDone(c);
        chunks.push(c);
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"m1","type":"message","usage":{"input_tokens":7,"output_tokens":2}}');
        r(Buffer.concat(chunks));
      });
      req.on('close', () => {
        if (!req.complete) r(undefined);
      });
    }));
    return { first, whole };
  };
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    next,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  })));
}

function records(root: string): CallRecord[] {
  const dir = path.join(root, '.context', 'gateway');
  return recordFiles(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CallRecord);
}

describe('ctxctl gateway (observe: the body forwarded as it arrives)', () => {
  after(() => removeTemps());

  for (const recordInThread of [true, false]) it(`the upstream gets the first half before the client sends the second; both get the exact bytes, and the call is recorded (${recordInThread ? 'record worker' : 'records in the gateway thread'})`, async () => {
    const up = await teeUpstream();
    const root = tempDir('ctxctl-gw-tee-');
    const g = await startGateway({ root, port: 0, mode: 'observe', anthropicUpstream: up.url, openaiUpstream: up.url, agentDirs: [], log: () => undefined, recordInThread });
    try {
      const body = Buffer.from(JSON.stringify({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'héllo ' + 'x'.repeat(20000) }] }));
      const half = 9000;
      const seen = up.next();
      const answer = new Promise<string>((resolve, reject) => {
        const req = http.request(g.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        });
        req.on('error', reject);
        req.write(body.subarray(0, half));
        // The rest goes only once the upstream has bytes of the first half: a gateway that waits for the whole body never gets here.
        void seen.first.then(() => req.end(body.subarray(half)));
      });
      const first = await seen.first;
      assert.ok(first.length <= half, `the upstream got ${first.length} bytes before the client sent more than ${half}`);
      assert.deepEqual(await seen.whole, body);
      assert.equal(await answer, '{"id":"m1","type":"message","usage":{"input_tokens":7,"output_tokens":2}}');
      await g.idle();
      const recs = records(root);
      assert.equal(recs.length, 1);
      assert.equal(recs[0].mode, 'observe');
      assert.equal(recs[0].status, 200);
      assert.equal(recs[0].usage?.input_tokens, 7);
      assert.equal(recs[0].model, 'claude-x');
    } finally {
      await g.close();
      await up.close();
    }
  });

  it('a client that leaves before its body has arrived whole: the upstream call is aborted, nothing is recorded, and the gateway is idle again', async () => {
    const up = await teeUpstream();
    const root = tempDir('ctxctl-gw-tee-');
    const g = await startGateway({ root, port: 0, mode: 'observe', anthropicUpstream: up.url, openaiUpstream: up.url, agentDirs: [], log: () => undefined });
    try {
      const seen = up.next();
      const req = http.request(g.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '5000' } });
      req.on('error', () => undefined);
      req.write('{"model":"claude-x","messages":[');
      await seen.first;
      req.destroy();
      assert.equal(await seen.whole, undefined);
      await g.idle();
      assert.deepEqual(records(root), []);
    } finally {
      await g.close();
      await up.close();
    }
  });

  it('the declared length: a plain content-length only', () => {
    assert.deepEqual(
      [{ 'content-length': '120' }, { 'content-length': '0' }, {}, { 'content-length': '12', 'transfer-encoding': 'chunked' }, { 'content-length': '1e3' }, { 'content-length': '-1' }].map((h) => declaredLength(h)),
      [120, 0, undefined, undefined, undefined, undefined],
    );
  });
});
