import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '../../src/cli/gateway';
import { startFakeUpstream, type Answer, type FakeUpstream, type Logged } from '../unit/gateway/fake-upstream';
import { bigLog, ERROR_LINE, SECRET } from '../unit/gateway/shapes';

/**
 * The real clients (Claude Code, Codex) against `ctxctl gateway` (control mode) and a fake provider: a workspace
 * with AGENTS.md rules, a pinned block and a ~140 KB log holding one error in the middle and a secret.
 */

export const REPO = path.resolve(__dirname, '..', '..', '..');
export { ERROR_LINE, SECRET };
export const RULE = 'Never write card numbers to a log file.';
export const PIN_TEXT = 'Optional request fields stay optional at the HTTP boundary.';
/** A 26 KB document (5 214 tokens), pinned whole by the hook tests: above what a client keeps of a hook. */
export const BIG_NOTE = Array.from({ length: 400 }, (_, i) => `Line ${String(i + 1).padStart(3, '0')}: the nightly settlement batch reconciles card captures.`).join('\n') + '\n';

/** The binaries install-agents.sh installed (it is run here, cached after the first time). */
export function agentBinaries(): { claude: string; codex: string } {
  const r = spawnSync('bash', [path.join(REPO, 'scripts', 'test-host', 'install-agents.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`install-agents.sh failed (${r.status})`);
  const get = (k: string) => new RegExp(`^${k}=(.+)$`, 'm').exec(r.stdout)?.[1] ?? '';
  return { claude: get('CLAUDE_BIN'), codex: get('CODEX_BIN') };
}

export interface Setup {
  root: string;
  home: string;
  upstream: FakeUpstream;
  gateway: RunningGateway;
  log: string;
  close(): Promise<void>;
}

export async function setup(script: (req: Logged, n: number) => Answer | undefined, agentDirs: (home: string) => string[]): Promise<Setup> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-agents-'));
  const root = path.join(base, 'ws');
  const home = path.join(base, 'home');
  fs.mkdirSync(path.join(root, '.context'), { recursive: true });
  fs.mkdirSync(path.join(root, 'logs'));
  fs.mkdirSync(path.join(root, 'docs'));
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(root, 'AGENTS.md'), `# Rules\n\n- ${RULE}\n`);
  fs.writeFileSync(path.join(root, 'docs', 'api.md'), `# API\n${PIN_TEXT}\n`);
  fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([{ id: 'p1', source: 'docs/api.md', startLine: 2, endLine: 2, label: 'compat', text: PIN_TEXT }]));
  const log = bigLog(1500).replace('status=200 path=/api/cart/700', `status=200 token=${SECRET} path=/api/cart/700`);
  fs.writeFileSync(path.join(root, 'logs', 'app.log'), log + '\n');
  const upstream = await startFakeUpstream(script);
  const lines: string[] = [];
  const gateway = await startGateway({ root, port: 0, mode: 'control', anthropicUpstream: upstream.url, openaiUpstream: upstream.url, agentDirs: agentDirs(home), log: (s) => lines.push(s) });
  return {
    root,
    home,
    upstream,
    gateway,
    log,
    close: async () => {
      await gateway.close();
      await upstream.close();
      if (!process.env.KEEP_AGENT_TEMP) fs.rmSync(base, { recursive: true, force: true });
      else process.stderr.write(`kept ${base}\n${lines.join('\n')}\n`);
    },
  };
}

/** An Anthropic Messages answer (streamed or not, as the request asks) that calls one tool. */
export function toolUse(req: Logged, id: string, name: string, input: object): Answer {
  const model = String(req.json?.model ?? 'claude');
  const json = JSON.stringify(input);
  const usage = { input_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 };
  if (req.json?.stream !== true) return { json: { id: `msg_${id}`, type: 'message', role: 'assistant', model, content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use', stop_sequence: null, usage } };
  return {
    events: [
      { event: 'message_start', data: { type: 'message_start', message: { id: `msg_${id}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name, input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
  };
}

/** Every text of a JSON value, joined (what the model can read). */
export function allText(v: unknown): string {
  const out: string[] = [];
  const walk = (x: unknown) => {
    if (typeof x === 'string') out.push(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') Object.values(x).forEach(walk);
  };
  walk(v);
  return out.join('\n');
}

/** The items of a request without the agents' moving cache markers. */
export function items(list: unknown[]): string[] {
  return list.map((m) => JSON.stringify(m, (k, v) => (k === 'cache_control' ? undefined : v)));
}

export function dump(s: Setup, name: string): string {
  const file = path.join(os.tmpdir(), `ctxctl-agents-${name}-requests.json`);
  fs.writeFileSync(file, JSON.stringify(s.upstream.requests.map((r) => ({ path: r.path, json: r.json })), null, 1));
  return file;
}

/**
 * A client run to its end: its exit code and everything it printed (stdin closed, nothing inherited but PATH). A client
 * still running after `timeoutMs` is killed (its code is then null and stderr says so), so a hung client fails its test
 * instead of outliving it.
 */
export function runClient(bin: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs = 150_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += `\n[harness: killed after ${timeoutMs / 1000} s]\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
