import * as vscode from 'vscode';
import { maxInput } from '../../core/policy';
import { num } from '../../core/report/trace';
import type { AssemblyService } from '../assembly';
import type { CountWith } from '../worker/ops-protocol';
import { chatInputs } from './context';
import { resolveInWorkspace } from '../../core/sources/guard';
import { toolInputProblem } from '../../core/tools';
import { fitLines, shrink, type Count } from './fit';

/** The tools' names: the registry's language-model tools (core/tool-registry.ts), as package.json contributes them. */
export const TOOL_NAMES = ['assemble_context', 'read_document', 'search_workspace', 'inspect_offloaded'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolDeps {
  service: AssemblyService;
  isTrusted: () => boolean;
}

// The inputs the registry declares for each tool (core/tool-registry.ts); a call is checked against them first.
interface AssembleInput { task: string; max_input?: number; policy?: string }
interface ReadInput { path: string; heading?: string }
interface SearchInput { pattern: string; glob?: string }
interface InspectInput { path: string; op?: 'head' | 'grep' | 'count' | 'shape'; pattern?: string; lines?: number; context?: number }

export const RESTRICTED_TOOL = 'Context Control tools are off in Restricted Mode: a tool result goes to a model, and nothing from an untrusted workspace is sent to a model. Trust the workspace to use them.';
/** Rebuilds under a smaller envelope when the caller's count says the result is over its budget. */
const ASSEMBLE_ATTEMPTS = 4;
/** The core's bytes-per-token estimate (tokens.ts), shown before a document is read: no tokenizer in this thread. */
const BYTES_PER_TOKEN = 3.6;

function text(value: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
}

/** The caller's counter and budget; without them, the chain's counter (in the worker) and the policy's zone. */
function budgetOf(deps: ToolDeps, options: vscode.LanguageModelToolInvocationOptions<unknown>, fallback: number, w: CountWith, token: vscode.CancellationToken): { budget: number; count: Count } {
  const t = options.tokenizationOptions;
  if (t) return { budget: t.tokenBudget, count: async (s) => t.countTokens(s, token) };
  const chain: Count = (text) => deps.service.worker.call('count', { text, ...w });
  if (deps.service.host.settings.provider !== 'vscode-lm') return { budget: fallback, count: chain };
  // The target is a vscode.lm model: its own counter (through the folder's engine, the editor host), else the chain's.
  const engine = deps.service.host.engine();
  return { budget: fallback, count: async (text) => (await engine.modelCount(text)?.catch(() => undefined)) ?? chain(text) };
}

/** The four tools, each a thin adapter over the core function the panel's tool loop runs. */
export function chatTools(deps: ToolDeps): Record<ToolName, vscode.LanguageModelTool<never>> {
  const guard = <T>(name: ToolName, run: (input: T, options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>) =>
    async (options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken) => {
      if (!deps.isTrusted()) return text(RESTRICTED_TOOL);
      const problem = toolInputProblem(name, options.input);
      if (problem) return text(problem);
      try {
        return await run(options.input, options, token);
      } catch (e) {
        if (e instanceof vscode.CancellationError) throw e;
        return text(`Context Control: ${(e as Error).message}`);
      }
    };
  const inputs = (task: string) => chatInputs(deps.service, task);
  /** The chain's counter for the configured model (the tools have no model of their own). */
  const countWith = (): CountWith => ({ model: deps.service.host.settings.model, encoding: deps.service.host.settings.encoding });
  const root = () => deps.service.workspaceRoot ?? '';

  const assembleContext: vscode.LanguageModelTool<AssembleInput> = {
    prepareInvocation: ({ input }) => ({ invocationMessage: `Assembling the budgeted context for “${clip(input.task ?? '', 60)}”` }),
    invoke: guard<AssembleInput>('assemble_context', async (input, options, token) => {
      if (!input.task.trim()) return text('assemble_context needs "task": the question or change the context is for.');
      let policyPath: string | undefined;
      if (input.policy !== undefined) {
        // A policy file named by the model: inside the workspace through its links, a regular file, not a secret.
        const d = resolveInWorkspace(input.policy.trim(), { root: root() });
        if (!d.ok) return text(`assemble_context: policy "${input.policy}" refused: ${d.why}`);
        policyPath = d.abs;
      }
      const { snapshot, patch, policy, settings } = chatInputs(deps.service, input.task, { policyPath });
      const w = countWith();
      const envelope = input.max_input ?? maxInput(policy);
      const { budget, count } = budgetOf(deps, options, envelope, w, token);
      let max = Math.min(envelope, budget);
      for (let attempt = 1; attempt <= ASSEMBLE_ATTEMPTS; attempt++) {
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        const r = await deps.service.worker.call('renderContext', { snapshot, patch, maxInput: max, model: settings.model, encoding: settings.encoding });
        if ('refused' in r) {
          const e = r.refused;
          const refusal = `assemble_context: refused: the mandatory blocks (${e.sources.join(', ')}) need ${num(e.mandatoryTokens)} tokens, over the ${num(e.maxInput)} available. Nothing was cut.`;
          return text((await count(refusal)) <= budget ? refusal : 'assemble_context: refused: the mandatory blocks do not fit the budget.');
        }
        const rendered = r.text;
        const counted = await count(rendered);
        if (counted <= budget) return text(rendered);
        max = shrink(max, counted, budget);
      }
      return text(`assemble_context: refused: no assembly fitted ${num(budget)} tokens after ${ASSEMBLE_ATTEMPTS} attempts.`);
    }),
  };

  const readDoc: vscode.LanguageModelTool<ReadInput> = {
    prepareInvocation: async ({ input }) => {
      const { rel, size, refused } = await deps.service.worker.call('workspaceFile', { root: root(), path: String(input.path ?? '') });
      if (!rel) return { invocationMessage: `Refusing to read ${input.path}: ${refused ?? 'outside the workspace'}` };
      return { invocationMessage: `Reading ${rel}${input.heading ? ` § ${input.heading}` : ''}${size !== undefined ? ` (~${num(Math.ceil(size / BYTES_PER_TOKEN))} tokens)` : ''}` };
    },
    invoke: guard<ReadInput>('read_document', async (input, options, token) => {
      const { snapshot, policy } = inputs('read_document');
      const w = countWith();
      const zone = policy.zones.documents?.max_tokens ?? policy.zones.tool_results.max_tokens;
      const { budget, count } = budgetOf(deps, options, zone, w, token);
      let maxTokens = Math.min(zone, budget);
      for (let attempt = 1; attempt <= ASSEMBLE_ATTEMPTS; attempt++) {
        const result = await deps.service.worker.call('readDocument', { snapshot, input: input as unknown as Record<string, unknown>, maxTokens, ...w });
        const out = result.text;
        const counted = await count(out);
        if (counted <= budget) return text(out);
        if (!result.found) return text(`read_document: "${input.path}" is not returned: the answer does not fit ${num(budget)} tokens.`);
        maxTokens = shrink(maxTokens, counted, budget);
      }
      return text(`read_document: "${input.path}" is not returned: it does not fit ${num(budget)} tokens.`);
    }),
  };

  const search: vscode.LanguageModelTool<SearchInput> = {
    prepareInvocation: ({ input }) => ({ invocationMessage: `Searching the workspace for “${clip(String(input.pattern ?? ''), 60)}”${input.glob ? ` in ${clip(String(input.glob), 40)}` : ''}` }),
    invoke: guard<SearchInput>('search_workspace', async (input, options, token) => {
      const { snapshot, policy } = inputs('search_workspace');
      const { budget, count } = budgetOf(deps, options, policy.zones.tool_results.max_tokens, countWith(), token);
      const result = await deps.service.worker.call('searchWorkspace', { snapshot, query: input.pattern, glob: input.glob });
      const fitted = await fitLines(result.text.split('\n'), budget, count, (k, n) => `[${n - k} more matching line(s) not shown to fit ${num(budget)} tokens; narrow the pattern]`, `search_workspace: the matches for "${clip(input.pattern, 40)}" do not fit ${num(budget)} tokens.`);
      return text(fitted.text);
    }),
  };

  const inspect: vscode.LanguageModelTool<InspectInput> = {
    prepareInvocation: ({ input }) => ({ invocationMessage: `Inspecting ${input.path} (${input.op ?? 'head'}${input.pattern ? ` /${clip(input.pattern, 30)}/` : ''})` }),
    invoke: guard<InspectInput>('inspect_offloaded', async (input, options, token) => {
      const { snapshot, policy } = inputs('inspect_offloaded');
      const w = countWith();
      const { budget, count } = budgetOf(deps, options, policy.zones.tool_results.max_tokens, w, token);
      const op = input.op ?? 'head';
      const result = await deps.service.worker.call('inspectOffloaded', { snapshot, path: input.path, op, pattern: input.pattern, lines: input.lines, context: input.context, ...w });
      const fitted = await fitLines(result.text.split('\n'), budget, count, (k, n) => `[${n - k} more line(s) not shown to fit ${num(budget)} tokens; use grep or a smaller head]`, `inspect_offloaded: the ${op} of ${input.path} does not fit ${num(budget)} tokens.`);
      return text(fitted.text);
    }),
  };

  return { assemble_context: assembleContext, read_document: readDoc, search_workspace: search, inspect_offloaded: inspect } as Record<ToolName, vscode.LanguageModelTool<never>>;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/**
 * Register the tools while contextControl.chat.tools is on; the setting is read again on every change, so turning
 * it off or on applies without a reload (package.json's `when` clause hides them from the pickers too).
 */
export function registerChatTools(deps: ToolDeps): vscode.Disposable {
  const tools = chatTools(deps);
  let registered: vscode.Disposable[] = [];
  const apply = () => {
    const on = deps.service.host.settings.chat.tools;
    if (on && registered.length === 0) registered = TOOL_NAMES.map((name) => vscode.lm.registerTool(name, tools[name]));
    if (!on && registered.length) {
      for (const d of registered) d.dispose();
      registered = [];
    }
  };
  apply();
  const watch = deps.service.host.onDidChange((c) => c === 'settings' && apply());
  return { dispose: () => [...registered, watch].forEach((d) => d.dispose()) };
}
