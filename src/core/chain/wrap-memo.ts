import type { Redaction } from '../redact/apply';
import type { Tokenizer } from '../tokens';
import type { Block } from '../types';

/**
 * What the chain knows of a block's wrapped text between assemblies (render.ts wrap): the text as it goes in the
 * request (escaped, wrapped, redacted), what that redaction found, and its exact count per tokenizer. After a
 * one-document edit only that document is escaped, redacted and counted again; every other block is looked up.
 *
 * Keyed by the block's text, then by everything else the wrapped text is made of (kind, source,
 * trust and the few meta fields render.ts reads). A block whose text or any of those changes gets a new entry; the
 * old one ages out (bounded by entries and characters held).
 */
export interface WrapEntry {
  /** A stable name for this entry while it lives (the placement memo's key). */
  readonly id: string;
  /** The wrapped, redacted text. */
  readonly text: string;
  /** What the redaction of the wrapped text found (lines within it). */
  readonly found: readonly Redaction[];
  /** Exact counts of `text`, by tokenizer. */
  readonly counts: WeakMap<Tokenizer, number>;
}

export const WRAP_MEMO_ENTRIES = 8192;
export const WRAP_MEMO_CHARS = 64 * 1024 * 1024;
/**
 * Shapes kept under one text, the oldest forgotten first: a text seen under ever new shapes (a log trimmed to new
 * figures at every call) would otherwise hold an entry for each, outside the bound on texts.
 */
export const WRAP_MEMO_SHAPES = 8;

/**
 * Entries by block text, the text itself the key: the engine hashes a string once and compares the same string by
 * identity, and blocks copied from stage to stage share their text, so a lookup costs next to nothing. Under one text,
 * each shape's entry (rarely more than one), found by comparing the shapes' fields.
 */
const slots = new Map<string, { shape: Shape; entry: WrapEntry }[]>();
let heldChars = 0;
let made = 0;

function slotOf(text: string): { shape: Shape; entry: WrapEntry }[] {
  let slot = slots.get(text);
  if (slot) {
    // Most recently used goes last.
    slots.delete(text);
    slots.set(text, slot);
    return slot;
  }
  slot = [];
  slots.set(text, slot);
  heldChars += text.length;
  for (const k of slots.keys()) {
    if (slots.size <= WRAP_MEMO_ENTRIES && heldChars <= WRAP_MEMO_CHARS) break;
    slots.delete(k);
    heldChars -= k.length;
  }
  return slot;
}

/** What a block's wrapped text depends on besides its text (render.ts wrapRaw): plain values, compared one by one. */
export type Shape = readonly unknown[];

export function wrapShape(b: Block): Shape {
  switch (b.kind) {
    case 'system_instructions':
    case 'tool_definitions':
    case 'index':
    case 'session_group':
      return [b.kind];
    default: {
      const m = b.meta;
      const t = m.trim;
      return [b.kind, b.source, b.trust, m.title, m.status, m.summarized, m.offload?.path, m.commit?.path, m.commit?.id, t !== undefined, t?.original_lines, t?.retained_lines, t?.original_tokens, t?.original_tokens_exact, t?.reference];
    }
  }
}

/** Whether two shapes hold the same values (a value that is not equal to itself, NaN, only costs a new entry). */
export function sameShape(a: Shape, b: Shape): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The entry of a block object already asked for. Blocks are treated as values once built: a stage that changes a
 * block makes a new one (`{ ...b, … }`), so an object's wrapped text never changes.
 */
const byBlock = new WeakMap<Block, WrapEntry>();

/** The block's entry, made with `make` (the wrapped text and its redactions) when it is not known. */
export function wrapEntry(block: Block, make: (b: Block) => { text: string; found: Redaction[] }): WrapEntry {
  const known = byBlock.get(block);
  if (known) return known;
  const shape = wrapShape(block);
  const slot = slotOf(block.text);
  let entry = slot.find((e) => sameShape(e.shape, shape))?.entry;
  if (!entry) {
    const r = make(block);
    entry = { id: `w${++made}`, text: r.text, found: r.found.map((f) => ({ ...f })), counts: new WeakMap() };
    if (slot.length >= WRAP_MEMO_SHAPES) slot.shift();
    slot.push({ shape, entry });
  }
  byBlock.set(block, entry);
  return entry;
}

/** The exact count of the entry's text by `tokenizer`, counted once per entry and tokenizer. */
export function entryCount(entry: WrapEntry, tokenizer: Tokenizer): number {
  let n = entry.counts.get(tokenizer);
  if (n === undefined) {
    n = tokenizer.count(entry.text);
    entry.counts.set(tokenizer, n);
  }
  return n;
}

/** How many blocks are known, for tests. */
export function wrapMemoSize(): number {
  return slots.size;
}

/** How many shapes are known under `text`, for tests. */
export function wrapMemoShapes(text: string): number {
  return slots.get(text)?.length ?? 0;
}

/** Forget every block (tests). */
export function clearWrapMemo(): void {
  slots.clear();
  heldChars = 0;
}
