import * as vscode from 'vscode';
import { num } from '../core/report/trace';
import { AssemblyService } from './assembly';
import { registerChat } from './chat/register';
import { ChecksTests } from './checks-tests';
import { registerCommands } from './commands';
import { HostController } from './commands/controller';
import { registerCompare } from './compare';
import { lazyCommands } from './lazy-commands';
import { registerControl } from './control';
import { focusWhenReady, hasWorkspaceContext, registerFirstRun } from './first-run';
import { registerGateway } from './gateway';
import { PinDecorations, PinStore } from './pins';
import type * as SessionHost from './session-host';
import { HostState } from './state';
import { FolderTracker } from './folders';
import { pinsKey } from './folder-choice';
import { byFolder } from './views/folder-groups';
import { indexNodes } from './views/indexTree';
import { manifestNodes } from './views/manifestTree';
import { RequestPanel } from './views/panel';
import { pinnedNodes } from './views/pinnedTree';
import { BudgetStatusBar } from './views/statusBar';
import { exportsFor } from './test-api';
import { NodeTree } from './views/tree';
import { installDiskHost } from '../host/disk';
import { editorHost } from './editor-host';
import { findModel } from './lm';

// The engines of this bundle take their host; code it calls outside an engine reaches the default one: the disk.
installDiskHost();

/** The first assembly waits for the window to settle: activation itself starts no worker and reads no workspace. */
const FIRST_RUN_DELAY_MS = 1500;
export const SESSION_COMMANDS = ['contextControl.compactSession', 'contextControl.editSummary', 'contextControl.storeSummaryEdit', 'contextControl.undoSummary'] as const;

/**
 * The only composition root of the host layer. Activation registers views and commands; the chain, the tokenizer
 * and the providers run in the workers (dist/assemble-worker.js, dist/send-worker.js), never in this bundle.
 */
