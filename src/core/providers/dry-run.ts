import type { WireShape } from './shape';
import type { PreparedRequest, Provider, ProviderResult, SendOptions } from './provider';

/**
 * The default provider: sends nothing, ever (no network, no SDK), and hands the exact request it would have sent
 * to `write` (the CLI writes it to request.json). The loop stops after one step: there is no answer to act on.
 */
export class DryRunProvider implements Provider {
  readonly id = 'dry-run';
  readonly sendsNothing = true;
  readonly streams: boolean;
  readonly shape: WireShape;

  constructor(private readonly options: { shape?: WireShape; stream?: boolean; write?: (serialized: string, request: PreparedRequest) => void } = {}) {
    this.shape = options.shape ?? 'openai';
    this.streams = options.stream ?? true;
  }

  async send(request: PreparedRequest, _options: SendOptions): Promise<ProviderResult> {
    this.options.write?.(request.serialized, request);
    return { text: '', toolCalls: [], stop: 'dry_run', sent: undefined };
  }
}
