import { redactLines } from '../redact/apply';
import { fileLines } from '../sources/line-reader';
import type { Lines } from './types';

/** Small helpers shared by the trimmers: clipping long lines and the markers that say what went. */

/** Every marker a trimmer writes starts with this, so kept lines can be told from notes. */
export const MARK = '… ';

/**
 * Clip a line longer than `max` characters: keep its start (where timestamps, levels and exception classes are) and
 * its end (where the message often is), with a visible marker in between saying how much went.
 */
export function clipLine(line: string, max: number, short = false): string {
  if (max <= 0 || line.length <= max) return line;
  const tail = Math.floor(max / 3);
  let head = max - tail;
  let from = line.length - tail;
  // Never cut inside a token-like run (an id, an IP address, a path): move each cut to the nearest boundary on
  // the side that keeps less, unless the run is too long to be one token (then it is cut where it is).
  const boundary = /[\s,;()[\]{}<>"'=|]/;
  const reach = 48;
  const inside = (i: number) => i > 0 && i < line.length && !boundary.test(line[i - 1]) && !boundary.test(line[i]);
  const backTo = head;
  while (head > 0 && inside(head)) head--;
  if (backTo - head > reach) {
    // Too far back: keep the whole token instead, if it ends within reach.
    head = backTo;
    while (head < line.length && inside(head) && head - backTo <= reach) head++;
    if (inside(head)) head = backTo;
  }
  const forwardFrom = from;
  while (from < line.length && inside(from)) from++;
  if (from - forwardFrom > reach) {
    from = forwardFrom;
    while (from > head && inside(from) && forwardFrom - from <= reach) from--;
    if (inside(from)) from = forwardFrom;
  }
  const cut = from - head;
  if (cut <= 0) return line;
  // `short`: a bare `…` where rows must share little room (the figure costs tokens a template row needs).
  return short ? `${line.slice(0, head)} … ${line.slice(from)}` : `${line.slice(0, head)} …[${cut} chars clipped]… ${line.slice(from)}`;
}

/**
 * A log line too long for `max`: its long paths shortened to their first and last parts first
 * (`/System/…/com.apple.Safari.SearchHelper`: the words around them say more than the middle of a path), then
 * clipped if still too long.
 */
export function clipLogLine(line: string, max: number, short = false): string {
  if (max <= 0 || line.length <= max) return line;
  // A line many times too long is clipped as it is: what its paths would save does not matter, and the scan would cost.
  if (line.length > SQUEEZE_CHARS) return clipLine(line, max, short);
  const squeezed = line.replace(LONG_PATH, (path: string, first: string, last: string) => (path.length - first.length - last.length > 8 ? `${first}/…/${last}` : path));
  return clipLine(squeezed, max, short);
}

/** A path of four parts or more: its first part (with a scheme and host, if any) and its last. */
const LONG_PATH = /((?:\b[A-Za-z][\w+.-]{0,20}:\/\/[^\s/"'<>]+)?\/[^\s/"'<>]+)(?:\/[^\s/"'<>]+){2,}\/([^\s/"'<>]+)/g;

/** Lines longer than this are clipped without shortening their paths first. */
const SQUEEZE_CHARS = 8192;

export function omitted(n: number, what = 'lines omitted'): string {
  return `${MARK}${n} ${what}`;
}

export function isMarker(line: string): boolean {
  return line.startsWith(MARK);
}

/** Lines of a candidate that came from the original (not markers, headings or blanks the trimmer added). */
export function countRetained(lines: string[], extra: (line: string) => boolean = () => false): number {
  return lines.filter((l) => !isMarker(l) && l !== '' && !extra(l)).length;
}

/** Keep the last `n` items seen, in order, without holding more. */
export class Ring<T> {
  private readonly items: T[] = [];
  constructor(private readonly n: number) {}
  push(item: T): T | undefined {
    if (this.n <= 0) return item;
    this.items.push(item);
    return this.items.length > this.n ? this.items.shift() : undefined;
  }
  values(): T[] {
    return [...this.items];
  }
  get size(): number {
    return this.items.length;
  }
}

/** Count the lines of a streamed input (one pass, nothing kept). */
export function countLines(lines: Iterable<string>): number {
  let n = 0;
  for (const _ of lines) n++;
  return n;
}

/**
 * A copy of a line that does not hold on to the chunk it was split from (V8 keeps sliced strings' parents alive):
 * kept lines must not pin megabytes of input in memory.
 */
export function own(line: string): string {
  return line.length < 13 ? line : Buffer.from(line, 'utf8').toString('utf8');
}

/**
 * Chunk size for streaming tool output (`fileLines(abs, STREAM_CHUNK_BYTES)`). Measured on a 50 MB log (Node 20):
 * 64 KiB chunks iterate it in 0.3 s at 54 MB peak RSS, 1 MiB chunks in 4 s at 126 MB (decoding and splitting a
 * megabyte string at a time promotes it out of the young generation).
 */
export const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * A file's lines as tool output is read: streamed, secrets redacted. They name their file, so the log scan can read
 * its bytes instead (log-bytes.ts) and decode only the lines it needs.
 */
export function redactedFileLines(abs: string): Lines {
  return Object.assign(redactLines(() => fileLines(abs, STREAM_CHUNK_BYTES)), { file: abs });
}

/** All the lines, joined: only for inputs already known to be small. */
export function joinLines(lines: () => Iterable<string>): string {
  const out: string[] = [];
  for (const l of lines()) out.push(l);
  return out.join('\n');
}
