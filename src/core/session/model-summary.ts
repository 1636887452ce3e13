import { escapeAttr, escapeXml, type NeutralRequest } from '../chain/render';
import { redact } from '../redact/apply';
import type { SessionEvent } from '../types';
import { constraintsInPlay, type Constraint } from './constraints';
import { SUMMARY_JSON_SCHEMA } from './schema';

/**
 * The request that asks the configured model for a structured summary, with the JSON schema written into the
 * request, and the parser of its answer. No transport here: a provider sends the NeutralRequest (and may also pass
 * `schema` as its structured-output option); the answer goes through parseSummaryResponse, then validateSummary.
 */

export interface SummaryRequestInput {
  model: string;
  /** The events to fold, in order. */
  events: SessionEvent[];
  constraints: Constraint[];
  /** Workspace paths the summary may cite. */
  knownSources: string[];
  maxOutputTokens?: number;
}

export interface SummaryRequest {
  request: NeutralRequest;
  /** Name and schema for providers with structured output (OpenAI response_format, Anthropic tool input). */
  schemaName: 'session_summary';
  schema: typeof SUMMARY_JSON_SCHEMA;
}

export const SUMMARY_INSTRUCTIONS = [
  'You compact the older part of a coding-agent session into a structured summary that will replace those events in later requests.',
  'Answer with exactly one JSON object that matches the JSON schema below, and nothing else: no prose, no code fence.',
  'Rules, checked before the summary is used:',
  '- established_facts: only what the events confirm. A question, a hypothesis or anything "not confirmed" goes to unresolved_questions, worded as open.',
  '- completed_actions: only actions that were carried out. Proposals, drafts and plans go to next_step or nowhere, never here.',
  '- decisions: every constraint listed in <constraints> that the events quote must appear, with its wording kept.',
  '- sources: only paths from <workspace-paths> or event ids (e.g. "e09"); never a path that is not listed.',
  '- Copy identifiers (commits, tickets, class names, paths) exactly. Do not invent anything.',
].join('\n');

export function buildSummaryRequest(input: SummaryRequestInput): SummaryRequest {
  const schema = JSON.stringify(SUMMARY_JSON_SCHEMA, null, 2);
  const system = `${SUMMARY_INSTRUCTIONS}\n\nJSON schema (session_summary):\n${schema}`;
  const quoted = constraintsInPlay(input.constraints, input.events);
  const constraints = quoted.map((c) => `  <constraint${attr('source', c.source)}${attr('quoted-in', c.event)}>${escapeXml(c.text)}</constraint>`);
  const events = input.events.map(
    (e) => `  <event${attr('id', e.id)}${attr('type', e.type)}${attr('tool', e.tool)}${attr('call-id', e.call_id)}>\n${escapeXml(e.text)}\n  </event>`,
  );
  const content = [
    `<constraints>\n${constraints.join('\n')}\n</constraints>`,
    `<workspace-paths>\n${input.knownSources.map((p) => `  ${escapeXml(p)}`).join('\n')}\n</workspace-paths>`,
    `<session-events from="${escapeAttr(input.events[0]?.id ?? '')}" to="${escapeAttr(input.events.at(-1)?.id ?? '')}">\n${events.join('\n')}\n</session-events>`,
    'Summarize these events as one session_summary JSON object.',
  ].join('\n\n');
  return {
    // This request does not go through render: it passes the redaction rule set here (paths, ids, quoted text).
    request: { model: input.model, system, messages: [{ role: 'user', content: redact(content).text, blocks: [] }], tools: [], maxOutputTokens: input.maxOutputTokens ?? 2000 },
    schemaName: 'session_summary',
    schema: SUMMARY_JSON_SCHEMA,
  };
}

function attr(name: string, value: string | undefined): string {
  return value === undefined || value === '' ? '' : ` ${name}="${escapeAttr(value)}"`;
}

export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Read the model's answer: the JSON object it holds, tolerating a code fence or text around it. The value still
 * has to pass validateSummary (schema and content) before it is used.
 */
export function parseSummaryResponse(text: string): ParsedAnswer {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(text);
  const body = (fenced ? fenced[1] : text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, reason: `the answer holds no JSON object: "${body.slice(0, 80)}"` };
  try {
    return { ok: true, value: JSON.parse(body.slice(start, end + 1)) };
  } catch (e) {
    return { ok: false, reason: `the answer is not valid JSON: ${(e as Error).message}` };
  }
}

/** Ask a model through any transport (`send` returns the answer's text), then parse. */
export async function requestModelSummary(input: SummaryRequestInput, send: (request: SummaryRequest) => Promise<string>): Promise<ParsedAnswer> {
  return parseSummaryResponse(await send(buildSummaryRequest(input)));
}
