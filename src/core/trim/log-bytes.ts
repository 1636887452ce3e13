import { hostFs as fs } from '../host';
import { redactEach } from '../redact/apply';
import { bomBytes, CHUNK, EVERY, LineReader, lineOf, rawLastLineText, rawTextOf, type LineIndex } from './byte-lines';
import { eachIn, searchCost, searchIds, type ChunkLines, type Wanted } from './corr-search';
import { InfoColumn } from './level-column';
import { LineKernel } from './line-kernel';

/**
 * Pass 1 of the log scan, on the file's bytes (so a large log scans at byte speed). Most lines of a large log
 * are info lines that say so in a leading level column, a JSON `level` or a logfmt `level=` (level-column.ts):
 * those are counted and never decoded.
 * Every other line is decoded as the streamed reader yields it (byte-lines.ts) and given to the scanner. While
 * it reads, the pass also looks for the correlated lines of each error: the lines within `radius` lines of it
 * that hold its id's bytes (Buffer#indexOf, before and after), so pass 2 need not read the file again.
 *
 * It gives way to the streamed reader when it cannot promise the same lines: a private-key marker (the
 * redactor drops whole key blocks), a line longer than a chunk, or a file that changed while it was read.
 */

/** What pass 1 feeds: info lines it did not decode, or a decoded line (which returns the id of the error it opens, if any). */
export interface LineSink {
  /** Count `n` info lines in a row; returns 0. */
  info(n: number): 0;
  /**
   * A decoded line, its secrets NOT redacted: the sink redacts what it keeps (log-scan.ts: the error and warning
   * lines), so the secret scan never runs on the lines it drops.
   */
  line(raw: string): string | undefined;
  /** While true, a frame line (`\tat …`) may be given to `frame` undecoded. */
  readonly inStack: boolean;
  frame(): void;
}

/**
 * Every private-key marker the redactor acts on ends with these bytes. Buffer#indexOf finds them fast: it looks for
 * the first byte and a capital V is rare in logs, where a needle that starts with a common byte (`-----BEGIN`,
 * `PRIVATE KEY`, `E KEY`) is four to thirty times slower on a log that has none.
 */
const KEY_HINT = 'VATE KEY';
/** `-----BEGIN`, at most 40 characters and `PRI` stand before the hint. */
const KEY_BEFORE = 53;
const KEY_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY/;
/** Ids watched at once; past this, correlated lines are left to the streamed pass 2. */
const MAX_WATCHED = 512;

/**
 * One pass for all ids when the per-id search would read more than this many bytes per byte of the pass's stride.
 * Measured on a 4 MiB chunk of the bench's dense log (Node 20, UUIDs: a stride of 33): one pass 2 ms CPU,
 * Buffer#indexOf 0.7 ms per id (300 ids: 217 ms); one pass reads about as much as 3 ids' searches, 100 / 33.
 */
const ONE_PASS_COST = 100;
let corrMode: 'auto' | 'once' | 'each' = 'auto';

/** For tests: search correlated lines in one pass for all ids, or one Buffer#indexOf per id ('auto': whichever reads less). */
export function useCorrSearch(mode: 'auto' | 'once' | 'each'): void {
  corrMode = mode;
}

/** Files at least this large are read through the line kernel when it is available (below, its set-up costs more than it saves). */
const KERNEL_MIN_BYTES = 256 * 1024;
let kernelMode: 'auto' | 'always' | 'never' = 'auto';

/** For tests: read every file through the line kernel, or none ('auto': files from KERNEL_MIN_BYTES). */
export function useLineKernel(mode: 'auto' | 'always' | 'never'): void {
  kernelMode = mode;
}

let quietMode = true;

/**
 * For tests and the bench: let the line kernel count the lines that hold no trigger (triggers.ts) without decoding
 * them (the default), or decode every line it does not take by shape.
 */
export function useTriggerFilter(on: boolean): void {
  quietMode = on;
}

