import * as vscode from 'vscode';
import { counterFor } from '../../src/core/tokens';

/** The exact o200k count, as Copilot's gpt-4o would give it. */
export const o200k = counterFor('o200k_base');

export function textOf(message: vscode.LanguageModelChatMessage): string {
  return message.content
    .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : p instanceof vscode.LanguageModelToolResultPart ? p.content.map((c) => (c as vscode.LanguageModelTextPart).value).join('') : ''))
    .join('');
}

/**
 * A test double of a chat model: a tiny maxInputTokens, countTokens with the real o200k encoding, and a scripted
 * answer streamed part by part. It records every request and count, and honours the cancellation token.
 */
export class FakeModel implements vscode.LanguageModelChat {
  readonly name = 'Fake GPT-4o';
  readonly id = 'gpt-4o';
  readonly vendor = 'test';
  readonly family = 'gpt-4o';
  readonly version = '1';
  readonly requests: vscode.LanguageModelChatMessage[][] = [];
  counts = 0;
  /** Thrown by sendRequest instead of answering. */
  failWith: Error | undefined;
  /** Called after each streamed part (a test cancels here). */
  afterPart: (index: number) => void = () => undefined;

  constructor(
    readonly maxInputTokens: number,
    private readonly parts: string[] = ['The controller ', 'rejects legacy payloads.'],
  ) {}

  async countTokens(text: string | vscode.LanguageModelChatMessage): Promise<number> {
    this.counts++;
    return o200k.count(typeof text === 'string' ? text : textOf(text));
  }

  async sendRequest(messages: vscode.LanguageModelChatMessage[], _options?: vscode.LanguageModelChatRequestOptions, token?: vscode.CancellationToken): Promise<vscode.LanguageModelChatResponse> {
    this.requests.push(messages);
    if (this.failWith) throw this.failWith;
    const parts = this.parts;
    const after = (i: number) => this.afterPart(i);
    async function* stream() {
      for (let i = 0; i < parts.length; i++) {
        if (token?.isCancellationRequested) throw new vscode.CancellationError();
        yield new vscode.LanguageModelTextPart(parts[i]);
        after(i);
      }
    }
    return { stream: stream(), text: (async function* () { yield parts.join(''); })() };
  }
}

export interface StreamCall {
  method: string;
  args: unknown[];
}

/** A ChatResponseStream that records every call, in order. */
export function recordingStream(): { stream: vscode.ChatResponseStream; calls: StreamCall[]; of: (method: string) => unknown[][] } {
  const calls: StreamCall[] = [];
  const stream = new Proxy({} as vscode.ChatResponseStream, {
    get: (_t, method) => (method === 'then' ? undefined : (...args: unknown[]) => void calls.push({ method: String(method), args })),
  });
  return { stream, calls, of: (method) => calls.filter((c) => c.method === method).map((c) => c.args) };
}

export function chatRequest(prompt: string, model: vscode.LanguageModelChat | undefined, command?: string): vscode.ChatRequest {
  return { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined as never, model: model as vscode.LanguageModelChat };
}

/** History turns shaped like ChatRequestTurn / ChatResponseTurn (their constructors are private). */
export function requestTurn(prompt: string, command?: string): vscode.ChatRequestTurn {
  return { prompt, command, participant: 'contextControl.context', references: [], toolReferences: [] } as unknown as vscode.ChatRequestTurn;
}

export function responseTurn(answer: string, metadata: Record<string, unknown>, command?: string): vscode.ChatResponseTurn {
  return { response: [new vscode.ChatResponseMarkdownPart(answer)], result: { metadata }, participant: 'contextControl.context', command } as unknown as vscode.ChatResponseTurn;
}

export function markdownText(calls: StreamCall[]): string {
  return calls.filter((c) => c.method === 'markdown').map((c) => String(c.args[0])).join('');
}
