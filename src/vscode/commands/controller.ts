import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { num } from '../../core/report/trace';
import { resolveInWorkspace } from '../../core/sources/guard';
import type { AssemblyService } from '../assembly';
import { Disposable } from '../disposable';
import { findWindow } from '../fit-search';
import type { HostMessage } from '../protocol';
import { providerErrorOf, showProviderError } from '../provider-toast';
import { sendRequest } from '../send';
import type { Settings } from '../settings';
import type { AssemblyState, Change } from '../state';
import type { PanelController } from '../views/panel';

/**
 * What the panel and the commands act through: preview, send, cancel, the task, the last request. It knows no view:
 * what a view should show goes out through `onDidPost` and `onDidShow`, and the panel listens.
 */
export class HostController extends Disposable implements PanelController {
  private readonly posts = this._register(new vscode.EventEmitter<HostMessage>());
  private readonly shows = this._register(new vscode.EventEmitter<AssemblyState>());
  readonly onDidPost = this.posts.event;
  readonly onDidShow = this.shows.event;
  readonly onDidChange: vscode.Event<Change>;
  private inFlight: vscode.CancellationTokenSource | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly service: AssemblyService,
  ) {
    super();
    this.onDidChange = service.host.onDidChange;
    // Every run shows in the panel, the first and the background ones too, not only the status bar's spinner.
    this._register(service.onDidBusy((busy) => this.post({ type: 'busy', busy })));
  }

  busy(): boolean {
    return this.service.busy;
  }

  get root(): string | undefined {
    return this.service.host.root;
  }

  get actionTarget() {
    return this.service;
  }

  findWindow(state: AssemblyState): Promise<boolean> {
    return findWindow(this.service, state);
  }

  current(): AssemblyState {
    return this.service.host.result;
  }

  settings(): Settings {
    return this.service.host.settings;
  }

  post(message: HostMessage): void {
    this.posts.fire(message);
  }

  /** Show another assembly (a chat request's) in the panel until its own next run. */
  show(state: AssemblyState): void {
    this.shows.fire(state);
  }

  taskText(): string {
    return this.service.host.task ?? '';
  }

  async setTask(text: string): Promise<void> {
    await this.service.host.setTask(text);
  }

  async preview(text?: string): Promise<void> {
    await this.assemble(text);
  }

  /** Assemble now, with `text` as the task when given. */
  async assemble(text?: string): Promise<AssemblyState> {
    if (text !== undefined) await this.service.host.setTask(text);
    this.post({ type: 'busy', busy: true });
    return this.service.run();
  }

  cancel(): void {
    this.inFlight?.cancel();
  }

  async send(text?: string): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Context Control: sending needs a trusted workspace. Preview works in restricted mode.', 'Manage Workspace Trust').then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
      this.post({ type: 'sendDone', error: 'Sending needs a trusted workspace.' });
      return;
    }
    const state = await this.assemble(text);
    if (state.kind !== 'ok') {
      const why = state.kind === 'refused' ? state.error.message : state.kind === 'error' ? state.error.message : state.reason;
      this.post({ type: 'sendDone', error: `Not sent: ${why}` });
      void vscode.window.showErrorMessage(`Context Control: not sent. ${why.split('\n')[0]}`);
      return;
    }
    this.inFlight?.cancel();
    const cts = (this.inFlight = new vscode.CancellationTokenSource());
    const settings = state.settings;
    this.post({ type: 'sendStarted', provider: settings.provider, model: settings.model });
    try {
      const { note, usage, file } = await sendRequest({
        state,
        settings,
        snapshot: this.service.host.requestInputs(settings),
        sendWorkerScript: vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'send-worker.js').fsPath,
        sessionStore: this.service.host.sessionStore,
        keys: this.service.host.engine(),
        // Sends keep their own record: the next preview does not overwrite it.
        outputDir: path.join(this.service.host.storageDir, 'send'),
        token: cts.token,
        onText: (t) => this.post({ type: 'sendDelta', text: t }),
      });
      this.post({ type: 'sendDone', note, usage, ...(file ? { file } : {}) });
    } catch (e) {
      const fix = providerErrorOf(e).action;
      this.post({ type: 'sendDone', error: showProviderError(e), ...(fix ? { fix } : {}) });
    } finally {
      if (this.inFlight === cts) this.inFlight = undefined;
      cts.dispose();
    }
  }

  private lastRequest(): string | undefined {
    const s = this.current();
    return s.kind === 'ok' ? s.assembly.serialized : undefined;
  }

  async copyRequest(): Promise<void> {
    const r = this.lastRequest();
    if (!r) return;
    await vscode.env.clipboard.writeText(r);
    void vscode.window.showInformationMessage(`Context Control: request copied (${num(Buffer.byteLength(r))} bytes).`);
  }

  async exportRequest(): Promise<void> {
    const r = this.lastRequest();
    if (!r) return;
    const root = this.root;
    const target = await vscode.window.showSaveDialog({ defaultUri: root ? vscode.Uri.file(path.join(root, 'request.json')) : undefined, filters: { JSON: ['json'] } });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(r));
    void vscode.window.showInformationMessage(`Context Control: request exported to ${target.fsPath}.`);
  }

  /** Open a workspace file (or one of this extension's records) at a line; nothing outside them opens from a click. */
  /** `line` and `column` are 1-based (the cursor goes there); the file's top without them. */
  async openSource(source: string, line?: number, inFolder?: string, column?: number): Promise<void> {
    // A tree of a multi-root workspace names the folder of its item; only an open workspace folder is taken.
    const root = (inFolder && vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === inFolder) ? inFolder : undefined) ?? this.root;
    if (!root) return;
    // Through the workspace guard (core/sources/guard.ts), the extension's storage allowed: a link leading outside
    // the workspace, a FIFO (it would block) or a folder is not opened. Secret files may be opened: nothing is sent.
    const d = resolveInWorkspace(source.replace(/#.*$/, ''), { root, allowedRoots: [this.service.host.storageDir], refuseSecrets: false });
    if (!d.ok && (d.kind === 'outside' || d.kind === 'link-outside')) {
      void vscode.window.showWarningMessage(`Context Control: "${source}" is outside the workspace; not opened.`);
      return;
    }
    if (!d.ok) {
      void vscode.window.showInformationMessage(d.kind === 'missing' ? `Context Control: "${source}" is not a workspace file.` : `Context Control: "${source}" ${d.why}; not opened.`);
      return;
    }
    const file = d.abs;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), Math.max(0, (column ?? 1) - 1));
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
  }

  async policies(): Promise<string[]> {
    const found = await vscode.workspace.findFiles('**/.context/*.{yaml,yml}', '**/node_modules/**', 20);
    const list = found.map((u) => vscode.workspace.asRelativePath(u, false)).filter((f) => !/(^|\/)checks\.ya?ml$/.test(f));
    // The configured policy is listed whenever it exists, wherever it is: the picker names a missing one as the defaults.
    const configured = this.settings().policyPath;
    const root = this.root;
    if (root && configured && !list.includes(configured) && fs.existsSync(path.join(root, configured))) list.push(configured);
    return list.sort();
  }
}
