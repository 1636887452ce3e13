import { contentHash } from '../tokens';

/**
 * What the hook injected earlier in a session, so a request never carries the same re-injection twice (issue 28):
 * after `/compact` then `--continue`, the resumed transcript already holds the compact injection, and the resume
 * one repeated it. A compaction or a clear drops what was injected, a new session has none: those always inject.
 * A resume of a session whose last injection is byte-identical adds nothing. The state is a short list, newest last,
 * kept in `.context/hook-sessions.json`. Pure.
 */

export interface HookState {
  sessions: { id: string; source: string; hash: string }[];
}

/** Sessions remembered: the oldest are forgotten (a forgotten session just gets its injection again). */
export const KEEP_SESSIONS = 50;
export const HOOK_STATE_FILE = '.context/hook-sessions.json';

/** The state file's text; anything unreadable is an empty state (the worst case is one repeated injection). */
export function parseHookState(text: string | undefined): HookState {
  if (!text) return { sessions: [] };
  try {
    const raw = JSON.parse(text) as { sessions?: unknown };
    const sessions = Array.isArray(raw.sessions) ? raw.sessions.filter((s): s is HookState['sessions'][number] => !!s && typeof s.id === 'string' && typeof s.source === 'string' && typeof s.hash === 'string') : [];
    return { sessions };
  } catch {
    return { sessions: [] };
  }
}

export function injectionHash(text: string): string {
  return contentHash(text);
}

/** Whether this SessionStart repeats what the session already holds, and the state after it. */
export function dedupe(state: HookState, sessionId: string | undefined, source: string, hash: string): { repeat: boolean; earlier?: string; next: HookState } {
  if (!sessionId) return { repeat: false, next: state };
  const last = [...state.sessions].reverse().find((s) => s.id === sessionId);
  const repeat = source === 'resume' && last?.hash === hash;
  if (repeat) return { repeat, earlier: last!.source, next: state };
  const others = state.sessions.filter((s) => s.id !== sessionId);
  return { repeat: false, next: { sessions: [...others, { id: sessionId, source, hash }].slice(-KEEP_SESSIONS) } };
}
