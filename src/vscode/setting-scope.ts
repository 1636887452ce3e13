import * as vscode from 'vscode';
import { modelBelongsElsewhere, PROVIDER_MODELS } from '../core/providers/models';
import { SECTION, type Settings } from './settings';

type Scope = { label: string; description: string; target: vscode.ConfigurationTarget };

/**
 * Settings changed from the UI go where the user says: User (every workspace) or Workspace (.vscode/settings.json),
 * picked each time; nothing is written when the pick is dismissed.
 */
export async function pickScope(what: string): Promise<vscode.ConfigurationTarget | undefined> {
  const scopes: Scope[] = [
    { label: 'User settings', description: 'every workspace', target: vscode.ConfigurationTarget.Global },
    ...(vscode.workspace.workspaceFolders?.length ? [{ label: 'Workspace settings', description: '.vscode/settings.json of this folder', target: vscode.ConfigurationTarget.Workspace }] : []),
  ];
  const pick = await vscode.window.showQuickPick(scopes, { title: `Context Control: save ${what} in…`, placeHolder: 'Where should this setting be saved?' });
  return pick?.target;
}

/** Update settings in the scope the user picks. False when the user dismissed the pick. */
export async function updateSettings(what: string, values: Record<string, unknown>): Promise<boolean> {
  const target = await pickScope(what);
  if (target === undefined) return false;
  const config = vscode.workspace.getConfiguration(SECTION);
  for (const [key, value] of Object.entries(values)) await config.update(key, value, target);
  return true;
}

/** A model of the provider: its known models, default first, or any id typed in. */
export async function pickModel(provider: string, current?: string): Promise<string | undefined> {
  const known = PROVIDER_MODELS[provider] ?? [];
  const items = known.map((m, i) => ({ label: m, description: i === 0 ? 'default' : m === current ? 'current' : undefined }));
  const pick = await vscode.window.showQuickPick([...items, { label: 'Other model id…', description: undefined }], { title: `Context Control: model for ${provider}` });
  if (!pick) return undefined;
  if (pick.label !== 'Other model id…') return pick.label;
  return (await vscode.window.showInputBox({ title: `Model id for ${provider}`, value: current }))?.trim() || undefined;
}

/** Switch provider; a model of another provider (gpt-4o for Anthropic) is replaced by one the user picks, default first. */
export async function changeProvider(provider: string, current: string): Promise<boolean> {
  let model: string | undefined;
  if (modelBelongsElsewhere(provider, current)) {
    model = (await pickModel(provider, undefined)) ?? PROVIDER_MODELS[provider]?.[0];
  }
  return updateSettings(`the provider ${provider}`, { provider, ...(model ? { model } : {}) });
}

export function registerSettingCommands(context: vscode.ExtensionContext, settings: () => Settings): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('contextControl.pickProviderModel', async () => {
      const s = settings();
      if (s.provider === 'vscode-lm') return vscode.commands.executeCommand('contextControl.selectModel');
      const model = await pickModel(s.provider, s.model);
      if (model) await updateSettings(`the model ${model}`, { model });
    }),
  );
}
