import * as path from 'node:path';
import picomatch from 'picomatch';
import { ContextBudgetExceeded, InputError } from '../errors';
import { withMaxInput } from '../policy';
import type { Manifest } from '../report/manifest';
import { inspectOffloaded, queryPattern, runTool, type ToolContext, type ToolOutcome } from '../send/tools';
import { globMatcher } from '../sources/globs';
import { resolveInWorkspace } from '../sources/guard';
import type { ChainEngine } from '../engine-port';
import type { Snapshot } from '../sources/snapshot';
import { taskFile } from '../sources/task-file';
import { counterFor, type Tokenizer } from '../tokens';
import { redactOutput } from '../redact/output';
import { contextText, shortContextText } from './context-text';
import { wrapToolAnswer } from './tool-answer';
import { cutAnswer } from './read-only-answer';
import { rankSearch, searchHead, SEARCH_PER_FILE, type FileMatches } from './search-rank';
import { fileLines } from '../sources/scan';
import { redactLines } from '../sources/secrets';

/**
 * The four tools an agent gets through MCP, over one workspace. Each call reads the workspace afresh (policy, pins,
 * files), so an edit is seen on the next call. read_document, search_workspace and inspect_offloaded run the panel's
 * tool loop code (send/tools.ts: prune, redaction, the workspace boundary) and their results pass the same gate as
 * in the loop (send/results.ts: trimmed to the tool-results cap, offloaded above the offload threshold). Their answers go
 * out wrapped with their provenance, escaped and redacted like the tool output of assemble_context (tool-answer.ts);
 * refusals are redacted too.
 */

export interface ToolAnswer {
  text: string;
  isError: boolean;
  /** assemble_context: the manifest of the request, for the "last manifest" resource. */
  manifest?: Manifest;
  /** assemble_context: the same answer with the trace cut to its budget and final request (`left`: rows left out). */
  short?: () => { text: string; left: number };
}

export interface AssembleArgs {
  task: string;
  max_input?: number;
  policy?: string;
}
export interface InspectArgs {
  path: string;
  head?: number;
  grep?: string;
  context?: number;
  count?: boolean;
  shape?: boolean;
}

const tokenizer = (): Tokenizer => counterFor('o200k_base');
/** A refusal is the engine's own sentence, but it may quote an argument or a file: redacted like every output. */
const refuse = (text: string): ToolAnswer => ({ text: redactOutput(text), isError: true });

/** Errors people can act on become the tool's error text; anything else is a bug and propagates. */
export function guarded(run: () => ToolAnswer): ToolAnswer {
  try {
    return run();
  } catch (e) {
    if (e instanceof ContextBudgetExceeded) return refuse(e.message);
    if (e instanceof InputError) return refuse(e.toString());
    throw e;
  }
}

/** A policy file named by the agent: inside the workspace through its links, a regular file and not a secret, or refused. */
function policyFile(root: string, requested: string | undefined): string | undefined {
  if (requested === undefined) return undefined;
  const d = resolveInWorkspace(requested.trim(), { root });
  if (d.ok) return d.abs;
  if (d.kind === 'outside' || d.kind === 'empty') throw new InputError(`policy must be a workspace-relative path, got "${requested}"`);
  throw new InputError(`policy "${requested}" ${d.why}`);
}

/** The task is literal text, or a workspace file (loadTask checks it through the workspace guard, never reading a refused one). */
function taskArg(root: string, task: string): string {
  if (task.trim() === '') throw new InputError('task must not be empty');
  return typeof taskFile(root, task.trim(), root) === 'object' ? task.trim() : task;
}

/** The folder's context for the agent, through its engine (the same policy, summaries and index as `ctxctl preview`). */
export function assembleContext(engine: ChainEngine, args: AssembleArgs): ToolAnswer {
  const root = engine.root;
  return guarded(() => {
    let policy = engine.policy(policyFile(root, args.policy));
    if (args.max_input !== undefined) {
      if (!Number.isInteger(args.max_input) || args.max_input <= 0) throw new InputError(`max_input must be a positive whole number, got ${args.max_input}`);
      policy = withMaxInput(policy, args.max_input);
    }
    const snapshot = engine.load({ task: taskArg(root, args.task), cwd: root, policy });
    const assembly = engine.assemble(snapshot);
    const short = () => {
      const { text, left } = shortContextText(assembly);
      return { text: redactOutput(text), left };
    };
    return { text: redactOutput(contextText(assembly)), isError: false, manifest: assembly.manifest, short };
  });
}

