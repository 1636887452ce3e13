import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../core/errors';
import { offloadLocation } from '../core/offload/location';
import { clearOffloadStore, listStore } from '../core/offload/store';
import { num } from '../core/report/trace';
import type { AssemblyService } from './assembly';
import type { PinStore } from './pins';
import { confirmPinSize, fileBytes, withPinProgress } from './pin-size';
import { readSettings } from './settings';
import { showProviderError } from './provider-toast';
import { updateSettings } from './setting-scope';
import { secretKey, sendRequest } from './send';
import type { PanelActions, RequestPanel } from './views/panel';
import type { Node } from './views/tree';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  service: AssemblyService;
  pins: PinStore;
  task: { current(): string | undefined; set(text: string): Thenable<void> };
  storageDir: string;
}

/** Every command of the extension, registered under the "Context Control" category (see package.json). */
export function registerCommands(deps: CommandDeps) {
  const { context, service, pins, task } = deps;
  let panel: RequestPanel | undefined;
  let inFlight: vscode.CancellationTokenSource | undefined;
  const root = service.workspaceRoot;
  const register = (id: string, fn: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));

  const openSource = async (source: string, line?: number) => {
    if (!root) return;
    const clean = source.replace(/#.*$/, '');
    const file = path.resolve(root, clean);
    // Only workspace files and this extension's own storage (manifest, offloaded results) open from a click.
    const inside = (dir: string) => file === dir || file.startsWith(dir + path.sep);
    if (!inside(path.resolve(root)) && !inside(path.resolve(deps.storageDir))) {
      void vscode.window.showWarningMessage(`Context Control: "${source}" is outside the workspace; not opened.`);
      return;
    }
    if (!fs.existsSync(file)) {
      void vscode.window.showInformationMessage(`Context Control: "${source}" is not a workspace file.`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
  };

  /** After a pin change the budget impact shows at once, with a warning when the call would be refused. */
  const afterPinChange = async (what: string) => {
    const state = await service.run();
    if (state.kind === 'refused') {
      // Not awaited: the warning stays up while the user keeps working.
      void vscode.window
        .showWarningMessage(
          `Context Control: with ${what}, the mandatory blocks need ${num(state.error.mandatoryTokens)} tokens but max_input is ${num(state.error.maxInput)}. Requests will be refused until you unpin something or raise the envelope.`,
          'Show Pinned',
          'Open Panel',
        )
        .then((choice) => {
          if (choice === 'Show Pinned') void vscode.commands.executeCommand('contextControl.pinned.focus');
          if (choice === 'Open Panel') void vscode.commands.executeCommand('contextControl.panel.focus');
        });
    }
    return state;
  };

  const preview = async (text?: string) => {
    if (text !== undefined && text !== task.current()) await task.set(text);
    panel?.post({ type: 'busy', busy: true });
    return service.run();
  };

  const send = async (text?: string) => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Context Control: sending needs a trusted workspace. Preview works in restricted mode.', 'Manage Workspace Trust').then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
      panel?.post({ type: 'sendDone', error: 'Sending needs a trusted workspace.' });
      return;
    }
    const state = await preview(text);
    if (state.kind !== 'ok') {
      const why = state.kind === 'refused' ? state.error.message : state.kind === 'error' ? state.error.message : state.reason;
      panel?.post({ type: 'sendDone', error: `Not sent: ${why}` });
      void vscode.window.showErrorMessage(`Context Control: not sent. ${why.split('\n')[0]}`);
      return;
    }
    inFlight?.cancel();
    const cts = (inFlight = new vscode.CancellationTokenSource());
    const settings = readSettings();
    panel?.post({ type: 'sendStarted', provider: settings.provider, model: settings.model });
    try {
      const note = await sendRequest({
        state,
        settings,
        snapshot: service.snapshotOptions(settings),
        sendWorkerScript: vscode.Uri.joinPath(context.extensionUri, 'dist', 'send-worker.js').fsPath,
        sessionStore: service.sessionStore,
        secrets: context.secrets,
        // Sends keep their own record: the next preview does not overwrite it.
        outputDir: path.join(deps.storageDir, 'send'),
        token: cts.token,
        onText: (t) => panel?.post({ type: 'sendDelta', text: t }),
      });
      panel?.post({ type: 'sendDone', note });
    } catch (e) {
      panel?.post({ type: 'sendDone', error: showProviderError(e) });
    } finally {
      if (inFlight === cts) inFlight = undefined;
      cts.dispose();
    }
  };

  const lastRequest = () => (service.state.kind === 'ok' ? service.state.assembly.serialized : undefined);

  const panelActions: PanelActions = {
    preview: async (t) => void (await preview(t)),
    send: (t) => send(t),
    cancel: () => inFlight?.cancel(),
    setTask: async (t) => {
      await task.set(t);
      service.schedule();
    },
    copyRequest: async () => {
      const r = lastRequest();
      if (!r) return;
      await vscode.env.clipboard.writeText(r);
      void vscode.window.showInformationMessage(`Context Control: request copied (${num(Buffer.byteLength(r))} bytes).`);
    },
    exportRequest: async () => {
      const r = lastRequest();
      if (!r) return;
      const target = await vscode.window.showSaveDialog({ defaultUri: root ? vscode.Uri.file(path.join(root, 'request.json')) : undefined, filters: { JSON: ['json'] } });
      if (!target) return;
      await vscode.workspace.fs.writeFile(target, Buffer.from(r));
      void vscode.window.showInformationMessage(`Context Control: request exported to ${target.fsPath}.`);
    },
    openSource: (s) => openSource(s),
    taskText: () => task.current() ?? '',
    policies: async () => {
      const found = await vscode.workspace.findFiles('**/.context/*.{yaml,yml}', '**/node_modules/**', 20);
      return found.map((u) => vscode.workspace.asRelativePath(u, false)).filter((f) => !/(^|\/)checks\.ya?ml$/.test(f)).sort();
    },
  };

  register('contextControl.preview', async () => {
    await vscode.commands.executeCommand('contextControl.panel.focus');
    await preview();
  });
  register('contextControl.send', () => send());
  register('contextControl.openPanel', () => vscode.commands.executeCommand('contextControl.panel.focus'));
  register('contextControl.pinSelection', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) {
      void vscode.window.showInformationMessage('Context Control: select the text to pin first.');
      return;
    }
    const pin = await pins.pinSelection(editor);
    if (pin) await afterPinChange(`the pinned lines ${pin.source}:${pin.startLine}-${pin.endLine}`);
  });
  register('contextControl.pinFile', async (uri?: vscode.Uri) => {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    if (!target || !(await confirmPinSize(target, pins.relative(target), service))) return;
    const pin = await pins.pinFile(target);
    if (pin) await withPinProgress(pin.source, fileBytes(target), () => afterPinChange(`the pinned file ${pin.source}`));
  });
  register('contextControl.unpin', async (arg?: Node | string) => {
    const id = typeof arg === 'string' ? arg : arg?.id?.replace(/^pin:/, '');
    if (!id) return;
    await pins.unpin(id);
    await service.run();
  });
  register('contextControl.unpinAtCursor', async () => {
    const editor = vscode.window.activeTextEditor;
    const pin = editor && pins.at(editor.document.uri, editor.selection.active.line);
    if (!pin) return;
    await pins.unpin(pin.id);
    await service.run();
  });
  const openOutput = async (name: string) => {
    const file = path.join(deps.storageDir, name);
    if (!fs.existsSync(file)) await service.run();
    if (!fs.existsSync(file)) {
      void vscode.window.showWarningMessage(`Context Control: no ${name} yet: the last assembly did not succeed.`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  };
  register('contextControl.openManifest', () => openOutput('manifest.json'));
  register('contextControl.openTrace', () => openOutput('trace.txt'));
  register('contextControl.refresh', () => service.run());
  register('contextControl.copyRequest', () => panelActions.copyRequest());
  register('contextControl.exportRequest', () => panelActions.exportRequest());
  register('contextControl.openItem', (arg?: { source: string; line?: number }) => arg && openSource(arg.source, arg.line));
  register('contextControl.clearOffload', async () => {
    if (!root) return;
    let dir: string;
    try {
      dir = offloadLocation(root, service.policy(readSettings()));
    } catch (e) {
      void vscode.window.showErrorMessage(`Context Control: ${e instanceof InputError ? e.toString() : (e as Error).message}`);
      return;
    }
    const files = listStore(dir);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(`Context Control: the offload store (${vscode.workspace.asRelativePath(dir, false)}) is already empty.`);
      return;
    }
    const bytes = files.reduce((n, f) => n + f.bytes, 0);
    const ok = await vscode.window.showWarningMessage(
      `Delete ${files.length} offloaded results (${num(bytes)} bytes) from ${vscode.workspace.asRelativePath(dir, false)}? Requests that referenced them can no longer be inspected.`,
      { modal: true },
      'Delete',
    );
    if (ok !== 'Delete') return;
    const cleared = clearOffloadStore(dir);
    void vscode.window.showInformationMessage(`Context Control: removed ${cleared.removed.length} offloaded results (${num(cleared.freedBytes)} bytes).`);
    service.schedule();
  });
  register('contextControl.setApiKey', async () => {
    const provider = await vscode.window.showQuickPick(['openai', 'anthropic'], { title: 'Context Control: API key for which provider?' });
    if (!provider) return;
    const key = await vscode.window.showInputBox({ title: `API key for ${provider}`, password: true, ignoreFocusOut: true, prompt: 'Stored in VS Code SecretStorage, never in settings or logs.' });
    if (!key) return;
    await context.secrets.store(secretKey(provider), key.trim());
    void vscode.window.showInformationMessage(`Context Control: API key for ${provider} stored in SecretStorage.`);
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
  register('contextControl.clearApiKey', async () => {
    const provider = await vscode.window.showQuickPick(['openai', 'anthropic'], { title: 'Context Control: clear the API key of which provider?' });
    if (!provider) return;
    await context.secrets.delete(secretKey(provider));
  });

  return {
    panelActions,
    attachPanel: (p: RequestPanel) => {
      panel = p;
    },
  };
}
