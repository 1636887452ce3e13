import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ContextBudgetExceeded } from '../../core/errors';
import type { Manifest } from '../../core/report/manifest';
import { num } from '../../core/report/trace';
import type { AssemblyService, AssemblyState } from '../assembly';
import { VscodeLmProvider } from '../lm';
import { OpFailed } from '../worker/client';
import { revive } from '../worker/serialize';
import { sendInWorker } from '../worker/send-client';
import { chatErrorMessage, OPEN_CHAT_MANIFEST, previewMarkdown, SHOW_IN_PANEL, streamRefusal } from './answers';
import { budgetLine, chatInputs, explainPath, sourceUri } from './context';
import { historyEvents, type TurnLike } from './history';

export const PARTICIPANT_ID = 'contextControl.context';

export interface ChatDeps {
  service: AssemblyService;
  /** Workspace Trust, read on every request (injectable: the test host runs with trust disabled). */
  isTrusted: () => boolean;
  /** Where the chat's last record (request.json, manifest.json, trace.txt) is written. */
  recordDir: string;
  /** Keeps the chat's last assembly (or refusal) for the panel's Show in Panel. */
  remember: (state: AssemblyState) => void;
  /** dist/send-worker.js: the send loop runs there; vscode.lm calls come back to this thread. */
  sendWorkerScript: string;
}

/** What a response carries for later turns: whether a model answered, and its answer alone (history replay). */
export interface ChatMetadata {
  command?: string;
  sent: boolean;
  answer?: string;
  refused?: boolean;
  restricted?: boolean;
  cancelled?: boolean;
  final?: number;
  max_input?: number;
  references?: string[];
}

type Result = vscode.ChatResult & { metadata: ChatMetadata };

const RESTRICTED =
  'This workspace is in **Restricted Mode**: Context Control sends nothing to a model until you trust it. `/preview`, `/explain` and `/compact` still work; they send nothing.';

/** The `@context` request handler: the panel's chain, the user's chat model, the chat's own history. */
export function chatHandler(deps: ChatDeps): vscode.ChatRequestHandler {
  return async (request, context, stream, token): Promise<Result> => {
    const command = request.command;
    try {
      if (token.isCancellationRequested) return { metadata: { command, sent: false, cancelled: true }, errorDetails: { message: chatErrorMessage(new vscode.CancellationError()) } };
      switch (command) {
        case 'preview':
          return await preview(deps, request, context, stream);
        case 'explain':
          return explain(deps, request, stream);
        case 'compact':
          return await compact(deps, context, stream);
        default:
          return await send(deps, request, context, stream, token);
      }
    } catch (e) {
      if (e instanceof ContextBudgetExceeded) {
        streamRefusal(stream, e, request.model?.maxInputTokens);
        return { metadata: { command, sent: false, refused: true } };
      }
      return { metadata: { command, sent: false }, errorDetails: { message: chatErrorMessage(e) } };
    }
  };
}

function replayed(deps: ChatDeps, context: vscode.ChatContext) {
  if (!deps.service.host.settings.chat.replayHistory) return { events: [], skipped: 0 };
  return historyEvents(context.history as ReadonlyArray<TurnLike>, PARTICIPANT_ID);
}

function noModel(request: vscode.ChatRequest): Result | undefined {
  if (request.model) return undefined;
  return { metadata: { command: request.command, sent: false }, errorDetails: { message: 'No language model is available: sign in to GitHub Copilot (or install a chat model provider) and pick a model in the chat view.' } };
}

