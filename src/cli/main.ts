import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ContextBudgetExceeded, InputError } from '../core/errors';
import { MAX_TOKENS, resolvePolicy } from '../core/policy';
import { WIRE_SHAPES, type WireShape } from '../core/providers/shape';
import { redactingWriter } from '../core/redact/output';
import { writeRecord } from '../core/report/record';
import { diskReader } from '../core/sources/reader';
import { ContextEngine } from '../core/engine';
import { parseToolResultArg } from '../core/offload/results';
import { overrideFlags } from './override-flags';
import { indexCommand, INDEX_USAGE } from './index-command';
import { inspectCommand, INSPECT_USAGE } from './inspect';
import { offloadCommand, OFFLOAD_USAGE } from './offload';
import { send, SEND_OPTIONS, SEND_USAGE } from './send';
import { checkCommand, CHECK_USAGE } from './check';
import { compareCommand, COMPARE_USAGE } from './compare';
import { sessionCommand } from './session-command';
import { hookCommand, HOOK_USAGE } from './hook';
import { statuslineCommand, STATUSLINE_USAGE } from './statusline';
import { mcpCommand, MCP_USAGE } from './mcp';
import { setupCommand, SETUP_USAGE } from './setup';
import { previousRecord } from './record-folder';
import { gatewayCommand, GATEWAY_USAGE } from './gateway-command';
import { workspaceFolders } from './workspaces';
import { diskHost, installDiskHost } from '../host/disk';
import { progressLine } from './progress-line';
import { openIndex, saveIndex } from '../core/relevance/persist';
import { workspaceDocumentStore, workspaceIndexStore } from './index-store';
import { openDocuments, saveDocuments } from '../core/sources/kept-documents';

// The engines of this bundle take their host; code it calls outside an engine reaches the default one: the disk.
installDiskHost();

/** ctxctl: the same core, headless. Exit codes: 0 success, 2 bad input or usage, 3 ContextBudgetExceeded, 4 the provider failed. */

const USAGE = `Usage:
  ctxctl preview --workspace DIR --task FILE|TEXT [--policy FILE] [--max-input N] [--component NAME] [--no-git]
                 [--session FILE] [--model M] [--shape openai|anthropic] [--encoding E] [--json] [--out DIR]
                 [--tool-result NAME=FILE]... [--include PATH]... [--exclude PATH]...
                 (--workspace once per folder, or a .code-workspace file: one preview per folder, each named;
                  with --out DIR, each folder's record in DIR/<folder name>)
  ${INSPECT_USAGE}
  ${OFFLOAD_USAGE}
  ${INDEX_USAGE}   (the <available-documents> index)
  ctxctl session show|compact|edit|undo --workspace DIR [--session FILE]   (ctxctl session --help)
  ${MCP_USAGE}
  ${HOOK_USAGE}
  ${STATUSLINE_USAGE}
  ${SETUP_USAGE}
  ${GATEWAY_USAGE}
${SEND_USAGE}
${COMPARE_USAGE}   (ctxctl compare --help)
${CHECK_USAGE}   (ctxctl check --help)

  --task       a path (absolute or relative to the current folder), or else literal text
  --json       print exactly one JSON object: {"request", "manifest", "trace"}
  --out DIR    also write request.json (the exact bytes), manifest.json and trace.txt
  --tool-result NAME=FILE   a tool result returned in this step (repeatable: results returned together, as
               parallel tool calls); above offload.per_result_tokens, or largest first while together above
               offload.aggregate_tokens, a result goes whole to the offload store and the context gets a notice,
               its path and a head/tail preview
  --include PATH / --exclude PATH   pull a document into the request (top flexible priority, "included by you") or
               leave it out ("excluded by you"); repeatable, on top of .context/overrides.json (a folder ends in /)
${SEND_OPTIONS}

Exit codes: 0 success, 1 a context check failed (check), 2 bad input or usage, 3 the mandatory blocks exceed
            max_input, 4 the provider failed (send, compare), 130 cancelled.`;

class UsageError extends Error {}

