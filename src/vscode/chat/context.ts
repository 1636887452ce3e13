import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Policy } from '../../core/policy';
import type { Manifest } from '../../core/report/manifest';
import { num } from '../../core/report/trace';
import type { Decision, SessionEvent } from '../../core/types';
import type { AssemblyService } from '../assembly';
import { forChat, type Settings } from '../settings';
import type { ChatPatch, WorkerSnapshot } from '../worker/protocol';

export interface ChatInputs {
  snapshot: WorkerSnapshot & { root: string };
  patch: ChatPatch;
  policy: Policy;
  settings: Settings;
}

/**
 * The workspace read for one chat request or tool call, through the panel's own inputs (pins, policy file,
 * envelope settings, unsaved buffers), with the chat's prompt as the task (literal text, never a path). The model's
 * `maxInputTokens` narrows the envelope exactly as for the panel's vscode.lm provider. The session is the chat's own
 * history (never the panel's store). The worker loads it (worker/load.ts).
 */
export function chatInputs(service: AssemblyService, task: string, options: { maxInputTokens?: number; session?: SessionEvent[]; policyPath?: string } = {}): ChatInputs {
  const chat = forChat(service.host.settings);
  const settings = options.policyPath ? { ...chat, policyPath: options.policyPath } : chat;
  const policy = service.host.policy(settings, options.maxInputTokens);
  const snapshot = { ...service.host.requestInputs(settings), policy };
  return { snapshot, patch: { task, session: options.session ?? [] }, policy, settings };
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