function toolSnapshot(engine: ChainEngine): Snapshot {
  return engine.load({ task: '', cwd: engine.root });
}

/**
 * A tool outcome as a read-only answer: over the tool-results cap it is cut with a notice (read-only-answer.ts);
 * nothing is written, no offload file either (the tools are annotated read-only).
 */
function admit(snapshot: Snapshot, name: string, _args: unknown, outcome: ToolOutcome): ToolAnswer {
  const { policy } = snapshot;
  const redacted = redactOutput(outcome.text);
  if (!outcome.ok) return refuse(redacted);
  const cut = cutAnswer(redacted, policy.zones.tool_results.max_tokens, tokenizer(), name);
  return { text: wrapToolAnswer(policy, outcome.source, cut.text), isError: false };
}

function context(snapshot: Snapshot): ToolContext {
  return { snapshot, tokenizer: tokenizer(), offloadDir: path.resolve(snapshot.root, snapshot.policy.offload.dir) };
}

export function readDocumentTool(engine: ChainEngine, args: { path: string; heading?: string }): ToolAnswer {
  return guarded(() => {
    const snapshot = toolSnapshot(engine);
    const call = { id: 'mcp-read_document', name: 'read_document', arguments: JSON.stringify(args) };
    return admit(snapshot, 'read_document', args, runTool(call, context(snapshot)));
  });
}

export function searchWorkspaceTool(engine: ChainEngine, args: { pattern: string; glob?: string }): ToolAnswer {
  const root = engine.root;
  return guarded(() => {
    if (args.pattern === '') return refuse('search_workspace: pattern must not be empty');
    const full = toolSnapshot(engine);
    const match = args.glob ? picomatch(args.glob, { dot: true }) : undefined;
    const searched = full.files.filter((f) => !f.path.startsWith('.context/') && (!match || match(f.path)));
    const re = queryPattern(args.pattern);
    const found: FileMatches[] = searched.map((file) => {
      const first: FileMatches['first'] = [];
      let total = 0;
      let n = 0;
      for (const line of redactLines(() => fileLines(path.join(root, file.path)))()) {
        n++;
        if (!re.test(line)) continue;
        total++;
        if (first.length < SEARCH_PER_FILE) first.push({ line: n, text: line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line });
      }
      return { path: file.path, total, first };
    });
    const isLog = globMatcher(full.policy.tool_output.globs, { dot: true });
    const ranked = rankSearch(found, args.pattern, { isLog });
    const text = [searchHead(ranked, args.pattern, searched.length), ...ranked.lines].join('\n');
    const scoped = args.glob ? `files matching ${args.glob}: ${text}` : text;
    return admit(full, 'search_workspace', args, { text: scoped, ok: true, source: `search:"${args.pattern}"` });
  });
}

/** A matching line is shown up to this many characters, as in the tool loop. */
const LINE_CHARS = 240;

/** The operations asked for, in the CLI's order (count, shape, head, grep); none asked: the head. */
export function inspectTool(engine: ChainEngine, args: InspectArgs): ToolAnswer {
  return guarded(() => {
    const snapshot = toolSnapshot(engine);
    const ctx = context(snapshot);
    if (args.context !== undefined && args.grep === undefined) return refuse('inspect_offloaded: context goes with grep');
    const ops: [string, () => ToolOutcome][] = [];
    if (args.count) ops.push(['count', () => inspectOffloaded(ctx, args.path, 'count')]);
    if (args.shape) ops.push(['shape', () => inspectOffloaded(ctx, args.path, 'shape')]);
    if (args.head !== undefined || (ops.length === 0 && args.grep === undefined)) ops.push(['head', () => inspectOffloaded(ctx, args.path, 'head', undefined, args.head)]);
    if (args.grep !== undefined) ops.push(['grep', () => inspectOffloaded(ctx, args.path, 'grep', args.grep, undefined, Math.min(10, args.context ?? 1))]);
    const outcomes = ops.map(([, run]) => run());
    const failed = outcomes.find((o) => !o.ok);
    if (failed) return admit(snapshot, 'inspect_offloaded', args, failed);
    const text = outcomes.map((o) => o.text).join('\n\n');
    return admit(snapshot, 'inspect_offloaded', args, { text, ok: true, source: outcomes[0].source });
  });
}