async function send(deps: ChatDeps, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<Result> {
  if (!deps.isTrusted()) {
    stream.markdown(RESTRICTED);
    stream.button({ command: 'workbench.trust.manage', title: 'Manage Workspace Trust' });
    return { metadata: { sent: false, restricted: true } };
  }
  const missing = noModel(request);
  if (missing) return missing;
  const model = request.model;
  const history = replayed(deps, context);
  stream.progress(`Assembling the context for ${model.name} (${num(model.maxInputTokens)} input tokens)${history.events.length ? `, replaying ${history.events.length / 2} earlier exchange(s)` : ''}…`);
  const inputs = chatInputs(deps.service, request.prompt, { maxInputTokens: model.maxInputTokens, session: history.events });
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  let answer = '';
  try {
    const result = await sendInWorker(
      deps.sendWorkerScript,
      { snapshot: inputs.snapshot, patch: inputs.patch, provider: { id: 'vscode-lm', endpoint: `vscode.lm:${model.vendor}/${model.id}`, maxInputTokens: model.maxInputTokens }, model: model.id, encoding: inputs.settings.encoding, recordDir: deps.recordDir },
      {
        lm: new VscodeLmProvider(model),
        signal: controller.signal,
        onText: (t) => {
          answer += t;
          stream.markdown(t);
        },
        onNotice: (m) => stream.progress(m),
        onProgress: (m) => stream.progress(m),
      },
    );
    const error = result.error && revive(result.error);
    if (error instanceof ContextBudgetExceeded) {
      deps.remember({ kind: 'refused', snapshot: result.error?.snapshot, error, policy: inputs.policy, settings: inputs.settings, at: new Date() });
      streamRefusal(stream, error, model.maxInputTokens);
      return { metadata: { sent: false, refused: true } };
    }
    if (error || controller.signal.aborted || !result.last) {
      const cancelled = controller.signal.aborted || result.error?.kind === 'aborted';
      return { metadata: { sent: false, cancelled }, errorDetails: { message: chatErrorMessage(error ?? new vscode.CancellationError()) } };
    }
    const { assembly } = result.last;
    const manifest = assembly.manifest;
    deps.remember({ kind: 'ok', ...result.last, settings: inputs.settings, at: new Date() });
    const references = result.references ?? [];
    for (const source of references) stream.reference(sourceUri(inputs.snapshot.root, source));
    stream.markdown(`\n\n---\n${budgetLine(manifest, model, result.providerCount)}${history.skipped ? ` · ${history.skipped} earlier turn(s) not replayed (commands, refusals, errors)` : ''}\n`);
    streamButtons(stream);
    return { metadata: { sent: true, answer, final: manifest.budget.final, max_input: manifest.budget.max_input, references } };
  } finally {
    cancel.dispose();
  }
}

async function preview(deps: ChatDeps, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream): Promise<Result> {
  const missing = noModel(request);
  if (missing) return missing;
  const model = request.model;
  if (!request.prompt.trim()) {
    stream.markdown('Usage: `@context /preview <task>`: shows the budget and the blocks that would be sent for the task, without sending.');
    return { metadata: { command: 'preview', sent: false } };
  }
  stream.progress(`Assembling the context for ${model.name} without sending…`);
  const inputs = chatInputs(deps.service, request.prompt, { maxInputTokens: model.maxInputTokens, session: replayed(deps, context).events });
  let res: Awaited<ReturnType<typeof deps.service.worker.call<'assemble'>>>;
  try {
    res = await deps.service.worker.call('assemble', { snapshot: inputs.snapshot, patch: inputs.patch, options: { model: model.id, shape: 'vscode-lm', stream: true, encoding: inputs.settings.encoding }, recordDir: deps.recordDir });
  } catch (e) {
    const error = e instanceof OpFailed ? revive(e.error) : e;
    if (error instanceof ContextBudgetExceeded) deps.remember({ kind: 'refused', snapshot: (e as OpFailed).error.snapshot, error, policy: inputs.policy, settings: inputs.settings, at: new Date() });
    throw error;
  }
  const { assembly } = res;
  deps.remember({ kind: 'ok', ...res, settings: inputs.settings, at: new Date() });
  // The model's own count needs no send, but in Restricted Mode nothing reaches the model's provider at all.
  const count = deps.isTrusted() ? await new VscodeLmProvider(model).countTokens({ shape: 'vscode-lm', model: model.id, neutral: assembly.neutral, body: assembly.request, serialized: assembly.serialized, stream: true }) : undefined;
  stream.markdown(previewMarkdown(assembly, res.view.order, budgetLine(assembly.manifest, model, count)));
  if (count !== undefined && count > assembly.manifest.budget.max_input) {
    stream.markdown(`\n**Note:** ${model.name} counts ${num(count)} tokens, over max_input ${num(assembly.manifest.budget.max_input)}: a send would rebuild once under a smaller envelope.\n`);
  }
  streamButtons(stream);
  return { metadata: { command: 'preview', sent: false, final: assembly.manifest.budget.final, max_input: assembly.manifest.budget.max_input } };
}

function streamButtons(stream: vscode.ChatResponseStream): void {
  stream.button({ command: SHOW_IN_PANEL, title: 'Show in Panel' });
  stream.button({ command: OPEN_CHAT_MANIFEST, title: 'Open manifest.json' });
}

/** The manifest `/explain` reads: the chat's last request or preview, else the panel's last assembly. */
function lastManifest(deps: ChatDeps): { manifest: Manifest; from: string } | undefined {
  const file = path.join(deps.recordDir, 'manifest.json');
  if (fs.existsSync(file)) return { manifest: JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest, from: 'the last @context request' };
  const state = deps.service.state;
  return state.kind === 'ok' ? { manifest: state.assembly.manifest, from: "the panel's last assembly" } : undefined;
}

function explain(deps: ChatDeps, request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Result {
  const wanted = request.prompt.trim();
  if (!wanted) {
    stream.markdown('Usage: `@context /explain <path>`: tells why a workspace file was loaded, trimmed, indexed or left out.');
    return { metadata: { command: 'explain', sent: false } };
  }
  const last = lastManifest(deps);
  if (!last) {
    stream.markdown('No manifest yet: ask `@context` something, or run `/preview <task>`, then ask again.');
    return { metadata: { command: 'explain', sent: false } };
  }
  const root = deps.service.workspaceRoot;
  const inWorkspace = (rel: string) => !!root && !rel.startsWith('..') && !path.isAbsolute(rel) && fs.existsSync(path.join(root, rel));
  stream.markdown(`\`${wanted}\` in ${last.from} (task: ${last.manifest.task.source}, ${last.manifest.created_at}):\n\n${explainPath(last.manifest, wanted, inWorkspace).join('\n')}\n`);
  return { metadata: { command: 'explain', sent: false } };
}

async function compact(deps: ChatDeps, context: vscode.ChatContext, stream: vscode.ChatResponseStream): Promise<Result> {
  const history = historyEvents(context.history as ReadonlyArray<TurnLike>, PARTICIPANT_ID);
  const inputs = chatInputs(deps.service, 'session maintenance', { session: history.events });
  const { policy, settings } = inputs;
  const preview = await deps.service.worker.call('compactPreview', { snapshot: inputs.snapshot, patch: inputs.patch, model: settings.model, encoding: settings.encoding });
  if (!preview) {
    stream.markdown(`Nothing to compact: this chat has ${history.events.length / 2} replayed exchange(s), and the policy replays the last ${policy.session.keep_recent_groups} group(s) verbatim.`);
    return { metadata: { command: 'compact', sent: false } };
  }
  const verdict = preview.validation.ok ? 'valid' : `rejected: ${preview.validation.reasons.join('; ')}`;
  stream.markdown(
    `The next request folds ${preview.folded.groups} older group(s) (${preview.folded.range}) into a structured summary, ${num(preview.tokens_before)} → ${num(preview.tokens_after)} tokens (${preview.producer}, ${verdict}), and replays ${preview.kept_raw.groups} group(s) verbatim (${preview.kept_raw.range}).\n\n` +
      '```markdown\n' + preview.text.replace(/```/g, '`\u200b``') + '\n```\n',
  );
  return { metadata: { command: 'compact', sent: false } };
}
