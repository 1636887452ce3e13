import * as path from 'node:path';
import * as vscode from 'vscode';
import { editorSessionStore, type SessionStore } from '../core/session/store';
import type { Assembly } from '../core/chain/assemble';
import { ContextBudgetExceeded, InputError } from '../core/errors';
import { resolvePolicy, type Policy } from '../core/policy';
import { FolderEngine } from '../core/folder-engine';
import type { Host, HostWatch } from '../core/host';
import type { Pin } from '../core/sources/snapshot';
import { Disposable } from './disposable';
import { editorSignals } from './editor-signals';
import { findModel } from './lm';
import type { PinStore } from './pins';
import { unsavedBuffers, workspaceRelative } from './reader';
import { readSettings, SECTION, type Settings } from './settings';
import type { BlockView, FitResult, SnapshotView, WorkerSnapshot } from './worker/protocol';

/** What the views show: the last assembly, or why there is none. */
export type AssemblyState =
  | { kind: 'empty'; reason: string }
  | { kind: 'ok'; snapshot: SnapshotView; assembly: Assembly; view: BlockView; fit?: FitResult; settings: Settings; at: Date }
  | { kind: 'refused'; snapshot?: SnapshotView; error: ContextBudgetExceeded; policy: Policy; settings: Settings; at: Date }
  | { kind: 'error'; error: Error; settings: Settings; at: Date };

/** What changed: every origin of a change, one event. `result` is a new assembly; the others call for one. */
export type Change = 'task' | 'pins' | 'settings' | 'model' | 'files' | 'buffers' | 'editor' | 'trust' | 'folder' | 'result';

const TASK_KEY = 'contextControl.task';
const NOTHING_YET: AssemblyState = { kind: 'empty', reason: 'Nothing assembled yet.' };
const DEFAULT_POLICY_PATH = '.context/policy.yaml';
const IGNORED = (rel: string) => rel.startsWith('.git/') || rel.includes('node_modules/') || rel.startsWith('.context/offload/');

/**
 * The editor's one state: the task, the pins, the settings snapshot, the vscode.lm model's input limit, the session
 * store and the last result, with one change event and one `requestInputs()`. Every change of any origin (a file, a
 * setting, a pin, typing in an unsaved buffer, trust, the active editor, the model list) fires it.
 */
