import * as vscode from 'vscode';

export type ProviderId = 'dry-run' | 'openai' | 'anthropic' | 'vscode-lm';

/** The extension's settings, read fresh each time so changes apply without a reload. */
export interface Settings {
  provider: ProviderId;
  model: string;
  baseUrl: string;
  encoding?: string;
  policyPath: string;
  taskFile: string;
  envelope: { window?: number; outputReserve?: number; margin?: number };
}

export const SECTION = 'contextControl';

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
  };
}
