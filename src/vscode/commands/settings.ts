import * as vscode from 'vscode';
import { num } from '../../core/report/trace';
import { secretKey } from '../secret-key';
import { updateSettings } from '../setting-scope';
import type { Register } from './register';

/** API keys (SecretStorage only) and the vscode.lm model for Send. */
export function registerSettingsCommands(register: Register, secrets: vscode.SecretStorage): void {
  const pickProvider = (title: string) => vscode.window.showQuickPick(['openai', 'anthropic'], { title });
  register('contextControl.setApiKey', async () => {
    const provider = await pickProvider('Context Control: API key for which provider?');
    if (!provider) return;
    const key = await vscode.window.showInputBox({ title: `API key for ${provider}`, password: true, ignoreFocusOut: true, prompt: 'Stored in VS Code SecretStorage, never in settings or logs.' });
    if (!key) return;
    await secrets.store(secretKey(provider), key.trim());
    void vscode.window.showInformationMessage(`Context Control: API key for ${provider} stored in SecretStorage.`);
  });
  register('contextControl.clearApiKey', async () => {
    const provider = await pickProvider('Context Control: clear the API key of which provider?');
    if (!provider) return;
    await secrets.delete(secretKey(provider));
  });
  register('contextControl.selectModel', async () => {
    const models = await vscode.lm.selectChatModels({});
    if (models.length === 0) {
      void vscode.window.showInformationMessage('Context Control: VS Code offers no language model here. Install or sign in to a chat extension that provides one, or use another provider.');
      return;
    }
    const pick = await vscode.window.showQuickPick(
      models.map((m) => ({ label: m.name, description: `${m.vendor} · ${m.family}`, detail: `${num(m.maxInputTokens)} input tokens · id ${m.id}`, model: m })),
      { title: 'Context Control: model for Send (VS Code Language Model API)' },
    );
    if (!pick) return;
    await updateSettings(`the model ${pick.model.name}`, { provider: 'vscode-lm', model: pick.model.id });
  });
}
