import { createHash } from 'node:crypto';
import { holdsSecret } from './apply';

/** What providers accept as a tool name or a tool call id (OpenAI and Anthropic both: `^[a-zA-Z0-9_-]{1,64}$`). */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A tool call id or name as it may go on the wire: itself when it is a valid id that holds no secret, else a
 * stable stand-in derived from it (`id_` + 16 hex of its SHA-256), so that a call and its results still pair up
 * and nothing of the original text is sent.
 */
export function safeId(id: string): string {
  if (SAFE_ID.test(id) && !holdsSecret(id)) return id;
  return `id_${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
}
