import * as vscode from 'vscode';
import { ContextBudgetExceeded } from '../core/errors';
import type { Policy } from '../core/policy';
import type { WireShape } from '../core/providers/shape';
import type { SessionStore } from '../core/session/store';
import { Disposable } from './disposable';
import type { Settings } from './settings';
import type { AssemblyState, HostState } from './state';
import { AssemblyWorker, OpFailed } from './worker/client';
import type { WorkerSnapshot } from './worker/protocol';
import { revive } from './worker/serialize';

export type { AssemblyState } from './state';

const DEBOUNCE_MS = 400;

/** The wire shape a provider speaks; the preview is counted in it. */
export function shapeFor(settings: Settings): WireShape {
  return settings.provider === 'anthropic' ? 'anthropic' : settings.provider === 'vscode-lm' ? 'vscode-lm' : 'openai';
}

/**
 * Runs the core chain for the workspace in the assemble worker: on demand, and debounced on every change of the
 * HostState (files, unsaved buffers, pins, settings, task, trust, model). Writes the last result into the state.
 */
export class AssemblyService extends Disposable {
  readonly onDidChange: vscode.Event<AssemblyState>;
  /** true when a run starts (background or asked for), false when the last one ends: the panel shows its progress. */
  readonly onDidBusy: vscode.Event<boolean>;
  private readonly busyEvents: vscode.EventEmitter<boolean>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<AssemblyState> | undefined;
  private followUp: Promise<AssemblyState> | undefined;
  /**
   * Changes schedule a rebuild only once something asked for one (a view shown, a command, the first run of a
   * workspace with context): in any other folder the extension stays idle, whatever is edited.
   */
  private awake = false;
  /** The worker where the chain runs; the chat, the checks and the tools call it too. */
  readonly worker: AssemblyWorker;

  constructor(
    workerScript: string,
    readonly host: HostState,
  ) {
    super();
    this.worker = new AssemblyWorker(workerScript);
    const results = this._register(new vscode.EventEmitter<AssemblyState>());
    this.onDidChange = results.event;
    this.busyEvents = this._register(new vscode.EventEmitter<boolean>());
    this.onDidBusy = this.busyEvents.event;
    this._register(host.onDidChange((c) => (c === 'result' ? results.fire(host.result) : this.schedule())));
    this._register({
      dispose: () => {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        this.worker.dispose();
      },
    });
  }

  /** A run is under way. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  get state(): AssemblyState {
    return this.host.result;
  }

  get workspaceRoot(): string | undefined {
    return this.host.root;
  }

  get outputDir(): string {
    return this.host.storageDir;
  }

  /** The inputs of one assembly (HostState.requestInputs). */
  snapshotOptions(settings?: Settings): WorkerSnapshot & { root: string } {
    return this.host.requestInputs(settings);
  }

  /** The policy with the settings' overrides (HostState.policy). */
  policy(settings?: Settings, modelMaxInput?: number): Policy {
    return this.host.policy(settings, modelMaxInput ?? this.host.modelMaxInput);
  }

  /** Schedule a rebuild; bursts of changes collapse into one run. Nothing before the first run (see `awake`). */
  schedule(): void {
    if (!this.awake) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, DEBOUNCE_MS);
  }

  /**
   * Rebuild now. Runs are serialised: a request made while one is in flight is answered by the next run, which
   * sees the latest files, pins and settings (never by the stale run already under way).
   */
  run(): Promise<AssemblyState> {
    this.awake = true;
    if (this.running) {
      this.followUp ??= this.running.then(() => {
        this.followUp = undefined;
        return this.run();
      });
      return this.followUp;
    }
    const running = (this.running = Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Context Control: assembling context' }, () => this.runOnce()),
    ).finally(() => {
      this.running = undefined;
      if (!this.followUp) this.busyEvents.fire(false);
    }));
    this.busyEvents.fire(true);
    return running;
  }

  private async runOnce(): Promise<AssemblyState> {
    const settings = this.host.settings;
    const at = new Date();
    // The folder this run assembles: the result is that folder's, even if another folder is followed by the time it ends.
    const root = this.host.root;
    let state: AssemblyState;
    if (!this.host.root) state = { kind: 'empty', reason: 'Open a folder to assemble its context.' };
    else if (!this.host.task?.trim() && !settings.taskFile) {
      // No placeholder task is ever assembled or sent: without a task there is no request.
      state = { kind: 'empty', reason: 'No task yet: type one in the panel (or set contextControl.taskFile). Nothing is assembled or sent without a task.' };
    } else {
      let policy: Policy | undefined;
      try {
        const snapshot = this.host.requestInputs(settings);
        policy = snapshot.policy;
        const last = this.host.result;
        const previousPrefixHash = last.kind === 'ok' ? last.assembly.manifest.cache?.prefix_hash : undefined;
        const options = { model: settings.model, encoding: settings.encoding, shape: shapeFor(settings), sessionStore: this.host.sessionStore.ref(), previousPrefixHash };
        const res = await this.worker.call('assemble', { snapshot, options, recordDir: this.host.storageDir });
        state = { kind: 'ok', ...res, settings, at };
      } catch (e) {
        const error = e instanceof OpFailed ? revive(e.error) : (e as Error);
        if (error instanceof ContextBudgetExceeded && policy) state = { kind: 'refused', snapshot: (e as OpFailed).error.snapshot, error, policy, settings, at };
        else state = { kind: 'error', error, settings, at };
      }
    }
    this.host.setResult(state, root);
    return state;
  }

  /** The session this editor replays and records into (see HostState.sessionStore). */
  get sessionStore(): SessionStore {
    return this.host.sessionStore;
  }
}
