import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL } from '../core/chain/assemble';
import { resolvePolicy } from '../core/policy';
import { AnthropicProvider } from '../core/providers/anthropic';
import { DryRunProvider } from '../core/providers/dry-run';
import { ProviderError, scrub } from '../core/providers/errors';
import { OpenAIProvider } from '../core/providers/openai';
import type { Provider } from '../core/providers/provider';
import type { Clock } from '../core/providers/retry';
import { WIRE_SHAPES, type WireShape } from '../core/providers/shape';
import { redact } from '../core/redact/apply';
import { prepareOutDir, replaceWritten, writeRecord } from '../core/report/record';
import { previousRecord } from './record-folder';
import { num } from '../core/report/trace';
import { DEFAULT_MAX_STEPS, type SendOutcome } from '../core/send/loop';
import { ContextEngine } from '../core/engine';
import { diskHost, diskHostOf, KEY_VARS } from '../host/disk';
import { offloadLocation } from '../core/offload/location';

/** `ctxctl send`: build the request, send it (or not, with dry-run), stream the answer to stdout, write the trace. */

export const SEND_USAGE = `  ctxctl send --workspace DIR --task FILE|TEXT [--provider dry-run|openai|anthropic] [--model M]
              [--base-url URL] [--shape openai|anthropic] [--max-steps N] [--timeout SECONDS] [--out DIR]
              [--policy FILE] [--max-input N] [--component NAME] [--session FILE] [--encoding E]`;

export const SEND_OPTIONS = `  --provider   dry-run (default) sends nothing and writes the exact request; openai speaks OpenAI-compatible
               chat completions (OpenAI, Ollama, LM Studio, vLLM, llama.cpp, OpenRouter: set --base-url);
               anthropic speaks Anthropic messages
  API keys     from OPENAI_API_KEY / ANTHROPIC_API_KEY, else CTXCTL_API_KEY; never written anywhere
  --max-steps  model calls in the read-only tool loop (default ${DEFAULT_MAX_STEPS}); --timeout: seconds without a byte
  send --out   where request.json, manifest.json, trace.txt and steps/ go (default: DIR/.context/send)`;

const PROVIDERS = ['dry-run', 'openai', 'anthropic'] as const;

export interface SendIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  clock?: Clock;
}

class SendUsageError extends Error {}

const STRING_FLAGS = ['workspace', 'task', 'provider', 'model', 'base-url', 'shape', 'max-steps', 'timeout', 'out', 'policy', 'max-input', 'component', 'session', 'encoding'];

function intFlag(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new SendUsageError(`${flag} must be a positive whole number, got "${value}"`);
  return n;
}

