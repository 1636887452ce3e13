import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { assemble } from '../../core/chain/assemble';
import { orderBlocks, wrap } from '../../core/chain/render';
import { readDocument, workspacePath } from '../../core/disclose';
import { ContextBudgetExceeded } from '../../core/errors';
import { maxInput, withMaxInput } from '../../core/policy';
import { num } from '../../core/report/trace';
import { inspectOffloaded, searchWorkspace, type ToolContext } from '../../core/send/tools';
import { counterFor, encodingForModel, estimateTokensFromBytes, type Tokenizer } from '../../core/tokens';
import type { Block } from '../../core/types';
import type { AssemblyService } from '../assembly';
import { chatInputs, readChatSettings, settingsForChat } from './context';
import { fitLines, shrink, type Count } from './fit';

/** The tools' names, as contributed in package.json (contributes.languageModelTools). */
export const TOOL_NAMES = ['assemble_context', 'read_document', 'search_workspace', 'inspect_offloaded'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolDeps {
  service: AssemblyService;
  isTrusted: () => boolean;
}

interface AssembleInput { task: string }
interface ReadInput { path: string; heading?: string }
interface SearchInput { query: string }
interface InspectInput { path: string; op: string; pattern?: string; lines?: number }

export const RESTRICTED_TOOL = 'Context Control tools are off in Restricted Mode: a tool result goes to a model, and nothing from an untrusted workspace is sent to a model. Trust the workspace to use them.';
/** Rebuilds under a smaller envelope when the caller's count says the result is over its budget. */
const ASSEMBLE_ATTEMPTS = 4;
const HIDDEN_IN_CONTEXT = new Set(['system_instructions', 'tool_definitions', 'current_task']);

function text(value: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
}

/** The caller's counter and budget; without them, ours and the policy's zone for the kind of result. */
function budgetOf(options: vscode.LanguageModelToolInvocationOptions<unknown>, fallback: number, tokenizer: Tokenizer, token: vscode.CancellationToken): { budget: number; count: Count } {
  const t = options.tokenizationOptions;
  if (t) return { budget: t.tokenBudget, count: async (s) => t.countTokens(s, token) };
  return { budget: fallback, count: async (s) => tokenizer.count(s) };
}

/** The chain's counter for the configured model (the tools have no model of their own). */
function tokenizerFor(): Tokenizer {
  const s = settingsForChat(readChatSettings());
  return counterFor(encodingForModel(s.model, s.encoding).encoding);
}

/** The four tools, each a thin adapter over the core function the panel's tool loop runs. */
export function chatTools(deps: ToolDeps): Record<ToolName, vscode.LanguageModelTool<never>> {
  const guard = <T>(run: (input: T, options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>) =>
    async (options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken) => {
      if (!deps.isTrusted()) return text(RESTRICTED_TOOL);
      try {
        return await run(options.input, options, token);
      } catch (e) {
        if (e instanceof vscode.CancellationError) throw e;
        return text(`Context Control: ${(e as Error).message}`);
      }
    };
  const inputs = (task: string) => chatInputs(deps.service, task);
  const root = () => deps.service.workspaceRoot ?? '';

  const assembleContext: vscode.LanguageModelTool<AssembleInput> = {
    prepareInvocation: ({ input }) => ({ invocationMessage: `Assembling the budgeted context for “${clip(input.task ?? '', 60)}”` }),
    invoke: guard<AssembleInput>(async (input, options, token) => {
      if (typeof input.task !== 'string' || !input.task.trim()) return text('assemble_context needs "task": the question or change the context is for.');
      const { snapshot, policy, settings } = inputs(input.task);
      const tokenizer = tokenizerFor();
      const { budget, count } = budgetOf(options, maxInput(policy), tokenizer, token);
      let max = Math.min(maxInput(policy), budget);
      for (let attempt = 1; attempt <= ASSEMBLE_ATTEMPTS; attempt++) {
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        let rendered: string;
        try {
          const assembly = assemble({ ...snapshot, policy: withMaxInput(policy, max) }, { model: settings.model, encoding: settings.encoding, shape: 'vscode-lm', tokenizer });
          rendered = renderContext(assembly.blocks, assembly.manifest);
        } catch (e) {
          if (!(e instanceof ContextBudgetExceeded)) throw e;
          const refusal = `assemble_context: refused: the mandatory blocks (${e.blocks.map((b) => b.source).join(', ')}) need ${num(e.mandatoryTokens)} tokens, over the ${num(e.maxInput)} available. Nothing was cut.`;
          return text((await count(refusal)) <= budget ? refusal : 'assemble_context: refused: the mandatory blocks do not fit the budget.');
        }
        const counted = await count(rendered);
        if (counted <= budget) return text(rendered);
        max = shrink(max, counted, budget);
      }
      return text(`assemble_context: refused: no assembly fitted ${num(budget)} tokens after ${ASSEMBLE_ATTEMPTS} attempts.`);
    }),
  };

  const readDoc: vscode.LanguageModelTool<ReadInput> = {
    prepareInvocation: ({ input }) => {
      const rel = workspacePath(root(), String(input.path ?? '').replace(/#.*$/, ''));
      if (!rel) return { invocationMessage: `Refusing to read ${input.path}: outside the workspace` };
      const size = fileSize(path.join(root(), rel));
      return { invocationMessage: `Reading ${rel}${input.heading ? ` § ${input.heading}` : ''}${size !== undefined ? ` (~${num(estimateTokensFromBytes(size))} tokens)` : ''}` };
    },
    invoke: guard<ReadInput>(async (input, options, token) => {
      const { snapshot, policy } = inputs('read_document');
      const tokenizer = tokenizerFor();
      const zone = policy.zones.documents?.max_tokens ?? policy.zones.tool_results.max_tokens;
      const { budget, count } = budgetOf(options, zone, tokenizer, token);
      let maxTokens = Math.min(zone, budget);
      for (let attempt = 1; attempt <= ASSEMBLE_ATTEMPTS; attempt++) {
        const result = readDocument(snapshot, input as unknown as Record<string, unknown>, { tokenizer, maxTokens });
        const where = result.block ? `${result.block.source}${result.block.meta.heading ? `, section "${result.block.meta.heading}"` : ''}\n\n` : '';
        const out = `${where}${result.text}`;
        const counted = await count(out);
        if (counted <= budget) return text(out);
        if (!result.block) return text(`read_document: "${input.path}" is not returned: the answer does not fit ${num(budget)} tokens.`);
        maxTokens = shrink(maxTokens, counted, budget);
      }
      return text(`read_document: "${input.path}" is not returned: it does not fit ${num(budget)} tokens.`);
    }),
  };

  const search: vscode.LanguageModelTool<SearchInput> = {
    prepareInvocation: ({ input }) => ({ invocationMessage: `Searching the workspace for “${clip(String(input.query ?? ''), 60)}”` }),
    invoke: guard<SearchInput>(async (input, options, token) => {
      if (typeof input.query !== 'string' || !input.query) return text('search_workspace needs "query"');
      const { snapshot, policy } = inputs('search_workspace');
      const { budget, count } = budgetOf(options, policy.zones.tool_results.max_tokens, tokenizerFor(), token);
      const result = searchWorkspace(snapshot, input.query);
      const fitted = await fitLines(result.text.split('\n'), budget, count, (k, n) => `[${n - k} more matching line(s) not shown to fit ${num(budget)} tokens; narrow the query]`, `search_workspace: the matches for "${clip(input.query, 40)}" do not fit ${num(budget)} tokens.`);
      return text(fitted.text);
    }),
  };

  const inspect: vscode.LanguageModelTool<InspectInput> = {
    prepareInvocation: ({ input }) => ({ invocationMessage: `Inspecting ${input.path} (${input.op}${input.pattern ? ` /${clip(input.pattern, 30)}/` : ''})` }),
    invoke: guard<InspectInput>(async (input, options, token) => {
      const { snapshot, policy } = inputs('inspect_offloaded');
      const tokenizer = tokenizerFor();
      const ctx: ToolContext = { snapshot, tokenizer, offloadDir: path.resolve(snapshot.root, policy.offload.dir) };
      const { budget, count } = budgetOf(options, policy.zones.tool_results.max_tokens, tokenizer, token);
      const result = inspectOffloaded(ctx, String(input.path ?? ''), String(input.op ?? ''), input.pattern, typeof input.lines === 'number' ? input.lines : undefined);
      const fitted = await fitLines(result.text.split('\n'), budget, count, (k, n) => `[${n - k} more line(s) not shown to fit ${num(budget)} tokens; use grep or a smaller head]`, `inspect_offloaded: the ${input.op} of ${input.path} does not fit ${num(budget)} tokens.`);
      return text(fitted.text);
    }),
  };

  return { assemble_context: assembleContext, read_document: readDoc, search_workspace: search, inspect_offloaded: inspect } as Record<ToolName, vscode.LanguageModelTool<never>>;
}

/** The context as the tool returns it: every block sent, with its provenance, then a short trace. */
export function renderContext(blocks: Block[], m: { budget: { final: number; max_input: number }; rejected: { source: string; reason: string }[]; trimmed: { source: string }[] }): string {
  const shown = orderBlocks(blocks).filter((b) => !HIDDEN_IN_CONTEXT.has(b.kind));
  const rejected = m.rejected.slice(0, 8).map((d) => `${d.source} (${d.reason})`);
  const trace = [
    `Context Control trace: ${shown.length} block(s), request ${num(m.budget.final)} / ${num(m.budget.max_input)} tokens.`,
    ...(m.trimmed.length ? [`Trimmed: ${m.trimmed.map((d) => d.source).join(', ')}.`] : []),
    ...(rejected.length ? [`Left out: ${rejected.join('; ')}${m.rejected.length > 8 ? `; ${m.rejected.length - 8} more` : ''}.`] : []),
    'Documents in <available-documents> can be fetched with read_document.',
  ];
  return `${shown.map(wrap).join('\n\n')}\n\n${trace.join('\n')}`;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function fileSize(abs: string): number | undefined {
  try {
    return fs.statSync(abs).size;
  } catch {
    return undefined;
  }
}

/**
 * Register the tools while contextControl.chat.tools is on; the setting is read again on every change, so turning
 * it off or on applies without a reload (package.json's `when` clause hides them from the pickers too).
 */
export function registerChatTools(deps: ToolDeps): vscode.Disposable {
  const tools = chatTools(deps);
  let registered: vscode.Disposable[] = [];
  const apply = () => {
    const on = readChatSettings().tools;
    if (on && registered.length === 0) registered = TOOL_NAMES.map((name) => vscode.lm.registerTool(name, tools[name]));
    if (!on && registered.length) {
      for (const d of registered) d.dispose();
      registered = [];
    }
  };
  apply();
  const watch = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('contextControl.chat.tools') && apply());
  return { dispose: () => [...registered, watch].forEach((d) => d.dispose()) };
}
