import type { Manifest } from '../../../src/core/report/manifest';
import type { Decision } from '../../../src/core/types';

/** A manifest holding only the decision sections the diff reads. */
export function manifestOf(sections: Partial<Record<'selected' | 'rejected' | 'trimmed' | 'offloaded' | 'indexed' | 'compacted' | 'degraded', Decision[]>>): Manifest {
  return {
    version: 1, created_at: '2026-11-12T10:00:00.000Z', task: { source: 'ticket.md' }, model: 'gpt-4o', encoding: 'o200k_base', encoding_approximate: false, shape: 'openai',
    policy: 'p.yaml', request_bytes: 0, budget: { window: 14000, output_reserve: 2000, margin: 1000, max_input: 11000, mandatory: 0, final: 0, overhead: 0, free: 11000 }, zones: {},
    selected: [], rejected: [], trimmed: [], offloaded: [], indexed: [], compacted: [], degraded: [], warnings: [], redactions: [],
    session: { stored: 0, kept_raw: 0, compacted: 0, omitted: 0, store: { kind: 'workspace', path: '.context/session.jsonl' } },
    ...sections,
  };
}
