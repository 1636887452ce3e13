import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { contextText, statusLine } from '../core/agents/context-text';
import { additionalContextOutput, hookWorkspace, parseHookEvent } from '../core/agents/hook-event';
import { reinjection } from '../core/agents/reinject';
import { precompactText } from '../core/agents/precompact';
import { sizedAssembly } from '../core/agents/mcp-answer-size';
import { withMaxInput } from '../core/policy';
import { num } from '../core/report/trace';
import { clientLimit, detectClient } from '../core/agents/hook-size';
import { workspaceRootFrom } from './workspace-root';
import { rememberInjection } from './hook-memory';
import { ContextBudgetExceeded, InputError } from '../core/errors';
import { redactOutput } from '../core/redact/output';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';
import { counterFor } from '../core/tokens';

/**
 * `ctxctl hook claude-code`: a command hook for Claude Code, used the same way by Codex CLI. It reads the event JSON
 * on stdin. SessionStart (startup, resume, clear, compact): the AGENTS.md rules and the pinned blocks, verbatim, as
 * `additionalContext`, so they survive compaction. UserPromptSubmit: nothing by default; `--on-prompt status` adds a
 * one-line budget status, `--on-prompt context` the budgeted context for the prompt. Any bad input, a broken
 * workspace included, exits 0 with a one-line warning on stderr and nothing on stdout: the agent is never blocked.
 */

export const HOOK_USAGE = `ctxctl hook claude-code [--workspace DIR] [--client claude-code|codex] [--max-tokens N] [--on-prompt none|status|context]
                 (reads the hook event JSON on stdin; used by Claude Code and Codex CLI)`;

export interface HookIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env?: Record<string, string | undefined>;
  /** The whole of stdin; default: read process.stdin. */
  readStdin?: () => Promise<string>;
}

const ON_PROMPT = ['none', 'status', 'context'] as const;

