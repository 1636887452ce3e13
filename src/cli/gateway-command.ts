import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { GatewayMode } from '../core/gateway/plan';
import { listCalls, recordsDir } from '../core/gateway/records';
import { InputError } from '../core/errors';
import { defaultAgentDirs } from './gateway-agents';

/** `ctxctl gateway` and `ctxctl gateway calls`: the arguments, the ready line, the listing of the records. */

export const GATEWAY_USAGE = `ctxctl gateway [--workspace DIR] [--port 8787] [--mode control|observe] [--anthropic-upstream URL] [--openai-upstream URL] [--agent-dir DIR]...
  ctxctl gateway calls [--workspace DIR] [--json]   (the recorded agent calls)`;

export interface GatewayIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export async function gatewayCommand(argv: string[], io: GatewayIo): Promise<number> {
  if (argv[0] === 'calls') return callsCommand(argv.slice(1), io);
  const { values } = parsed(() => parseArgs({
    args: argv,
    strict: true,
    options: {
      workspace: { type: 'string' },
      port: { type: 'string' },
      mode: { type: 'string' },
      'anthropic-upstream': { type: 'string' },
      'openai-upstream': { type: 'string' },
      'agent-dir': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  }));
  if (values.help) {
    io.stdout(`Usage:\n  ${GATEWAY_USAGE}\n`);
    return 0;
  }
  const mode = (values.mode ?? 'control') as GatewayMode;
  if (mode !== 'control' && mode !== 'observe') throw new InputError(`--mode must be control or observe, got "${values.mode}"`);
  const port = values.port === undefined ? 8787 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InputError(`--port must be a port number (0 picks a free one), got "${values.port}"`);
  for (const [flag, v] of [['--anthropic-upstream', values['anthropic-upstream']], ['--openai-upstream', values['openai-upstream']]] as const) {
    if (v !== undefined && !/^https?:\/\/[^/]/.test(v)) throw new InputError(`${flag} must be an http(s) URL, got "${v}"`);
  }
  const root = path.resolve(values.workspace ?? '.');
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError(`--workspace: not a folder: ${root}`);
  // Loaded here, not with the CLI: its HTTP, TLS, zlib and worker modules cost every other command about 10 ms.
  const { DEFAULT_UPSTREAMS, startGateway } = await import('./gateway');
  const running = await startGateway({
    root,
    port,
    mode,
    anthropicUpstream: values['anthropic-upstream'] ?? DEFAULT_UPSTREAMS.anthropic,
    openaiUpstream: values['openai-upstream'] ?? DEFAULT_UPSTREAMS.openai,
    agentDirs: [...defaultAgentDirs(), ...(values['agent-dir'] ?? []).map((d) => path.resolve(d))],
    log: (s) => io.stderr(s + '\n'),
  }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE') throw new InputError(`port ${port} on 127.0.0.1 is in use: pass --port with another port (0 picks a free one)`);
    throw e;
  });
  io.stdout(`gateway listening on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.idle();
  await running.close();
  return 0;
}

function parsed<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw new InputError(`${(e as Error).message} (usage: ${GATEWAY_USAGE})`);
  }
}

function callsCommand(argv: string[], io: GatewayIo): number {
  const { values } = parsed(() => parseArgs({ args: argv, strict: true, options: { workspace: { type: 'string' }, json: { type: 'boolean' } } }));
  const calls = listCalls(recordsDir(path.resolve(values.workspace ?? '.')));
  if (values.json) {
    io.stdout(JSON.stringify(calls) + '\n');
    return 0;
  }
  if (calls.length === 0) {
    io.stdout('no agent calls recorded (start one through `ctxctl gateway`)\n');
    return 0;
  }
  for (const c of calls) {
    const u = c.usage ?? {};
    const usage = u.input_tokens === undefined ? 'usage ?' : `in ${u.input_tokens} (cache read ${u.cache_read_tokens ?? 0}, write ${u.cache_write_tokens ?? 0}) out ${u.output_tokens ?? '?'}`;
    const window = c.window ? `/${c.window}` : '';
    const prefix = c.prefix_stable === null ? 'first call' : c.prefix_stable ? 'prefix held' : c.prefix_broken_by_gateway ? 'prefix changed by the gateway' : 'prefix changed by the agent';
    const changes = c.changes.length ? c.changes.map((x) => `${x.rule}${x.replayed ? ' (replayed)' : ''} ${x.where}`).join('; ') : 'no change';
    const pins = c.pins.added.length ? `re-added ${c.pins.added.join(', ')}` : `${c.pins.present.length} present`;
    io.stdout(`${c.at}  ${c.api} ${c.model ?? '?'} ${c.status ?? '-'}  ${c.tokens ?? '?'}${window} tokens, ${usage}  ${prefix}  pins ${pins}  ${changes}${c.error ? `  error: ${c.error}` : ''}\n`);
  }
  return 0;
}
