import type { NeutralRequest, ToolCall } from '../chain/render';
import type { ProviderError } from './errors';
import type { WireShape } from './shape';

/**
 * The one small interface every model provider implements: dry-run, OpenAI-compatible chat completions and
 * Anthropic messages here in src/core, and the VS Code Language Model API in src/vscode (the host layer).
 *
 * The contract:
 * - The chain builds the request; a provider only carries it. `send()` receives a PreparedRequest whose
 *   `serialized` string is the exact body the chain counted `final` on, and must put exactly those bytes on the
 *   wire (HTTP providers check this in their fetch and refuse to send otherwise: kind `bytes_mismatch`). It
 *   returns `sent`, the bytes that actually left, so the trace and the manifest are computed from them.
 * - `shape` is the wire shape the request is assembled and counted in. The vscode.lm adapter uses `vscode-lm`
 *   (no system role: the system text leads the first user message), see vscode-lm-shape.ts.
 * - A provider may bring its own limits and counter: `limits.maxInputTokens` (vscode.lm's maxInputTokens) caps the
 *   envelope, and `countTokens` (vscode.lm's countTokens) is the final check on the assembled request; when it
 *   says the request is over max_input, the loop rebuilds once under a smaller envelope and says so.
 * - One `send()` is one attempt. Failures are thrown as ProviderError (errors.ts) with a `kind`: the retry wrapper
 *   retries `rate_limit` and `server` (honouring `retryAfterMs`), the loop rebuilds on `context_length`, and the
 *   rest is reported with its message (`auth` says "check the API key for <provider>").
 * - Text is streamed through `onText` as it arrives; tool calls come back whole in the result (and through
 *   `onToolCall` as each completes). `signal` cancels: the provider stops reading and throws kind `aborted`.
 * - A provider never logs, stores or returns its API key; error messages are scrubbed of it.
 * - The VS Code adapter is called only from a user action (consent), and maps LanguageModelError to ProviderError
 *   (NoPermissions → auth, Blocked → rate_limit, NotFound → bad_request).
 */
export interface Provider {
  /** Stable id used in messages, traces and manifests: `dry-run`, `openai`, `anthropic`, `vscode-lm`. */
  readonly id: string;
  /** The wire shape the request is assembled, counted and sent in. */
  readonly shape: WireShape;
  /** Whether requests are sent with streaming on (the body carries `"stream":true` for HTTP shapes). */
  readonly streams: boolean;
  /** True for dry-run: nothing leaves the machine. */
  readonly sendsNothing?: boolean;
  /** Where requests go, without credentials or query (for the trace). */
  readonly endpoint?: string;
  /** Limits the model itself declares (vscode.lm); they narrow the policy's envelope, never widen it. */
  readonly limits?: { maxInputTokens?: number };
  /** The provider's own count of a prepared request (vscode.lm countTokens); the loop's final check. */
  countTokens?(request: PreparedRequest, signal?: AbortSignal): Promise<number>;
  /** One attempt. Throws ProviderError. */
  send(request: PreparedRequest, options: SendOptions): Promise<ProviderResult>;
}

/** The request as the chain built it: the neutral form, the wire body and its exact bytes. */
export interface PreparedRequest {
  shape: WireShape;
  model: string;
  neutral: NeutralRequest;
  body: object;
  /** The exact bytes to send; `final` was counted on this string. */
  serialized: string;
  stream: boolean;
}

export interface SendOptions {
  signal?: AbortSignal;
  onText?: (delta: string) => void;
  onToolCall?: (call: ToolCall) => void;
}

export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'dry_run' | 'other';

/** What one successful attempt returns. */
export interface ProviderResult {
  text: string;
  toolCalls: ToolCall[];
  stop: StopReason;
  /** The bytes that went on the wire; undefined when nothing was sent (dry-run). */
  sent: string | undefined;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** As the provider reports them; `cachedTokens`: input served from its prompt cache (OpenAI: part of inputTokens; Anthropic: cache reads, not in inputTokens). */
  usage?: { inputTokens?: number; outputTokens?: number; cachedTokens?: number };
}

/** A result with the attempts it took (retry.ts). */
export interface SendResult extends ProviderResult {
  attempts: AttemptRecord[];
}

/** One attempt at sending, as the trace shows it. */
export interface AttemptRecord {
  attempt: number;
  outcome: 'ok' | ProviderError['kind'];
  status?: number;
  /** What the attempt's failure said (scrubbed), when it failed. */
  message?: string;
  /** The wait before the next attempt, and why. */
  waitMs?: number;
  waitReason?: 'Retry-After' | 'backoff';
}