/** One chunk of the file being read: its bytes and where its lines start (relative to the chunk). */
interface Chunk {
  buf: Buffer;
  /** File offset of buf[0]. */
  at: number;
  firstLine: number;
  /** Where its lines start, in [0, lines): typed and kept from chunk to chunk (a number[] emptied each chunk is slower to refill). */
  starts: Int32Array;
  lines: number;
}

export function scanFileBytes(abs: string, sink: LineSink, radius: number): LineIndex | undefined {
  let fd: number;
  try {
    fd = fs.openSync(abs, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const index: LineIndex = { abs, size: stat.size, mtimeMs: stat.mtimeMs, total: 0, starts: [] };
    // A small file reads into a buffer of its size (plus one byte, to see its end, rounded up to whole 32-bit words
    // for InfoColumn), a large one chunk by chunk.
    const size = (Math.min(CHUNK, stat.size + 1) + 3) & ~3;
    // The file is read into the line kernel's memory when there is one (line-kernel.ts).
    const kernel = kernelMode === 'never' || (kernelMode === 'auto' && stat.size < KERNEL_MIN_BYTES) ? undefined : LineKernel.create(size);
    const chunk: Chunk = { buf: kernel?.buf ?? Buffer.allocUnsafe(size), at: 0, firstLine: 0, starts: new Int32Array(1024), lines: 0 };
    const column = new InfoColumn(chunk.buf, kernel && ((start, n, after, numeric) => kernel.shape(start, n, after, numeric)));
    const pass: Pass = { sink, chunk, index, column, kernel, watch: new CorrWatch(fd, index, radius), line: 0, infos: 0 };
    const buf = chunk.buf;
    let carry = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, carry, buf.length - carry, chunk.at + carry);
      const end = carry + n;
      let p = 0;
      if (chunk.at === 0 && index.starts.length === 0) index.starts.push((p = bomBytes(buf, end)));
      if (holdsKeyMarker(buf.subarray(0, end))) return undefined;
      chunk.firstLine = pass.line;
      chunk.lines = 0;
      p = scanLines(pass, p, end, n === 0);
      pass.watch.ahead(chunk, pass.line - 1, p);
      if (n === 0) break;
      if (p === 0 && end === buf.length) return undefined;
      buf.copy(buf, 0, p, end);
      chunk.at += p;
      carry = end - p;
    }
    if (pass.infos !== 0) sink.info(pass.infos);
    if (chunk.at + carry !== stat.size) return undefined;
    index.total = pass.line;
    if (!pass.watch.failed) index.correlated = pass.watch.redacted();
    return index;
  } finally {
    fs.closeSync(fd);
  }
}

/** The state of pass 1 across chunks. */
interface Pass {
  readonly sink: LineSink;
  readonly chunk: Chunk;
  readonly index: LineIndex;
  readonly column: InfoColumn;
  readonly kernel: LineKernel | undefined;
  readonly watch: CorrWatch;
  /** Lines read so far. */
  line: number;
  /** Info lines at the end of what was read, not yet given to the sink. */
  infos: number;
}

/** The kernel's run of `k` lines from line `line`: their starts into the chunk, every EVERY-th into the index. */
function takeRun(chunk: Chunk, index: LineIndex, kernel: LineKernel, line: number, k: number): void {
  if (chunk.lines + k > chunk.starts.length) chunk.starts = grown(chunk.starts, chunk.lines + k);
  chunk.starts.set(kernel.starts.subarray(0, k), chunk.lines);
  chunk.lines += k;
  const next = kernel.at;
  for (let m = (Math.floor(line / EVERY) + 1) * EVERY; m <= line + k; m += EVERY) index.starts.push(chunk.at + (m - line < k ? kernel.starts[m - line] : next));
}

/**
 * The whole lines of the chunk's bytes [p, end); at the end of the file (`atEnd`), the last line may have no newline.
 * Returns where the bytes not read start. A function of its own, called once a chunk, so that it is optimized whole.
 */
