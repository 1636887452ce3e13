/**
 * A bounded, least-recently-used memo of redaction results, keyed by a cheap hash of the text plus its length.
 * The key only finds a candidate: a hit is served only when the stored text equals the asked text, so a hash
 * collision costs a re-scan, never a wrong answer. Bounded by entry count and by the characters it holds.
 */

/** FNV-1a over at most `SAMPLES` characters spread evenly over the text, plus its first and last 64. */
const SAMPLES = 256;
const EDGE = 64;

export function cheapHash(text: string): number {
  let h = 0x811c9dc5;
  const mix = (c: number) => {
    h ^= c;
    h = Math.imul(h, 0x01000193);
  };
  const n = text.length;
  if (n <= SAMPLES + 2 * EDGE) {
    for (let i = 0; i < n; i++) mix(text.charCodeAt(i));
    return h >>> 0;
  }
  for (let i = 0; i < EDGE; i++) mix(text.charCodeAt(i));
  for (let i = n - EDGE; i < n; i++) mix(text.charCodeAt(i));
  const step = (n - 2 * EDGE) / SAMPLES;
  for (let k = 0; k < SAMPLES; k++) mix(text.charCodeAt(EDGE + Math.floor(k * step)));
  return h >>> 0;
}

export class TextMemo<V> {
  private readonly map = new Map<string, { text: string; value: V }>();
  private chars = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxChars: number,
  ) {}

  private static key(text: string): string {
    return `${cheapHash(text)}:${text.length}`;
  }

  get(text: string): V | undefined {
    const key = TextMemo.key(text);
    const e = this.map.get(key);
    if (!e || e.text !== text) {
      this.misses++;
      return undefined;
    }
    // Most recently used goes last.
    this.map.delete(key);
    this.map.set(key, e);
    this.hits++;
    return e.value;
  }

  set(text: string, value: V): void {
    if (text.length > this.maxChars) return;
    const key = TextMemo.key(text);
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.chars -= old.text.length;
    }
    this.map.set(key, { text, value });
    this.chars += text.length;
    for (const [k, e] of this.map) {
      if (this.map.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.map.delete(k);
      this.chars -= e.text.length;
    }
  }

  get size(): number {
    return this.map.size;
  }

  get heldChars(): number {
    return this.chars;
  }

  clear(): void {
    this.map.clear();
    this.chars = 0;
    this.hits = 0;
    this.misses = 0;
  }
}
