import { wrap } from '../chain/render';
import type { Block } from '../types';
import { num } from '../report/trace';
import type { Reinjection } from './reinject';

/**
 * What `ctxctl hook claude-code` prints on PreCompact (a `/compact` or an automatic compaction). Claude Code takes a
 * PreCompact hook's plain stdout as instructions for the compaction (`newCustomInstructions`, cut above 10 000
 * characters in 2.1.332), so the summary it writes keeps the session's structured summary and names the pins:
 * they are re-injected whole after the compaction (SessionStart "compact"), and the summary must not contradict
 * them. Within `maxChars`: the instruction line, the structured summary (whole, or named when it does not fit),
 * then the pins as the re-injection sized them. Pure.
 */
export function precompactText(trigger: string, summary: Block | undefined, pinsWithin: (maxChars: number) => Reinjection, maxChars: number): string {
  const head = `[Context Control] Instructions for this compaction (${trigger}): keep the decisions, constraints, open questions and next steps of the structured session summary below in your summary, and keep the AGENTS.md rules and pinned blocks below as they are: they are re-injected whole after the compaction, so name them rather than restate them, and never summarise them into something else.`;
  const summaryText = summary ? wrap(summary) : undefined;
  // The summary goes whole when it leaves the pins at least PIN_ROOM characters; else it is named.
  const fits = summaryText !== undefined && head.length + summaryText.length + 4 + PIN_ROOM <= maxChars;
  const middle = summaryText === undefined ? '[No structured session summary yet (.context/session.summaries.jsonl).]' : fits ? summaryText : `[The structured session summary (${num(summary!.tokens)} tokens) does not fit here; ctxctl session shows it.]`;
  const pins = pinsWithin(maxChars - head.length - middle.length - 4);
  return [head, middle, pins.text].join('\n\n');
}

/** The least room the pins keep beside the summary. */
const PIN_ROOM = 3000;
