import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallRecord } from '../core/gateway/record';
import { ensureRecordsDir, GATEWAY_DIR, recordFiles, recordsDir } from '../core/gateway/records';
import { Disposable } from './disposable';
import { callBudget, callNodes, lastCallStatus, type CallFile } from './views/agentCalls';
import { NodeTree, type Node } from './views/tree';

/**
 * `ctxctl gateway` from the editor: the bundled CLI (dist/cli.js) runs as a child process for the workspace folder,
 * the Agent calls view lists its records live (a watcher on `.context/gateway/`), a call opens as the JSON sent
 * upstream (read-only), and a status bar item shows the last call's real budget while the gateway runs.
 * Settings: `contextControl.gateway.port`, `.mode`, `.autoStart`; a change applies at once (the gateway restarts).
 */

export const AGENT_CALLS_VIEW = 'contextControl.agentCalls';
const SCHEME = 'ctxctl-call';
const RUNNING_KEY = 'contextControl.gatewayRunning';
const LISTENING = /gateway listening on (http:\/\/127\.0\.0\.1:\d+)/;

export interface StartOptions {
  /** Upstreams other than the public APIs (the integration test's fake provider). */
  anthropicUpstream?: string;
  openaiUpstream?: string;
}

type Part = 'sent' | 'received';

export class GatewayHost extends Disposable {
  readonly tree = this._register(new NodeTree());
  readonly status = this._register(vscode.window.createStatusBarItem('contextControl.gateway', vscode.StatusBarAlignment.Right, 99));
  private readonly log = this._register(vscode.window.createOutputChannel('Context Control Gateway', { log: true }));
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private child: ChildProcess | undefined;
  private options: StartOptions = {};
  private calls: CallFile[] = [];
  /** The URL while running, e.g. `http://127.0.0.1:8787`. */
  url: string | undefined;
  /** The CLI's one-line message when the last start failed (e.g. the port in use). */
  lastError: string | undefined;

