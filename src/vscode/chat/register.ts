import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AssemblyService, AssemblyState } from '../assembly';
import type { HostController } from '../commands/controller';
import { OPEN_CHAT_MANIFEST, SHOW_IN_PANEL } from './answers';
import { chatHandler, PARTICIPANT_ID, type ChatDeps } from './participant';
import { chatTools, registerChatTools } from './tools';

/**
 * Copilot Chat's side of Context Control: the `@context` participant, the four language-model tools and the
 * command behind the chat's Open Manifest button. `deps.isTrusted` is read on every request and tool call.
 */
export function registerChat(context: vscode.ExtensionContext, service: AssemblyService, storageDir: string, controller: Pick<HostController, 'show'>) {
  let last: AssemblyState | undefined;
  const deps: ChatDeps = {
    service,
    isTrusted: () => vscode.workspace.isTrusted,
    recordDir: path.join(storageDir, 'chat'),
    remember: (state) => {
      last = state;
    },
    sendWorkerScript: vscode.Uri.joinPath(context.extensionUri, 'dist', 'send-worker.js').fsPath,
  };
  // Indirection so a test can swap the trust state of the registered participant and tools alike.
  const live: ChatDeps = { ...deps, isTrusted: () => deps.isTrusted() };
  const handler = chatHandler(live);
  const sub = (d: vscode.Disposable) => context.subscriptions.push(d);
  // The chat API is absent from hosts without a chat view (e.g. some forks): the rest of the extension still works.
  if (typeof vscode.chat?.createChatParticipant === 'function') {
    const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.svg');
    sub(participant);
  }
  if (typeof vscode.lm?.registerTool === 'function') sub(registerChatTools(live));
  sub(
    vscode.commands.registerCommand(OPEN_CHAT_MANIFEST, async () => {
      const file = path.join(live.recordDir, 'manifest.json');
      if (!fs.existsSync(file)) return vscode.window.showInformationMessage('Context Control: no @context request yet.');
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    }),
  );
  sub(
    vscode.commands.registerCommand(SHOW_IN_PANEL, async () => {
      await vscode.commands.executeCommand('contextControl.panel.focus');
      if (last) controller.show(last);
      else void vscode.window.showInformationMessage('Context Control: no @context request yet.');
    }),
  );
  return {
    handler,
    /** The chat's last assembly or refusal, as Show in Panel shows it. */
    last: () => last,
    tools: chatTools(live),
    /** Replace the trust check (tests: the offline host runs with Workspace Trust disabled). */
    setTrust: (isTrusted: () => boolean) => {
      deps.isTrusted = isTrusted;
    },
    recordDir: live.recordDir,
  };
}
