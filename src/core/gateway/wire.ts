/**
 * What the gateway's planner needs from one request of an agent, whatever its API: the text slots it may change
 * (tool results and the user's own text, never an assistant turn), where the last user turn starts, and one place
 * to add a system block. Each wire format (anthropic.ts, responses.ts, chat.ts) builds this view over the parsed
 * body; setting a slot changes that body in place, nothing else in it.
 */

export type Api = 'anthropic' | 'responses' | 'chat';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface TextSlot {
  kind: 'tool_result' | 'user_text';
  /** A JSON-path-like location, for the manifest: `messages[3].content[1].content[0]`. */
  where: string;
  /** Index of the message (or input item) that holds it. */
  item: number;
  /** The tool-use id a tool result answers (never changed), and the tool's name when the request says it. */
  callId?: string;
  tool?: string;
  /** The text as received: what decisions are keyed by. */
  text: string;
  /** The text as sent, once the planner changed it. */
  sent?: string;
  set(text: string): void;
}

export interface WireView {
  api: Api;
  body: JsonObject;
  model?: string;
  stream: boolean;
  /** The conversation list: `messages`, or the Responses `input` items. */
  items: Json[];
  /** Index of the first item of the last user turn (what the agent added since its model last answered). */
  tail: number;
  slots: TextSlot[];
  /** What identifies the conversation besides its first user item (a session id or a prompt cache key), if the request says. */
  conversationHint?: string;
  /** The system text as sent (instructions, system prompt), for counting and presence checks. */
  systemText(): string;
  /** The tool definitions, serialized, for counting only (never changed). */
  toolsJson(): string;
  /** Add one system block at the end of the system part; the messages keep their order. */
  addSystemBlock(text: string): void;
}

export function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: Json | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The text parts of a `content` that is a string or a list of `{type, text}` parts of the given types. */
export function textParts(
  owner: JsonObject,
  key: string,
  types: readonly string[],
  at: string,
  make: (where: string, text: string, set: (t: string) => void) => TextSlot,
): TextSlot[] {
  const value = owner[key];
  if (typeof value === 'string') return [make(`${at}.${key}`, value, (t) => (owner[key] = t))];
  if (!Array.isArray(value)) return [];
  const out: TextSlot[] = [];
  value.forEach((part, j) => {
    if (isObject(part) && types.includes(str(part.type) ?? '') && typeof part.text === 'string') {
      out.push(make(`${at}.${key}[${j}]`, part.text, (t) => (part.text = t)));
    }
  });
  return out;
}
