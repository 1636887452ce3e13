import { hostFs as fs } from '../host';
import * as path from 'node:path';
import type { ToolCall } from '../chain/render';
import { readDocument } from '../disclose';
import { InputError } from '../errors';
import { linearPattern, literalPattern, type LinePattern } from '../pattern';
import { inspectFile, resolveInspectable, type Inspection } from '../inspect';
import { fileLines } from '../sources/scan';
import { isSecretPath } from '../redact/files';
import { redactLines, redactSecrets } from '../sources/secrets';
import { displayPath, type Snapshot } from '../sources/snapshot';
import type { Tokenizer } from '../tokens';
import { TOOL_DEFINITIONS } from '../tools';
import type { Decisions } from '../types';

/**
 * The read-only tools the model may call during a send, adapted to the tool loop: read_document is disclose.ts
 * (the chain's checks: provenance, redaction, prune, trim to budget), inspect_offloaded is inspect.ts (head, grep,
 * count, shape, streamed), search_workspace is here. Each reads the workspace as the snapshot scanned it
 * (.gitignore, excludes and secret files already left out) and returns text; none writes a file or runs a command.
 */

export interface ToolOutcome {
  /** What the model gets back (before trimming and offloading). */
  text: string;
  ok: boolean;
  /** Where the text came from, for the manifest: a workspace path, or `search:"query"`. */
  source: string;
  /** Decisions the tool took (read_document: selected, rejected), for the next call's manifest. */
  decisions?: Partial<Decisions>;
}

export interface ToolContext {
  snapshot: Snapshot;
  tokenizer: Tokenizer;
  /** Absolute path of the offload store, the only place besides the scanned workspace files inspect_offloaded opens. */
  offloadDir: string;
}

export const SEARCH_MAX_MATCHES = 50;
export const HEAD_MAX_LINES = 200;
const LINE_CHARS = 240;
const INSPECT_OPS = ['head', 'grep', 'count', 'shape'];

export function runTool(call: ToolCall, ctx: ToolContext): ToolOutcome {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.arguments || '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('arguments must be a JSON object');
    args = parsed as Record<string, unknown>;
  } catch (e) {
    return fail(`tool:${call.name}`, `invalid arguments for ${call.name}: ${(e as Error).message}`);
  }
  const str = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  switch (call.name) {
    case 'read_document':
      return readDocumentTool(ctx, args);
    case 'search_workspace':
      return str('query') ? searchWorkspace(ctx.snapshot, str('query') as string) : fail('tool:search_workspace', 'search_workspace needs "query"');
    case 'inspect_offloaded':
      return inspectOffloaded(ctx, str('path') ?? '', str('op') ?? '', str('pattern'), typeof args.lines === 'number' ? args.lines : undefined);
    default:
      return fail(`tool:${call.name}`, `unknown tool "${call.name}"; the tools are ${TOOL_DEFINITIONS.map((t) => t.name).join(', ')}`);
  }
}

function fail(source: string, text: string): ToolOutcome {
  return { text, ok: false, source };
}

/** read_document(path, heading?) through disclose.ts; the text goes back unwrapped (the loop wraps tool results once). */
function readDocumentTool(ctx: ToolContext, args: Record<string, unknown>): ToolOutcome {
  const result = readDocument(ctx.snapshot, args, { tokenizer: ctx.tokenizer });
  const requested = typeof args.path === 'string' ? args.path : 'read_document';
  if (!result.block) return { text: result.text, ok: false, source: requested, decisions: result.decisions };
  const { source, meta } = result.block;
  const where = meta.heading ? `${source}, section "${meta.heading}"` : source;
  return { text: `${where}\n\n${result.block.text}`, ok: true, source: meta.heading ? `${source}#${meta.heading}` : source, decisions: result.decisions };
}

/**
 * A regular expression when the query is one, else the literal text; always case-insensitive. It runs on the
 * linear-time engine (core/pattern.ts), so a model's `^(a|a)*$` cannot backtrack; over 1 000 characters, literal.
 */
export function queryPattern(query: string): LinePattern {
  if (query.length > 1000) return literalPattern(query, true);
  try {
    return linearPattern(query, true);
  } catch {
    return literalPattern(query, true);
  }
}

/** search_workspace(query): matching lines of the scanned text files, `path:line: text`, first matches first. */
export function searchWorkspace(snapshot: Snapshot, query: string): ToolOutcome {
  const re = queryPattern(query);
  const shown: string[] = [];
  let matches = 0;
  const files = new Set<string>();
  const searched = snapshot.files.filter((f) => !f.path.startsWith('.context/'));
  for (const file of searched) {
    let n = 0;
    for (const line of redactLines(() => fileLines(path.join(snapshot.root, file.path)))()) {
      n++;
      if (!re.test(line)) continue;
      matches++;
      files.add(file.path);
      if (shown.length < SEARCH_MAX_MATCHES) {
        const clipped = line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line;
        shown.push(`${file.path}:${n}: ${clipped}`);
      }
    }
  }
  const head =
    matches === 0
      ? `no match for "${query}" in ${searched.length} files`
      : `${matches} matching line${matches === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'} for "${query}"${matches > shown.length ? ` (first ${shown.length} shown)` : ''}`;
  return { text: [head, ...shown].join('\n'), ok: true, source: `search:"${query}"` };
}

/** inspect_offloaded(path, op): an offloaded result, or a scanned workspace file offloaded in place. */
export function inspectOffloaded(ctx: ToolContext, requested: string, op: string, pattern?: string, lines?: number, context = 1): ToolOutcome {
  const { snapshot } = ctx;
  const source = requested.trim() || 'tool:inspect_offloaded';
  if (!INSPECT_OPS.includes(op)) return fail(source, `unknown op "${op}"; ops are ${INSPECT_OPS.join(', ')}`);
  if (op === 'grep' && !pattern) return fail(source, 'grep needs "pattern"');
  try {
    const abs = resolveInspectable(requested.trim().replace(/\\/g, '/'), [ctx.offloadDir, snapshot.root], snapshot.root);
    const shown = displayPath(snapshot.root, abs);
    // Through a link too: a store entry or workspace path that leads to a secret file (.env, a key) is never read.
    const real = fs.existsSync(abs) ? fs.realpathSync(abs) : abs;
    const realRoot = fs.realpathSync(snapshot.root);
    if (isSecretPath(shown) || isSecretPath(path.relative(realRoot, real).split(path.sep).join('/')) || isSecretPath(path.basename(real))) {
      return fail(source, `"${requested}" is a secret file (by name): never read`);
    }
    const inStore = !path.relative(ctx.offloadDir, abs).startsWith('..');
    if (!inStore && !snapshot.files.some((f) => f.path === shown)) {
      return fail(source, `"${requested}" is neither an offloaded result nor a readable workspace file`);
    }
    const request: Inspection =
      op === 'head'
        ? { op, lines: Math.min(HEAD_MAX_LINES, Math.max(1, Math.floor(lines ?? 40))) }
        : op === 'grep'
          ? { op, pattern: pattern as string, ignoreCase: true, context, maxMatches: SEARCH_MAX_MATCHES }
          : { op: op as 'count' | 'shape' };
    return { text: `${shown} (${op}):\n${redactSecrets(inspectFile(abs, request)).text}`, ok: true, source: shown };
  } catch (e) {
    if (e instanceof InputError) return fail(source, `inspect_offloaded: ${e.toString()}`);
    throw e;
  }
}
