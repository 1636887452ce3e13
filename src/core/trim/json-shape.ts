import { JsonTokenizer, type JsonHandler, type JsonScalar } from './json-stream';

/**
 * The shape of a JSON payload (keys, types, array lengths), built from the tokenizer's events, and the first
 * records of its main array. Bounded: keys per object, records, string lengths and depth are capped.
 */

const MAX_KEYS = 64;
/** Arrays whose records are captured: the root, or reached through at most this many keys (not inside an array). */
const RECORD_DEPTH = 3;
const STRING_CLIP = 160;
const RECORD_ARRAY_ITEMS = 5;
const RECORD_DEPTH_CAP = 6;

export interface ShapeNode {
  types: Set<string>;
  seen: number;
  objects: number;
  keys?: Map<string, ShapeNode>;
  otherKeys: number;
  items?: ShapeNode;
  arrays: number;
  minLength: number;
  maxLength: number;
}

export interface RecordSet {
  path: string;
  /** Elements seen in this array (all occurrences). */
  length: number;
  records: unknown[];
}

export interface JsonShape {
  root: ShapeNode;
  documents: number;
  /** JSON Lines: the lines; else the array with the most elements among the root and the arrays reached by keys. */
  main?: RecordSet;
}

const node = (): ShapeNode => ({ types: new Set(), seen: 0, objects: 0, otherKeys: 0, arrays: 0, minLength: Infinity, maxLength: 0 });

interface Frame {
  node: ShapeNode;
  kind: 'object' | 'array';
  length: number;
  key?: string;
  path?: string;
  records?: RecordSet;
}

/** Builds one JS value (a record) from events, with strings, arrays and depth capped. */
class RecordBuilder {
  private stack: { container: unknown[] | Record<string, unknown>; key?: string; dropped: number }[] = [];
  private skipping = 0;
  value: unknown;
  done = false;

  private place(v: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.value = v;
      this.done = true;
    } else if (Array.isArray(top.container)) {
      if (top.container.length < RECORD_ARRAY_ITEMS) top.container.push(v);
      else top.dropped++;
    } else top.container[top.key ?? ''] = v;
  }
  open(kind: 'object' | 'array'): void {
    if (this.skipping > 0 || this.stack.length >= RECORD_DEPTH_CAP) {
      if (this.skipping++ === 0) this.place(kind === 'object' ? '{…}' : '[…]');
      return;
    }
    const container = kind === 'object' ? {} : [];
    this.place(container);
    this.done = false;
    this.stack.push({ container, dropped: 0 });
  }
  close(): void {
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    const top = this.stack.pop();
    if (top && Array.isArray(top.container) && top.dropped > 0) top.container.push(`…(+${top.dropped} more)`);
    if (this.stack.length === 0) this.done = true;
  }
  key(k: string): void {
    if (this.skipping > 0) return;
    const top = this.stack[this.stack.length - 1];
    if (top) top.key = k;
  }
  scalar(v: JsonScalar, length?: number): void {
    if (this.skipping > 0) return;
    const full = length ?? (typeof v === 'string' ? v.length : 0);
    this.place(typeof v === 'string' && full > STRING_CLIP ? `${v.slice(0, STRING_CLIP)}…(+${full - STRING_CLIP} chars)` : v);
  }
}

export class ShapeBuilder implements JsonHandler {
  readonly root = node();
  private frames: Frame[] = [];
  private readonly sets = new Map<string, RecordSet>();
  private active: { target: RecordSet; build: RecordBuilder }[] = [];

  constructor(private readonly records: number) {}

  private slot(kind: string): { target: ShapeNode; path?: string } {
    const top = this.frames[this.frames.length - 1];
    let target: ShapeNode;
    let path: string | undefined;
    if (!top) {
      target = this.root;
      path = '$';
    } else if (top.kind === 'array') {
      top.length++;
      top.node.items ??= node();
      target = top.node.items;
    } else {
      const key = top.key ?? '';
      const keys = (top.node.keys ??= new Map());
      let child = keys.get(key);
      if (!child && keys.size >= MAX_KEYS) {
        top.node.otherKeys++;
        child = node();
      } else if (!child) {
        child = node();
        keys.set(key, child);
      }
      target = child;
      const depth = top.path === undefined ? Infinity : top.path.split('.').length;
      path = depth <= RECORD_DEPTH ? `${top.path}.${key}` : undefined;
    }
    target.types.add(kind);
    target.seen++;
    return { target, path };
  }

