import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CHECKS_FILE, parseChecks } from '../core/compare/checks-file';
import type { CompareResult } from '../core/compare/run';
import type { PanelCompare } from './protocol';
import { shapeFor } from './assembly';
import { apiKeyFor } from './send';
import type { HostState } from './state';
import type { HttpProviderSpec } from './worker/protocol';
import type { AssemblyWorker } from './worker/client';
import { compareInWorker } from './worker/send-client';

const COMPARE_TIMEOUT_MS = 300_000;

/**
 * "Compare Policies…": pick two or more policy files (the current one preselected) and open the panel's Compare tab
 * with the variants side by side. "Send Variants" sends each one once with the configured HTTP provider (trusted
 * workspaces only) and adds the answers and their checks. The same core as `ctxctl compare`.
 */

export interface CompareDeps {
  context: vscode.ExtensionContext;
  host: HostState;
  /** Where the Compare tab's model goes (the controller's onDidPost; the panel listens). */
  post: (c: PanelCompare) => void;
  /** dist/send-worker.js: Send Variants runs there. */
  script: string;
  /** The assemble worker: a comparison without sends runs there. */
  worker: AssemblyWorker;
}

/** The Compare tab's model of a result: pure, so the integration tests can check it. */
export function panelCompareOf(result: CompareResult): PanelCompare {
  return {
    status: 'done',
    task: result.task,
    model: result.model,
    provider: result.provider,
    variants: result.variants.map((v) => ({
      name: v.name,
      policy: v.policy,
      final: v.manifest.budget.final,
      maxInput: v.manifest.budget.max_input,
      mandatory: v.manifest.budget.mandatory,
      zones: Object.entries(v.manifest.zones).map(([zone, tokens]) => ({ zone, tokens })),
      counts: { selected: v.manifest.selected.length, rejected: v.manifest.rejected.length, trimmed: v.manifest.trimmed.length, offloaded: v.manifest.offloaded.length, indexed: v.manifest.indexed.length },
      evidence: v.evidence.flatMap((c) => c.evidence.map((x) => ({ ok: x.ok, text: `${c.case}: ${x.expectation}: ${x.found}` }))),
      runs: v.runs.map((r) => ({ run: r.run, answer: r.answer, error: r.error, inputTokens: r.input_tokens, outputTokens: r.output_tokens, checks: r.checks.map((x) => ({ ok: x.ok, text: `${x.expectation}: ${x.found}` })) })),
    })),
    diff: result.diff.entries.map((e) => ({ source: e.source, kind: e.kind, change: e.change, variants: e.variants })),
    same: result.diff.same,
  };
}

export function registerCompare(deps: CompareDeps): { run(policies: string[], send: boolean): Promise<PanelCompare> } {
  let chosen: string[] = [];

  const run = async (policies: string[], sendIt: boolean): Promise<PanelCompare> => {
    const { root, settings } = deps.host;
    const empty: PanelCompare = { status: 'running', task: '', model: settings.model, provider: 'dry-run', variants: [], diff: [], same: 0 };
    const post = deps.post;
    if (!root) return { ...empty, status: 'error', message: 'Open a folder to compare policies.' };
    const task = deps.host.task || settings.taskFile;
    if (!task) {
      const c: PanelCompare = { ...empty, status: 'error', message: 'Set a task first (panel task box or contextControl.taskFile).' };
      post(c);
      return c;
    }
    chosen = policies;
    post({ ...empty, message: `Comparing ${policies.length} policies…` });
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'context-compare-'));
    try {
      const checks = path.join(root, CHECKS_FILE);
      let provider: HttpProviderSpec | undefined;
      if (sendIt) {
        if (!vscode.workspace.isTrusted) throw new Error('sending needs a trusted workspace');
        if (settings.provider !== 'openai' && settings.provider !== 'anthropic') throw new Error(`Send Variants speaks the HTTP providers (openai, anthropic); the configured provider is ${settings.provider}`);
        provider = { id: settings.provider, apiKey: await apiKeyFor(settings, deps.host.engine()), baseUrl: settings.baseUrl || undefined };
      }
      // The panel's own inputs (its pins, unsaved buffers, active file, session store) and each policy composed as the
      // panel composes its own (the settings' envelope, the model's window): the current policy's variant is the
      // panel's request, the same figures in both places.
      const { policy: _current, ...inputs } = deps.host.requestInputs(settings);
      const args = {
        root,
        task: inputs.task,
        cwd: root,
        policies: policies.map((p) => path.resolve(root, p)),
        variantPolicies: policies.map((p) => deps.host.policy({ ...settings, policyPath: p })),
        inputs,
        sessionFile: inputs.sessionFile,
        shape: shapeFor(settings),
        model: settings.model,
        encoding: settings.encoding,
        runs: 1,
        cases: fs.existsSync(checks) ? parseChecks(fs.readFileSync(checks, 'utf8'), CHECKS_FILE) : [],
        scratch,
      };
      // Without sends, the warm assemble worker compares; Send Variants needs the send worker's providers.
      const result = provider ? await compareInWorker(deps.script, { ...args, provider }) : await deps.worker.run('compare', args, COMPARE_TIMEOUT_MS);
      const c = panelCompareOf(result);
      post(c);
      return c;
    } catch (e) {
      const c: PanelCompare = { ...empty, status: 'error', message: (e as Error).message };
      post(c);
      return c;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  };

  deps.context.subscriptions.push(
    vscode.commands.registerCommand('contextControl.comparePolicies', async (given?: string[]) => {
      const policies = Array.isArray(given) ? given : await pickPolicies(deps.host.settings.policyPath);
      if (!policies) return undefined;
      if (policies.length < 2) {
        void vscode.window.showWarningMessage('Context Control: pick at least two policy files to compare.');
        return undefined;
      }
      await vscode.commands.executeCommand('contextControl.panel.focus');
      return run(policies, false);
    }),
    vscode.commands.registerCommand('contextControl.compareSend', async () => {
      if (chosen.length < 2) return vscode.commands.executeCommand('contextControl.comparePolicies');
      return run(chosen, true);
    }),
  );
  return { run };
}

async function pickPolicies(current: string): Promise<string[] | undefined> {
  const found = await vscode.workspace.findFiles('**/.context/{*,policies/*}.{yaml,yml}', '**/node_modules/**', 50);
  const files = found.map((u) => vscode.workspace.asRelativePath(u, false)).filter((f) => !/(^|\/)checks\.ya?ml$/.test(f));
  if (!files.includes(current)) files.unshift(current);
  const picked = await vscode.window.showQuickPick(
    files.sort().map((f) => ({ label: f, picked: f === current, description: f === current ? 'current policy' : undefined })),
    { canPickMany: true, title: 'Compare Policies', placeHolder: 'Pick two or more policy files (the current one is preselected)' },
  );
  // The current policy is the baseline: first column, the others compared with it.
  return picked?.map((p) => p.label).sort((a, b) => Number(b === current) - Number(a === current));
}
