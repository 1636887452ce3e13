import { ContextBudgetExceeded, InputError } from '../../core/errors';
import { ProviderError } from '../../core/providers/errors';
import type { Snapshot } from '../../core/sources/snapshot';
import { viewOf, type SerializedError } from './protocol';

/** An error as it crosses a thread: its class's fields, and the snapshot when one was read (a refusal has an index). */
export function serialize(e: unknown, snapshot?: Snapshot): SerializedError {
  const base = { name: (e as Error)?.name ?? 'Error', message: (e as Error)?.message ?? String(e), snapshot: snapshot && viewOf(snapshot) };
  if (e instanceof ContextBudgetExceeded) return { ...base, maxInput: e.maxInput, mandatoryTokens: e.mandatoryTokens, blocks: e.blocks };
  if (e instanceof InputError) return { ...base, message: e.message, file: e.file, line: e.line, column: e.column, ...(e.fix ? { fix: e.fix } : {}) };
  if (e instanceof ProviderError) return { ...base, name: 'ProviderError', kind: e.kind, provider: e.provider, details: e.details };
  return base;
}

/** Rebuild the core's error classes on the other side of the thread. */
export function revive(e: SerializedError): Error {
  if (e.name === 'ContextBudgetExceeded') return new ContextBudgetExceeded(e.maxInput ?? 0, e.mandatoryTokens ?? 0, e.blocks ?? []);
  if (e.name === 'InputError') return new InputError(e.message, e.file, e.line, e.column, e.fix);
  if (e.name === 'ProviderError' && e.kind) return new ProviderError(e.provider ?? 'provider', e.kind, e.message, e.details);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}
