import * as fs from 'node:fs';
import * as path from 'node:path';
import { dedupe, HOOK_STATE_FILE, injectionHash, parseHookState } from '../core/agents/hook-dedupe';
import { resolveInWorkspace } from '../core/sources/guard';

/**
 * The hook's memory of what it injected in each session (`.context/hook-sessions.json`, hook-dedupe.ts): read and
 * written through the workspace guard (never through a link, never outside the workspace). A file that cannot be
 * read or written only costs a repeated injection: the hook never fails for it.
 */
export function rememberInjection(root: string, sessionId: string | undefined, source: string, text: string): { repeat: boolean; earlier?: string } {
  if (!sessionId) return { repeat: false };
  const d = resolveInWorkspace(path.join(root, HOOK_STATE_FILE), { root, access: 'write', mayBeMissing: true });
  if (!d.ok) return { repeat: false };
  let existing: string | undefined;
  try {
    existing = d.exists === false ? undefined : fs.readFileSync(d.abs, 'utf8');
  } catch {
    existing = undefined;
  }
  const r = dedupe(parseHookState(existing), sessionId, source, injectionHash(text));
  if (!r.repeat && fs.existsSync(path.dirname(d.abs))) {
    try {
      fs.writeFileSync(d.abs, JSON.stringify(r.next) + '\n');
    } catch {
      // not remembered: the next resume injects again
    }
  }
  return { repeat: r.repeat, earlier: r.earlier };
}
