import { hostFs as fs, type HostStats } from './host';
import * as path from 'node:path';
import { InputError } from './errors';
import { linearPattern, type LinePattern } from './pattern';
import { resolveInWorkspace } from './sources/guard';
import { fileLines } from './sources/scan';
import { estimateTokensFromBytes } from './tokens';
import { readShape, renderShape } from './trim/json-shape';
import { JsonSyntaxError } from './trim/json-stream';
import { clipLine, Ring, STREAM_CHUNK_BYTES } from './trim/lines';
import type { Lines } from './trim/types';

/**
 * Progressive inspection of an offloaded (or any large) file, seed 002's next step after the preview: its head,
 * a grep with context, a count, its JSON shape. Every operation streams the file and returns a bounded text, so
 * the same functions serve the CLI (`ctxctl inspect`) and, later, the model's read-only inspect_offloaded tool.
 */

/** Lines printed longer than this are clipped, so one line cannot flood the output. */
const PRINT_CHARS = 400;

export function inspectHead(lines: Lines, n: number): string {
  const out: string[] = [];
  let total = 0;
  for (const line of lines()) {
    if (total < n) out.push(`${String(total + 1).padStart(6)}  ${clipLine(line, PRINT_CHARS)}`);
    else break;
    total++;
  }
  return out.join('\n');
}

export interface GrepOptions {
  /** Lines of context before and after each match. */
  context: number;
  /** Matches printed; the rest are counted. */
  maxMatches: number;
}

/** `grep -n -C`: matching lines (`:`) with their context (`-`), groups separated by `--`, then the total. */
export function inspectGrep(lines: Lines, re: LinePattern, options: GrepOptions): string {
  const before = new Ring<[number, string]>(options.context);
  const out: string[] = [];
  let matches = 0;
  let after = 0;
  let last = -1;
  let i = 0;
  const print = (index: number, line: string, mark: string) => {
    if (last >= 0 && index > last + 1) out.push('--');
    out.push(`${String(index + 1).padStart(6)}${mark} ${clipLine(line, PRINT_CHARS)}`);
    last = index;
  };
  for (const line of lines()) {
    if (re.test(line)) {
      matches++;
      if (matches <= options.maxMatches) {
        for (const [index, text] of before.values()) if (index > last) print(index, text, '-');
        print(i, line, ':');
        after = options.context;
      } else after = 0;
    } else if (after > 0) {
      print(i, line, '-');
      after--;
    }
    before.push([i, line.length > PRINT_CHARS * 2 ? line.slice(0, PRINT_CHARS * 2) : line]);
    i++;
  }
  out.push(matches > options.maxMatches ? `${matches} matching lines (first ${options.maxMatches} shown)` : `${matches} matching lines`);
  return out.join('\n');
}

export interface Counts {
  lines: number;
  bytes: number;
  /** Non-empty lines. */
  nonEmpty: number;
  longestLine: number;
  estimatedTokens: number;
}

export function inspectCount(lines: Lines): Counts {
  const c: Counts = { lines: 0, bytes: 0, nonEmpty: 0, longestLine: 0, estimatedTokens: 0 };
  for (const line of lines()) {
    c.lines++;
    c.bytes += Buffer.byteLength(line) + 1;
    if (line.trim() !== '') c.nonEmpty++;
    c.longestLine = Math.max(c.longestLine, line.length);
  }
  c.bytes = Math.max(0, c.bytes - 1);
  c.estimatedTokens = estimateTokensFromBytes(c.bytes, lines.file);
  return c;
}

export function formatCounts(c: Counts): string {
  return `${c.lines} lines (${c.nonEmpty} non-empty), ${c.bytes} bytes, longest line ${c.longestLine} characters, ~${c.estimatedTokens} tokens (estimated)`;
}

/** The JSON shape (keys, types, array lengths) and the first records of the main array. */
export function inspectShape(lines: Lines, records = 2): string {
  try {
    const shape = readShape(lines(), records);
    const out = [shape.documents > 1 ? `JSON Lines: ${shape.documents} values` : 'JSON', renderShape(shape.root)];
    if (shape.main) {
      out.push(`first ${shape.main.records.length} of ${shape.main.length} records (${shape.main.path}):`);
      for (const r of shape.main.records) out.push(clipLine(JSON.stringify(r), PRINT_CHARS * 2));
    }
    return out.join('\n');
  } catch (e) {
    if (e instanceof JsonSyntaxError) return `not JSON: ${e.message}`;
    throw e;
  }
}

export type Inspection =
  | { op: 'head'; lines?: number }
  | { op: 'grep'; pattern: string; context?: number; maxMatches?: number; ignoreCase?: boolean }
  | { op: 'count' }
  | { op: 'shape' };

/** Compile a user's or a model's pattern with the linear-time engine; a bad one is bad input, named. */
export function compilePattern(pattern: string, ignoreCase = false): LinePattern {
  return linearPattern(pattern, ignoreCase);
}

/** Run one inspection on a file, streamed. */
export function inspectFile(abs: string, request: Inspection): string {
  let stat: HostStats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new InputError('file not found', abs);
  }
  if (!stat.isFile()) throw new InputError('not a file', abs);
  const lines: Lines = () => fileLines(abs, STREAM_CHUNK_BYTES);
  switch (request.op) {
    case 'head':
      return inspectHead(lines, request.lines ?? 20);
    case 'grep':
      return inspectGrep(lines, compilePattern(request.pattern, request.ignoreCase), { context: request.context ?? 2, maxMatches: request.maxMatches ?? 50 });
    case 'count': {
      // The file's own size, final newline included.
      const c = inspectCount(lines);
      return formatCounts({ ...c, bytes: stat.size, estimatedTokens: estimateTokensFromBytes(stat.size) });
    }
    case 'shape':
      return inspectShape(lines);
  }
}

/**
 * For the model's tool: resolve a path it gives against the places it may read (the workspace and the offload
 * store); anything else is refused, so inspection stays read-only and inside the project.
 */
export function resolveInspectable(requested: string, allowedRoots: string[], base: string): string {
  const [root, ...more] = allowedRoots;
  // The workspace guard (sources/guard.ts) with the store as an allowed root; secrets are judged by the caller.
  const d = resolveInWorkspace(requested, { root, allowedRoots: more, base, expect: 'any', mayBeMissing: true, refuseSecrets: false });
  if (!d.ok && (d.kind === 'outside' || d.kind === 'link-outside')) throw new InputError('outside the workspace and the offload store: not inspectable', requested);
  if (!d.ok && d.kind !== 'missing') throw new InputError(d.why, requested);
  return d.ok ? d.abs : path.resolve(base, requested);
}
