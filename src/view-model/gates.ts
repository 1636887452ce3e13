/** Why an action of the panel is unavailable, in words the panel shows next to it (undefined: available). */

export interface GateInput {
  /** The task box's text. */
  task: string;
  /** The task file the settings name, when the task box is empty. */
  taskFile?: string;
  status?: 'ok' | 'warning' | 'refused' | 'error';
  trusted: boolean;
  busy: boolean;
}

export function noTask(g: Pick<GateInput, 'task' | 'taskFile'>): boolean {
  return !g.task.trim() && !g.taskFile?.trim();
}

/** Send: needs a task, a trusted workspace, a valid request, and no run in flight. */
export function sendBlocked(g: GateInput): string | undefined {
  if (noTask(g)) return 'Type a task first: nothing is sent without one.';
  if (!g.trusted) return 'Sending needs a trusted workspace.';
  if (g.busy) return 'Wait for the preview to finish.';
  if (g.status === undefined) return 'Preview the request first.';
  if (g.status === 'refused') return 'The request would be refused: unpin or shorten a protected block.';
  if (g.status === 'error') return 'There is no valid request: see the error above.';
  return undefined;
}

/** Copy and Export: only the request of the current, valid preview (never a previous one). */
export function requestBlocked(g: Pick<GateInput, 'status' | 'busy'>): string | undefined {
  if (g.busy) return 'Wait for the preview to finish.';
  if (g.status === undefined) return 'Preview the request first.';
  if (g.status === 'refused') return 'No valid request: it would be refused.';
  if (g.status === 'error') return 'No valid request: see the error above.';
  return undefined;
}

/** Session actions: Compact needs stored events; Undo and Edit need a summary in use. */
export function sessionBlocked(session: { stored: number } | undefined, hasSummary: boolean): { compact?: string; summary?: string } {
  const none = !session || session.stored === 0 ? 'No session yet: nothing to compact.' : undefined;
  return { ...(none ? { compact: none } : {}), ...(hasSummary ? {} : { summary: 'No summary in use for this request.' }) };
}