  constructor(
    private readonly root: string | undefined,
    private readonly cli: string,
  ) {
    super();
    this.status.name = 'Context Control Agent Call';
    this.status.command = `${AGENT_CALLS_VIEW}.focus`;
    this._register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => this.content(uri) }));
    if (root) {
      // The folder too: the first record can be written with the folder, before a watch on it exists; its creation
      // reads the folder again once the writes have landed.
      const watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), `${GATEWAY_DIR.replace(/\/gateway$/, '')}/{gateway,gateway/call-*.json}`)));
      const folderCreated = () => {
        const again = setTimeout(() => this.reload(), 500);
        this._register({ dispose: () => clearTimeout(again) });
      };
      for (const on of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete])
        this._register(
          on((uri) => {
            this.reload();
            if (path.basename(uri.fsPath) === 'gateway') folderCreated();
          }),
        );
    }
    this._register({ dispose: () => this.child?.kill('SIGTERM') });
    this.reload();
    this.updateStatus();
  }

  get running(): boolean {
    return this.url !== undefined;
  }

  /** The records on disk, read again (the watcher calls this; so can a test). */
  reload(): CallFile[] {
    const dir = this.root ? recordsDir(this.root) : undefined;
    const calls: CallFile[] = [];
    for (const file of dir ? recordFiles(dir) : []) {
      try {
        calls.push({ file, record: JSON.parse(fs.readFileSync(path.join(dir!, file), 'utf8')) as CallRecord });
      } catch {
        // being written or not ours: the next event reads it
      }
    }
    this.calls = calls;
    this.tree.set(callNodes(calls));
    this.updateStatus();
    this.changed.fire();
    return calls;
  }

  async start(options: StartOptions = this.options): Promise<string | undefined> {
    if (!this.root) {
      void vscode.window.showErrorMessage('Context Control: open a folder to start the gateway for it.');
      return undefined;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage('Context Control: the gateway forwards your agents’ requests and reads their files; it does not run in Restricted Mode. Trust this workspace to start it.', 'Manage Workspace Trust').then((pick) => pick && vscode.commands.executeCommand('workbench.trust.manage'));
      return undefined;
    }
    if (this.child) await this.stop();
    this.options = options;
    const cfg = vscode.workspace.getConfiguration('contextControl.gateway');
    const port = cfg.get<number>('port', 8787);
    const mode = cfg.get<string>('mode', 'control');
    const args = [this.cli, 'gateway', '--workspace', this.root, '--port', String(port), '--mode', mode];
    if (options.anthropicUpstream) args.push('--anthropic-upstream', options.anthropicUpstream);
    if (options.openaiUpstream) args.push('--openai-upstream', options.openaiUpstream);
    // Created here, so the watcher sees each record as it is written (the CLI makes the folder with its first record).
    ensureRecordsDir(recordsDir(this.root));
    this.log.info(`starting: ctxctl ${args.slice(1).join(' ')}`);
    const child = spawn(process.execPath, args, { cwd: this.root, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let stderr = '';
    let failed: ((message: string) => void) | undefined;
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
      for (const line of s.split('\n')) if (line.trim()) this.log.info(line);
      // The CLI's error line (`ctxctl: …`, exit 2). Its process can outlive the message (a worker thread started
      // before the listen keeps it up), so the message alone ends the start.
      const error = /^ctxctl: .+$/m.exec(stderr);
      if (error) failed?.(error[0]);
    });
    const url = await new Promise<string | undefined>((resolve) => {
      failed = () => {
        child.kill('SIGTERM');
        resolve(undefined);
      };
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => {
        out += s;
        const m = LISTENING.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('error', (e) => {
        stderr += e.message;
        resolve(undefined);
      });
      child.once('exit', () => resolve(undefined));
    });
    child.once('exit', (code, signal) => {
      this.log.info(`gateway exited (${signal ?? code})`);
      if (this.child !== child) return;
      this.child = undefined;
      this.url = undefined;
      this.updateStatus();
      this.changed.fire();
    });
    if (!url) {
      if (this.child === child) this.child = undefined;
      const message = /^ctxctl: (.+)$/m.exec(stderr)?.[1] ?? stderr.trim().split('\n').filter(Boolean).pop() ?? 'the gateway exited before listening';
      this.lastError = message;
      this.log.error(message);
      void vscode.window.showErrorMessage(`Context Control: the gateway did not start: ${message}`, 'Change Port', 'Show Log').then((pick) => {
        if (pick === 'Change Port') void vscode.commands.executeCommand('workbench.action.openSettings', 'contextControl.gateway.port');
        if (pick === 'Show Log') this.log.show();
      });
      return undefined;
    }
    this.url = url;
    this.lastError = undefined;
    this.log.info(`listening on ${url} (${mode})`);
    this.updateStatus();
    this.changed.fire();
    return url;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.url = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    this.updateStatus();
    this.changed.fire();
  }

  /** A settings change while running applies at once; autoStart turned on starts it. */
  async configure(e: vscode.ConfigurationChangeEvent): Promise<void> {
    if (!e.affectsConfiguration('contextControl.gateway')) return;
    if (this.running && (e.affectsConfiguration('contextControl.gateway.port') || e.affectsConfiguration('contextControl.gateway.mode'))) await this.start();
    else if (!this.running && e.affectsConfiguration('contextControl.gateway.autoStart') && autoStart()) await this.start();
  }

  uri(file: string, part: Part): vscode.Uri {
    return vscode.Uri.from({ scheme: SCHEME, path: `/${file.replace(/\.json$/, '')}.${part}.json` });
  }

  async open(file: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.uri(file, 'sent'));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  async compareReceived(file: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.diff', this.uri(file, 'received'), this.uri(file, 'sent'), `${short(file)}: what the agent sent ↔ what was sent`);
  }

  async comparePrevious(file: string): Promise<void> {
    const i = this.calls.findIndex((c) => c.file === file);
    const conversation = this.calls[i]?.record.conversation;
    const older = this.calls.slice(0, Math.max(0, i)).reverse();
    const prev = older.find((c) => conversation !== undefined && c.record.conversation === conversation) ?? older[0];
    if (!prev) {
      void vscode.window.showInformationMessage('Context Control: this is the first recorded call; there is no previous call to compare with.');
      return;
    }
    await vscode.commands.executeCommand('vscode.diff', this.uri(prev.file, 'sent'), this.uri(file, 'sent'), `${short(prev.file)} ↔ ${short(file)}: sent`);
  }

  private content(uri: vscode.Uri): string {
    const m = /^\/(.+)\.(sent|received)\.json$/.exec(uri.path);
    const call = m && this.calls.find((c) => c.file === `${m[1]}.json`);
    if (!m || !call) return '// this call is no longer recorded\n';
    const r = call.record;
    const body = m[2] === 'sent' && !r.sent_unchanged && r.sent !== undefined ? r.sent : r.received;
    return typeof body === 'string' ? body : JSON.stringify(body, null, 2) + '\n';
  }

  private updateStatus(): void {
    void vscode.commands.executeCommand('setContext', RUNNING_KEY, this.running);
    if (!this.running) {
      this.status.hide();
      return;
    }
    const last = this.calls[this.calls.length - 1]?.record;
    this.status.text = lastCallStatus(last);
    this.status.tooltip = last ? `Last agent call through the gateway (${this.url}): ${last.model ?? last.path}, ${callBudget(last)} tokens sent. Click for the Agent calls view.` : `Context Control gateway on ${this.url}: no agent call yet. Click for the Agent calls view.`;
    this.status.accessibilityInformation = { label: last ? `Last agent call: ${callBudget(last)} tokens` : 'Context Control gateway running', role: 'button' };
    this.status.show();
  }
}

