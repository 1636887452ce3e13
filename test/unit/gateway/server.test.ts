import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startGateway, type RunningGateway } from '../../../src/cli/gateway';
import { gatewayCommand } from '../../../src/cli/gateway-command';
import { localHost, upstreamUrl } from '../../../src/cli/gateway-http';
import { recordFiles } from '../../../src/core/gateway/records';
import type { CallRecord } from '../../../src/core/gateway/record';
import { readStoreRecord } from '../../../src/core/offload/store';
import { redact } from '../../../src/core/redact/apply';
import { counterFor, type EncodingName } from '../../../src/core/tokens';
import { REPO } from '../helpers';
import { defaultAnswer, sseText, startFakeUpstream, USAGE, type FakeUpstream } from './fake-upstream';
import { anthropicRequest, bigLog, ERROR_LINE, removeTemps, SECRET, tempDir } from './shapes';

/** The gateway server between a client and a fake upstream on 127.0.0.1: bytes, streams, records, headers. */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const API_KEY = 'sk-ant-api03-DoNotWriteMeAnywhere0123456789abcdef';
const BEARER = 'Bearer sk-proj-NeverInARecord0123456789abcdefghij';

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** How many chunks arrived. */
  chunks: number;
}

function send(url: string, method: string, body: Buffer | string | undefined, headers: Record<string, string> = {}, onChunk?: (text: string) => void): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        onChunk?.(Buffer.concat(chunks).toString('utf8'));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), chunks: chunks.length }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function workspace(policy = ''): string {
  const root = tempDir('ctxctl-gw-ws-');
  fs.mkdirSync(path.join(root, '.context'), { recursive: true });
  fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n\n- Never log card numbers.\n');
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'api.md'), '# API\nOptional request fields stay optional.\n');
  fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([{ id: 'p1', source: 'docs/api.md', startLine: 2, endLine: 2, label: 'compat', text: 'Optional request fields stay optional.' }]));
  if (policy) fs.writeFileSync(path.join(root, '.context', 'policy.yaml'), policy);
  return root;
}

function records(root: string): CallRecord[] {
  const dir = path.join(root, '.context', 'gateway');
  return recordFiles(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CallRecord);
}

const ODD_BODIES: [string, string][] = [
  ['/v1/messages', '{\n  "stream" : false ,\t"model":"claude-x",\r\n "max_tokens": 1e3, "messages":[{"content":"héllo 世界 \\u00e9 😀 \\ud83d\\ude00","role":"user"}], "z": 12345678901234567890123, "a": -0.000000000000000000001}  \n'],
  ['/v1/messages/count_tokens', '{"messages":[{"role":"user","content":"tokens?"}],"model":"claude-x","zzz":{"2":1,"1":2}}'],
  ['/v1/responses', `{"input":[{"role":"user","content":"key ${SECRET} stays in observe"}],"model":"gpt-5","stream":false,   "metadata":{"b":1,"a":[1.50,2.0]}}`],
  ['/v1/chat/completions', '{"model":"gpt-4o","messages":[{"role":"user","content":"\\"quoted\\" \\\\ back"}],"n":1.0}'],
];

