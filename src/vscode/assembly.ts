import { editorSignals } from './editor-signals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Assembly } from '../core/chain/assemble';
import { ContextBudgetExceeded, InputError } from '../core/errors';
import { maxInput, type Policy } from '../core/policy';
import type { WireShape } from '../core/providers/shape';
import { writeRecord } from '../core/report/record';
import { editorSessionStore, type SessionStore } from '../core/session/store';
import { loadPolicy, type Pin, type SnapshotOptions } from '../core/sources/snapshot';
import { Disposable } from './disposable';
import { readSettings, type Settings } from './settings';
import { AssemblyWorker, revive } from './worker/client';
import type { SnapshotView } from './worker/protocol';

/** What the views show: the last assembly, or why there is none. */
export type AssemblyState =
  | { kind: 'empty'; reason: string }
  | { kind: 'ok'; snapshot: SnapshotView; assembly: Assembly; settings: Settings; at: Date }
  | { kind: 'refused'; snapshot?: SnapshotView; error: ContextBudgetExceeded; policy: Policy; settings: Settings; at: Date }
  | { kind: 'error'; error: Error; settings: Settings; at: Date };

export interface TaskSource {
  /** The panel's task text, or undefined to fall back to the taskFile setting. */
  current(): string | undefined;
}

const DEBOUNCE_MS = 400;
const DEFAULT_POLICY_PATH = '.context/policy.yaml';

/** The wire shape a provider speaks; the preview is counted in it. */
export function shapeFor(settings: Settings): WireShape {
  return settings.provider === 'anthropic' ? 'anthropic' : settings.provider === 'vscode-lm' ? 'vscode-lm' : 'openai';
}

/**
 * Runs the core chain for the workspace: on demand, and debounced when files, pins or settings change.
 * Holds the last result; views listen to `onDidChange`.
 */
export class AssemblyService extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<AssemblyState>());
  readonly onDidChange = this.emitter.event;
  private _state: AssemblyState = { kind: 'empty', reason: 'Nothing assembled yet.' };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<AssemblyState> | undefined;
  private followUp: Promise<AssemblyState> | undefined;
  private readonly worker: AssemblyWorker;

  constructor(
    workerScript: string,
    private readonly root: string | undefined,
    private readonly pins: () => Pin[],
    private readonly task: TaskSource,
    private readonly storageDir: string,
    /** The selected model's input limit, when the provider declares one (vscode.lm). */
    private readonly envelopeOverride: () => number | undefined = () => undefined,
  ) {
    super();
    this.worker = new AssemblyWorker(workerScript);
    this._register({
      dispose: () => {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        this.worker.dispose();
      },
    });
  }

  get state(): AssemblyState {
    return this._state;
  }

  get workspaceRoot(): string | undefined {
    return this.root;
  }

  get outputDir(): string {
    return this.storageDir;
  }

  /** Schedule a rebuild; bursts of file events collapse into one run. */
  schedule(): void {
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
    }));
    return running;
  }

  private async runOnce(): Promise<AssemblyState> {
    const settings = readSettings();
    const at = new Date();
    let state: AssemblyState;
    if (!this.root) {
      state = { kind: 'empty', reason: 'Open a folder to assemble its context.' };
    } else if (!this.task.current()?.trim() && !settings.taskFile) {
      // No placeholder task is ever assembled or sent: without a task there is no request.
      state = { kind: 'empty', reason: 'No task yet: type one in the panel (or set contextControl.taskFile). Nothing is assembled or sent without a task.' };
    } else {
      let policy: Policy | undefined;
      try {
        const snapshot = this.snapshotOptions(settings);
        policy = snapshot.policy;
        const res = await this.worker.run({ snapshot, options: { model: settings.model, encoding: settings.encoding, shape: shapeFor(settings), sessionStore: this.sessionStore.ref() } });
        if (!res.ok) {
          const error = revive(res.error);
          if (error instanceof ContextBudgetExceeded) state = { kind: 'refused', snapshot: res.error.snapshot, error, policy, settings, at };
          else state = { kind: 'error', error, settings, at };
        } else {
          this.write(res.assembly);
          state = { kind: 'ok', snapshot: res.snapshot, assembly: res.assembly, settings, at };
        }
      } catch (e) {
        state = { kind: 'error', error: e as Error, settings, at };
      }
    }
    this._state = state;
    this.emitter.fire(state);
    return state;
  }

  /** The inputs of one assembly: the workspace, the task, the policy with overrides, the pins. */
  snapshotOptions(settings: Settings): SnapshotOptions & { root: string; policy: Policy } {
    if (!this.root) throw new InputError('open a folder first', 'workspace');
    return {
      root: this.root,
      task: this.task.current()?.trim() || this.taskFromSettings(settings),
      cwd: this.root,
      policy: this.policy(settings),
      pins: this.pins(),
      sessionFile: this.sessionStore.snapshotFile(),
      editor: editorSignals(this.root),
      // Git reads the workspace's own config; in a restricted workspace it is not run at all (as VS Code's Git does).
      ...(vscode.workspace.isTrusted ? {} : { changes: false as const }),
    };
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

  /** The policy file with the settings' envelope overrides (and a model's own window, when one is known). */
  policy(settings: Settings, modelMaxInput = this.envelopeOverride()): Policy {
    const root = this.root ?? '.';
    const file = path.isAbsolute(settings.policyPath) ? settings.policyPath : path.join(root, settings.policyPath);
    // The default path may be absent (the defaults apply); a path the user chose must exist.
    if (!fs.existsSync(file) && settings.policyPath !== DEFAULT_POLICY_PATH) throw new InputError('policy file not found (contextControl.policyPath)', settings.policyPath);
    const base = fs.existsSync(file) ? loadPolicy(root, file) : loadPolicy(root);
    const e = settings.envelope;
    const output_reserve = e.outputReserve ?? base.envelope.output_reserve;
    let window = e.window ?? base.envelope.window;
    // A model's own input limit (vscode.lm maxInputTokens) narrows the envelope, never widens it.
    if (modelMaxInput !== undefined) window = Math.min(window, modelMaxInput + output_reserve);
    const policy: Policy = { ...base, envelope: { window, output_reserve, margin: e.margin ?? base.envelope.margin } };
    if (maxInput(policy) <= 0) throw new InputError(`the envelope leaves no room for input (window ${window})`, 'settings');
    return policy;
  }

  private taskFromSettings(settings: Settings): string {
    if (settings.taskFile && this.root) return path.join(this.root, settings.taskFile);
    return 'No task given yet: type one in the Context Control panel.';
  }

  private write(assembly: Assembly): void {
    writeRecord(this.storageDir, { request: assembly.serialized, manifest: assembly.manifest, trace: assembly.trace });
  }
}
