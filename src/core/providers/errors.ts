/**
 * What can go wrong when a request meets a provider, in words a person can act on. Every provider (HTTP or the
 * VS Code host) throws a ProviderError; the retry wrapper and the send loop only look at its `kind`.
 */

export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'server'
  | 'context_length'
  | 'bad_request'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'bytes_mismatch';

export interface ProviderErrorDetails {
  status?: number;
  /** How long the provider asked us to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** For context-length errors: the limit and the count the provider reported, when it said them. */
  limit?: number;
  actual?: number;
  /** The provider's own words, with any secret scrubbed. */
  providerMessage?: string;
}

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: ProviderErrorDetails = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** 429 and 5xx are worth another try; nothing else is. */
  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server';
  }
}

/** Remove every occurrence of each secret from a text that may be shown, logged or written. */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[REDACTED]');
  return out;
}

/** A URL without credentials or query string: safe for traces and manifests. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Retry-After as milliseconds: `retry-after-ms`, then `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(get: (name: string) => string | null | undefined, now: number): number | undefined {
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const raw = get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const CONTEXT_LENGTH = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /prompt is too long/i,
  /exceeds? the (?:available )?context (?:size|window|length)/i,
  /input (?:is )?too long/i,
  /too many (?:input )?tokens/i,
  /exceed_context_size/i,
];

export function isContextLengthMessage(message: string, code?: string): boolean {
  return CONTEXT_LENGTH.some((re) => re.test(message) || (code !== undefined && re.test(code)));
}

/**
 * The figures in a context-length message, when it gives them. Covers OpenAI and vLLM ("maximum context length is
 * 8192 tokens. However, your messages resulted in 9000 tokens"), Anthropic ("prompt is too long: 210000 tokens >
 * 200000 maximum") and llama.cpp ("request (9000 tokens) exceeds the available context size (8192 tokens)").
 */
export function parseContextFigures(message: string): { limit?: number; actual?: number } {
  const n = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/[,_ ]/g, '')));
  let m = /maximum context length is ([\d,]+) tokens[\s\S]*?(?:resulted in|requested) ([\d,]+) tokens/i.exec(message);
  if (m) return { limit: n(m[1]), actual: n(m[2]) };
  m = /([\d,]+) tokens? > ([\d,]+)(?: tokens?)? maximum/i.exec(message);
  if (m) return { limit: n(m[2]), actual: n(m[1]) };
  m = /\(([\d,]+) tokens\) exceeds the available context size \(([\d,]+) tokens\)/i.exec(message);
  if (m) return { limit: n(m[2]), actual: n(m[1]) };
  return {};
}

export interface HttpFailure {
  provider: string;
  status: number;
  headers: (name: string) => string | null | undefined;
  message: string;
  code?: string;
  now: number;
  secrets: readonly (string | undefined)[];
}

/** Turn an HTTP error answer into a ProviderError with a message that says what to do. */
export function classifyHttpFailure(f: HttpFailure): ProviderError {
  const said = scrub(f.message, f.secrets).slice(0, 500);
  const base = { status: f.status, providerMessage: said };
  if (f.status === 401 || f.status === 403) {
    return new ProviderError(f.provider, 'auth', `${f.provider} answered ${f.status}: check the API key for ${f.provider}`, base);
  }
  if (f.status === 429) {
    const retryAfterMs = parseRetryAfter(f.headers, f.now);
    const wait = retryAfterMs !== undefined ? ` (Retry-After ${formatMs(retryAfterMs)})` : '';
    return new ProviderError(f.provider, 'rate_limit', `${f.provider} answered 429: rate limited${wait}`, { ...base, retryAfterMs });
  }
  if (f.status >= 500) {
    const retryAfterMs = parseRetryAfter(f.headers, f.now);
    return new ProviderError(f.provider, 'server', `${f.provider} answered ${f.status}: server error (${said})`, { ...base, retryAfterMs });
  }
  if ((f.status === 400 || f.status === 413 || f.status === 422) && isContextLengthMessage(f.message, f.code)) {
    return new ProviderError(f.provider, 'context_length', `${f.provider} answered ${f.status}: the request exceeds the model's context length (${said})`, {
      ...base,
      ...parseContextFigures(f.message),
    });
  }
  return new ProviderError(f.provider, 'bad_request', `${f.provider} answered ${f.status}: ${said}`, base);
}

export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** What the editor offers next to a provider error. */
export type ProviderAction = 'Set API Key' | 'Select model' | 'Check network / base URL';

/**
 * A provider failure as one short sentence and the one action that fixes it, from the error's message (it may have
 * crossed a worker boundary as text): a missing or refused key, a model the provider does not know, a host that cannot
 * be reached or did not answer. Repeated causes (`getaddrinfo ENOTFOUND x: getaddrinfo ENOTFOUND x`) are said once.
 */
export function humanProviderError(message: string): { text: string; action?: ProviderAction } {
  const first = message.split('\n')[0];
  const parts = first.split(': ').filter((p, i, all) => all.indexOf(p) === i);
  const provider = /^(openai|anthropic|vscode-lm|dry-run)\b/.exec(first)?.[1];
  const who = provider ?? 'the provider';
  const noKey = /^no API key for (\w[\w-]*)/.exec(first);
  if (noKey) return { text: `No API key for ${noKey[1]}. Set one, or set contextControl.baseUrl for a local server.`, action: 'Set API Key' };
  if (/answered (401|403)|check the API key|invalid[_ ]api[_ ]key|authentication/i.test(first)) return { text: `${who} refused the API key${/answered (40[13])/.exec(first) ? ` (${/answered (40[13])/.exec(first)![1]})` : ''}.`, action: 'Set API Key' };
  const model = /model[ :"'`]+([\w.:/-]+)["'`]? (?:is )?(?:not found|does not exist|not supported|unknown)|(?:unknown|invalid) model[ :"'`]+([\w.:/-]+)|answered 404: model: ([\w.:/-]+)/i.exec(first);
  if (model || /model_not_found|not_found_error.*model/i.test(first)) return { text: `${who} does not know the model${model ? ` "${model[1] ?? model[2] ?? model[3]}"` : ''}.`, action: 'Select model' };
  const net = /\b(ENOTFOUND|ECONNREFUSED|ECONNRESET|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/.exec(first);
  const host = /cannot reach (\S+?):? /.exec(first)?.[1] ?? /(?:ENOTFOUND|EAI_AGAIN) ([\w.-]+)/.exec(first)?.[1] ?? /(\d+\.\d+\.\d+\.\d+:\d+)/.exec(first)?.[1];
  if (net || /cannot reach|timed out|fetch failed|network/i.test(first)) {
    const why = net?.[1] === 'ENOTFOUND' || net?.[1] === 'EAI_AGAIN' ? 'the host name does not resolve' : net?.[1] === 'ECONNREFUSED' ? 'the connection was refused' : /timed out|ETIMEDOUT/.test(first) ? 'no answer (timed out)' : 'the network failed';
    return { text: `Cannot reach ${host ?? who}: ${why}.`, action: 'Check network / base URL' };
  }
  return { text: parts.join(': ') };
}
