import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { readDocument } from '../../../src/core/disclose';
import { isSecretPath } from '../../../src/core/redact/files';
import { buildSummaryRequest } from '../../../src/core/session/model-summary';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { counter } from '../helpers';

/**
 * Red team: a secret planted in every place a string can come from (task, source code, a document's title and
 * summary, a file name, a pin label, a pin on `.env`, a JSON log, AGENTS.md, a session event's id, text and tool
 * result) never appears in request.json, manifest.json, trace.txt or the CLI's stdout; code that names secrets
 * reaches the request byte-identical; the manifest says where each redaction was, by rule.
 */

const S = {
  task: '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  code: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  title: 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  summary: 'hunter22x',
  fileName: 'AKIAIOSFODNN7EXAMPLE',
  pinLabel: 'sk-ant-api03-Zq8xW3vB7nM2kL9pR4tY6uI1oA5sD0fGhJ2kL8zX3cV7bN1mQ',
  envPin: 'AKIAY34FZKBOKMUTVV7A',
  logPassword: 'Winter2026!x',
  logBearer: 'ya29.a0AfH6SMBx3kQ9vL2pT7wZ5nR8yU1iO4eA6sD',
  agents: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
  eventId: 'xoxb-2048174562-1827364512340-Ab12Cd34Ef56Gh78Ij90Kl12',
  eventText: 's3cr3tP4ss',
  toolResult: 'sk-9Xk2LmP4qR7sT1uV3wY5zA8bC0dE2fG4hJ6kL8mN',
  guideBody: 'Zx81LmQp02q',
};
const CODE = ['        access_token = result.AccessToken!,', 'const token = await auth.token();', 'if (apiKey === undefined) throw new Error("missing API key");', '  const password = getPassword();'];

function hostileWorkspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-redteam-secrets-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  write('ticket.md', `---\ncomponent: auth\nfiles: [src/auth.ts]\n---\n# Login fails\nThe gateway wants X-Api-Key: ${S.task}\n`);
  // Every document goes in the index (none is loaded on relevance alone), so the planted title, summary and file name are sent there.
  write('.context/policy.yaml', 'relevance: { load_threshold: 100, index_threshold: 0 }\n');
  write('src/auth.ts', [...CODE, `const STRIPE = '${S.code}';`, ''].join('\n'));
  write('docs/guide.md', `---\ntitle: Setup with token ${S.title}\nsummary: "staging uses DB_PASS=${S.summary}"\n---\n\n# Guide\nNothing here.\npassword = '${S.guideBody}'\n`);
  write(`docs/${S.fileName}-notes.md`, '# Notes\nplain\n');
  write('AGENTS.md', `# Rules\nDeploy notices go to ${S.agents}\n`);
  write('.env', `API_KEY=${S.envPin}\n`);
  write('.context/pins.json', JSON.stringify([
    { id: 'p1', source: 'src/auth.ts', text: 'const token = await auth.token();', label: `key ${S.pinLabel}`, startLine: 2, endLine: 2 },
    { id: 'p2', source: '.env', text: `API_KEY=${S.envPin}` },
  ]));
  const log = Array.from({ length: 20 }, (_, i) => JSON.stringify({ level: 'info', msg: `tick ${i}` }));
  log.splice(5, 0, JSON.stringify({ level: 'error', msg: 'login failed', user: 'bob', password: S.logPassword, headers: { Authorization: `Bearer ${S.logBearer}` } }));
  write('app.log', log.join('\n') + '\n');
  write('.context/session.jsonl', [
    { id: S.eventId, type: 'user', text: 'Look at the login.' },
    { id: 'e2', type: 'assistant', text: `The DSN is postgres://app:${S.eventText}@db:5432/auth` },
    { id: 'e3', type: 'tool_call', call_id: 'c1', tool: 'search_workspace', text: '{"query":"key"}' },
    { id: 'e4', type: 'tool_result', call_id: 'c1', text: `config: OPENAI=${S.toolResult}` },
  ].map((e) => JSON.stringify(e)).join('\n') + '\n');
  return ws;
}

