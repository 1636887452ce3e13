import * as vscode from 'vscode';
import type { ToolCall } from '../core/chain/render';
import { ProviderError } from '../core/providers/errors';
import type { PreparedRequest, Provider, ProviderResult, SendOptions } from '../core/providers/provider';
import type { VscodeLmBody, VscodeLmPart } from '../core/providers/vscode-lm-shape';

/**
 * The VS Code Language Model API as a Provider. The user picks the model; its maxInputTokens narrows the envelope
 * and its countTokens is the final check. There is no system role: the shape puts the system text first in the
 * first user message. Called only from a user action (Send), which is the consent the API asks for.
 */
export class VscodeLmProvider implements Provider {
  readonly id = 'vscode-lm';
  readonly shape = 'vscode-lm' as const;
  readonly streams = true;
  readonly limits: { maxInputTokens: number };
  readonly endpoint: string;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.limits = { maxInputTokens: model.maxInputTokens };
    this.endpoint = `vscode.lm:${model.vendor}/${model.id}`;
  }

  async countTokens(request: PreparedRequest, signal?: AbortSignal): Promise<number> {
    const cts = tokenFor(signal);
    try {
      let total = 0;
      for (const m of toMessages(request.body as VscodeLmBody)) total += await this.model.countTokens(m, cts.token);
      return total;
    } finally {
      cts.dispose();
    }
  }

  async send(request: PreparedRequest, options: SendOptions): Promise<ProviderResult> {
    const body = request.body as VscodeLmBody;
    const cts = tokenFor(options.signal);
    try {
      const response = await this.model.sendRequest(
        toMessages(body),
        {
          justification: 'Context Control sends the request you previewed and asked to send.',
          tools: body.tools?.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
        },
        cts.token,
      );
      let text = '';
      const toolCalls: ToolCall[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          options.onText?.(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          const call = { id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
          toolCalls.push(call);
          options.onToolCall?.(call);
        }
      }
      return { text, toolCalls, stop: toolCalls.length ? 'tool_calls' : 'end', sent: request.serialized };
    } catch (e) {
      throw toProviderError(e, options.signal);
    } finally {
      cts.dispose();
    }
  }
}

function tokenFor(signal: AbortSignal | undefined): vscode.CancellationTokenSource {
  const cts = new vscode.CancellationTokenSource();
  if (signal?.aborted) cts.cancel();
  signal?.addEventListener('abort', () => cts.cancel(), { once: true });
  return cts;
}

function toPart(p: VscodeLmPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart {
  switch (p.type) {
    case 'text':
      return new vscode.LanguageModelTextPart(p.value);
    case 'tool_call':
      return new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input);
    case 'tool_result':
      return new vscode.LanguageModelToolResultPart(
        p.callId,
        p.content.map((c) => new vscode.LanguageModelTextPart(c.value)),
      );
  }
}

export function toMessages(body: VscodeLmBody): vscode.LanguageModelChatMessage[] {
  return body.messages.map((m) => {
    const parts = m.content.map(toPart);
    return m.role === 'user'
      ? vscode.LanguageModelChatMessage.User(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[])
      : vscode.LanguageModelChatMessage.Assistant(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]);
  });
}

/** LanguageModelError → ProviderError, so the loop retries, rebuilds or reports as for any provider. */
function toProviderError(e: unknown, signal?: AbortSignal): ProviderError {
  if (e instanceof ProviderError) return e;
  if (signal?.aborted || e instanceof vscode.CancellationError) return new ProviderError('vscode-lm', 'aborted', 'vscode-lm: cancelled');
  if (e instanceof vscode.LanguageModelError) {
    const code = e.code;
    // Copilot reports these through the message or the cause; neither is worth a retry.
    const cause = e.cause instanceof Error ? e.cause.message : '';
    if (/off.?topic/i.test(`${e.message} ${cause}`)) return new ProviderError('vscode-lm', 'bad_request', `vscode-lm: the model declined the request as off-topic (${e.message}).`);
    if (/quota|exceeded your/i.test(`${e.message} ${cause}`)) return new ProviderError('vscode-lm', 'bad_request', `vscode-lm: the quota for this model is used up (${e.message}). Pick another model, or try again when the quota resets.`);
    if (code === vscode.LanguageModelError.NoPermissions().code) return new ProviderError('vscode-lm', 'auth', `vscode-lm: no permission to use this model (${e.message}). Allow Context Control to use it when VS Code asks.`);
    if (code === vscode.LanguageModelError.Blocked().code) return new ProviderError('vscode-lm', 'rate_limit', `vscode-lm: the request was blocked (${e.message}); try again later.`);
    if (code === vscode.LanguageModelError.NotFound().code) return new ProviderError('vscode-lm', 'bad_request', `vscode-lm: the model is no longer available (${e.message}). Pick another with "Select Language Model".`);
    if (/context|too long|token limit/i.test(e.message)) return new ProviderError('vscode-lm', 'context_length', `vscode-lm: ${e.message}`);
    return new ProviderError('vscode-lm', 'server', `vscode-lm: ${e.message}`);
  }
  return new ProviderError('vscode-lm', 'network', `vscode-lm: ${(e as Error)?.message ?? String(e)}`);
}

/** The configured model, or an error that says how to pick one. */
export async function requireModel(name: string): Promise<vscode.LanguageModelChat> {
  const model = await findModel(name);
  if (!model) throw new Error(`no VS Code language model named "${name}". Run "Context Control: Select Language Model…".`);
  return model;
}

/** Find the configured model among those VS Code offers (by id, else by family). */
export async function findModel(name: string): Promise<vscode.LanguageModelChat | undefined> {
  const all = await vscode.lm.selectChatModels({});
  return all.find((m) => m.id === name) ?? all.find((m) => m.family === name) ?? (name ? undefined : all[0]);
}
