import type { CallRecord } from '../../core/gateway/record';
import { formatNumber } from '../../view-model/format';
import type { Node } from './tree';

/** As tree.ts's, which this file cannot import at run time (it loads `vscode`). */
const escapeMd = (text: string): string => text.replace(/([\\`*_{}[\]()#+\-.!|<>])/g, '\\$1');

/**
 * The Agent calls view: one row per call the gateway recorded in `.context/gateway/`, newest first. Pure (no
 * `vscode`): the host reads the files and hands the records here; tests check the exact words.
 */

export interface CallFile {
  /** The record's file name, e.g. `call-20261201T193000123Z-000001-anthropic.json`. */
  file: string;
  record: CallRecord;
}

/** `1 234 / 200 000`: the request as sent against the model's window (`1 234 tok` when the window is unknown). */
export function callBudget(r: Pick<CallRecord, 'tokens' | 'window'>): string {
  if (r.tokens === undefined) return '– tok';
  return r.window ? `${formatNumber(r.tokens.total)} / ${formatNumber(r.window)}` : `${formatNumber(r.tokens.total)} tok`;
}

/** `no change`, or `2 changes: offloaded, pins-added` (the kinds, once each, in order). */
export function callChanges(r: Pick<CallRecord, 'changes'>): string {
  const n = r.changes.length;
  if (n === 0) return 'no change';
  const kinds = [...new Set(r.changes.map((c) => c.rule))];
  return `${n} ${n === 1 ? 'change' : 'changes'}: ${kinds.join(', ')}`;
}

/** `cache hit 1 000` (usage.cache_read_tokens), `no cache hit`, or undefined when the provider reported no usage. */
export function callCache(r: Pick<CallRecord, 'usage'>): string | undefined {
  if (!r.usage) return undefined;
  const read = r.usage.cache_read_tokens ?? 0;
  return read > 0 ? `cache hit ${formatNumber(read)}` : 'no cache hit';
}

export function callPrefix(r: Pick<CallRecord, 'prefix_stable' | 'prefix_broken_by_gateway'>): string {
  if (r.prefix_stable === null) return 'first call';
  if (r.prefix_stable) return 'prefix held';
  return r.prefix_broken_by_gateway ? 'prefix changed by the gateway' : 'prefix changed by the agent';
}

export function callLabel(r: CallRecord): string {
  return r.model ?? r.path;
}

export function callDescription(r: CallRecord): string {
  const cache = callCache(r);
  return [callBudget(r), callChanges(r), ...(cache ? [cache] : []), callPrefix(r), ...(r.error ? ['error'] : [])].join(' · ');
}

export function callIcon(r: CallRecord): string {
  if (r.error || (r.status !== undefined && r.status >= 400)) return 'warning';
  if (r.prefix_broken_by_gateway) return 'warning';
  return r.changes.length ? 'diff' : 'pass';
}

/** Markdown: when, how, the budget, the usage, every change with its reason, the pins, the prefix. */
export function callTooltip(r: CallRecord): string {
  const u = r.usage;
  const lines = [
    `**${escapeMd(callLabel(r))}** — ${r.api} \`${r.path}\`, ${r.mode}${r.stream ? ', streamed' : ''}${r.status !== undefined ? `, HTTP ${r.status}` : ''}`,
    '',
    `${r.at}${r.duration_ms !== undefined ? ` · ${formatNumber(r.duration_ms)} ms` : ''}`,
    '',
    `Tokens sent: ${callBudget(r)}${r.tokens ? ` (system ${formatNumber(r.tokens.system)}, tools ${formatNumber(r.tokens.tools)}, messages ${formatNumber(r.tokens.messages)}; ${r.tokens.encoding})` : ''}`,
    '',
    u ? `Usage: input ${formatNumber(u.input_tokens ?? 0)}, cache read ${formatNumber(u.cache_read_tokens ?? 0)}, cache write ${formatNumber(u.cache_write_tokens ?? 0)}, output ${formatNumber(u.output_tokens ?? 0)}` : 'Usage: not reported',
    '',
    `Prefix: ${callPrefix(r)}`,
    '',
    `Pins: ${r.pins.present.length} present${r.pins.added.length ? `, re-added ${r.pins.added.map(escapeMd).join(', ')}` : ''}`,
  ];
  if (r.changes.length) {
    lines.push('', `${callChanges(r)}:`, '');
    for (const c of r.changes) lines.push(`- ${c.rule}${c.replayed ? ' (replayed)' : ''} ${escapeMd(c.where)}: ${escapeMd(c.reason)}`);
  }
  if (r.error) lines.push('', `Error: ${escapeMd(r.error)}`);
  return lines.join('\n');
}

/** The view's rows, newest first; selecting one opens what was sent. */
export function callNodes(calls: CallFile[]): Node[] {
  return [...calls]
    .sort((a, b) => (a.file < b.file ? 1 : a.file > b.file ? -1 : 0))
    .map(({ file, record }) => ({
      id: `call:${file}`,
      label: callLabel(record),
      description: callDescription(record),
      tooltip: callTooltip(record),
      icon: callIcon(record),
      contextValue: 'agentCall',
      command: { command: 'contextControl.openAgentCall', title: 'Open What Was Sent', arguments: [file] },
    }));
}

/** The status bar's text for the last call: `$(pulse) 1 234 / 200 000`. */
export function lastCallStatus(r: CallRecord | undefined): string {
  return r ? `$(pulse) ${callBudget(r)}` : '$(pulse) gateway';
}
