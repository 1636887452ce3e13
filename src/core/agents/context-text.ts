import type { Assembly } from '../chain/assemble';
import { num, renderShortTrace } from '../report/trace';

/**
 * The budgeted context as an agent receives it through MCP or a hook: the request's user-side messages in request
 * order, each block already wrapped with its provenance by the chain (rules, pins, summary, index, session, documents,
 * tool output, then the task), followed by the trace. The system instructions and tool definitions are the
 * assembler's own and are left out: the agent has its own. The trace describes the whole request as assembled.
 */
export function contextText(assembly: Assembly, options: { trace?: boolean | 'short' } = {}): string {
  const messages = assembly.neutral.messages.map((m) => m.content).filter((c) => c.trim() !== '');
  const body = messages.join('\n\n');
  const head = `[Context Control] ${statusLine(assembly)} System instructions and tool definitions are counted in the trace but not repeated here.`;
  if (options.trace === false) return `${head}\n\n${body}\n`;
  const trace = options.trace === 'short' ? renderShortTrace(assembly.manifest).text : assembly.trace;
  return `${head}\n\n${body}\n\n${trace.trimEnd()}\n`;
}

/** The context with the short trace (budget and final request), and how many trace rows it leaves out. */
export function shortContextText(assembly: Assembly): { text: string; left: number } {
  return { text: contextText(assembly, { trace: 'short' }), left: renderShortTrace(assembly.manifest).left };
}

/** One line: the final count against max_input, and what was selected, rejected, trimmed, offloaded, indexed. */
export function statusLine(assembly: Assembly): string {
  const m = assembly.manifest;
  const parts = [
    `${m.selected.length} selected`,
    `${m.rejected.length} rejected`,
    ...(m.trimmed.length ? [`${m.trimmed.length} trimmed`] : []),
    ...(m.offloaded.length ? [`${m.offloaded.length} offloaded`] : []),
    ...(m.indexed.length ? [`${m.indexed.length} indexed`] : []),
  ];
  return `Context budget: ${num(m.budget.final)} of ${num(m.budget.max_input)} tokens (max_input) for this task; ${parts.join(', ')}.`;
}
