import * as path from 'node:path';
import picomatch from 'picomatch';
import type { NeutralRequest } from '../chain/render';
import type { Manifest } from '../report/manifest';
import { num } from '../report/trace';
import type { Decision } from '../types';
import type { AnswerKind, EvidenceKind, Expectation } from './checks-file';

/**
 * Evaluating context checks. Evidence expectations are checked against the request as built (its manifest and the
 * text of its messages); answer expectations against the model's answer. Every result says what was found, so a
 * failing line names the case, the expectation and what the request or the answer actually held.
 */

export interface CheckResult {
  kind: EvidenceKind | AnswerKind;
  /** The expectation as stated: `contains "paymentMethod is required"`. */
  expectation: string;
  ok: boolean;
  /** What was found: `selected (1 299 tokens, trimmed)`, `not in the request (…)`. */
  found: string;
  line: number;
}

/** What a decision section says about a source, for messages. */
const SECTIONS = ['rejected', 'offloaded', 'indexed', 'compacted'] as const;

export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case 'max_tokens':
      return `max_tokens ${num(Number(e.value))}`;
    case 'select':
    case 'reject':
    case 'cites':
      return `${e.kind} ${e.value}`;
    default:
      return `${e.kind} "${e.value}"`;
  }
}

/** The text the model reads: system and messages, with the provenance escaping undone so evidence matches as written. */
export function requestText(neutral: NeutralRequest): string {
  const raw = [neutral.system, ...neutral.messages.map((m) => m.content)].join('\n');
  return raw.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

export function checkEvidence(expectations: Expectation<EvidenceKind>[], manifest: Manifest, text: string): CheckResult[] {
  return expectations.map((e) => ({ kind: e.kind, expectation: describeExpectation(e), line: e.line, ...evidence(e, manifest, text) }));
}

function evidence(e: Expectation<EvidenceKind>, m: Manifest, text: string): { ok: boolean; found: string } {
  const final = m.budget.final;
  switch (e.kind) {
    case 'max_tokens': {
      const max = Number(e.value);
      return { ok: final <= max, found: `${num(final)} tokens${final > max ? `, ${num(final - max)} over` : ''}` };
    }
    case 'select': {
      const match = matcher(e.value);
      const hits = m.selected.filter((d) => match(d.source));
      if (hits.length > 0) return { ok: true, found: hits.map((d) => `selected ${d.source} (${num(d.tokens ?? 0)} tokens${trimNote(m, d.source)})`).join('; ') };
      const elsewhere = whereElse(m, match);
      return { ok: false, found: elsewhere || 'no block of the request or the manifest matches this path' };
    }
    case 'reject': {
      const match = matcher(e.value);
      const hits = m.selected.filter((d) => match(d.source));
      if (hits.length > 0) return { ok: false, found: hits.map((d) => `selected ${d.source} (${num(d.tokens ?? 0)} tokens): ${d.reason}`).join('; ') };
      const elsewhere = whereElse(m, match);
      return elsewhere ? { ok: true, found: elsewhere } : { ok: false, found: 'no decision of the manifest names this path: check the path' };
    }
    case 'contains': {
      if (text.includes(e.value)) return { ok: true, found: `in the request${inBlock(m, text, e.value)}` };
      const cut = [...m.trimmed.map((d) => `${d.source} trimmed ${d.original_tokens_exact === false ? '~' : ''}${num(Number(d.original_tokens ?? 0))} → ${num(d.tokens ?? 0)} tokens`), ...m.offloaded.map((d) => `${d.source} offloaded`)];
      return { ok: false, found: `not in the request (${num(final)} tokens)${cut.length ? `; ${cut.join('; ')}` : ''}` };
    }
    case 'excludes': {
      const at = text.indexOf(e.value);
      return at < 0 ? { ok: true, found: 'not in the request' } : { ok: false, found: `in the request: "${snippet(text, at, e.value.length)}"` };
    }
  }
}

export function checkAnswer(expectations: Expectation<AnswerKind>[], answer: string): CheckResult[] {
  const lower = answer.toLowerCase();
  return expectations.map((e) => {
    const base = { kind: e.kind, expectation: describeExpectation(e), line: e.line };
    const at = lower.indexOf(e.value.toLowerCase());
    if (e.kind === 'mentions') return { ...base, ok: at >= 0, found: at >= 0 ? `"${snippet(answer, at, e.value.length)}"` : `not in the answer (${num(answer.length)} characters)` };
    if (e.kind === 'not_claims') return { ...base, ok: at < 0, found: at < 0 ? 'not in the answer' : `the answer says "${snippet(answer, at, e.value.length)}"` };
    const name = path.posix.basename(e.value).toLowerCase();
    const cited = at >= 0 ? e.value : lower.includes(name) ? path.posix.basename(e.value) : undefined;
    return { ...base, ok: cited !== undefined, found: cited !== undefined ? `cited as ${cited}` : name === e.value.toLowerCase() ? `${e.value} does not appear in the answer` : `neither ${e.value} nor ${path.posix.basename(e.value)} appears in the answer` };
  });
}

function matcher(pattern: string): (source: string) => boolean {
  const glob = picomatch(pattern, { dot: true });
  return (source) => source === pattern || glob(source);
}

function trimNote(m: Manifest, source: string): string {
  const t = m.trimmed.find((d) => d.source === source);
  return t ? `, trimmed from ${t.original_tokens_exact === false ? '~' : ''}${num(Number(t.original_tokens ?? 0))}` : '';
}

/** Where a path went when it was not selected: rejected, offloaded, indexed or compacted, with the reason. */
function whereElse(m: Manifest, match: (s: string) => boolean): string {
  const found: string[] = [];
  for (const section of SECTIONS) {
    for (const d of (m[section] as Decision[]).filter((x) => match(x.source))) found.push(`${section} ${d.source}: ${d.reason}`);
  }
  return found.join('; ');
}

/** Which selected blocks carry the evidence (every occurrence), when the request text names their sources. */
function inBlock(m: Manifest, text: string, value: string): string {
  const found = new Set<string>();
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
    let best: { source: string; at: number } | undefined;
    for (const d of m.selected) {
      const open = text.lastIndexOf(`source="${d.source}"`, at);
      if (open >= 0 && (!best || open > best.at)) best = { source: d.source, at: open };
    }
    if (best) found.add(best.source);
  }
  return found.size ? ` (${[...found].join(', ')})` : '';
}

function snippet(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 30);
  const to = Math.min(text.length, at + length + 30);
  return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ')}${to < text.length ? '…' : ''}`;
}
