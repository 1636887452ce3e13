import type * as vscode from 'vscode';
import type { SessionEvent } from '../../core/types';

/** Session source of the events replayed from a chat view's history (manifest and trace name it). */
export const CHAT_SESSION_SOURCE = 'chat';

/** A request turn as the chat view gives it (ChatRequestTurn), read by shape so tests can build one. */
export interface RequestTurnLike {
  prompt: string;
  participant: string;
  command?: string;
}

/** A response turn (ChatResponseTurn): only its markdown parts are text the model saw. */
export interface ResponseTurnLike {
  response: ReadonlyArray<unknown>;
  participant: string;
  command?: string;
  result?: vscode.ChatResult;
}

export type TurnLike = RequestTurnLike | ResponseTurnLike;

function isRequest(turn: TurnLike): turn is RequestTurnLike {
  return typeof (turn as RequestTurnLike).prompt === 'string';
}

/** The markdown text of a response part (ChatResponseMarkdownPart: `value` is a MarkdownString). */
function markdownOf(part: unknown): string | undefined {
  const value = (part as { value?: unknown } | undefined)?.value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') return (value as { value: string }).value;
  return undefined;
}

/**
 * The chat's earlier turns as session events, oldest first, so the chain groups, replays and compacts them by the
 * same rules as a stored session. Only exchanges that went to a model are replayed: turns of `/preview`, `/explain`
 * and `/compact` (which send nothing) and refused or failed requests are left out, with the count of what was left.
 * The answer text is what the model wrote: the participant's own budget line and notices are not part of it
 * (`result.metadata.answer` carries the answer alone; without it, the markdown parts are joined).
 */
export function historyEvents(history: ReadonlyArray<TurnLike>, participant: string): { events: SessionEvent[]; skipped: number } {
  const events: SessionEvent[] = [];
  let skipped = 0;
  let pending: { prompt: string; index: number } | undefined;
  history.forEach((turn, index) => {
    if (turn.participant !== participant) return;
    if (isRequest(turn)) {
      if (pending) skipped++;
      pending = turn.command ? undefined : { prompt: turn.prompt, index };
      if (turn.command) skipped++;
      return;
    }
    if (turn.command || !pending) return;
    const answer = typeof turn.result?.metadata?.answer === 'string' ? (turn.result.metadata.answer as string) : turn.response.map(markdownOf).filter((t) => t !== undefined).join('');
    if (turn.result?.errorDetails || turn.result?.metadata?.sent === false || !answer.trim()) {
      skipped++;
      pending = undefined;
      return;
    }
    events.push({ id: `chat-t${pending.index + 1}-user`, type: 'user', text: pending.prompt });
    events.push({ id: `chat-t${index + 1}-assistant`, type: 'assistant', text: answer });
    pending = undefined;
  });
  if (pending) skipped++;
  return { events, skipped };
}