function scanLines(pass: Pass, p: number, end: number, atEnd: boolean): number {
  const { sink, chunk, index, column, kernel, watch } = pass;
  const buf = chunk.buf;
  const view = buf.subarray(0, end);
  let line = pass.line;
  let infos = pass.infos;
  for (;;) {
    // The kernel takes the run of lines that repeat the last info line's shape: info lines, counted at once.
    if (kernel?.ready) {
      const k = kernel.take(p, end);
      if (k > 0) {
        takeRun(chunk, index, kernel, line, k);
        line += k;
        infos += k;
        p = kernel.at;
      }
    }
    // Then the run of lines that hold no trigger (triggers.ts): info lines of any shape, also counted at once
    // (unless a stack is open: its frames are read line by line).
    if (kernel && quietMode && (infos !== 0 || !sink.inStack)) {
      const k = kernel.quiet(p, end);
      if (k > 0) {
        takeRun(chunk, index, kernel, line, k);
        line += k;
        infos += k;
        p = kernel.at;
      }
    }
    let nl = view.indexOf(10, p);
    // The file's last line may have no newline: it ends with the file.
    const last = nl === -1;
    if (last) {
      if (!atEnd || p >= end) break;
      nl = end;
    }
    if (chunk.lines === chunk.starts.length) chunk.starts = grown(chunk.starts, chunk.lines + 1);
    chunk.starts[chunk.lines++] = p;
    // A run of info lines is counted at its end (an info line closes any stack, so none is open within it).
    if (infos === 0 && sink.inStack && isFrame(buf, p, nl)) sink.frame();
    else if (column.isInfo(p, nl) || column.isStructuredInfo(p, nl)) infos++;
    else {
      if (infos !== 0) infos = sink.info(infos);
      const id = sink.line(last ? rawLastLineText(buf, p, nl) : rawTextOf(buf, p, nl));
      if (id !== undefined) watch.site(id, line, chunk);
    }
    line++;
    if (last) {
      p = end;
      break;
    }
    p = nl + 1;
    if ((line & (EVERY - 1)) === 0) index.starts.push(chunk.at + p);
  }
  pass.line = line;
  pass.infos = infos;
  return p;
}

function grown(starts: Int32Array, need: number): Int32Array {
  let length = 2 * starts.length;
  while (length < need) length *= 2;
  const more = new Int32Array(length);
  more.set(starts);
  return more;
}

/**
 * A Java-style stack frame: white space, `at`, white space (log-parse.ts's STACK_LINE `^\s+at\s`, ASCII white
 * space only). It is a stack line and never a cause (CAUSE_LINE starts with `Caused by:` or an identifier).
 */
function isFrame(b: Uint8Array, s: number, e: number): boolean {
  let i = s;
  while (i < e && (b[i] === 0x20 || b[i] === 0x09)) i++;
  return i > s && i + 2 < e && b[i] === 0x61 && b[i + 1] === 0x74 && (b[i + 2] === 0x20 || b[i + 2] === 0x09);
}

/** True when the bytes hold a private-key BEGIN marker (checked around each cheap hit). */
function holdsKeyMarker(view: Buffer): boolean {
  for (let h = view.indexOf(KEY_HINT, 0, 'latin1'); h !== -1; h = view.indexOf(KEY_HINT, h + 1, 'latin1')) {
    if (KEY_BEGIN.test(view.toString('latin1', Math.max(0, h - KEY_BEFORE), h + KEY_HINT.length))) return true;
  }
  return false;
}

/**
 * The correlated-line search of pass 1. An error with id X at line i: the lines from i − radius up to i are
 * searched at once (in the chunk, or read again from the last checkpoint before them), and X stays watched in
 * each following chunk up to line i + radius. Found lines are decoded; the caller reads their ids.
 */
class CorrWatch {
  /** The lines found, as decoded: redacted all at once when the scan is done (`redacted`). */
  private readonly found = new Map<number, string>();
  failed = false;
  private readonly watched = new Map<string, { from: number; until: number }>();
  /** Line ranges before this chunk's errors, searched at its end. */
  private back: Wanted = new Map();
  private reread: Buffer | undefined;
  private lines: LineReader | undefined;

