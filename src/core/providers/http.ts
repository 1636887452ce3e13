import { classifyHttpFailure, ProviderError, safeUrl, scrub } from './errors';
import { systemClock, type Clock } from './retry';

/**
 * What the HTTP providers share: a fetch that records the exact bytes of each request body and refuses to send
 * anything but the bytes the chain counted, an idle timeout on an injected clock, cancellation, and the mapping of
 * SDK errors to ProviderError.
 */

export interface HttpProviderOptions {
  apiKey?: string;
  /** OpenAI-compatible servers (Ollama, LM Studio, vLLM, llama.cpp, OpenRouter) and proxies. */
  baseUrl?: string;
  clock?: Clock;
  /** Give up when nothing arrives for this long: before the answer starts, or between two streamed events. */
  idleTimeoutMs?: number;
  /** The fetch under the recorder (default: the global fetch). */
  fetch?: typeof fetch;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** Anthropic's streamed error types, by the HTTP status they stand for. */
const ERROR_TYPE_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** One attempt on the wire. */
export class Wire {
  /** The body that was handed to fetch, byte for byte. */
  sent: string | undefined;
  private mismatch = false;
  private timedOut = false;
  private cancelTimer: () => void = () => undefined;
  readonly controller = new AbortController();
  private readonly unlink: () => void;

  constructor(
    private readonly provider: string,
    private readonly endpoint: string,
    private readonly expected: string,
    private readonly options: HttpProviderOptions,
    private readonly userSignal: AbortSignal | undefined,
  ) {
    const onAbort = () => this.controller.abort(userSignal?.reason);
    if (userSignal?.aborted) onAbort();
    userSignal?.addEventListener('abort', onAbort, { once: true });
    this.unlink = () => userSignal?.removeEventListener('abort', onAbort);
  }

  get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  /** The fetch handed to the SDK. */
  readonly fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    this.sent = typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : String(body);
    if (this.sent !== this.expected) {
      this.mismatch = true;
      throw new Error('request body differs from the counted request');
    }
    this.touch();
    return (this.options.fetch ?? fetch)(url, init);
  };

  /** Something arrived: restart the idle timer. */
  touch(): void {
    this.cancelTimer();
    this.cancelTimer = this.clock.setTimer(() => {
      this.timedOut = true;
      this.controller.abort(new Error('timeout'));
    }, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  }

  dispose(): void {
    this.cancelTimer();
    this.unlink();
  }

  /** After a stream ended: an abort ends SDK streams quietly, so say why it ended. */
  checkEnded(complete: boolean): void {
    if (this.controller.signal.aborted) throw this.failure(new Error('aborted'));
    if (!complete) throw new ProviderError(this.provider, 'network', `${this.provider}: the stream ended before the answer was complete`);
  }

  /** Any failure of this attempt as a ProviderError. */
  failure(e: unknown): ProviderError {
    if (e instanceof ProviderError) return e;
    const p = this.provider;
    const secrets = [this.options.apiKey];
    if (this.mismatch) {
      return new ProviderError(p, 'bytes_mismatch', `${p}: refused to send: the SDK's request body differs from the request that was counted`);
    }
    const idle = Math.round((this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) / 1000);
    if (this.timedOut) return new ProviderError(p, 'timeout', `${p}: no answer for ${idle} s: timed out`);
    if (this.userSignal?.aborted) return new ProviderError(p, 'aborted', `${p}: cancelled`);
    const err = e as { status?: unknown; headers?: { get(name: string): string | null }; error?: unknown; message?: string; cause?: unknown };
    const body = (err.error ?? undefined) as { error?: { message?: unknown; type?: unknown; code?: unknown }; message?: unknown; type?: unknown; code?: unknown } | undefined;
    const inner = body?.error && typeof body.error === 'object' ? body.error : body;
    const message = typeof inner?.message === 'string' ? inner.message : String(err.message ?? e);
    const code = typeof inner?.code === 'string' ? inner.code : typeof inner?.type === 'string' ? inner.type : undefined;
    const status = typeof err.status === 'number' ? err.status : code !== undefined ? ERROR_TYPE_STATUS[code] : undefined;
    if (status !== undefined) {
      return classifyHttpFailure({ provider: p, status, headers: (n) => err.headers?.get(n), message, code, now: this.clock.now(), secrets });
    }
    const why = causes(e).filter((m) => m !== 'Connection error.').join(': ') || message;
    return new ProviderError(p, 'network', scrub(`${p}: cannot reach ${safeUrl(this.endpoint)}: ${why}`, secrets).replace(/\bhttps?:\/\/[^\s"'()]+/g, safeUrl));
  }
}

/** The messages of an error and of its causes, outermost first. */
function causes(e: unknown): string[] {
  const out: string[] = [];
  for (let c = e, depth = 0; c instanceof Error && depth < 4; c = c.cause, depth++) if (c.message) out.push(c.message);
  return out;
}

/** What the HTTP providers share: identity, streaming, a safe endpoint, and the check that a request is in their shape. */
export abstract class HttpProvider {
  readonly id: string;
  abstract readonly shape: 'openai' | 'anthropic';
  readonly streams: boolean;
  readonly endpoint: string;

  constructor(
    protected readonly options: HttpProviderOptions & { id?: string; stream?: boolean },
    defaultId: string,
    defaultBaseUrl: string,
  ) {
    this.id = options.id ?? defaultId;
    this.streams = options.stream ?? true;
    this.endpoint = safeUrl(options.baseUrl ?? defaultBaseUrl);
  }

  /** The recording wire for one request, after checking the request was built in this provider's shape. */
  protected wireFor(request: { shape: string; serialized: string }, signal?: AbortSignal): Wire {
    if (request.shape !== this.shape) throw new ProviderError(this.id, 'bad_request', `${this.id}: the request was built in the ${request.shape} shape, not ${this.shape}`);
    return new Wire(this.id, this.endpoint, request.serialized, this.options, signal);
  }
}