const short = (file: string) => file.replace(/^call-/, '').replace(/\.json$/, '');
const autoStart = () => vscode.workspace.getConfiguration('contextControl.gateway').get<boolean>('autoStart', false);

/** Files from the command's argument: a tree node (context menu), a file name (click), or the selection. */
function fileOf(arg: unknown, view: vscode.TreeView<Node>): string | undefined {
  if (typeof arg === 'string') return arg;
  const node = (arg as Node | undefined) ?? view.selection[0];
  const file = node?.command?.arguments?.[0];
  return typeof file === 'string' ? file : undefined;
}

export function registerGateway(context: vscode.ExtensionContext, root: string | undefined, cli: string): GatewayHost {
  const gateway = new GatewayHost(root, cli);
  context.subscriptions.push(gateway);
  const view = vscode.window.createTreeView(AGENT_CALLS_VIEW, { treeDataProvider: gateway.tree });
  const describe = () => (view.message = gateway.running ? `Gateway on ${gateway.url}` : undefined);
  const withFile = (run: (file: string) => Promise<void>) => async (arg?: unknown) => {
    const file = fileOf(arg, view);
    if (file) await run(file);
  };
  context.subscriptions.push(
    view,
    gateway.onDidChange(describe),
    vscode.commands.registerCommand('contextControl.startGateway', (options?: StartOptions) => gateway.start(options ?? {})),
    vscode.commands.registerCommand('contextControl.stopGateway', () => gateway.stop()),
    vscode.commands.registerCommand('contextControl.openAgentCall', withFile((f) => gateway.open(f))),
    vscode.commands.registerCommand('contextControl.compareAgentCallReceived', withFile((f) => gateway.compareReceived(f))),
    vscode.commands.registerCommand('contextControl.compareAgentCallPrevious', withFile((f) => gateway.comparePrevious(f))),
    vscode.workspace.onDidChangeConfiguration((e) => void gateway.configure(e)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void (autoStart() && !gateway.running && gateway.start())),
  );
  if (autoStart() && vscode.workspace.isTrusted) void gateway.start();
  return gateway;
}