export class HostState extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<Change>());
  readonly onDidChange = this.emitter.event;
  private _settings = readSettings();
  private _modelMaxInput: number | undefined;
  /** The last result of each folder (a multi-root workspace keeps one per folder), by root. */
  private readonly _results = new Map<string, AssemblyState>();
  private readonly rootOf: () => string | undefined;
  /** Each folder's engine in this thread (the editor host's policy, files, watch and keys), by root. */
  private readonly engines = new Map<string, FolderEngine>();
  private watched: { root: string; watch: HostWatch } | undefined;

  /**
   * `root`: the folder, or (multi-root) a function giving the followed folder (folders.ts); `onFolder`: the event of
   * the followed folder changing, which calls for an assembly of that folder.
   */
  constructor(
    private readonly memento: vscode.Memento,
    root: string | undefined | (() => string | undefined),
    readonly pins: PinStore,
    readonly storageDir: string,
    private readonly host: Host,
    onFolder?: vscode.Event<unknown>,
  ) {
    super();
    this.rootOf = typeof root === 'function' ? root : () => root;
    const fire = (c: Change) => () => this.emitter.fire(c);
    if (onFolder)
      this._register(
        onFolder(() => {
          this.watchFollowed();
          this.emitter.fire('folder');
        }),
      );
    this._register(pins.onDidChange(fire('pins')));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        this._settings = readSettings();
        this.emitter.fire('settings');
        void this.refreshModelLimit();
      }),
    );
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(fire('trust')));
    // The active file is a relevance signal: switching files re-ranks (the index is only updated, not rebuilt).
    this._register(vscode.window.onDidChangeActiveTextEditor(fire('editor')));
    this._register(vscode.lm.onDidChangeChatModels(() => void this.refreshModelLimit()));
    // Typing in a workspace file (a pinned range included) changes what the editor reader sees, before any save.
    this._register(vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && this.inWorkspace(e.document.uri) && this.emitter.fire('buffers')));
    // A file created, changed or deleted in the followed folder (through its engine's host: VS Code's watcher).
    this.watchFollowed();
    this._register({ dispose: () => this.watched?.watch.dispose() });
    void this.refreshModelLimit();
  }

  /** The engine of a folder (default: the followed one) in this thread: no chain, the editor host's reads and keys. */
  engine(root = this.root): FolderEngine {
    if (!root) throw new InputError('open a folder first', 'workspace');
    let engine = this.engines.get(root);
    if (!engine) this.engines.set(root, (engine = new FolderEngine(this.host, root)));
    return engine;
  }

  /** The workspace's folders now: the results and engines of folders removed are let go. */
  keepFolders(roots: readonly string[]): void {
    for (const r of [...this._results.keys()]) if (!roots.includes(r)) this._results.delete(r);
    for (const r of [...this.engines.keys()]) if (!roots.includes(r)) this.engines.delete(r);
  }

  /** Watches the followed folder only: a change elsewhere calls for no assembly of it. */
  private watchFollowed(): void {
    const root = this.root;
    if (this.watched?.root === root) return;
    this.watched?.watch.dispose();
    this.watched = root ? { root, watch: this.engine(root).watch((rel) => !IGNORED(rel) && this.emitter.fire('files')) } : undefined;
  }

  get settings(): Settings {
    return this._settings;
  }

  /** The selected vscode.lm model's maxInputTokens, when that provider is chosen and VS Code offers the model. */
  get modelMaxInput(): number | undefined {
    return this._modelMaxInput;
  }

  /** The panel's task text, or undefined to fall back to the taskFile setting. */
  get task(): string | undefined {
    return this.memento.get<string>(TASK_KEY) || undefined;
  }

  async setTask(text: string): Promise<void> {
    if (text === (this.task ?? '')) return;
    await this.memento.update(TASK_KEY, text);
    this.emitter.fire('task');
  }

  /** The followed folder's root (the only folder's in a single-folder workspace). */
  get root(): string | undefined {
    return this.rootOf();
  }

  get result(): AssemblyState {
    return this.resultOf(this.root);
  }

  /** A folder's last result. */
  resultOf(root: string | undefined): AssemblyState {
    return this._results.get(root ?? '') ?? NOTHING_YET;
  }

  /** Stores the result of an assembly of `root` (default: the followed folder), which a folder change may have left behind. */
  setResult(state: AssemblyState, root = this.root): void {
    this._results.set(root ?? '', state);
    this.emitter.fire('result');
  }

  /**
   * The session this editor replays and records into: in a trusted workspace the workspace's own
   * `.context/session.jsonl`, the file `ctxctl` reads, so both build the same request; in restricted mode the
   * workspace is never written and the editor keeps its own copy (the manifest's session.store says which).
   */
  get sessionStore(): SessionStore {
    if (!this.root) throw new InputError('open a folder first', 'workspace');
    return editorSessionStore(this.root, this.storageDir, vscode.workspace.isTrusted);
  }

  /** The policy file with the settings' envelope and the model's own window, composed as the CLI composes its flags. */
  policy(settings = this._settings, modelMaxInput = this._modelMaxInput): Policy {
    const engine = this.engine(this.root ?? '.');
    const file = path.isAbsolute(settings.policyPath) ? settings.policyPath : path.join(engine.root, settings.policyPath);
    // The default path may be absent (the defaults apply); a path the user chose must exist.
    const exists = this.host.fs.existsSync(file);
    if (!exists && settings.policyPath !== DEFAULT_POLICY_PATH) throw new InputError('policy file not found (contextControl.policyPath)', settings.policyPath);
    const base = engine.policy(exists ? file : undefined);
    const e = settings.envelope;
    return resolvePolicy(base, { envelope: { window: e.window, output_reserve: e.outputReserve, margin: e.margin }, modelMaxInput, source: 'settings' });
  }

  /** The inputs of one assembly: the workspace with its unsaved buffers, the task, the policy, the pins, the session. */
  requestInputs(settings = this._settings, modelMaxInput = this._modelMaxInput): WorkerSnapshot & { root: string } {
    if (!this.root) throw new InputError('open a folder first', 'workspace');
    const root = this.root;
    return {
      root,
      task: this.task?.trim() || this.taskFromSettings(settings),
      cwd: root,
      policy: this.policy(settings, modelMaxInput),
      pins: this.resolvedPins(),
      sessionFile: this.sessionStore.snapshotFile(),
      editor: editorSignals(root),
      buffers: unsavedBuffers(root),
      // Git reads the workspace's own config; in a restricted workspace it is not run at all (as VS Code's Git does).
      ...(vscode.workspace.isTrusted ? {} : { changes: false as const }),
    };
  }

  /** The pins with their current text: an unsaved buffer's when the file is open and edited, else the disk's. */
  resolvedPins(): Pin[] {
    if (!this.root) return [];
    const engine = this.engine();
    return this.pins.resolved((source) => {
      try {
        return engine.read(source);
      } catch {
        return undefined;
      }
    });
  }

  private taskFromSettings(settings: Settings): string {
    if (settings.taskFile && this.root) return path.join(this.root, settings.taskFile);
    return 'No task given yet: type one in the Context Control panel.';
  }

  private inWorkspace(uri: vscode.Uri): boolean {
    const rel = this.root ? workspaceRelative(this.root, uri) : undefined;
    return !!rel && !IGNORED(rel);
  }

  /** With vscode.lm, the chosen model's maxInputTokens narrows the envelope of the preview too. */
  private async refreshModelLimit(): Promise<void> {
    const s = this._settings;
    const before = this._modelMaxInput;
    this._modelMaxInput = s.provider === 'vscode-lm' ? (await findModel(s.model).catch(() => undefined))?.maxInputTokens : undefined;
    if (before !== this._modelMaxInput) this.emitter.fire('model');
  }
}