export async function hookCommand(argv: string[], io: HookIo): Promise<number> {
  const warn = (message: string) => {
    io.stderr(`ctxctl hook: ${message}\n`);
    return 0;
  };
  let values: { workspace?: string; client?: string; 'max-tokens'?: string; 'on-prompt'?: string; help?: boolean };
  let agent: string | undefined;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { workspace: { type: 'string' }, client: { type: 'string' }, 'max-tokens': { type: 'string' }, 'on-prompt': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    values = parsed.values;
    agent = parsed.positionals[0];
    if (parsed.positionals.length > 1) return warn(`one agent only, got ${parsed.positionals.join(' ')} (usage: ${HOOK_USAGE})`);
  } catch (e) {
    return warn(`${(e as Error).message} (usage: ${HOOK_USAGE})`);
  }
  if (values.help) {
    io.stdout(`Usage:\n  ${HOOK_USAGE}\n`);
    return 0;
  }
  if (agent !== 'claude-code' && agent !== 'codex') return warn(`unknown agent "${agent ?? ''}": use "claude-code" (Codex CLI uses the same hook) (usage: ${HOOK_USAGE})`);
  const onPrompt = (values['on-prompt'] ?? 'none') as (typeof ON_PROMPT)[number];
  if (!ON_PROMPT.includes(onPrompt)) return warn(`--on-prompt must be one of ${ON_PROMPT.join(', ')}, got "${values['on-prompt']}"`);
  const maxTokens = values['max-tokens'] === undefined ? undefined : Number(values['max-tokens']);
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens <= 0)) return warn(`--max-tokens must be a positive whole number, got "${values['max-tokens']}"`);

  let input: string;
  try {
    input = await (io.readStdin ?? readAll)();
  } catch (e) {
    return warn(`cannot read the hook event on stdin: ${(e as Error).message}`);
  }
  const parsed = parseHookEvent(input);
  if ('error' in parsed) return warn(`${parsed.error}; nothing added`);
  const { event } = parsed;
  if (event.name === 'other') return 0;
  if (event.name === 'UserPromptSubmit' && onPrompt === 'none') return 0;
  const client = detectClient(values.client, agent, event.transcriptPath);
  if (typeof client === 'object') return warn(client.error);
  const env = io.env ?? process.env;
  const where = hookWorkspace(values.workspace, env, event);
  if (!where) return warn('no workspace: pass --workspace, or run under Claude Code (CLAUDE_PROJECT_DIR) or give "cwd" in the event; nothing added');
  // The event's cwd, and CLAUDE_PROJECT_DIR (Claude Code's start folder), may be a subfolder: the root is the
  // repository top above it. Only --workspace is taken as it is.
  const explicit = values.workspace !== undefined;
  const root = explicit ? path.resolve(where) : workspaceRootFrom(where, env.HOME || undefined).root;
  try {
    const engine = new ContextEngine(diskHost, root);
    if (event.name === 'SessionStart') {
      const snapshot = engine.load({ task: '', cwd: root });
      // Codex loads AGENTS.md itself: only the pins go (no duplicate injection).
      const result = reinjection(snapshot, counterFor('o200k_base'), { source: event.source, maxTokens, client: clientLimit(client), clientLoadsRules: client === 'codex' });
      const text = redactOutput(result.text);
      // A resumed session that already holds this very injection gets nothing more.
      // Compared by the blocks sent, not the note (which names the event).
      const seen = rememberInjection(root, event.sessionId, event.source, text.slice(result.note.length));
      if (seen.repeat) {
        io.stderr(`ctxctl hook: this session already holds the same re-injection (from ${seen.earlier}): not repeated on ${event.source}\n`);
        return 0;
      }
      io.stdout(additionalContextOutput('SessionStart', text) + '\n');
      return 0;
    }
    if (event.name === 'PreCompact') {
      // Claude Code takes a PreCompact hook's plain stdout as instructions for the compaction (precompact.ts).
      const snapshot = engine.load({ task: '', cwd: root });
      const summary = engine.assemble(snapshot).blocks.find((b) => b.kind === 'session_summary');
      const limit = clientLimit(client);
      const pins = (maxChars: number) => reinjection(snapshot, counterFor('o200k_base'), { source: `PreCompact (${event.trigger})`, maxTokens, client: { ...limit, maxChars } });
      io.stdout(redactOutput(precompactText(event.trigger, summary, pins, limit.maxChars)) + '\n');
      return 0;
    }
    const prompt = event.prompt;
    const run = (max?: number) => {
      const policy = max === undefined ? undefined : withMaxInput(engine.policy(), max);
      const snapshot = engine.load({ task: '', cwd: root, ...(policy ? { policy } : {}) }); // the prompt is text, never a path to read
      snapshot.task = { text: prompt, source: 'task', files: [] };
      const assembly = engine.assemble(snapshot);
      const text = onPrompt === 'status' ? `[Context Control] ${statusLine(assembly)}` : contextText(assembly, { trace: false });
      return { text: redactOutput(text), isError: false, manifest: assembly.manifest };
    };
    // --on-prompt context: sized for what the client keeps of a hook (Claude Code: 10 000 characters, else a preview).
    const limit = clientLimit(client);
    const answer = onPrompt === 'status' ? run(maxTokens) : sizedAssembly(run, maxTokens, { client, maxChars: limit.maxChars, label: `${limit.label} keeps ${num(limit.limitChars)} characters of a hook` });
    io.stdout(additionalContextOutput('UserPromptSubmit', answer.text) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof InputError) return warn(`${e.toString()}; nothing added`);
    if (e instanceof ContextBudgetExceeded) return warn(`${e.message.split('\n')[0]}; nothing added`);
    return warn(`internal error: ${(e as Error).message}; nothing added`);
  }
}

/** A hook event is a few KiB (a prompt, a session id, paths); stdin is read no further than this. */
export const HOOK_STDIN_MAX_BYTES = 4 * 1024 * 1024;

/** The whole of a stream, or an error once it passes `limit` bytes (the stream is then left unread, not drained). */
export async function readBounded(stream: NodeJS.ReadableStream, limit = HOOK_STDIN_MAX_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      (stream as NodeJS.ReadStream).destroy?.();
      throw new Error(`it is larger than ${limit / 1024 / 1024} MiB; not read`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const readAll = () => readBounded(process.stdin);
