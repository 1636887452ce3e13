import { hostFs as fs } from '../host';

/**
 * Lines of a file, read in chunks so a 50 MB log never sits whole in memory, in time linear in the file's size.
 * A single line longer than `maxLineChars` (a minified bundle, a 50 MB log line) is clipped visibly: its head and
 * tail are kept with `…[N chars clipped]…` between them, and the middle is never held. Re-iterable.
 */
export const MAX_LINE_CHARS = 1 << 20;

export function fileLines(abs: string, chunkBytes = 64 * 1024, maxLineChars = MAX_LINE_CHARS): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      const fd = fs.openSync(abs, 'r');
      try {
        const buf = Buffer.alloc(chunkBytes);
        const decoder = new TextDecoder('utf-8');
        const line = new LineBuilder(maxLineChars);
        let first = true;
        for (;;) {
          const n = fs.readSync(fd, buf, 0, buf.length, null);
          if (n === 0) break;
          let text = decoder.decode(buf.subarray(0, n), { stream: true });
          if (first && text.length > 0) {
            if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
            first = false;
          }
          let start = 0;
          for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
            // The common case, a whole short line in this chunk, goes out as one slice (no builder, no joins).
            if (line.empty && nl - start <= maxLineChars) yield text.charCodeAt(nl - 1) === 13 && nl > start ? text.slice(start, nl - 1) : text.slice(start, nl);
            else {
              line.add(text.slice(start, nl));
              yield line.take();
            }
            start = nl + 1;
          }
          line.add(text.slice(start));
        }
        line.add(decoder.decode());
        if (!line.empty) yield line.take();
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

/** One line assembled from pieces: the head up to its share, then a sliding tail; the middle is only counted. */
export class LineBuilder {
  private head: string[] = [];
  private headLen = 0;
  private tail: string[] = [];
  private tailLen = 0;
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(max: number) {
    this.tailMax = Math.floor(max / 3);
    this.headMax = max - this.tailMax;
  }

  get empty(): boolean {
    return this.total === 0;
  }

  add(piece: string): void {
    if (piece.length === 0) return;
    this.total += piece.length;
    let rest = piece;
    if (this.headLen < this.headMax) {
      const part = rest.slice(0, this.headMax - this.headLen);
      this.head.push(part);
      this.headLen += part.length;
      rest = rest.slice(part.length);
      if (rest.length === 0) return;
    }
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tail.length > 1 && this.tailLen - this.tail[0].length >= this.tailMax) this.tailLen -= (this.tail.shift() as string).length;
  }

  /** The line (a trailing CR dropped), clipped when it was too long; the builder starts over. */
  take(): string {
    let head = this.head.join('');
    let tail = this.tail.join('');
    let total = this.total;
    if (tail.endsWith('\r')) [tail, total] = [tail.slice(0, -1), total - 1];
    else if (tail === '' && head.endsWith('\r')) [head, total] = [head.slice(0, -1), total - 1];
    tail = tail.slice(-this.tailMax);
    const clipped = total - head.length - tail.length;
    this.head = [];
    this.tail = [];
    this.headLen = this.tailLen = this.total = 0;
    return clipped > 0 ? `${head} …[${clipped} chars clipped]… ${tail}` : head + tail;
  }
}