function cli(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = run(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) }) as number;
  return { code, out, err };
}

const leaks = (text: string) => Object.entries(S).filter(([, secret]) => text.includes(secret)).map(([where]) => where);

describe('red team: secrets', () => {
  const ws = hostileWorkspace();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-redteam-out-'));
  const plain = cli(['preview', '--workspace', ws, '--task', path.join(ws, 'ticket.md'), '--out', out]);
  const json = cli(['preview', '--workspace', ws, '--task', path.join(ws, 'ticket.md'), '--json']);
  const file = (name: string) => fs.readFileSync(path.join(out, name), 'utf8');

  it('previews with exit 0', () => {
    assert.deepEqual([plain.code, plain.err, json.code, json.err], [0, '', 0, '']);
  });

  it('request.json holds none of the planted secrets', () => assert.deepEqual(leaks(file('request.json')), []));
  it('manifest.json holds none of them', () => assert.deepEqual(leaks(file('manifest.json')), []));
  it('trace.txt holds none of them', () => assert.deepEqual(leaks(file('trace.txt')), []));
  it('stdout (trace and --json) holds none of them', () => assert.deepEqual(leaks(plain.out + json.out), []));

  it('each planted place reached the request, redacted: the parts around each secret are there', () => {
    const req = file('request.json');
    for (const expected of [
      'X-Api-Key: [REDACTED:api-key-header]',
      "const STRIPE = '[REDACTED:stripe-key]';",
      'title=\\"Setup with token [REDACTED:github-token]\\"',
      'summary=\\"staging uses DB_PASS=[REDACTED:assigned-secret]\\"',
      'path=\\"docs/[REDACTED:aws-access-key]-notes.md\\"',
      'label=\\"key [REDACTED:anthropic-key]\\"',
      'Deploy notices go to [REDACTED:slack-webhook]',
      '\\"password\\":\\"[REDACTED:assigned-secret]\\"',
      'Bearer [REDACTED:bearer-token]',
      'postgres://app:[REDACTED:url-credentials]@db:5432/auth',
      'config: OPENAI=[REDACTED:openai-key]',
      'id=\\"line-1\\"',
    ]) assert.ok(req.includes(expected), `request holds ${expected}`);
  });

  it('code that names tokens, keys and passwords reaches the request byte-identical', () => {
    const content = (JSON.parse(file('request.json')) as { messages: { content: string }[] }).messages.map((m) => m.content).join('\n');
    for (const line of CODE) assert.ok(content.includes(`\n${line}\n`), line);
  });

  it('a pin on .env is refused and reported; its text is never sent', () => {
    const m = JSON.parse(file('manifest.json')) as { rejected: { source: string; reason: string }[]; warnings: { source: string; message: string }[] };
    assert.deepEqual(m.rejected.filter((r) => r.source === '.env'), [{ source: '.env', kind: 'pinned', reason: 'pinned block cannot be read: a secret file (by name) is never sent' }]);
    assert.ok(m.warnings.some((w) => w.source === '.env' && w.message === 'pinned block cannot be read (a secret file (by name) is never sent): it is NOT in this request; unpin it or restore the file'));
  });

  it('the manifest lists each redaction by source, line and rule, never the secret', () => {
    const m = JSON.parse(file('manifest.json')) as { redactions: { source: string; line?: number; rule: string; stage: string }[] };
    const seen = m.redactions.map((r) => `${r.stage} ${r.source}${r.line !== undefined ? `:${r.line}` : ''} ${r.rule}`);
    for (const expected of [
      'read ticket.md:6 api-key-header',
      'read docs/guide.md:8 assigned-secret',
      'read src/auth.ts:5 stripe-key',
      'read AGENTS.md:2 slack-webhook',
      'read .context/session.jsonl:2 url-credentials',
      'read .context/session.jsonl:4 openai-key',
      'tool-output app.log:6 assigned-secret',
      'tool-output app.log:6 bearer-token',
    ]) assert.ok(seen.includes(expected), `${expected} in\n${seen.join('\n')}`);
    assert.ok(seen.some((s) => /^request builtin:index:\d+ github-token$/.test(s)), seen.join('\n'));
    assert.ok(seen.includes('request src/auth.ts#L2-L2:1 anthropic-key'), seen.join('\n'));
    assert.ok(seen.includes('read .context/session.jsonl:1 slack-token'), 'the event id that held a token');
    const trace = file('trace.txt');
    assert.ok(trace.includes('\nREDACTIONS (secrets replaced by [REDACTED:rule], not sent)\n'));
    assert.ok(trace.includes('\n  ticket.md:6  api-key-header  (read)\n'));
  });

  it('every "not sent" claim is true: the request holds no secret a warning names', () => {
    const m = JSON.parse(file('manifest.json')) as { warnings: { message: string }[] };
    assert.ok(m.warnings.filter((w) => w.message.includes('not sent')).length >= 5);
    assert.deepEqual(leaks(file('request.json')), []);
  });

  it('the request file is the counted bytes, and the figure in the trace is its count', () => {
    const req = file('request.json');
    const m = JSON.parse(file('manifest.json')) as { request_bytes: number; budget: { final: number } };
    assert.equal(m.request_bytes, Buffer.byteLength(req));
    assert.equal(m.budget.final, counter.count(req));
  });

  it('send (dry run) writes no secret either', async () => {
    const sendOut = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-redteam-send-'));
    let text = '';
    const code = await run(['send', '--workspace', ws, '--task', path.join(ws, 'ticket.md'), '--out', sendOut], { stdout: (s) => void (text += s), stderr: (s) => void (text += s) });
    assert.equal(code, 0);
    for (const name of ['request.json', 'manifest.json', 'trace.txt', 'steps/01/request.json', 'steps/01/manifest.json']) assert.deepEqual(leaks(fs.readFileSync(path.join(sendOut, name), 'utf8')), [], name);
    assert.deepEqual(leaks(text), []);
  });

  it('read_document refuses a secret file by name, with the reason', () => {
    const snapshot = loadSnapshot({ root: ws, task: path.join(ws, 'ticket.md') });
    const r = readDocument(snapshot, { path: '.env' }, { tokenizer: counter });
    assert.equal(r.block, undefined);
    assert.equal(r.text, 'read_document: ".env" is not returned: it is a secret file (by name): never read or sent');
  });

  it('--tool-result pointing at a secret file is exit 2 with one line naming it', () => {
    const r = cli(['preview', '--workspace', ws, '--task', 'x', '--tool-result', `env=${path.join(ws, '.env')}`]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `ctxctl: ${path.join(ws, '.env')}: tool result is a secret file by name (--tool-result env=${path.join(ws, '.env')}): refused, never read or sent\n`);
  });

  it('the compaction request (built outside render) carries no secret from paths or event ids', () => {
    const built = buildSummaryRequest({ model: 'gpt-4o', events: [{ id: 'e1', type: 'user', text: `use ${S.toolResult}`, line: 1 }], constraints: [], knownSources: [`docs/${S.fileName}-notes.md`] });
    const text = JSON.stringify(built.request);
    assert.deepEqual(leaks(text), []);
    assert.ok(text.includes('docs/[REDACTED:aws-access-key]-notes.md') && text.includes('use [REDACTED:openai-key]'));
  });

  it('names secret files wherever they are, and not their templates', () => {
    assert.deepEqual(
      ['.env', 'api/.env.production', 'deploy/prod.env', 'certs/server.key', 'C:\\u\\.ssh\\id_ed25519', '/home/u/.netrc', '.aws/credentials', '.env.example', 'id_rsa.pub', 'docs/env.md', 'src/keys.ts'].map(isSecretPath),
      [true, true, true, true, true, true, true, false, false, false, false],
    );
  });
});
