import { hostFs as fs } from '../host';
import { redactEach } from '../redact/apply';
import { LineBuilder, MAX_LINE_CHARS } from '../sources/line-reader';

/**
 * A log file's lines read from its bytes, exactly as the streamed reader (`redactLines(fileLines(…))`) yields
 * them: decoded, one trailing CR dropped, clipped past MAX_LINE_CHARS, then (for the lines kept) secrets
 * redacted. Pass 1 of the log scan
 * (log-bytes.ts) keeps a checkpoint every EVERY lines; with them, any line is read again by its index.
 */

export const CHUNK = 4 << 20;
/** A checkpoint every this many lines. */
export const EVERY = 1024;

/** Where a file's lines start, from pass 1. */
export interface LineIndex {
  abs: string;
  size: number;
  mtimeMs: number;
  total: number;
  /** Byte offset of line k × EVERY. */
  starts: number[];
  /** Lines near an error that hold its correlation id's bytes (a superset of its correlated lines); undefined when there were too many ids to watch. */
  correlated?: Map<number, string>;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The line `b[s, e)` decoded as the streamed reader decodes it (one trailing CR dropped, clipped past
 * MAX_LINE_CHARS), secrets not yet redacted: for the log scan, which redacts only the lines it keeps.
 */
export function rawTextOf(b: Uint8Array, s: number, e: number): string {
  if (s === e) return '';
  // Buffer#toString decodes as the decoder does (U+FFFD for each maximal invalid subpart, a BOM kept) without
  // making a view of the line first.
  const text = b instanceof Buffer ? b.toString('utf8', s, e) : decoder.decode(b.subarray(s, e));
  // The reader drops one trailing CR; a line too long goes through its builder, which clips it (and drops the CR).
  if (text.length <= MAX_LINE_CHARS) return text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
  const builder = new LineBuilder(MAX_LINE_CHARS);
  builder.add(text);
  return builder.take();
}

/** Bytes of the byte-order marks the reader skips: the decoder's, and one more the reader strips itself. */
export function bomBytes(b: Uint8Array, n: number): number {
  let p = 0;
  for (let k = 0; k < 2 && p + 3 <= n && b[p] === 0xef && b[p + 1] === 0xbb && b[p + 2] === 0xbf; k++) p += 3;
  return p;
}

/** The file's last line, when it has no `\n`: the reader's builder drops its CR and clips it; secrets not yet redacted. */
export function rawLastLineText(b: Uint8Array, s: number, e: number): string {
  const builder = new LineBuilder(MAX_LINE_CHARS);
  builder.add(decoder.decode(b.subarray(s, e)));
  return builder.take();
}

/** Bytes read at a time by random access: lines near each other share a read; a longer line reads more. */
const READ = 64 * 1024;

/** Random access to a scanned file's lines, by index (walking from the checkpoint before it), through one buffer. */
export class LineReader {
  /** Grown to what a read needs, up to CHUNK: most reads are of a few lines. */
  private buf = Buffer.allocUnsafe(READ);
  private view = this.buf.subarray(0, 0);
  private at = 0;
  private len = 0;
  private line = -1;
  private start = 0;

  constructor(
    private readonly fd: number,
    private readonly index: Pick<LineIndex, 'size' | 'starts'>,
  ) {}

  /** Bytes [start, end) of line `i` (end at its `\n` or at the end of the file). */
  range(i: number): [number, number] {
    const block = Math.floor(i / EVERY);
    if (this.line < 0 || this.line > i || Math.floor(this.line / EVERY) < block) {
      this.line = block * EVERY;
      this.start = this.index.starts[block];
    }
    for (; this.line < i; this.line++) this.start = this.end(this.start) + 1;
    return [this.start, this.end(this.start)];
  }

  /** The line at `i`, decoded as the streamed reader decodes it, its secrets NOT redacted (`redactEach` them). */
  raw(i: number): string {
    const [s, e] = this.range(i);
    this.load(s, e - s);
    return e === this.index.size ? rawLastLineText(this.buf, s - this.at, e - this.at) : rawTextOf(this.buf, s - this.at, e - this.at);
  }

  private end(s: number): number {
    this.load(s, 0);
    for (;;) {
      const nl = this.view.indexOf(10, s - this.at);
      if (nl !== -1) return this.at + nl;
      const have = this.at + this.len;
      // At the end of the file, or a line as long as a chunk (pass 1 refused longer ones).
      if (have >= this.index.size || have - s >= CHUNK) return have;
      this.read(s, Math.min(CHUNK, Math.max(READ, 2 * (have - s))));
    }
  }

  /** Make sure bytes [s, s + n) are in the buffer. */
  private load(s: number, n: number): void {
    if (s >= this.at && s + n <= this.at + this.len && (n > 0 || s < this.at + this.len)) return;
    this.read(s, Math.max(READ, n));
  }

  private read(s: number, n: number): void {
    const want = Math.min(n, CHUNK);
    if (want > this.buf.length) this.buf = Buffer.allocUnsafe(want);
    this.at = s;
    this.len = fs.readSync(this.fd, this.buf, 0, want, s);
    this.view = this.buf.subarray(0, this.len);
  }
}

/** The lines at `indices` (sorted, distinct), decoded as pass 1 decoded them; undefined if the file changed since. */
export function linesAt(index: LineIndex, indices: number[]): Map<number, string> | undefined {
  let fd: number;
  try {
    fd = fs.openSync(index.abs, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.size !== index.size || stat.mtimeMs !== index.mtimeMs) return undefined;
    const reader = new LineReader(fd, index);
    // Decoded one by one, redacted together: one secret pre-check over all of them.
    const texts = redactEach(indices.map((i) => reader.raw(i)));
    return new Map(indices.map((i, k) => [i, texts[k]]));
  } finally {
    fs.closeSync(fd);
  }
}

/** The index of the line holding byte `h`. */
export function lineOf(reader: LineReader, starts: number[], h: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (starts[mid] <= h) lo = mid;
    else hi = mid - 1;
  }
  for (let i = lo * EVERY; ; i++) if (reader.range(i)[1] >= h) return i;
}

