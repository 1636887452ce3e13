import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { version } from '../../package.json';
import { durableBlocks, wrapVerbatim } from '../core/agents/reinject';
import { workspaceRootFrom } from './workspace-root';
import { skippedPinEntries } from '../core/sources/pin-entries';
import type { AssembleArgs, inspectTool, ToolAnswer } from '../core/agents/workspace-tools';
import { answerLimit, mcpClientOf, sizedAssembly } from '../core/agents/mcp-answer-size';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';
import { toolsOn } from '../core/tool-registry';
import { InputError } from '../core/errors';
import { redactingWriter, redactOutput, redactOutputValue } from '../core/redact/output';
import { mcpSdk } from '../vendor/load';
import { BoundedStdioTransport } from './mcp-transport';
import type { Manifest } from '../core/report/manifest';

/**
 * `ctxctl mcp`: the controlled context served to any MCP client (Claude Code, Cursor, Codex, Cline, VS Code) over
 * stdio with the official SDK. stdout carries protocol messages only; every log line goes to stderr.
 */

export const MCP_USAGE = 'ctxctl mcp [--workspace DIR] [--answer-chars N]   (an MCP server over stdio; DIR defaults to the repository top above the current folder: .git, .context or AGENTS.md; N: the longest answer the client keeps, default by client: Codex 11 000, Claude Code 45 000)';

export interface McpIo {
  stderr: (s: string) => void;
  /** The protocol streams; default: process.stdin and process.stdout. */
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

// Every text the server sends or logs passes the one output redaction (the tools redact their own answers; this
// covers refusals, internal errors, the resources and the log too). It is idempotent.
const text = (answer: ToolAnswer) => ({ content: [{ type: 'text' as const, text: redactOutput(answer.text) }], isError: answer.isError });

/** The server over one workspace; exported so a test can connect it to an in-memory transport too. */
export function createServer(root: string, rawLog: (s: string) => void, options: { answerChars?: number } = {}): McpServer {
  const log = redactingWriter(rawLog);
  const { McpServer, z } = mcpSdk();
  const server = new McpServer({ name: 'context-control', version }, { capabilities: { logging: {} } });
  const engine = new ContextEngine(diskHost, root);
  // A line that is not JSON-RPC, or a transport failure: logged, and the server keeps serving.
  server.server.onerror = (error) => log(`ctxctl mcp: ${error.message}\n`);
  let lastManifest: Manifest | undefined;
  const call = (name: string, run: () => ToolAnswer, args: Record<string, unknown> = {}) => {
    const started = Date.now();
    const oversized = oversizedArgument(name, args);
    if (oversized) {
      log(`ctxctl mcp: ${name} refused: ${oversized}\n`);
      return text({ text: oversized, isError: true });
    }
    try {
      const answer = run();
      log(`ctxctl mcp: ${name} ${answer.isError ? 'refused' : 'answered'} in ${Date.now() - started} ms\n`);
      return text(answer.isError ? { ...answer, text: capEchoes(answer.text, args) } : answer);
    } catch (e) {
      // One line: a stack trace is for a bug report (CTXCTL_DEBUG=1), not for every client's log.
      const message = capEchoes(((e as Error).message ?? String(e)).split('\n')[0], args);
      log(`ctxctl mcp: ${name} failed: ${process.env.CTXCTL_DEBUG ? ((e as Error).stack ?? e) : message}\n`);
      return text({ text: `${name}: internal error: ${message}`, isError: true });
    }
  };

  // Each tool as the registry declares it (core/tool-registry.ts): its description, its input built with the SDK's
  // zod (the SDK checks every call against it), read-only. The handlers stay here.
  const handlers: Record<string, (args: Record<string, unknown>) => ToolAnswer> = {
    assemble_context: (args) => {
      // Sized for the client (mcp-answer-size.ts): Codex cuts a tool answer above its tool_output_token_limit.
      const limit = answerLimit(mcpClientOf(server.server.getClientVersion()?.name), options.answerChars);
      const given = args as unknown as AssembleArgs;
      const answer = sizedAssembly((max) => engine.tools.assembleContext({ ...given, max_input: max }), given.max_input, limit);
      if (answer.manifest) lastManifest = answer.manifest;
      return answer;
    },
    read_document: (args) => engine.tools.readDocument(args as { path: string; heading?: string }),
    search_workspace: (args) => engine.tools.searchWorkspace(args as { pattern: string; glob?: string }),
    inspect_offloaded: (args) => engine.tools.inspect(fromRequestForm(args as unknown as InspectCall)),
  };
  for (const tool of toolsOn('mcp')) {
    const run = handlers[tool.name];
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input(z), annotations: { readOnlyHint: tool.readOnly, openWorldHint: false } },
      (args: Record<string, unknown>) => call(tool.name, () => run(args), args),
    );
  }

  server.registerResource(
    'pinned-blocks',
    'context://pinned',
    { title: 'Pinned blocks', description: 'The pinned blocks of .context/pins.json, verbatim, as every request carries them.', mimeType: 'text/plain' },
    (uri) => {
      const snapshot = readWorkspace(engine);
      const { blocks, unreadable } = durableBlocks(snapshot);
      const pins = blocks.filter((b) => b.kind === 'pinned').map(wrapVerbatim);
      const missing = [...skippedPinEntries(snapshot.warnings).map((m) => `[.context/pins.json: ${m}]`), ...unreadable.map((u) => `[not readable: ${u.source}: ${u.reason}]`)];
      const body = [...pins, ...missing].join('\n\n') || 'No pinned blocks (.context/pins.json is absent or empty).';
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: redactOutput(body) }] };
    },
  );
  server.registerResource(
    'last-manifest',
    'context://manifest/last',
    { title: 'Last manifest', description: 'The manifest of the last assemble_context call of this server: every decision with its source, reason and tokens.', mimeType: 'application/json' },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: lastManifest ? JSON.stringify(redactOutputValue(lastManifest), null, 2) : JSON.stringify({ note: 'no assemble_context call yet' }) }],
    }),
  );
  server.registerResource(
    'policy',
    'context://policy',
    { title: 'Context policy', description: 'The effective policy: .context/policy.yaml over the built-in defaults.', mimeType: 'application/json' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(redactOutputValue(readPolicy(engine)), null, 2) }] }),
  );
  return server;
}