const PREVIEW_OPTIONS: ParseArgsConfig['options'] = {
  workspace: { type: 'string', multiple: true },
  task: { type: 'string' },
  policy: { type: 'string' },
  'max-input': { type: 'string' },
  component: { type: 'string' },
  'no-git': { type: 'boolean' },
  session: { type: 'string' },
  model: { type: 'string' },
  shape: { type: 'string' },
  encoding: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  'tool-result': { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
};

function parse(argv: string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function positiveInt(value: string | boolean | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, got "${value}"`);
  if (n > MAX_TOKENS) throw new UsageError(`${flag} must be at most ${MAX_TOKENS} tokens, got "${value}"`);
  return n;
}

function preview(argv: string[], stdout: (s: string) => void, stderr: (s: string) => void = () => {}, status?: (s: string) => void): number {
  const v = parse(argv, PREVIEW_OPTIONS);
  if (v.help) {
    stdout(USAGE + '\n');
    return 0;
  }
  const given = (v.workspace ?? []) as unknown as string[];
  if (given.length === 0) throw new UsageError('--workspace DIR is required');
  if (typeof v.task !== 'string' || v.task.trim() === '') throw new UsageError('--task FILE|TEXT is required');
  const shape = (v.shape ?? 'openai') as WireShape;
  if (!WIRE_SHAPES.includes(shape)) throw new UsageError(`--shape must be one of ${WIRE_SHAPES.join(', ')}`);
  const out = typeof v.out === 'string' ? v.out : undefined;
  // One folder: its preview as it always was. Several (--workspace once per folder, or a .code-workspace file): one
  // engine per folder, each named in the output, each record in its own folder under --out.
  if (given.length === 1 && !given[0].endsWith('.code-workspace')) {
    const result = previewFolder(path.resolve(given[0]), v, shape, out, stderr, status);
    if (v.json) stdout(JSON.stringify({ request: result.request, manifest: result.manifest, trace: result.trace }) + '\n');
    else {
      stdout(result.trace);
      if (out) stdout(`\nWrote request.json, manifest.json and trace.txt to ${out}\n`);
    }
    return 0;
  }
  const folders = workspaceFolders(given);
  const results = folders.map((f) => ({ ...f, result: previewFolder(f.root, v, shape, out && path.join(out, folderDir(f.name)), stderr, status) }));
  if (v.json) stdout(JSON.stringify({ folders: results.map(({ name, root, result }) => ({ name, root, request: result.request, manifest: result.manifest, trace: result.trace })) }) + '\n');
  else {
    stdout(results.map(({ name, root, result }) => `== folder ${name} (${root}) ==\n${result.trace}`).join('\n'));
    if (out) stdout(`\nWrote request.json, manifest.json and trace.txt of each folder to ${results.map((r) => path.join(out, folderDir(r.name))).join(', ')}\n`);
  }
  return 0;
}

/** A folder's name as a record folder's name: path separators and other characters a file name cannot hold become `_`. */
export function folderDir(name: string): string {
  const safe = [...name].map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('').replace(/^\.+$/, '_');
  return safe || '_';
}

/** One folder's preview, through its engine; its record written to `out` when given. */
function previewFolder(root: string, v: Record<string, string | boolean | undefined>, shape: WireShape, out: string | undefined, stderr: (s: string) => void, status?: (s: string) => void) {
  // The relevance index is kept between runs in the user's cache folder (index-store.ts), never in the workspace: a
  // file whose path, size, mtime and text are unchanged is not tokenised again; one that does not check out is rebuilt.
  const store = workspaceIndexStore(root);
  const kept = openIndex(store);
  if (kept.warning) stderr(`ctxctl: note: ${kept.warning}\n`);
  // So are the parsed documents (kept-documents.ts): an unchanged one is neither read nor parsed again.
  const documentStore = workspaceDocumentStore(root);
  const { documents, warning: unread } = openDocuments(documentStore);
  if (unread) stderr(`ctxctl: note: ${unread}\n`);
  // On a terminal, a long preview says where it stands (progress-line.ts), on a line cleared before anything else is printed.
  const line = status ? progressLine(status) : undefined;
  const engine = new ContextEngine(line ? { ...diskHost, progress: line.step } : diskHost, { root, relevance: kept.index });
  const policy = resolvePolicy(engine.policy(v.policy as string | undefined), { maxInput: positiveInt(v['max-input'], '--max-input') });
  const previousPrefixHash = out ? previousRecord(out).prefixHash : undefined;
  let previewed: ReturnType<ContextEngine['preview']>;
  try {
    previewed = engine.preview(
      { reader: diskReader(root), kept: documents, task: v.task as string, policy, sessionFile: v.session as string | undefined, component: v.component as string | undefined, changes: v['no-git'] ? false : undefined, toolResults: ((v['tool-result'] ?? []) as unknown as string[]).map(parseToolResultArg), overrides: overrideFlags(v, root) },
      { model: v.model as string | undefined, shape, encoding: v.encoding as string | undefined, previousPrefixHash },
    );
  } finally {
    line?.done();
  }
  const result = previewed.assembly;
  const unsaved = saveIndex(kept.index, store);
  if (unsaved) stderr(`ctxctl: note: ${unsaved}\n`);
  // Kept documents only save work: a cache folder that cannot be written costs the next run a re-read, and is told by
  // the index's note above whenever the index changed. Documents over the size limit of a cache file are told here:
  // they would otherwise be re-read on every run without a word.
  const unkept = saveDocuments(documents, documentStore);
  if (unkept?.overLimit) stderr(`ctxctl: note: ${unkept.message}\n`);
  if (out) writeRecord(out, { request: result.serialized, manifest: result.manifest, trace: result.trace });
  return result;
}

/** `status`: a status line on a terminal (stderr), only when it is one; a test's or a pipe's Io has none. */
type Io = { stdout: (s: string) => void; stderr: (s: string) => void; status?: (s: string) => void };
const COMMANDS: Record<string, (argv: string[], stdout: (s: string) => void) => number> = { preview, session: sessionCommand, index: indexCommand, inspect: inspectCommand, offload: offloadCommand, setup: setupCommand };
/** Commands that stream (send): they get both streams and finish later. */
const ASYNC_COMMANDS: Record<string, (argv: string[], io: Io) => Promise<number>> = { send, mcp: mcpCommand, hook: hookCommand, statusline: statuslineCommand, compare: compareCommand, check: checkCommand, gateway: gatewayCommand };

/** Run the CLI; returns the exit code. Exported for tests. */
export function run(argv: string[], raw: Io = { stdout: (s: string) => void process.stdout.write(s), stderr: (s: string) => void process.stderr.write(s), ...(process.stderr.isTTY ? { status: (s: string) => void process.stderr.write(s) } : {}) }): number | Promise<number> {
  const [command, ...rest] = argv;
  // Everything printed passes the redaction rule set, like every file written.
  const io: Io = { ...raw, stdout: redactingWriter(raw.stdout), stderr: redactingWriter(raw.stderr), ...(raw.status ? { status: redactingWriter(raw.status) } : {}) };
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      io.stdout(USAGE + '\n');
      return command ? 0 : 2;
    }
    const streaming = ASYNC_COMMANDS[command];
    if (streaming) return streaming(rest, io).catch((e: unknown) => failed(e, io));
    const handler = COMMANDS[command];
    if (!handler) throw new UsageError(`unknown command "${command}"; commands: ${[...Object.keys(COMMANDS), ...Object.keys(ASYNC_COMMANDS)].join(', ')}`);
    // preview also notes on stderr what became of the kept relevance index.
    return handler === preview ? preview(rest, io.stdout, io.stderr, io.status) : handler(rest, io.stdout);
  } catch (e) {
    return failed(e, io);
  }
}

function failed(e: unknown, io: Io): number {
  if (e instanceof ContextBudgetExceeded) {
    io.stderr(`ctxctl: ${e.message}\n`);
    return 3;
  }
  if (e instanceof InputError) {
    io.stderr(`ctxctl: ${e.toString()}\n`);
    return 2;
  }
  if (e instanceof UsageError) {
    io.stderr(`ctxctl: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  // A file-system error that escaped a command names its file: bad input (exit 2), not a bug, on one line.
  const fsError = e as NodeJS.ErrnoException;
  if (typeof fsError?.code === 'string' && typeof fsError.path === 'string' && /^E[A-Z]+$/.test(fsError.code)) {
    io.stderr(`ctxctl: ${fsError.path}: cannot ${fsError.syscall === 'open' || fsError.syscall === 'read' ? 'read' : 'use'} it (${fsError.code})\n`);
    return 2;
  }
  // One line, never a stack trace (CTXCTL_DEBUG=1 prints it, for a bug report).
  io.stderr(`ctxctl: internal error: ${process.env.CTXCTL_DEBUG ? ((e as Error).stack ?? e) : ((e as Error).message ?? String(e)).split('\n')[0]}\n`);
  return 1;
}

if (require.main === module || process.argv[1]?.endsWith('ctxctl.js') || process.argv[1]?.endsWith('ctxctl')) {
  void Promise.resolve(run(process.argv.slice(2))).then((code) => (process.exitCode = code));
}
