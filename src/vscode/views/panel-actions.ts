/**
 * The host side of the panel's per-block actions and details: what the panel shows beyond the sent blocks (from
 * the manifest or the refusal), and Include / Exclude / Pin / Open / Copy / Unpin on one block or not-sent item.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatNumber } from '../../view-model/format';
import { envelopeParts } from '../../view-model/envelope';
import { notSentOf } from '../../view-model/not-sent';
import { fileOf, isWholeFile } from '../../view-model/source';
import { traceRows } from '../../view-model/trace-table';
import { mandatoryBreakdown } from '../../core/report/trace';
import type { AssemblyService, AssemblyState } from '../assembly';
import type { PanelActionMessage, PanelDetails } from '../protocol';

/** Budget fields the chain may add (pipeline): used when present, computed otherwise. */
type BudgetExtras = { overhead?: number; free?: number };
type CacheInfo = { prefix_tokens?: number; prefix_hash?: string; changed?: boolean };

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The panel's details for a state: pure over the state, so tests can check it without a webview. */
export function detailsFor(state: AssemblyState): PanelDetails | undefined {
  if (state.kind === 'empty') return undefined;
  const taskFile = state.settings.taskFile;
  if (state.kind === 'error') return { notSent: [], ladder: [], traceRows: [], pins: {}, taskFile };
  if (state.kind === 'refused') {
    const e = state.error;
    const env = state.policy.envelope;
    const budget = { ...env, max_input: e.maxInput, final: e.mandatoryTokens, overhead: 0 };
    const zones = { protected: e.mandatoryTokens };
    return {
      envelope: { window: env.window, ...envelopeParts(budget, zones) },
      notSent: [],
      ladder: [],
      traceRows: [],
      pins: pinsOf(e.blocks),
      taskFile,
      head: { maxInput: e.maxInput, mandatory: e.mandatoryTokens, final: e.mandatoryTokens, model: state.settings.model },
    };
  }
  const m = state.assembly.manifest;
  const b = m.budget as typeof m.budget & BudgetExtras;
  const cache = (m as typeof m & { cache?: CacheInfo }).cache;
  const prefixTokens = num(cache?.prefix_tokens);
  return {
    envelope: { window: b.window, ...envelopeParts(b, m.zones) },
    notSent: notSentOf(m),
    ladder: m.degraded.map((d, i) => ({ step: i + 1, source: d.source, reason: d.reason, ...optional('requestBefore', num(d.request_before)), ...optional('requestAfter', num(d.request_after)) })),
    traceRows: traceRows(m),
    ...(cache && prefixTokens !== undefined ? { cache: { prefixTokens, prefixHash: String(cache.prefix_hash ?? ''), ...(typeof cache.changed === 'boolean' ? { changed: cache.changed } : {}) } } : {}),
    pins: pinsOf(state.assembly.blocks),
    taskFile,
    head: { maxInput: b.max_input, mandatory: b.mandatory, mandatoryParts: mandatoryBreakdown(m), final: b.final, bytes: m.request_bytes, model: m.model, encoding: m.encoding },
  };
}

function optional<K extends string>(key: K, v: number | undefined): Partial<Record<K, number>> {
  return v === undefined ? {} : ({ [key]: v } as Record<K, number>);
}

function pinsOf(blocks: { id: string }[]): Record<string, string> {
  return Object.fromEntries(blocks.filter((b) => b.id.startsWith('pinned:')).map((b) => [b.id, b.id.slice('pinned:'.length)]));
}

/** Include or exclude a whole file: the same command as the Index and Manifest items (`.context/overrides.json`). */
async function override(action: 'include' | 'exclude', file: string): Promise<void> {
  await vscode.commands.executeCommand(`contextControl.${action}`, file);
}

/** What Copy puts on the clipboard: a sent block's text in the current request, else the source's path. */
function copyText(state: AssemblyState, source: string, blockId?: string): { text: string; what: string } {
  const block = state.kind === 'ok' && blockId ? state.assembly.blocks.find((b) => b.id === blockId) : undefined;
  if (block) {
    // The block's content as it is in the request (redacted like the request); its envelope tag is not copied.
    return { text: block.text, what: `${block.source} as sent (${formatNumber(block.tokens)} tokens)` };
  }
  return { text: source, what: `the path ${source}` };
}

/** Act on one message from the panel's per-block actions; a failure is shown, never thrown into the webview. */
/** What the panel's block actions need of the assembly: the workspace, the last state, and a re-run. */
export type PanelActionTarget = Pick<AssemblyService, 'workspaceRoot' | 'state' | 'run'>;

export async function handlePanelAction(m: PanelActionMessage, service: PanelActionTarget): Promise<void> {
  try {
    await act(m, service);
  } catch (e) {
    void vscode.window.showErrorMessage(`Context Control: ${(e as Error).message}`);
  }
}

async function act(m: PanelActionMessage, service: PanelActionTarget): Promise<void> {
  if (m.type === 'unpin') {
    await vscode.commands.executeCommand('contextControl.unpin', m.pinId);
    return;
  }
  const file = fileOf(m.source);
  // A source names a workspace file by a relative path; the webview's message is untrusted input.
  if (file && (path.isAbsolute(file) || file.split(/[\\/]/).includes('..'))) throw new Error(`"${m.source}" is outside the workspace`);
  switch (m.action) {
    case 'open':
      if (file) await vscode.commands.executeCommand('contextControl.openItem', { source: m.source });
      return;
    case 'copy': {
      const c = copyText(service.state, m.source, m.blockId);
      await vscode.env.clipboard.writeText(c.text);
      void vscode.window.showInformationMessage(`Context Control: copied ${c.what}.`);
      return;
    }
    case 'pin':
      if (file && service.workspaceRoot) await vscode.commands.executeCommand('contextControl.pinFile', vscode.Uri.file(path.join(service.workspaceRoot, file)));
      return;
    case 'include':
    case 'exclude':
      if (!isWholeFile(m.source)) throw new Error(`${m.source} is not a workspace file: only whole files can be ${m.action}d`);
      await override(m.action, m.source);
      return;
  }
}
