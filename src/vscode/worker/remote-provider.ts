/**
 * Worker side: vscode.lm as a Provider, by message. The model lives in the extension host, so each count and send is
 * a request to the host (send-client.ts answers it with the real VscodeLmProvider); streamed text comes back as it
 * arrives. Cancelling the send aborts the host's call too (the host holds the same cancellation). No `vscode`.
 */
import type { PreparedRequest, Provider, ProviderResult, SendOptions } from '../../core/providers/provider';
import type { SendWorkerIn, SendWorkerOut } from './protocol';
import { revive } from './serialize';

type Done = Extract<SendWorkerIn, { type: 'lm-done' }>;

export class RemoteProvider implements Provider {
  readonly id = 'vscode-lm';
  readonly shape = 'vscode-lm' as const;
  readonly streams = true;
  readonly limits: { maxInputTokens: number };
  private next = 1;
  private readonly calls = new Map<number, { done: (m: Done) => void; onText?: (t: string) => void }>();

  constructor(
    private readonly id_: number,
    readonly endpoint: string,
    maxInputTokens: number,
    private readonly post: (m: SendWorkerOut) => void,
  ) {
    this.limits = { maxInputTokens };
  }

  /** Route the host's answer for one of this provider's calls. */
  receive(m: Extract<SendWorkerIn, { type: 'lm-text' | 'lm-done' }>): void {
    const call = this.calls.get(m.call);
    if (m.type === 'lm-text') call?.onText?.(m.text);
    else {
      this.calls.delete(m.call);
      call?.done(m);
    }
  }

  countTokens(request: PreparedRequest): Promise<number> {
    return this.ask('count', request).then((r) => r as number);
  }

  send(request: PreparedRequest, options: SendOptions): Promise<ProviderResult> {
    return this.ask('send', request, options.onText).then((r) => r as ProviderResult);
  }

  private ask(op: 'send' | 'count', request: PreparedRequest, onText?: (t: string) => void): Promise<ProviderResult | number | undefined> {
    const call = this.next++;
    return new Promise((resolve, reject) => {
      this.calls.set(call, { onText, done: (m) => (m.error ? reject(revive(m.error)) : resolve(m.result)) });
      this.post({ type: 'lm', id: this.id_, call, op, request });
    });
  }
}