describe('ctxctl gateway (server)', () => {
  let upstream: FakeUpstream;
  let other: FakeUpstream;
  const running: RunningGateway[] = [];
  const start = async (root: string, mode: 'observe' | 'control', agentDirs: string[] = []) => {
    const g = await startGateway({ root, port: 0, mode, anthropicUpstream: upstream.url, openaiUpstream: other.url, agentDirs, log: () => undefined });
    running.push(g);
    return g;
  };
  before(async () => {
    upstream = await startFakeUpstream();
    other = await startFakeUpstream();
  });
  after(async () => {
    for (const g of running) await g.close();
    await upstream.close();
    await other.close();
    removeTemps();
  });

  it('a request whose Host is not this machine (a rebound web page) gets 421 and never reaches the upstream or the records', async () => {
    const root = workspace();
    const g = await start(root, 'control');
    const before = upstream.requests.length;
    const body = JSON.stringify({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    const got = await send(g.url + '/v1/messages', 'POST', body, { host: 'evil.example:8787', 'x-api-key': API_KEY });
    assert.equal(got.status, 421);
    assert.equal(JSON.parse(got.body.toString('utf8')).error.message, 'ctxctl gateway: Host "evil.example:8787" is not this machine (127.0.0.1, localhost or [::1]): refused');
    assert.equal(upstream.requests.length, before);
    await g.idle();
    assert.deepEqual(records(root), []);
    assert.deepEqual(['127.0.0.1:8787', 'localhost', 'LOCALHOST:1', '[::1]:9'].map(localHost), [true, true, true, true]);
    assert.deepEqual([undefined, '', '127.0.0.1.evil.example', 'localhost.evil', '10.0.0.1:8787'].map(localHost), [false, false, false, false, false]);
  });

  it('the records of the calls answered before the gateway stops are written before it has stopped', async () => {
    const root = workspace();
    const g = await startGateway({ root, port: 0, mode: 'observe', anthropicUpstream: upstream.url, openaiUpstream: other.url, agentDirs: [], log: () => undefined });
    const bodies = [1, 2, 3].map((i) => JSON.stringify({ model: 'claude-x', max_tokens: 5, stream: true, messages: [{ role: 'user', content: `call ${i}` }] }));
    const got = await Promise.all(bodies.map((b) => send(g.url + '/v1/messages', 'POST', b, { 'x-api-key': API_KEY })));
    assert.deepEqual(got.map((x) => x.status), [200, 200, 200]);
    await g.close();
    const recs = records(root);
    assert.equal(recs.length, 3);
    assert.deepEqual(recs.map((r) => r.mode + ' ' + r.status + ' ' + r.events).sort(), ['observe 200 45', 'observe 200 45', 'observe 200 45']);
  });

  it('observe: the upstream gets the exact bytes and the client the exact answer, for odd but valid bodies', async () => {
    const root = workspace();
    const g = await start(root, 'observe');
    for (const [p, body] of ODD_BODIES) {
      const before = upstream.requests.length + other.requests.length;
      const got = await send(g.url + p, 'POST', Buffer.from(body, 'utf8'), { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' });
      const all = [...upstream.requests, ...other.requests];
      assert.equal(all.length, before + 1);
      const seen = (p.startsWith('/v1/messages') ? upstream : other).requests.at(-1)!;
      assert.ok(seen.body.equals(Buffer.from(body, 'utf8')), `${p}: bytes differ`);
      assert.equal(seen.headers['content-length'], String(Buffer.byteLength(body)));
      assert.equal(got.body.toString('utf8'), JSON.stringify(defaultAnswer(seen).json));
    }
    await g.idle();
    const recs = records(root);
    assert.equal(recs.length, 4);
    assert.ok(recs.every((r) => r.mode === 'observe' && r.sent_unchanged && r.changes.length === 0));
    assert.equal(recs[0].usage?.input_tokens, USAGE.input_tokens);
    assert.equal(recs[0].usage?.cache_read_tokens, USAGE.cache_read);
    const responses = recs.find((r) => r.api === 'responses')!;
    assert.ok(!JSON.stringify(responses.received).includes(SECRET), 'the record of what was received is redacted');
    assert.equal(fs.readFileSync(path.join(root, '.context', 'gateway', '.gitignore'), 'utf8').split('\n').includes('*'), true);
  });

  for (const [api, p] of [['anthropic', '/v1/messages'], ['responses', '/v1/responses'], ['chat', '/v1/chat/completions']] as const) {
    it(`${api}: an SSE answer passes chunk by chunk, every event in order, bytes unchanged, usage recorded`, async () => {
      const root = workspace();
      // The upstream holds the rest of its stream until the client has the first event: a gateway that buffered the
      // answer would never pass that event on, and the call would not finish.
      let firstSeen!: () => void;
      const afterFirst = new Promise<void>((r) => (firstSeen = r));
      const slow = await startFakeUpstream((req) => ({ ...defaultAnswer(req, 12), afterFirst }));
      const g = await startGateway({ root, port: 0, mode: 'control', anthropicUpstream: slow.url, openaiUpstream: slow.url, agentDirs: [], log: () => undefined });
      try {
        const body = JSON.stringify({ model: 'm', stream: true, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], input: [{ role: 'user', content: 'hi' }] });
        let firstEvent: string | undefined;
        const got = await send(g.url + p, 'POST', body, { authorization: BEARER }, (sofar) => {
          if (firstEvent === undefined && sofar.includes('\n\n')) {
            firstEvent = sofar;
            firstSeen();
          }
        });
        const events = sseText(defaultAnswer(slow.requests[0], 12).events!);
        assert.equal(got.body.toString('utf8'), events.join(''));
        assert.equal(firstEvent, events[0], 'the first event reached the client alone, before the upstream wrote the rest');
        assert.match(String(got.headers['content-type']), /text\/event-stream/);
        assert.ok(got.chunks >= 2, `${got.chunks} chunks`);
        await g.idle();
        const [rec] = records(root);
        assert.equal(rec.events, defaultAnswer(slow.requests[0], 12).events!.length);
        assert.equal(rec.usage?.output_tokens, USAGE.output_tokens);
        assert.equal(rec.stream, true);
      } finally {
        await g.close();
        await slow.close();
      }
    });
  }

  it('control: the upstream gets the trimmed request with the pins; the record has the changes, the tokens, the usage and no auth header', async () => {
    const root = workspace();
    const g = await start(root, 'control');
    const body = JSON.stringify({ ...anthropicRequest(bigLog()), stream: false });
    const got = await send(g.url + '/v1/messages', 'POST', body, { 'x-api-key': API_KEY, authorization: BEARER, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'x' });
    assert.equal(got.status, 200);
    const seen = upstream.requests.at(-1)!;
    assert.equal(seen.headers['x-api-key'], API_KEY, 'auth is forwarded');
    assert.equal(seen.headers['content-length'], String(seen.body.length));
    const sent = seen.json as Obj;
    const result = sent.messages[2].content[0].content as string;
    assert.ok(result.includes(ERROR_LINE));
    assert.ok(result.includes(path.join(root, '.context', 'offload')), result.slice(0, 300));
    const system = JSON.stringify(sent.system);
    assert.ok(system.includes('Optional request fields stay optional.') && system.includes('Never log card numbers.'));
    assert.ok(!seen.body.toString('utf8').includes(SECRET));
    await g.idle();
    const [rec] = records(root);
    assert.deepEqual(rec.changes.map((c) => c.rule), ['offloaded', 'redacted', 'pins-added']);
    assert.deepEqual(readStoreRecord(path.dirname(rec.changes[0].path!))?.files, [path.basename(rec.changes[0].path!)], 'the offload store records its file once the gateway is idle');
    assert.equal(rec.changes[0].tokens_before, counterFor(rec.tokens!.encoding as EncodingName).count(redact(bigLog()).text), 'the offloaded result, counted exactly by its record');
    assert.ok(rec.changes[0].tokens_before! > 6000);
    assert.equal(rec.changes[1].tokens_before, undefined);
    assert.equal(rec.pins.added.length, 2);
    assert.ok(rec.pins.added.includes('AGENTS.md'), rec.pins.added.join());
    assert.ok(rec.tokens!.system > 0 && rec.tokens!.tools > 0 && rec.tokens!.rules_and_pins > 0 && rec.tokens!.messages > 0);
    assert.equal(rec.tokens!.tool_results.length, 2);
    assert.ok(rec.tokens!.tool_results[0].tokens < 3000);
    assert.equal(rec.window, 200_000);
    assert.equal(rec.usage?.cache_write_tokens, USAGE.cache_write);
    assert.equal(rec.sent_unchanged, false);
    const files = fs.readdirSync(path.join(root, '.context', 'gateway')).map((f) => fs.readFileSync(path.join(root, '.context', 'gateway', f), 'utf8')).join('\n');
    assert.ok(!files.includes('DoNotWriteMeAnywhere') && !files.includes('NeverInARecord'), 'no auth header in any record');
    assert.ok(!files.includes(SECRET));
  });

  it('control: a second call appending turns keeps the sent prefix byte-identical, and the record says so', async () => {
    const root = workspace();
    const g = await start(root, 'control');
    const first = anthropicRequest(bigLog());
    await send(g.url + '/v1/messages', 'POST', JSON.stringify(first));
    const one = upstream.requests.at(-1)!.json as Obj;
    const second = { ...first, messages: [...(first.messages as object[]), { role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] }, { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] }] };
    await send(g.url + '/v1/messages', 'POST', JSON.stringify(second));
    const two = upstream.requests.at(-1)!.json as Obj;
    assert.deepEqual(two.messages.slice(0, 3).map((m: object) => JSON.stringify(m)), one.messages.map((m: object) => JSON.stringify(m)));
    assert.equal(JSON.stringify(two.system), JSON.stringify(one.system));
    await g.idle();
    const recs = records(root);
    assert.deepEqual(recs.map((r) => r.prefix_stable), [null, true]);
    const out: string[] = [];
    assert.equal(await gatewayCommand(['calls', '--workspace', root, '--json'], { stdout: (s) => out.push(s), stderr: () => undefined }), 0);
    const listed = JSON.parse(out.join('')) as Obj[];
    assert.equal(listed.length, 2);
    for (const key of ['changes', 'tokens', 'usage', 'pins', 'prefix_stable']) assert.ok(key in listed[1], key);
    assert.equal(listed[1].prefix_stable, true);
    const lines: string[] = [];
    await gatewayCommand(['calls', '--workspace', root], { stdout: (s) => lines.push(s), stderr: () => undefined });
    assert.match(lines.join(''), /anthropic claude-sonnet-4-5 200 .*prefix held/);
  });

  it('control: the decisions survive a restart, so the call after it sends the same prefix', async () => {
    const root = workspace();
    const first = anthropicRequest(bigLog());
    const g1 = await start(root, 'control');
    await send(g1.url + '/v1/messages', 'POST', JSON.stringify(first));
    await g1.idle();
    await g1.close();
    const one = upstream.requests.at(-1)!.json as Obj;
    assert.ok(fs.existsSync(path.join(root, '.context', 'gateway', 'decisions.json')));
    const g2 = await start(root, 'control');
    const second = { ...first, messages: [...(first.messages as object[]), { role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] }, { role: 'user', content: 'Fix it.' }] };
    await send(g2.url + '/v1/messages', 'POST', JSON.stringify(second));
    const two = upstream.requests.at(-1)!.json as Obj;
    assert.deepEqual(two.messages.slice(0, 3).map((m: object) => JSON.stringify(m)), one.messages.map((m: object) => JSON.stringify(m)));
    await g2.idle();
    assert.deepEqual(records(root).map((r) => r.prefix_stable), [null, true]);
  });

  it('fail-open: a body the planner cannot read goes upstream unchanged and the record holds the error; fail-closed refuses', async () => {
    const root = workspace();
    const g = await start(root, 'control');
    const broken = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}'; // truncated JSON
    const got = await send(g.url + '/v1/chat/completions', 'POST', broken);
    assert.equal(got.status, 200);
    assert.equal(other.requests.at(-1)!.body.toString('utf8'), broken);
    await g.idle();
    assert.match(records(root)[0].error ?? '', /JSON/);
    const closed = workspace('gateway:\n  fail_closed: true\n');
    const gc = await start(closed, 'control');
    const n = other.requests.length;
    const refused = await send(gc.url + '/v1/chat/completions', 'POST', broken);
    assert.equal(refused.status, 502);
    assert.match(refused.body.toString('utf8'), /fail-closed/);
    assert.equal(other.requests.length, n, 'nothing sent upstream');
  });

  it('headers: hop-by-hop ones and those Connection names are dropped, the rest forwarded; GET /v1/models goes to the upstream the headers name', async () => {
    const root = workspace();
    const g = await start(root, 'observe');
    const got = await send(g.url + '/v1/models', 'GET', undefined, { connection: 'keep-alive, x-drop-me', 'x-drop-me': '1', 'proxy-authorization': 'Basic abc', 'x-keep': 'yes', 'openai-organization': 'org' });
    assert.equal(got.status, 200);
    const seen = other.requests.at(-1)!;
    assert.equal(seen.path, '/v1/models');
    assert.equal(seen.headers['x-drop-me'], undefined);
    assert.equal(seen.headers['proxy-authorization'], undefined);
    assert.equal(seen.headers['x-keep'], 'yes');
    await send(g.url + '/v1/models', 'GET', undefined, { 'anthropic-version': '2023-06-01' });
    assert.equal(upstream.requests.at(-1)!.path, '/v1/models');
  });

  it('a gzip-encoded answer reaches the client as the same bytes, and its usage is still read', async () => {
    const root = workspace();
    const zipped = zlib.gzipSync(Buffer.from(JSON.stringify(defaultAnswer({ method: 'POST', path: '/v1/chat/completions', headers: {}, body: Buffer.alloc(0), json: { model: 'gpt-4o' } }).json)));
    const gz = await startFakeUpstream(() => ({ raw: { body: zipped, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } } }));
    const g = await startGateway({ root, port: 0, mode: 'observe', anthropicUpstream: gz.url, openaiUpstream: gz.url, agentDirs: [], log: () => undefined });
    try {
      const got = await send(g.url + '/v1/chat/completions', 'POST', '{"model":"gpt-4o","messages":[]}', { 'accept-encoding': 'gzip' });
      assert.equal(got.headers['content-encoding'], 'gzip');
      assert.ok(got.body.equals(zipped));
      assert.equal(gz.requests[0].headers['accept-encoding'], 'gzip');
      await g.idle();
      assert.equal(records(root)[0].usage?.output_tokens, USAGE.output_tokens);
    } finally {
      await g.close();
      await gz.close();
    }
  });

  it('an unreachable upstream is a 502 in the API error shape, recorded', async () => {
    const root = workspace();
    const g = await startGateway({ root, port: 0, mode: 'observe', anthropicUpstream: 'http://127.0.0.1:1', openaiUpstream: 'http://127.0.0.1:1', agentDirs: [], log: () => undefined });
    running.push(g);
    const got = await send(g.url + '/v1/messages', 'POST', '{"model":"m","messages":[]}');
    assert.equal(got.status, 502);
    assert.equal((JSON.parse(got.body.toString('utf8')) as Obj).type, 'error');
    await g.idle();
    assert.match(records(root)[0].error ?? '', /upstream/);
  });

  it('without the record worker, the records are written in the gateway thread when it is idle', async () => {
    const root = workspace();
    const g = await startGateway({ root, port: 0, mode: 'control', anthropicUpstream: upstream.url, openaiUpstream: other.url, agentDirs: [], log: () => undefined, recordInThread: false });
    running.push(g);
    await send(g.url + '/v1/responses', 'POST', JSON.stringify({ model: 'gpt-5', input: `key ${SECRET}` }));
    await g.idle();
    const [rec] = records(root);
    assert.deepEqual(rec.changes.map((c) => c.rule), ['redacted', 'pins-added']);
    assert.equal(rec.usage?.input_tokens, USAGE.input_tokens);
  });

  it('keeps the last gateway.keep_calls records', async () => {
    const root = workspace('gateway:\n  keep_calls: 3\n');
    const g = await start(root, 'observe');
    for (let i = 0; i < 5; i++) {
      await send(g.url + '/v1/chat/completions', 'POST', JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: `call ${i}` }] }));
      await g.idle();
    }
    const recs = records(root);
    assert.equal(recs.length, 3);
    assert.deepEqual(recs.map((r) => (r.received as Obj).messages[0].content), ['call 2', 'call 3', 'call 4']);
  });

  it('upstream URLs keep the upstream path and never double /v1', () => {
    assert.equal(upstreamUrl('https://api.openai.com/v1', '/v1/responses').href, 'https://api.openai.com/v1/responses');
    assert.equal(upstreamUrl('http://127.0.0.1:9/proxy/', '/v1/messages?beta=true').href, 'http://127.0.0.1:9/proxy/v1/messages?beta=true');
  });

  it('the bundled CLI prints exactly one ready line and stops on SIGTERM', async () => {
    const cli = path.join(REPO, 'dist', 'cli.js');
    const root = workspace();
    const child = spawn(process.execPath, [cli, 'gateway', '--workspace', root, '--port', '0', '--mode', 'observe', '--anthropic-upstream', upstream.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.includes('\n')) resolve(out);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before the ready line`)));
    });
    assert.match(line, /^gateway listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const url = line.trim().split(' ').at(-1)!;
    const got = await send(url + '/v1/messages', 'POST', '{"model":"m","max_tokens":1,"messages":[]}');
    assert.equal(got.status, 200);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    assert.equal(code, 0);
  });

  it('the bundled CLI on a port in use: one line naming the port, exit 2, and the process ends (the record worker is let go)', async () => {
    const busy = http.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'gateway', '--workspace', workspace(), '--port', String(port)], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.error, undefined, 'the process ended by itself');
      assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', `ctxctl: port ${port} on 127.0.0.1 is in use: pass --port with another port (0 picks a free one)\n`]);
    } finally {
      busy.close();
    }
  });
});
