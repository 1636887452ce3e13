/** Worker side: the texts the chat's tools and participant derive from an assembly. No `vscode`. */
import { orderBlocks, wrap } from '../../core/chain/render';
import { num } from '../../core/report/trace';
import type { Block, Decision } from '../../core/types';

const HIDDEN_IN_CONTEXT = new Set(['system_instructions', 'tool_definitions', 'current_task']);

/** The context as the assemble_context tool returns it: every block sent, with its provenance, then a short trace. */
export function renderContext(blocks: Block[], m: { budget: { final: number; max_input: number }; rejected: { source: string; reason: string }[]; trimmed: { source: string }[] }): string {
  const shown = orderBlocks(blocks).filter((b) => !HIDDEN_IN_CONTEXT.has(b.kind));
  const rejected = m.rejected.slice(0, 8).map((d) => `${d.source} (${d.reason})`);
  const trace = [
    `Context Control trace: ${shown.length} block(s), request ${num(m.budget.final)} / ${num(m.budget.max_input)} tokens.`,
    ...(m.trimmed.length ? [`Trimmed: ${m.trimmed.map((d) => d.source).join(', ')}.`] : []),
    ...(rejected.length ? [`Left out: ${rejected.join('; ')}${m.rejected.length > 8 ? `; ${m.rejected.length - 8} more` : ''}.`] : []),
    'Documents in <available-documents> can be fetched with read_document.',
  ];
  return `${shown.map(wrap).join('\n\n')}\n\n${trace.join('\n')}`;
}

const NOT_WORKSPACE = new Set(['session_group', 'session_summary', 'index', 'system_instructions', 'tool_definitions']);

/** Workspace files whose text was sent (selected, possibly trimmed), once each, in manifest order. */
export function sentSources(decisions: Decision[], files: readonly { path: string }[]): string[] {
  const known = new Set(files.map((f) => f.path));
  const out: string[] = [];
  for (const d of decisions) {
    if (NOT_WORKSPACE.has(d.kind)) continue;
    const file = d.source.replace(/#.*$/, '');
    if (known.has(file) && !out.includes(file)) out.push(file);
  }
  return out;
}
