/**
 * The host side of the panel's per-block actions and details: what the panel shows beyond the sent blocks (from
 * the manifest or the refusal), and Include / Exclude / Pin / Open / Copy / Unpin on one block or not-sent item.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatNumber } from '../../view-model/format';
import { droppedEvidence } from '../../view-model/dropped';
import { envelopeParts } from '../../view-model/envelope';
import { notSentOf } from '../../view-model/not-sent';
import { policyEntryAt, ruleAt, type Location } from '../../view-model/rule-location';
import { fileOf, isWholeFile } from '../../view-model/source';
import { traceRows } from '../../view-model/trace-table';
import { mandatoryBreakdown } from '../../core/report/trace';
import { overrideFor, type Overrides } from '../../core/sources/overrides';
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
  if (state.kind === 'error') return { notSent: [], ladder: [], traceRows: [], pins: {}, overrides: {}, taskFile };
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
      overrides: overridesOf(state.snapshot?.overrides, e.blocks.map((b) => b.source)),
      taskFile,
      head: { maxInput: e.maxInput, mandatory: e.mandatoryTokens, final: e.mandatoryTokens, model: state.settings.model },
    };
  }
  const m = state.assembly.manifest;
  const b = m.budget as typeof m.budget & BudgetExtras;
  const cache = (m as typeof m & { cache?: CacheInfo }).cache;
  const prefixTokens = num(cache?.prefix_tokens);
  const notSent = notSentOf(m);
  return {
    envelope: { window: b.window, ...envelopeParts(b, m.zones) },
    notSent,
    ladder: m.degraded.map((d, i) => ({ step: i + 1, source: d.source, reason: d.reason, ...optional('requestBefore', num(d.request_before)), ...optional('requestAfter', num(d.request_after)) })),
    traceRows: traceRows(m),
    ...(cache && prefixTokens !== undefined ? { cache: { prefixTokens, prefixHash: String(cache.prefix_hash ?? ''), ...(typeof cache.changed === 'boolean' ? { changed: cache.changed } : {}) } } : {}),
    pins: pinsOf(state.assembly.blocks),
    ...droppedOf(state, b.window),
    overrides: overridesOf(state.snapshot.overrides, [...state.assembly.blocks.map((b) => b.source), ...notSent.map((n) => n.source)]),
    taskFile,
    head: { maxInput: b.max_input, mandatory: b.mandatory, mandatoryParts: mandatoryBreakdown(m), final: b.final, bytes: m.request_bytes, model: m.model, encoding: m.encoding },
  };
}

function optional<K extends string>(key: K, v: number | undefined): Partial<Record<K, number>> {
  return v === undefined ? {} : ({ [key]: v } as Record<K, number>);
}

/** The banner's figures: the evidence dropped to fit, and the window found for it (searching: to be asked for, fit-search.ts). */
function droppedOf(state: Extract<AssemblyState, { kind: 'ok' }>, window: number): Pick<PanelDetails, 'dropped'> {
  const items = droppedEvidence(state.assembly.manifest);
  if (!items.length) return {};
  const fit = state.fit && state.fit.sources.join('\n') === items.map((i) => i.source).join('\n') ? state.fit : undefined;
  return { dropped: { items, window, ...(fit?.window !== undefined ? { windowToFit: fit.window } : {}), ...(fit?.ticket !== undefined ? { search: fit.ticket } : {}) } };
}

/** The override of every source shown that has one (an exact path, or a folder above it). */
function overridesOf(overrides: Overrides | undefined, sources: string[]): Record<string, 'include' | 'exclude'> {
  const out: Record<string, 'include' | 'exclude'> = {};
  for (const s of sources) {
    const o = isWholeFile(s) ? overrideFor(overrides, s) : undefined;
    if (o) out[s] = o;
  }
  return out;
}

function pinsOf(blocks: { id: string }[]): Record<string, string> {
  return Object.fromEntries(blocks.filter((b) => b.id.startsWith('pinned:')).map((b) => [b.id, b.id.slice('pinned:'.length)]));
}

/** Include or exclude a whole file: the same command as the Index and Manifest items (`.context/overrides.json`). */
async function override(action: 'include' | 'exclude', file: string): Promise<void> {
  await vscode.commands.executeCommand(`contextControl.${action}`, file);
}

/** Open the policy file at the entry that governs a built-in block, line and column (the file's top when it is not set). */
async function openPolicyLine(source: string, service: PanelActionTarget): Promise<void> {
  const policyPath = service.state.kind === 'empty' ? undefined : service.state.settings.policyPath;
  const root = service.workspaceRoot;
  if (!root || !policyPath) return;
  const file = path.join(root, policyPath);
  if (!fs.existsSync(file)) {
    void vscode.window.showInformationMessage(`Context Control: no policy file (${policyPath}): the built-in defaults apply. Create it to change which blocks are protected (mandatory) or to raise the envelope's window.`);
    return;
  }
  const at = policyEntryAt(fs.readFileSync(file, 'utf8'), source);
  await vscode.commands.executeCommand('contextControl.openItem', { source: policyPath, ...(at ?? {}) });
}

/** Where Open and Edit rule put the cursor: a pinned range's first line, an instruction file's first rule line. */
function locationOf(state: AssemblyState, root: string | undefined, source: string): Location | undefined {
  const instructions = state.kind === 'ok' || state.kind === 'refused' ? state.snapshot?.instructions : undefined;
  const file = fileOf(source);
  let text: string | undefined;
  if (root && file && instructions?.some((i) => i.path === source)) {
    try {
      text = fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      text = undefined;
    }
  }
  return ruleAt(source, instructions, text);
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
      if (file) await vscode.commands.executeCommand('contextControl.openItem', { source: m.source, ...(locationOf(service.state, service.workspaceRoot, m.source) ?? {}) });
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
    case 'reset':
      if (!isWholeFile(m.source)) throw new Error(`${m.source} is not a workspace file: it has no override to reset`);
      await vscode.commands.executeCommand('contextControl.clearOverride', m.source);
      return;
    case 'policy':
      await openPolicyLine(m.source, service);
      return;
  }
}
