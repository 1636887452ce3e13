import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Policy } from '../../core/policy';
import type { Manifest } from '../../core/report/manifest';
import { num } from '../../core/report/trace';
import { loadSnapshot, type Snapshot } from '../../core/sources/snapshot';
import type { Decision, SessionEvent } from '../../core/types';
import type { AssemblyService } from '../assembly';
import { readSettings, SECTION, type Settings } from '../settings';
import { CHAT_SESSION_SOURCE } from './history';

/** The chat settings, read fresh on every request and tool call, so a change applies without a reload. */
export interface ChatSettings {
  /** Whether the language-model tools are offered (contextControl.chat.tools). */
  tools: boolean;
  /** Whether @context replays the chat's earlier turns (contextControl.chat.replayHistory). */
  replayHistory: boolean;
  /** The policy file for chat; empty: the panel's contextControl.policyPath. */
  policyPath: string;
}

export function readChatSettings(): ChatSettings {
  const c = vscode.workspace.getConfiguration(`${SECTION}.chat`);
  return { tools: c.get<boolean>('tools', true), replayHistory: c.get<boolean>('replayHistory', true), policyPath: c.get<string>('policyPath', '') };
}

/** The panel's settings with the chat's policy file, when one is set. */
export function settingsForChat(chat: ChatSettings): Settings {
  const settings = readSettings();
  return chat.policyPath.trim() ? { ...settings, policyPath: chat.policyPath.trim() } : settings;
}

export interface ChatInputs {
  snapshot: Snapshot;
  policy: Policy;
  settings: Settings;
}

/**
 * The workspace read for one chat request or tool call, through the panel's own inputs (pins, policy file,
 * envelope settings), with the chat's prompt as the task. The model's `maxInputTokens` narrows the envelope
 * exactly as for the panel's vscode.lm provider. The session is the chat's own history (never the panel's store).
 */
export function chatInputs(service: AssemblyService, task: string, options: { maxInputTokens?: number; session?: SessionEvent[] } = {}): ChatInputs {
  const settings = settingsForChat(readChatSettings());
  const base = service.snapshotOptions(settings);
  const policy = service.policy(settings, options.maxInputTokens);
  const loaded = loadSnapshot({ ...base, policy, task, sessionFile: undefined });
  const session = options.session ?? [];
  // The prompt is text, never a path: a task (from a person or a model) cannot make the chain read a file.
  const literal = loaded.task.source === 'task' ? loaded.task : { text: task, source: 'task', files: [] };
  const snapshot: Snapshot = { ...loaded, task: literal, session, sessionSource: session.length ? CHAT_SESSION_SOURCE : undefined };
  return { snapshot, policy, settings };
}

const NOT_WORKSPACE = new Set(['session_group', 'session_summary', 'index', 'system_instructions', 'tool_definitions']);

/** Workspace files whose text was sent (selected, possibly trimmed), once each, in manifest order. */
export function sentSources(decisions: Decision[], snapshot: Pick<Snapshot, 'files'>): string[] {
  const files = new Set(snapshot.files.map((f) => f.path));
  const out: string[] = [];
  for (const d of decisions) {
    if (NOT_WORKSPACE.has(d.kind)) continue;
    const file = d.source.replace(/#.*$/, '');
    if (files.has(file) && !out.includes(file)) out.push(file);
  }
  return out;
}

export function sourceUri(root: string, source: string): vscode.Uri {
  return vscode.Uri.file(path.join(root, source));
}

/** One line: `final / max_input tokens · model window · sections`, from the manifest of what was sent. */
export function budgetLine(m: Manifest, model?: { name: string; maxInputTokens: number }, providerCount?: number): string {
  const b = m.budget;
  const parts = [
    `**Budget** ${num(b.final)} / ${num(b.max_input)} tokens`,
    ...(providerCount !== undefined ? [`model count ${num(providerCount)}`] : []),
    ...(model ? [`${model.name} accepts ${num(model.maxInputTokens)}`] : []),
    `mandatory ${num(b.mandatory)}`,
    `${m.selected.length} selected · ${m.rejected.length} rejected · ${m.trimmed.length} trimmed · ${m.indexed.length} indexed`,
  ];
  return parts.join(' · ');
}

const SECTIONS = ['selected', 'trimmed', 'offloaded', 'indexed', 'compacted', 'rejected', 'degraded'] as const;
const VERB: Record<(typeof SECTIONS)[number], string> = {
  selected: 'loaded',
  trimmed: 'trimmed',
  offloaded: 'offloaded',
  indexed: 'indexed (not loaded; available on demand through read_document)',
  compacted: 'compacted',
  rejected: 'not loaded',
  degraded: 'degraded by the budget ladder',
};

/** Why a path was loaded or not, from the manifest's decisions (every section that names it, in chain order). */
export function explainPath(m: Manifest, wanted: string, inWorkspace: (rel: string) => boolean): string[] {
  const rel = wanted.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  const lines: string[] = [];
  for (const section of SECTIONS) {
    for (const d of m[section] as Decision[]) {
      if (d.source !== rel && d.source.replace(/#.*$/, '') !== rel) continue;
      const tokens = typeof d.tokens === 'number' ? ` (${num(d.tokens)} tokens)` : '';
      lines.push(`- **${VERB[section]}**${tokens}: ${d.reason}${d.source !== rel ? ` [${d.source}]` : ''}`);
    }
  }
  if (lines.length) return lines;
  if (inWorkspace(rel)) return [`- **not a candidate**: \`${rel}\` is in the workspace but the manifest has no decision about it: it is excluded (.gitignore, the policy's exclude, a secret file, too large) or no source of the policy reads it`];
  return [`- **not found**: \`${rel}\` is not a file of the workspace`];
}
