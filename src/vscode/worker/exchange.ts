import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionEvent } from '../../core/types';

/** Create the editor's session store on first use, as a copy of the workspace's stored session when there is one. */
export function ensureSessionStore(store: string, seed: string | undefined): void {
  if (fs.existsSync(store)) return;
  fs.mkdirSync(path.dirname(store), { recursive: true });
  fs.writeFileSync(store, seed && fs.existsSync(seed) ? fs.readFileSync(seed) : '');
}

/** The exchange as session events: the task, the loop's tool calls and results, the answer. */
export function exchangeEvents(task: string, outcome: { answer: string; events: SessionEvent[] }, now: Date): SessionEvent[] {
  const ts = now.toISOString();
  const stamp = ts.replace(/[-:.TZ]/g, '');
  const events: SessionEvent[] = [{ id: `u${stamp}`, ts, type: 'user', text: task }, ...outcome.events];
  if (outcome.answer) events.push({ id: `a${stamp}`, ts, type: 'assistant', text: outcome.answer });
  return events;
}