  /** Route an event to the records being built, after starting one for an element of a captured array. */
  private capture(event: (b: RecordBuilder) => void, starts: boolean): void {
    if (starts) {
      const top = this.frames[this.frames.length - 1];
      const set = top?.kind === 'array' ? top.records : this.frames.length === 0 ? this.rootSet() : undefined;
      if (set && set.records.length < this.records && !this.active.some((a) => a.target === set)) {
        this.active.push({ target: set, build: new RecordBuilder() });
      }
    }
    if (this.active.length === 0) return;
    for (const a of this.active) {
      event(a.build);
      if (a.build.done) a.target.records.push(a.build.value);
    }
    this.active = this.active.filter((a) => !a.build.done);
  }

  /** JSON Lines: each document is a record. */
  private readonly docs: RecordSet = { path: '$ (one record per line)', length: 0, records: [] };
  private rootSet(): RecordSet {
    this.docs.length++;
    return this.docs;
  }

  startObject(): void {
    this.capture((b) => b.open('object'), true);
    const { target, path } = this.slot('object');
    target.objects++;
    this.frames.push({ node: target, kind: 'object', length: 0, path });
  }
  startArray(): void {
    this.capture((b) => b.open('array'), true);
    const { target, path } = this.slot('array');
    let records: RecordSet | undefined;
    if (path !== undefined) {
      records = this.sets.get(path);
      if (!records) this.sets.set(path, (records = { path, length: 0, records: [] }));
    }
    this.frames.push({ node: target, kind: 'array', length: 0, path, records });
  }
  private end(): void {
    const frame = this.frames.pop();
    if (frame?.kind === 'array') {
      frame.node.arrays++;
      frame.node.minLength = Math.min(frame.node.minLength, frame.length);
      frame.node.maxLength = Math.max(frame.node.maxLength, frame.length);
      if (frame.records) frame.records.length += frame.length;
    }
    this.capture((b) => b.close(), false);
  }
  endObject(): void {
    this.end();
  }
  endArray(): void {
    this.end();
  }
  key(name: string): void {
    const top = this.frames[this.frames.length - 1];
    if (top) top.key = name;
    for (const a of this.active) a.build.key(name);
  }
  value(v: JsonScalar, length?: number): void {
    this.capture((b) => b.scalar(v, length), true);
    this.slot(v === null ? 'null' : typeof v);
  }

  result(documents: number): JsonShape {
    // JSON Lines: the lines are the records. One document: its largest array reached by keys.
    const main = documents > 1 ? this.docs : [...this.sets.values()].filter((s) => s.length > 0).sort((a, b) => b.length - a.length || a.path.length - b.path.length)[0];
    return { root: this.root, documents, main };
  }
}

/** Read the shape of a JSON document or of JSON Lines, streamed. Throws JsonSyntaxError on invalid JSON. */
export function readShape(lines: Iterable<string>, records: number): JsonShape {
  const builder = new ShapeBuilder(records);
  const tokenizer = new JsonTokenizer(builder);
  for (const line of lines) tokenizer.feedLine(line);
  tokenizer.end();
  return builder.result(tokenizer.documents);
}

/** The shape as indented pseudo-JSON: `"key"?: type`, `[n] of …`; deeper than `depth` levels is summarised. */
export function renderShape(n: ShapeNode, depth = 8, indent = ''): string {
  const scalars = [...n.types].filter((t) => t !== 'object' && t !== 'array');
  const parts: string[] = [];
  if (n.types.has('object')) {
    const keys = [...(n.keys ?? new Map<string, ShapeNode>()).entries()];
    if (keys.length === 0) parts.push('{}');
    else if (depth <= 0) parts.push(`{…${keys.length}${n.otherKeys ? '+' : ''} keys}`);
    else {
      const inner = keys.map(([k, child]) => {
        const optional = child.seen < n.objects ? '?' : '';
        return `${indent}  ${JSON.stringify(k)}${optional}: ${renderShape(child, depth - 1, indent + '  ')}`;
      });
      if (n.otherKeys) inner.push(`${indent}  …: ${n.otherKeys} values under more keys`);
      parts.push(`{\n${inner.join(',\n')}\n${indent}}`);
    }
  }
  if (n.types.has('array')) {
    const len = n.minLength === n.maxLength ? `${n.maxLength}` : `${n.minLength}..${n.maxLength}`;
    parts.push(n.items && n.maxLength > 0 ? `[${len}] of ${depth <= 0 ? '…' : renderShape(n.items, depth - 1, indent)}` : `[${len}]`);
  }
  parts.push(...scalars);
  return parts.join(' | ');
}
