import { createHash } from 'node:crypto';

/**
 * The per-conversation memory that keeps the agent's prefix byte-identical across calls: each transform decided
 * for a slot, keyed by the hash of the slot's original text, is replayed as is on every later call (even once
 * that slot is before the last user turn, where nothing new is decided); the durable blocks added once stay added;
 * the hashes of the last request sent say whether the next one kept its prefix. Plain data, bounded, in memory;
 * `toJSON` / `fromJSON` let a host keep it across restarts.
 */

export interface StoredChange {
  /** What replaces the slot's text. */
  text: string;
  /** Why, as the manifest says it the first time (`offloaded`, `agent-preview`, `redacted`, …). */
  rules: string[];
  reason: string;
  /** The offload path or the agent's saved file the text names, if any. */
  path?: string;
}

export interface PrefixState {
  /** Hash of the system part and the tool definitions. */
  head: string;
  /** Hash of each item, in order. */
  items: string[];
}

export interface Conversation {
  changes: Map<string, StoredChange>;
  /** Sources of the durable blocks added to this conversation (kept added while they exist). */
  durableAdded: Set<string>;
  lastSent?: PrefixState;
  lastReceived?: PrefixState;
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The key of a slot: its kind and its original text. */
export function slotKey(kind: string, text: string): string {
  return hashText(`${kind}\u0000${text}`);
}

const MAX_CONVERSATIONS = 256;
const MAX_CHANGES = 4096;

export class DecisionStore {
  private readonly conversations = new Map<string, Conversation>();

  /** The conversation, created when new; the most recently used are kept. */
  conversation(id: string): Conversation {
    let c = this.conversations.get(id);
    if (c) this.conversations.delete(id);
    else c = { changes: new Map(), durableAdded: new Set() };
    this.conversations.set(id, c);
    while (this.conversations.size > MAX_CONVERSATIONS) this.conversations.delete(this.conversations.keys().next().value as string);
    return c;
  }

  remember(c: Conversation, key: string, change: StoredChange): void {
    c.changes.set(key, change);
    while (c.changes.size > MAX_CHANGES) c.changes.delete(c.changes.keys().next().value as string);
  }

  get size(): number {
    return this.conversations.size;
  }

  /** The `keep` most recently used conversations, as plain data. */
  toJSON(keep = MAX_CONVERSATIONS): unknown {
    return [...this.conversations].slice(-keep).map(([id, c]) => ({ id, changes: [...c.changes], durableAdded: [...c.durableAdded], lastSent: c.lastSent, lastReceived: c.lastReceived }));
  }

  static fromJSON(data: unknown): DecisionStore {
    const store = new DecisionStore();
    if (!Array.isArray(data)) return store;
    for (const raw of data as { id?: unknown; changes?: unknown; durableAdded?: unknown; lastSent?: PrefixState; lastReceived?: PrefixState }[]) {
      if (typeof raw?.id !== 'string' || !Array.isArray(raw.changes)) continue;
      const c = store.conversation(raw.id);
      for (const entry of raw.changes as [string, StoredChange][]) if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1]?.text === 'string') c.changes.set(entry[0], entry[1]);
      if (Array.isArray(raw.durableAdded)) for (const s of raw.durableAdded) if (typeof s === 'string') c.durableAdded.add(s);
      c.lastSent = raw.lastSent;
      c.lastReceived = raw.lastReceived;
    }
    return store;
  }
}