  constructor(
    private readonly fd: number,
    private readonly index: LineIndex,
    private readonly radius: number,
  ) {}

  site(id: string, i: number, chunk: Chunk): void {
    if (this.failed) return;
    const known = this.watched.get(id);
    if (!known && this.watched.size >= MAX_WATCHED) {
      this.failed = true;
      this.watched.clear();
      return;
    }
    const lo = Math.max(0, i - this.radius);
    if (lo < chunk.firstLine) this.before(id, lo, chunk);
    const from = Math.max(lo, chunk.firstLine);
    // The lines before it in the chunk are searched with the chunk's other ranges, at its end (`ahead`).
    if (from <= i - 1) {
      const list = this.back.get(id);
      if (list) list.push(from, i - 1);
      else this.back.set(id, [from, i - 1]);
    }
    if (known) known.until = Math.max(known.until, i + this.radius);
    else this.watched.set(id, { from: i + 1, until: i + this.radius });
  }

  /** The lines found, their secrets redacted (one pre-check over all of them). */
  redacted(): Map<number, string> {
    const texts = redactEach([...this.found.values()]);
    let k = 0;
    for (const i of this.found.keys()) this.found.set(i, texts[k++]);
    return this.found;
  }

  /**
   * At the end of a chunk whose last whole line is `last`, ending before byte `end`: search its lines for the ids
   * watched in them and the ids of its errors (the lines before each), all in one pass (corr-search.ts) unless
   * the ranges are so few and short that one Buffer#indexOf per range reads fewer bytes.
   */
  ahead(chunk: Chunk, last: number, end: number): void {
    const wanted: Wanted = this.back;
    this.back = new Map();
    if (this.failed) return;
    for (const [id, w] of this.watched) {
      const to = Math.min(w.until, last);
      if (w.from <= to) {
        const list = wanted.get(id);
        const from = Math.max(w.from, chunk.firstLine);
        if (list) list.push(from, to);
        else wanted.set(id, [from, to]);
      }
      w.from = last + 1;
      if (w.until <= last) this.watched.delete(id);
    }
    if (wanted.size === 0) return;
    const lines: ChunkLines = { buf: chunk.buf, starts: chunk.starts, firstLine: chunk.firstLine, lines: chunk.lines, end };
    let once = corrMode === 'once';
    if (corrMode === 'auto') {
      const cost = searchCost(lines, wanted);
      once = cost.each * cost.step > ONE_PASS_COST * cost.once;
    }
    const found = once ? searchIds(lines, wanted) : [...wanted].flatMap(([id, ranges]) => eachIn(lines, id, ranges));
    const starts = chunk.starts;
    for (const i of found) {
      if (this.found.has(i)) continue;
      const k = i - chunk.firstLine;
      const s = starts[k];
      // A line ends before its `\n`; the chunk's last one at `end`, or before the `\n` just before it.
      const e = k + 1 < chunk.lines ? starts[k + 1] - 1 : end > s && chunk.buf[end - 1] === 10 ? end - 1 : end;
      this.found.set(i, rawTextOf(chunk.buf, s, e));
    }
  }

  /** Lines from `lo` up to the chunk's first line that hold `id`: read again from the checkpoint before `lo`. */
  private before(id: string, lo: number, chunk: Chunk): void {
    const from = this.index.starts[Math.floor(lo / EVERY)];
    const buf = (this.reread ??= Buffer.allocUnsafe(CHUNK));
    for (let off = from; off < chunk.at; off += buf.length - id.length) {
      const n = fs.readSync(this.fd, buf, 0, Math.min(buf.length, chunk.at - off), off);
      const view = buf.subarray(0, n);
      for (let h = view.indexOf(id, 0, 'latin1'); h !== -1; h = view.indexOf(id, h + 1, 'latin1')) {
        const reader = (this.lines ??= new LineReader(this.fd, this.index));
        const i = lineOf(reader, this.index.starts, off + h);
        if (i >= lo && !this.found.has(i)) this.found.set(i, reader.raw(i));
      }
      if (off + n >= chunk.at) break;
    }
  }
}
