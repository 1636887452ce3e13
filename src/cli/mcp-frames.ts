import { tooDeepAt } from '../core/json-depth';

/**
 * The frames of `ctxctl mcp`'s stdio: one JSON-RPC message per line. Pure functions over bytes and text, so the
 * transport (mcp-transport.ts) only moves them. A line longer than the limit is never held whole: it is counted
 * and dropped, and only its head is kept, to find the request's id for the error answer.
 */

/** The longest request line read (a tool call's arguments are a few KiB; the SDK's own buffer stops at 10 MiB). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Messages nest a few levels; deeper is refused before any parser recurses into it. */
export const MAX_MESSAGE_DEPTH = 64;
/** Of a line too long to read, this much is kept to find its id. */
const HEAD_BYTES = 4096;

export type Frame = { line: string } | { oversized: number; head: string };

/** Splits a byte stream into lines of at most `limit` bytes; longer ones come out as `{ oversized }`. */
export class LineFramer {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the current line dropped so far, or -1 while it is within the limit. */
  private dropped = -1;
  private head = '';

  constructor(private readonly limit = MAX_LINE_BYTES) {}

  /** The lines this chunk completes. */
  push(chunk: Buffer): Frame[] {
    const out: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl < 0) break;
      out.push(this.finish());
      start = nl + 1;
    }
    return out;
  }

  /** The last line, when the stream ends without a newline. */
  end(): Frame[] {
    return this.size > 0 || this.dropped >= 0 ? [this.finish()] : [];
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.dropped >= 0) {
      this.dropped += piece.length;
      return;
    }
    if (this.size + piece.length <= this.limit) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.parts, piece.subarray(0, HEAD_BYTES)]);
    this.head = held.subarray(0, HEAD_BYTES).toString('utf8');
    this.dropped = this.size + piece.length;
    this.parts = [];
    this.size = 0;
  }

  private finish(): Frame {
    if (this.dropped >= 0) {
      const frame = { oversized: this.dropped, head: this.head };
      this.dropped = -1;
      this.head = '';
      return frame;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    return { line };
  }
}

export type RequestId = string | number;

export interface ErrorAnswer {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

const answer = (id: RequestId | null, code: number, message: string): ErrorAnswer => ({ jsonrpc: '2.0', id, error: { code, message } });
const isId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/**
 * One line read as a JSON-RPC message, or the error answer it gets: -32700 when it is not JSON, -32600 when it is
 * not a JSON-RPC 2.0 request, notification or response (with the request's id when it has a usable one). A blank
 * line is skipped.
 */
export function frameMessage(line: string): { message: Record<string, unknown> } | { error: ErrorAnswer } | { skip: true } {
  if (line.trim() === '') return { skip: true };
  if (tooDeepAt(line, MAX_MESSAGE_DEPTH) >= 0) return { error: answer(idInHead(line), INVALID_REQUEST, `Invalid Request: nested deeper than ${MAX_MESSAGE_DEPTH} levels`) };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: answer(null, PARSE_ERROR, 'Parse error: the line is not JSON') };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: answer(null, INVALID_REQUEST, 'Invalid Request: a message is one JSON object (batches are not supported)') };
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== '2.0') return { error: answer(id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"') };
  if ('id' in m && m.id !== undefined && !isId(m.id)) return { error: answer(null, INVALID_REQUEST, 'Invalid Request: "id" must be a string or a whole number') };
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') return { error: answer(id, INVALID_REQUEST, 'Invalid Request: "method" must be a string') };
    if (m.params !== undefined && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) return { error: answer(id, INVALID_REQUEST, 'Invalid Request: "params" must be an object') };
    return { message: m };
  }
  if (id !== null && ('result' in m || 'error' in m)) return { message: m };
  return { error: answer(id, INVALID_REQUEST, 'Invalid Request: neither a request (method) nor a response (id with result or error)') };
}

/** The answer to a line too long to read, with its id when the head shows one at the top level. */
export function oversizedAnswer(bytes: number, head: string, limit = MAX_LINE_BYTES): ErrorAnswer {
  return answer(idInHead(head), INVALID_REQUEST, `Invalid Request: the message is ${mib(bytes)} MiB, above the ${mib(limit)} MiB limit; not read`);
}

const mib = (n: number) => (n / 1024 / 1024).toFixed(1).replace(/\.0$/, '');

/**
 * The `"id"` member of the top-level object in the start of a line (the rest may be cut or too large to parse):
 * a one-pass scan that skips strings and nested values, so an "id" inside the params is never taken.
 */
export function idInHead(head: string): RequestId | null {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end < 0) return null;
      if (depth === 1 && head.slice(i, end + 1) === '"id"') {
        const rest = /^\s*:\s*(-?\d+(?![.\deE])|"(?:[^"\\]|\\.)*")/.exec(head.slice(end + 1, end + 200));
        if (rest) return rest[1].startsWith('"') ? (JSON.parse(rest[1]) as string) : Number(rest[1]);
      }
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return null;
}

function stringEnd(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}