export function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  const storageDir = (context.storageUri ?? context.globalStorageUri).fsPath;
  const dist = (file: string) => vscode.Uri.joinPath(context.extensionUri, 'dist', file).fsPath;
  const sub = <T extends vscode.Disposable>(d: T): T => {
    context.subscriptions.push(d);
    return d;
  };

  // Each workspace folder has its own engine (in the worker, keyed by its root); the panel, the status bar and the
  // assembly follow the folder of the active editor, and the trees group by folder.
  const folders = sub(new FolderTracker());
  const root = () => folders.active?.root;

  const pins = sub(new PinStore(context.workspaceState, root, (r, base) => pinsKey(base, folders.all, r)));
  pins.adoptWorkspacePins();
  // The editor host: the disk with unsaved buffers first, VS Code's watcher, SecretStorage, the vscode.lm model's counter.
  const editor = editorHost({ secrets: context.secrets, model: async () => (host.settings.provider === 'vscode-lm' ? findModel(host.settings.model) : undefined) });
  const host = sub(new HostState(context.workspaceState, root, pins, storageDir, editor, folders.onDidChange));
  sub(folders.onDidChange(() => {
    pins.adoptWorkspacePins();
    pins.folderChanged();
  }));
  const service = sub(new AssemblyService(dist('assemble-worker.js'), host));
  // A folder removed from the workspace lets go of its engine in the worker (a stopped worker holds none) and its
  // last result and engine here.
  sub(vscode.workspace.onDidChangeWorkspaceFolders((e) => {
    if (!e.removed.length) return;
    const roots = folders.all.map((f) => f.root);
    host.keepFolders(roots);
    if (service.worker.running) void service.worker.call('keepFolders', { roots }).catch(() => undefined);
  }));
  const controller = sub(new HostController(context, service));

  const indexTree = sub(new NodeTree());
  const manifestTree = sub(new NodeTree());
  const pinnedTree = sub(new NodeTree());
  const indexView = sub(vscode.window.createTreeView('contextControl.index', { treeDataProvider: indexTree, showCollapseAll: true }));
  const manifestView = sub(vscode.window.createTreeView('contextControl.manifest', { treeDataProvider: manifestTree, showCollapseAll: true }));
  const pinnedView = sub(vscode.window.createTreeView('contextControl.pinned', { treeDataProvider: pinnedTree }));
  const refreshTrees = () => {
    const state = host.result;
    const all = folders.all;
    indexTree.set(byFolder(all, host.root, (r) => indexNodes(host.resultOf(r)), 'index'));
    manifestTree.set(byFolder(all, host.root, (r) => manifestNodes(host.resultOf(r)), 'manifest'));
    const pinTokens = new Map<string, number>();
    for (const b of state.kind === 'ok' ? state.assembly.blocks : state.kind === 'refused' ? state.error.blocks : []) if (b.kind === 'pinned') pinTokens.set(b.id.replace(/^pinned:/, ''), b.tokens);
    // The pins shown are the followed folder's (each folder keeps its own).
    pinnedTree.set(byFolder(all, host.root, (r) => (r === host.root ? pinnedNodes(pins.list(), (p) => pinTokens.get(p.id), (p) => pins.estimate(p)) : []), 'pinned'));
    manifestView.message = state.kind === 'ok' ? `Last assembled ${state.at.toLocaleTimeString()} · ${num(state.assembly.manifest.budget.final)} / ${num(state.assembly.manifest.budget.max_input)} tokens` : undefined;
  };
  sub(host.onDidChange((c) => (c === 'result' || c === 'pins' || c === 'folder') && refreshTrees()));

  const statusBar = sub(new BudgetStatusBar(service, () => (folders.all.length > 1 ? folders.active?.name : undefined)));
  sub(new PinDecorations(pins, vscode.Uri.joinPath(context.extensionUri, 'media', 'pin.svg')));

  registerCommands(context, controller, pins);
  // The session commands' bundle holds the session core (compaction, the summariser): loaded on first use only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  lazyCommands(context, SESSION_COMMANDS, () => (require(dist('session-host.js')) as typeof SessionHost).register(service));
  const control = registerControl(context, service, pins);
  const panel = sub(new RequestPanel(context.extensionUri, controller));
  // In a folder without context of its own, the first assembly waits for the first view shown or command (any
  // command runs one); with context, it starts once the window has settled. Activation itself reads no workspace.
  const eager = folders.all.some((f) => hasWorkspaceContext(f.root, host.task));
  let woken = eager;
  const wake = () => {
    if (woken) return;
    woken = true;
    void service.run();
  };
  if (!eager) host.setResult({ kind: 'empty', reason: 'Open the Request view and type a task: Context Control shows what your agent would receive, and why.' });
  for (const v of [indexView, manifestView, pinnedView]) sub(v.onDidChangeVisibility((e) => e.visible && wake()));
  const panelView: vscode.WebviewViewProvider = { resolveWebviewView: (view) => (wake(), sub(focusWhenReady(view)), panel.resolveWebviewView(view)) };
  sub(vscode.window.registerWebviewViewProvider(RequestPanel.viewId, panelView, { webviewOptions: { retainContextWhenHidden: true } }));
  registerFirstRun(context, service, pins, controller.onDidPost);
  const chat = registerChat(context, service, storageDir, controller);
  const comparison = registerCompare({ context, host, post: (c) => controller.post({ type: 'compare', compare: c }), script: dist('send-worker.js'), worker: service.worker });
  // Context checks are discovered when the Test Explorer asks (resolveHandler), not at activation.
  const checks = sub(new ChecksTests(service.worker, () => host.settings));
  // `ctxctl gateway` as a child process of the bundled CLI, the Agent calls view and the last call's budget.
  // The gateway serves one folder: the one followed when the extension starts.
  const gateway = registerGateway(context, root(), dist('cli.js'));

  const first = setTimeout(() => {
    if (eager) void service.run();
    else if ([indexView, manifestView, pinnedView].some((v) => v.visible) || panel.visible) wake();
  }, FIRST_RUN_DELAY_MS);
  sub({ dispose: () => clearTimeout(first) });

  /** How long activate() took, in milliseconds (the bench and the activation test print it). */
  const activationMs = performance.now() - started;
  // Nothing for other extensions: the internals go to the extension test host only (src/vscode/test-api.ts).
  return exportsFor(context.extensionMode, () => ({ activationMs, folders, host, service, pins, statusBar: statusBar.item, trees: { index: indexTree, manifest: manifestTree, pinned: pinnedTree }, panel, chat, comparison, checks, control, gateway }));
}

export function deactivate() {
  // Everything is disposed through context.subscriptions.
}
