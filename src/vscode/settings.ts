import * as vscode from 'vscode';

export type ProviderId = 'dry-run' | 'openai' | 'anthropic' | 'vscode-lm';

/** The chat's own settings (contextControl.chat.*). */
export interface ChatSettings {
  /** Whether the language-model tools are offered (contextControl.chat.tools). */
  tools: boolean;
  /** Whether @context replays the chat's earlier turns (contextControl.chat.replayHistory). */
  replayHistory: boolean;
  /** The policy file for chat; empty: the panel's contextControl.policyPath. */
  policyPath: string;
}

/** The extension's settings. HostState keeps one snapshot, read again on every configuration change. */
export interface Settings {
  provider: ProviderId;
  model: string;
  baseUrl: string;
  encoding?: string;
  policyPath: string;
  taskFile: string;
  envelope: { window?: number; outputReserve?: number; margin?: number };
  chat: ChatSettings;
}

export const SECTION = 'contextControl';

/** Read every setting at once: the one place settings are read (HostState calls it). */
export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const num = (key: string) => {
    const v = c.get<number | null>(key);
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  return {
    provider: c.get<ProviderId>('provider', 'dry-run'),
    model: c.get<string>('model', 'gpt-4o') || 'gpt-4o',
    baseUrl: c.get<string>('baseUrl', ''),
    encoding: c.get<string>('encoding', '') || undefined,
    policyPath: c.get<string>('policyPath', '.context/policy.yaml') || '.context/policy.yaml',
    taskFile: c.get<string>('taskFile', ''),
    envelope: { window: num('envelope.window'), outputReserve: num('envelope.outputReserve'), margin: num('envelope.margin') },
    chat: { tools: c.get<boolean>('chat.tools', true), replayHistory: c.get<boolean>('chat.replayHistory', true), policyPath: c.get<string>('chat.policyPath', '') },
  };
}

/** The panel's settings with the chat's policy file, when one is set. */
export function forChat(settings: Settings): Settings {
  const p = settings.chat.policyPath.trim();
  return p ? { ...settings, policyPath: p } : settings;
}
