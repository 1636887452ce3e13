import { estimateTokensFromBytes } from '../estimate';
import { formatTokens } from '../../view-model/format';
import type { Manifest } from './manifest';

/**
 * A tool output's two figures, said together so no surface shows one without the other: the whole file (an estimate
 * from its size, or the trim's own) and what the request holds of it (the sent block's exact count: a trimmed digest,
 * or the digest that did not fit). "whole file ~58 385 616 tok; sent as a 99-tok digest", never "~58 385 616" in one
 * view and "99" in another.
 */
export interface ToolOutputFigure {
  /** The whole file's tokens, and whether that is a count (else an estimate). */
  whole: number;
  wholeExact: boolean;
  /** The tokens of it in the request (the sum of its sent blocks); undefined when none is sent. */
  sent?: number;
  /** How it is sent: a digest (trimmed), whole, or not at all. */
  how: 'digest' | 'whole' | 'not sent';
  /** The figure the views show. */
  label: string;
}

type Decision = Manifest['selected'][number];
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function toolOutputFigure(path: string, size: number, manifest: Pick<Manifest, 'trimmed' | 'rejected' | 'offloaded'> | undefined, sentTokens: number | undefined): ToolOutputFigure {
  const t = manifest?.trimmed.find((d: Decision) => d.source === path);
  const original = num(t?.original_tokens);
  const whole = original ?? estimateTokensFromBytes(size, path);
  const wholeExact = original !== undefined && t?.original_tokens_exact !== false;
  const w = `whole file ${formatTokens(whole, wholeExact)} tok`;
  if (sentTokens !== undefined) {
    const how = t ? 'digest' : 'whole';
    return { whole, wholeExact, sent: sentTokens, how, label: how === 'digest' ? `${w}; sent as a ${formatTokens(sentTokens)}-tok digest` : `${formatTokens(sentTokens)} tok, sent whole` };
  }
  const offloaded = manifest?.offloaded.find((d: Decision) => d.source === path);
  if (offloaded) return { whole, wholeExact, how: 'not sent', label: `${w}; offloaded, not sent` };
  const rejected = manifest?.rejected.find((d: Decision) => d.source === path);
  const digest = num(rejected?.tokens);
  const overBudget = rejected?.limit === 'budget' && digest !== undefined;
  if (rejected) return { whole, wholeExact, how: 'not sent', label: `${w}; not sent${overBudget ? ` (its ${formatTokens(digest)}-tok digest did not fit)` : ''}` };
  return { whole, wholeExact, how: 'not sent', label: manifest ? `${w}; not sent` : `${formatTokens(whole, wholeExact)} tok` };
}