/** The longest task (literal text) a call may carry: about 50 000 tokens, more than any budget's task. */
export const MAX_TASK_CHARS = 200_000;
/** The longest path, heading, policy, pattern or glob a call may carry. */
export const MAX_ARG_CHARS = 4096;
/** How much of an argument a refusal quotes. */
const ECHO_CHARS = 200;

/** An argument shown in a message: its first characters and its length, never the whole of a long one. */
export function echo(value: string): string {
  return value.length > ECHO_CHARS ? `${value.slice(0, ECHO_CHARS)}… (${value.length} characters)` : value;
}

/** The refusal of a call with an argument above its limit, before the tool reads, offloads or tokenizes anything. */
export function oversizedArgument(tool: string, args: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const limit = key === 'task' ? MAX_TASK_CHARS : MAX_ARG_CHARS;
    if (value.length > limit) return `${tool}: ${key} is ${value.length} characters, above the limit of ${limit}: refused ("${echo(value)}")`;
  }
  return undefined;
}

/** A refusal's text with every long argument it repeats cut to its start and length. */
export function capEchoes(text: string, args: Record<string, unknown>): string {
  let out = text;
  for (const value of Object.values(args)) {
    if (typeof value === 'string' && value.length > ECHO_CHARS && out.includes(value)) out = out.split(value).join(echo(value));
  }
  return out;
}

function readWorkspace(engine: ContextEngine) {
  try {
    return engine.load({ task: '', cwd: engine.root });
  } catch (e) {
    if (e instanceof InputError) throw new Error(e.toString());
    throw e;
  }
}

function readPolicy(engine: ContextEngine) {
  try {
    return engine.policy();
  } catch (e) {
    if (e instanceof InputError) throw new Error(e.toString());
    throw e;
  }
}

/** Run until the client closes stdin. */
export async function mcpCommand(argv: string[], io: McpIo): Promise<number> {
  let values: { workspace?: string; 'answer-chars'?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { workspace: { type: 'string' }, 'answer-chars': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (e) {
    throw new InputError(`mcp: ${(e as Error).message} (usage: ${MCP_USAGE})`);
  }
  if (values.help) {
    io.stderr(`Usage:\n  ${MCP_USAGE}\n`);
    return 0;
  }
  // Without --workspace: the repository top above the client's folder (a client started in docs/ serves the project).
  const root = values.workspace !== undefined ? path.resolve(values.workspace) : workspaceRootFrom(process.cwd()).root;
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new InputError('workspace folder not found', values.workspace ?? root);
  const answerChars = values['answer-chars'] === undefined ? undefined : Number(values['answer-chars']);
  if (answerChars !== undefined && (!/^\d+$/.test(values['answer-chars']!) || answerChars < 2000)) throw new InputError(`mcp: --answer-chars must be a whole number of at least 2000, got "${values['answer-chars']}" (usage: ${MCP_USAGE})`);
  const server = createServer(root, io.stderr, { answerChars });
  const transport = new BoundedStdioTransport(io.input ?? process.stdin, io.output ?? process.stdout, io.stderr);
  const closed = new Promise<number>((resolve) => {
    transport.onclose = () => resolve(0);
  });
  await server.connect(transport);
  io.stderr(`ctxctl mcp: serving ${root} over stdio\n`);
  return closed;
}

type InspectCall = Parameters<typeof inspectTool>[1] & { op?: 'head' | 'grep' | 'count' | 'shape'; pattern?: string; lines?: number };

/** `{op: "grep", pattern}` (the request's form, which the trimmer's hints use) read as `{grep}`; the MCP form as is. */
export function fromRequestForm({ op, pattern, lines, ...rest }: InspectCall): Parameters<typeof inspectTool>[1] {
  if (op === 'grep') return { ...rest, grep: rest.grep ?? pattern ?? '' };
  if (op === 'head') return { ...rest, head: rest.head ?? lines ?? 40 };
  if (op === 'count') return { ...rest, count: true };
  if (op === 'shape') return { ...rest, shape: true };
  return rest;
}
