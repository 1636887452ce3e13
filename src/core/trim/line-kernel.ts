import { AFTER_WORD } from './level-column';
import { LINE_KERNEL_WASM } from './line-kernel-wasm';

/**
 * The line kernel of the log scan: a small WebAssembly module (line-kernel.wat) that runs over the lines of a chunk
 * repeating the shape of the last info line, 16 bytes at a time, and writes where each starts. Pass 1
 * (log-bytes.ts) reads the file straight into the kernel's memory, lets it take each run of such lines, and reads
 * every other line itself. The rule is InfoColumn's (level-column.ts), which learns the shapes and tells the kernel;
 * the kernel holds no level word, and its table of the bytes allowed after a word is level-rule.ts's (AFTER_WORD).
 * Where WebAssembly is not available, pass 1 runs without it, with the same result (test/unit/trim/level-rule.test.ts).
 * It is kept because it pays: on the bench's 512 MiB headline, preview CPU is about 12 % lower with it (9.6× against
 * 10.9× `rg -c ERROR`, scripts/bench/kernel.mjs), the difference between meeting the 10× target and missing it.
 */

/** Memory layout (line-kernel.wat). */
const SHAPE = 0;
const DIGITS = 256;
const ANY = 512;
const AFTER_AT = 768;
const LENGTH = 1024;
/** Room the shape has in each of its areas. */
const SHAPE_ROOM = 256;
const STARTS = 2048;
/** Lines a run takes at most: their starts fit between STARTS and the data. */
export const RUN_LINES = 16384;
const DATA = STARTS + 4 * RUN_LINES;
/** Bytes after the data that the kernel may read (its 16-byte loads of a line's head) but never takes as data. */
const SLACK = SHAPE_ROOM + 16;
const PAGE = 65536;

type Run = (p: number, end: number, starts: number, cap: number, base: number) => number;

// The WebAssembly API this file uses (the project's TypeScript libraries, ES and Node's, do not declare it).
interface WasmModule {
  readonly kind?: 'module';
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: { run: Run; pos: { readonly value: number } };
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (module: WasmModule, imports: { env: { memory: WasmMemory } }) => WasmInstance;
};

let compiled: WasmModule | null | undefined;

function kernelModule(): WasmModule | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(LINE_KERNEL_WASM, 'base64'));
    } catch {
      // No WebAssembly (node --jitless) or no SIMD: pass 1 reads every line itself.
      compiled = null;
    }
  }
  return compiled;
}

export class LineKernel {
  /** The chunk buffer: `size` bytes of the kernel's memory, where pass 1 reads the file. */
  readonly buf: Buffer;
  /** The starts of the lines the last run took (offsets in `buf`). */
  readonly starts: Int32Array;
  private readonly memory: Uint8Array;
  private readonly runLines: Run;
  private readonly stop: { readonly value: number };
  /** True once a shape is set. */
  ready = false;

  private constructor(instance: WasmInstance, memory: WasmMemory, size: number) {
    this.memory = new Uint8Array(memory.buffer);
    this.buf = Buffer.from(memory.buffer, DATA, size);
    this.starts = new Int32Array(memory.buffer, STARTS, RUN_LINES);
    this.runLines = instance.exports.run;
    this.stop = instance.exports.pos;
  }

  /** A kernel whose buffer holds `size` bytes; undefined where WebAssembly is not available. */
  static create(size: number): LineKernel | undefined {
    const module = kernelModule();
    if (!module) return undefined;
    try {
      const memory = new WebAssembly.Memory({ initial: Math.ceil((DATA + size + SLACK) / PAGE) });
      return new LineKernel(new WebAssembly.Instance(module, { env: { memory } }), memory, size);
    } catch {
      return undefined;
    }
  }

  /**
   * The shape is now the bytes `buf[start, start + n)`: an info line's head up to the end of its level word (then
   * `after`: the next byte must be one allowed after a word, or the line's end), or a JSON or logfmt line's up to the
   * end of its level value (any byte may follow).
   */
  shape(start: number, n: number, after: boolean): void {
    const m = this.memory;
    const length = n > SHAPE_ROOM ? 0 : n;
    for (let k = 0; k < SHAPE_ROOM; k++) {
      const c = k < length ? this.buf[start + k] : 0;
      m[SHAPE + k] = c;
      m[DIGITS + k] = k < length && c >= 0x30 && c <= 0x39 ? 0xff : 0;
      m[ANY + k] = k < length ? 0 : 0xff;
    }
    if (after) m.set(AFTER_WORD, AFTER_AT);
    else m.fill(1, AFTER_AT, AFTER_AT + 256);
    new DataView(m.buffer).setInt32(LENGTH, length, true);
    this.ready = length > 0;
  }

  /**
   * Take the lines from `p` (a line start) that repeat the shape and end before `end`: returns how many (their
   * starts are in `starts`); `at` is then the start of the first line not taken.
   */
  take(p: number, end: number): number {
    return this.runLines(DATA + p, DATA + end, STARTS, RUN_LINES, DATA);
  }

  get at(): number {
    return this.stop.value - DATA;
  }
}
