/**
 * How much of a hook's `additionalContext` each client keeps, in characters (they measure characters, not tokens).
 * Claude Code 2.1 keeps up to 10 000 characters; above that it passes a 2 KB preview instead, and the pins are gone.
 * Codex 0.17 cuts the middle of a long hook context; its limit for hooks is not documented, so the hook keeps to the
 * same 10 000. The hook aims below the limit by a margin, so a note that grows by a few characters never crosses it.
 */

export type HookClient = 'claude-code' | 'codex';

export const HOOK_CLIENTS: readonly HookClient[] = ['claude-code', 'codex'];

export interface ClientLimit {
  client: HookClient;
  /** What the client is documented or measured to keep whole. */
  limitChars: number;
  /** What the hook sends at most: the limit less the margin. */
  maxChars: number;
  /** In the note: "Claude Code keeps 10 000 characters of a hook". */
  label: string;
}

export const HOOK_CONTEXT_LIMIT_CHARS = 10_000;
export const HOOK_CONTEXT_MARGIN_CHARS = 500;

export function clientLimit(client: HookClient): ClientLimit {
  const label = client === 'codex' ? 'Codex' : 'Claude Code';
  return { client, limitChars: HOOK_CONTEXT_LIMIT_CHARS, maxChars: HOOK_CONTEXT_LIMIT_CHARS - HOOK_CONTEXT_MARGIN_CHARS, label };
}

/**
 * The client: `--client` when given, else the agent named on the command line when it is one, else the event's
 * transcript path (Codex keeps its sessions under `.codex/`), else Claude Code.
 */
export function detectClient(flag: string | undefined, agent: string | undefined, transcriptPath: string | undefined): HookClient | { error: string } {
  if (flag !== undefined) return (HOOK_CLIENTS as string[]).includes(flag) ? (flag as HookClient) : { error: `--client must be one of ${HOOK_CLIENTS.join(', ')}, got "${flag}"` };
  if (agent === 'codex') return 'codex';
  if (transcriptPath && /(^|[\\/])\.codex[\\/]/.test(transcriptPath)) return 'codex';
  return 'claude-code';
}
