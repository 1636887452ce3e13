import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { send, type SendIo } from '../../../src/cli/send';
import { counter, EXAMPLE } from '../helpers';
import { fakeClock, openaiError, openaiText, openaiToolCalls, startServer, type WireServer } from '../providers/wire';
import { makeWorkspace, TASK } from './fixture';

const KEY = 'sk-proj-CLIsecret0123456789abcdefghijKLMNOP';
const servers: WireServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

function io(env: Record<string, string | undefined> = {}): SendIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    env,
    clock: fakeClock(),
    stdout: (s: string) => void (captured.out += s),
    stderr: (s: string) => void (captured.err += s),
  };
  return captured;
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-send-out-'));

/** Every byte the command left behind or printed, to grep for the key. */
function everything(dir: string, printed: string[]): string {
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
  return [...printed, ...files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))].join('\n');
}

describe('ctxctl send', () => {
  it('dry-run (the default) sends nothing and writes exactly the request `ctxctl preview` shows', async () => {
    const out = tmp();
    const previewOut = tmp();
    const task = path.join(EXAMPLE, 'ticket.md');
    const captured = io();
    const code = await send(['--workspace', EXAMPLE, '--task', task, '--out', out], captured);
    assert.equal(code, 0, captured.err);
    assert.equal(captured.out, '');
    assert.equal(run(['preview', '--workspace', EXAMPLE, '--task', task, '--out', previewOut], { stdout: () => undefined, stderr: () => undefined }), 0);
    const request = fs.readFileSync(path.join(out, 'request.json'), 'utf8');
    assert.equal(request, fs.readFileSync(path.join(previewOut, 'request.json'), 'utf8'), 'the dry-run request is the previewed request, byte for byte');
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    assert.equal(manifest.budget.final, counter.count(request));
    assert.equal(manifest.send.provider, 'dry-run');
    assert.equal(manifest.send.sent, false);
    assert.deepEqual(fs.readdirSync(out).sort(), ['.ctxctl-written.json', 'manifest.json', 'request.json', 'steps', 'trace.txt']);
    assert.match(fs.readFileSync(path.join(out, 'trace.txt'), 'utf8'), /SEND RESULT\n {2}dry run: nothing was sent after 1 step \(limit 6\)\n$/);
    assert.match(captured.err, /ctxctl: dry run, nothing sent; wrote request\.json, manifest\.json and trace\.txt to /);
  });

  it('openai: streams the answer to stdout, runs the tool loop, writes the trace; the key appears nowhere', async () => {
    const root = makeWorkspace();
    const s = await startServer([
      { sse: openaiToolCalls([{ id: 'call_1', name: 'search_workspace', args: { pattern: 'ttl' } }], 'Searching for the TTL.') },
      { sse: openaiText(['The TTL is 30 minutes ', 'but the controller uses 10.']) },
    ]);
    servers.push(s);
    const out = tmp();
    const captured = io({ OPENAI_API_KEY: KEY });
    const code = await send(['--workspace', root, '--task', TASK, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', `${s.url}/v1`, '--out', out], captured);
    assert.equal(code, 0, captured.err);
    assert.equal(captured.out, 'Searching for the TTL.\nThe TTL is 30 minutes but the controller uses 10.\n');
    assert.equal(s.received[0].headers.authorization, `Bearer ${KEY}`, 'the key went where it belongs: the request header');
    assert.equal(s.received[1].body, fs.readFileSync(path.join(out, 'request.json'), 'utf8'));
    assert.equal(s.received[0].body, fs.readFileSync(path.join(out, 'steps', '01', 'request.json'), 'utf8'));
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    assert.equal(manifest.budget.final, counter.count(s.received[1].body));
    assert.equal(manifest.send.sent_matches_request, true);
    assert.deepEqual(fs.readdirSync(path.join(out, 'steps')), ['01', '02']);
    assert.deepEqual(
      fs.readFileSync(path.join(out, 'session-events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).type),
      ['assistant', 'tool_call', 'tool_result'],
    );
    const all = everything(out, [captured.out, captured.err]) + everything(root, []);
    assert.ok(!all.includes(KEY), 'the API key is in no output, trace, manifest or workspace file');
    assert.ok(!all.includes(KEY.slice(8, 30)), 'not even a piece of it');
  });

  it('401: exit 4 with "check the API key for openai", and the key the server echoes is not printed', async () => {
    const root = makeWorkspace();
    const s = await startServer([openaiError(401, `Incorrect API key provided: ${KEY}.`)]);
    servers.push(s);
    const out = tmp();
    const captured = io({ CTXCTL_API_KEY: KEY });
    const code = await send(['--workspace', root, '--task', TASK, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', s.url, '--out', out], captured);
    assert.equal(code, 4);
    assert.match(captured.err, /ctxctl: openai answered 401: check the API key for openai\n$/);
    assert.match(fs.readFileSync(path.join(out, 'trace.txt'), 'utf8'), /Attempt 1\s+openai answered 401: check the API key for openai/);
    assert.ok(!everything(out, [captured.out, captured.err]).includes(KEY));
  });

  it('a missing key, an unknown provider or a missing model is a clear exit 2', async () => {
    const root = makeWorkspace();
    let c = io();
    assert.equal(await send(['--workspace', root, '--task', TASK, '--provider', 'anthropic', '--model', 'claude-haiku-4-5'], c), 2);
    assert.equal(c.err, 'ctxctl: no API key for anthropic: set ANTHROPIC_API_KEY or CTXCTL_API_KEY (a local server given with --base-url needs none)\n');
    c = io();
    assert.equal(await send(['--workspace', root, '--task', TASK, '--provider', 'gemini'], c), 2);
    assert.match(c.err, /^ctxctl: --provider must be one of dry-run, openai, anthropic\n/);
    c = io({ OPENAI_API_KEY: KEY });
    assert.equal(await send(['--workspace', root, '--task', TASK, '--provider', 'openai'], c), 2);
    assert.match(c.err, /^ctxctl: --model M is required with --provider openai\n/);
    c = io();
    assert.equal(await send(['--workspace', root, '--task', TASK, '--max-steps', '0'], c), 2);
    assert.match(c.err, /^ctxctl: --max-steps must be a positive whole number, got "0"\n/);
    assert.ok(!fs.existsSync(path.join(root, '.context', 'send')), 'nothing written on bad input');
  });

  it('is registered in the CLI: `ctxctl send` runs through run() and bad input files keep their exit code', async () => {
    let err = '';
    const code = await run(['send', '--workspace', '/nonexistent/ws', '--task', 'x'], { stdout: () => undefined, stderr: (s) => void (err += s) });
    assert.equal(code, 2);
    assert.equal(err, 'ctxctl: /nonexistent/ws: workspace folder not found\n');
  });
});
