import { formatMs, ProviderError } from './errors';
import type { AttemptRecord, PreparedRequest, Provider, ProviderResult, SendOptions, SendResult } from './provider';

export type { AttemptRecord } from './provider';

/**
 * Retries on 429 and 5xx with exponential backoff, honouring Retry-After. Time is injected (`Clock`), so tests never
 * wait on the wall clock. A stream that has already delivered text is never retried: the caller has seen it.
 */

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

export function backoffMs(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** Send through `provider`, retrying what is worth retrying. Throws the last ProviderError, with the attempts on it. */
export async function sendWithRetry(
  provider: Provider,
  request: PreparedRequest,
  options: SendOptions & { clock?: Clock; retry?: RetryPolicy; onAttempt?: (a: AttemptRecord) => void },
): Promise<SendResult> {
  const clock = options.clock ?? systemClock;
  const policy = options.retry ?? DEFAULT_RETRY;
  const attempts: AttemptRecord[] = [];
  let streamed = false;
  const onText = (delta: string) => {
    streamed = true;
    options.onText?.(delta);
  };
  for (let attempt = 1; ; attempt++) {
    let result: ProviderResult;
    try {
      result = await provider.send(request, { signal: options.signal, onText, onToolCall: options.onToolCall });
    } catch (e) {
      const error = e instanceof ProviderError ? e : new ProviderError(provider.id, 'network', `${provider.id}: ${(e as Error).message}`);
      const record: AttemptRecord = { attempt, outcome: error.kind, status: error.details.status, message: error.message };
      attempts.push(record);
      const retries = attempt - 1;
      const asked = error.details.retryAfterMs;
      if (!error.retryable || streamed || retries >= policy.maxRetries || (asked !== undefined && asked > policy.maxRetryAfterMs)) {
        if (asked !== undefined && asked > policy.maxRetryAfterMs) {
          record.message = `${error.message}; not waiting longer than ${formatMs(policy.maxRetryAfterMs)}`;
        }
        options.onAttempt?.(record);
        throw Object.assign(error, { attempts });
      }
      record.waitMs = asked ?? backoffMs(retries, policy);
      record.waitReason = asked !== undefined ? 'Retry-After' : 'backoff';
      options.onAttempt?.(record);
      await clock.sleep(record.waitMs, options.signal).catch(() => {
        throw Object.assign(new ProviderError(provider.id, 'aborted', `${provider.id}: cancelled`), { attempts });
      });
      continue;
    }
    const ok: AttemptRecord = { attempt, outcome: 'ok', status: result.status };
    attempts.push(ok);
    options.onAttempt?.(ok);
    return { ...result, attempts };
  }
}

/** The attempts a failed send made, when the error came through `sendWithRetry`. */
export function attemptsOf(error: unknown): AttemptRecord[] {
  const a = (error as { attempts?: AttemptRecord[] } | undefined)?.attempts;
  return Array.isArray(a) ? a : [];
}
