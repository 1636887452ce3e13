/**
 * The hook events Claude Code (and Codex CLI, which uses the same shape) write on a command hook's stdin, as far as
 * this program reads them. Parsing never throws: a bad event is an error text the hook prints to stderr before it
 * exits 0, so a broken workspace or a changed event format never blocks the agent.
 */

export type HookEvent =
  | { name: 'SessionStart'; source: string; cwd?: string; transcriptPath?: string; sessionId?: string }
  | { name: 'UserPromptSubmit'; prompt: string; cwd?: string; transcriptPath?: string }
  | { name: 'PreCompact'; trigger: string; cwd?: string; transcriptPath?: string }
  | { name: 'other'; event: string; cwd?: string; transcriptPath?: string };

export const SESSION_START_SOURCES = ['startup', 'resume', 'clear', 'compact'];

export function parseHookEvent(input: string): { event: HookEvent } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(input);
  } catch (e) {
    return { error: `the hook event on stdin is not JSON (${(e as Error).message})` };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { error: 'the hook event on stdin must be a JSON object' };
  const o = raw as Record<string, unknown>;
  const name = o.hook_event_name;
  if (typeof name !== 'string' || name === '') return { error: 'the hook event has no "hook_event_name"' };
  const cwd = typeof o.cwd === 'string' && o.cwd !== '' ? o.cwd : undefined;
  const transcriptPath = typeof o.transcript_path === 'string' && o.transcript_path !== '' ? o.transcript_path : undefined;
  const extra = transcriptPath ? { cwd, transcriptPath } : { cwd };
  if (name === 'SessionStart') {
    const source = typeof o.source === 'string' && o.source !== '' ? o.source : 'startup';
    const sessionId = typeof o.session_id === 'string' && o.session_id !== '' ? o.session_id : undefined;
    return { event: { name, source, ...extra, ...(sessionId ? { sessionId } : {}) } };
  }
  if (name === 'PreCompact') {
    const trigger = typeof o.trigger === 'string' && o.trigger !== '' ? o.trigger : 'manual';
    return { event: { name, trigger, ...extra } };
  }
  if (name === 'UserPromptSubmit') {
    if (typeof o.prompt !== 'string') return { error: 'the UserPromptSubmit event has no "prompt" string' };
    return { event: { name, prompt: o.prompt, ...extra } };
  }
  return { event: { name: 'other', event: name, ...extra } };
}

/** The workspace: `--workspace`, else CLAUDE_PROJECT_DIR, else the event's cwd. */
export function hookWorkspace(flag: string | undefined, env: Record<string, string | undefined>, event: HookEvent): string | undefined {
  return flag ?? (env.CLAUDE_PROJECT_DIR || undefined) ?? event.cwd;
}

/** The JSON a command hook prints to add context (Claude Code's and Codex's `hookSpecificOutput`). */
export function additionalContextOutput(hookEventName: 'SessionStart' | 'UserPromptSubmit', additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext } });
}