export async function send(argv: string[], io: SendIo): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      strict: true,
      options: { ...Object.fromEntries(STRING_FLAGS.map((k) => [k, { type: 'string' as const }])), help: { type: 'boolean' as const, short: 'h' } },
    }).values as Record<string, string | boolean | undefined>;
    if (v.help) {
      io.stdout(`Usage:\n${SEND_USAGE}\n\n${SEND_OPTIONS}\n`);
      return 0;
    }
    return await sendWith(v, io);
  } catch (e) {
    if (!(e instanceof SendUsageError) && !(e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw e;
    io.stderr(`ctxctl: ${(e as Error).message}\n\nUsage:\n${SEND_USAGE}\n\n${SEND_OPTIONS}\n`);
    return 2;
  }
}

async function sendWith(v: Record<string, string | boolean | undefined>, io: SendIo): Promise<number> {
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const workspace = str('workspace');
  const task = str('task');
  if (!workspace) throw new SendUsageError('--workspace DIR is required');
  if (!task || task.trim() === '') throw new SendUsageError('--task FILE|TEXT is required');
  const providerId = str('provider') ?? 'dry-run';
  if (!(PROVIDERS as readonly string[]).includes(providerId)) throw new SendUsageError(`--provider must be one of ${PROVIDERS.join(', ')}`);
  const shape = (str('shape') ?? 'openai') as WireShape;
  if (!WIRE_SHAPES.includes(shape)) throw new SendUsageError(`--shape must be one of ${WIRE_SHAPES.join(', ')}`);
  const model = str('model') ?? (providerId === 'dry-run' ? DEFAULT_MODEL : undefined);
  if (!model) throw new SendUsageError(`--model M is required with --provider ${providerId}`);
  const baseUrl = str('base-url');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new SendUsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  const maxSteps = intFlag(v['max-steps'], '--max-steps') ?? DEFAULT_MAX_STEPS;
  const timeout = intFlag(v.timeout, '--timeout');
  const maxInput = intFlag(v['max-input'], '--max-input');

  const root = path.resolve(workspace);
  // The key comes from the engine's host: the disk host reads the environment (the one given, in a test).
  const engine = new ContextEngine(io.env ? diskHostOf(io.env) : diskHost, root);
  const apiKey = await engine.secret(providerId);
  if (KEY_VARS[providerId] && !apiKey && baseUrl === undefined) {
    io.stderr(`ctxctl: no API key for ${providerId}: set ${KEY_VARS[providerId]} or CTXCTL_API_KEY (a local server given with --base-url needs none)\n`);
    return 2;
  }
  const policy = resolvePolicy(engine.policy(str('policy')), { maxInput });
  // A send may offload what its tools return: the store must be usable before anything is sent.
  offloadLocation(root, policy);
  const snapshot = engine.load({ task, policy, sessionFile: str('session'), component: str('component') });
  // The same inputs as `ctxctl preview`, so the request sent is the request previewed.
  const summaries = engine.summaries(str('session') as string | undefined);
  const out = prepareOutDir(str('out') ?? path.join(root, '.context', 'send'), str('out') ? '--out' : 'the send record folder');
  // As for preview: a manifest.json, request.json or trace.txt there that is not this program's record is the user's.
  previousRecord(out);

  const http = { apiKey, baseUrl, clock: io.clock, idleTimeoutMs: timeout !== undefined ? timeout * 1000 : undefined };
  const provider: Provider =
    providerId === 'openai'
      ? new OpenAIProvider(http)
      : providerId === 'anthropic'
        ? new AnthropicProvider(http)
        : new DryRunProvider({ shape, write: (bytes) => fs.writeFileSync(path.join(out, 'request.json'), bytes) });
  const clean = (s: string) => redact(scrub(s, [apiKey])).text;
  // Ctrl-C cancels the request in flight (the trace is still written).
  // Each step's text ends its own line on stdout.
  let last = '';
  const endLine = () => {
    if (last && !last.endsWith('\n')) io.stdout('\n');
    last = '';
  };
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  if (!io.signal) process.once('SIGINT', onInterrupt);
  const outcome = await engine.send(snapshot, {
    provider,
    model,
    encoding: str('encoding'),
    summaries,
    maxSteps,
    signal: io.signal ?? cancel.signal,
    clock: io.clock,
    onText: (t) => {
      io.stdout(t);
      last = t;
    },
    onNotice: (m) => io.stderr(`ctxctl: ${clean(m)}\n`),
    onStep: (s) => {
      endLine();
      const b = s.manifest.budget;
      const calls = s.toolCalls.map((c) => c.name).join(', ');
      io.stderr(`ctxctl: step ${s.step}: ${num(s.manifest.request_bytes)} bytes, ${num(b.final)} / ${num(b.max_input)} tokens${calls ? `; tools: ${calls}` : ''}\n`);
    },
  }).finally(() => process.off('SIGINT', onInterrupt));
  endLine();
  writeOutcome(out, outcome, clean);
  io.stderr(`ctxctl: ${provider.sendsNothing ? 'dry run, nothing sent; ' : ''}wrote request.json, manifest.json and trace.txt to ${out}\n`);
  if (outcome.error) {
    io.stderr(`ctxctl: ${clean(outcome.error.message)}\n`);
    if (outcome.error instanceof ProviderError && outcome.error.kind === 'aborted') return 130;
    return outcome.stopped === 'refused' ? 3 : 4;
  }
  return 0;
}

/** The last request, its manifest, the whole trace, and each step's request and manifest. */
function writeOutcome(out: string, outcome: SendOutcome, clean: (s: string) => string): void {
  const last = outcome.steps[outcome.steps.length - 1];
  const written = writeRecord(out, { request: last?.assembly.serialized, manifest: outcome.manifest, trace: outcome.trace }, clean);
  for (const s of outcome.steps) {
    const step = path.join('steps', String(s.step).padStart(2, '0'));
    written.push(...writeRecord(path.join(out, step), { request: s.assembly.serialized, manifest: s.manifest }, clean).map((f) => path.join(step, f)));
  }
  if (outcome.events.length > 0) {
    fs.writeFileSync(path.join(out, 'session-events.jsonl'), outcome.events.map((e) => clean(JSON.stringify(e))).join('\n') + '\n');
    written.push('session-events.jsonl');
  }
  // Only what an earlier send listed as its own goes: never a steps/ folder or file this command did not write.
  replaceWritten(out, written);
}
