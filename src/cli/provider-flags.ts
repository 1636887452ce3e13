import { AnthropicProvider } from '../core/providers/anthropic';
import { OpenAIProvider } from '../core/providers/openai';
import type { Provider } from '../core/providers/provider';
import type { Clock } from '../core/providers/retry';
import { KEY_VARS, keyFromEnv } from '../host/disk';

/** `--provider openai|anthropic --model M --base-url URL` for compare and check: a factory, one provider per run. */

export const REAL_PROVIDERS = ['openai', 'anthropic'] as const;

export interface ProviderFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  timeoutSeconds?: number;
}

/** Undefined for dry-run; a string is a usage error to report. */
export function providerFactory(flags: ProviderFlags, env: Record<string, string | undefined>, clock?: Clock): { make?: () => Provider; apiKey?: string } | string {
  const id = flags.provider ?? 'dry-run';
  if (id === 'dry-run') return {};
  if (!(REAL_PROVIDERS as readonly string[]).includes(id)) return `--provider must be one of dry-run, ${REAL_PROVIDERS.join(', ')}`;
  if (!flags.model) return `--model M is required with --provider ${id}`;
  if (flags.baseUrl !== undefined && !/^https?:\/\/[^/]/.test(flags.baseUrl)) return `--base-url must be an http(s) URL, got "${flags.baseUrl}"`;
  const apiKey = keyFromEnv(id, env);
  if (!apiKey && flags.baseUrl === undefined) return `no API key for ${id}: set ${KEY_VARS[id]} or CTXCTL_API_KEY (a local server given with --base-url needs none)`;
  const http = { apiKey, baseUrl: flags.baseUrl, clock, idleTimeoutMs: flags.timeoutSeconds !== undefined ? flags.timeoutSeconds * 1000 : undefined };
  return { make: () => (id === 'openai' ? new OpenAIProvider(http) : new AnthropicProvider(http)), apiKey };
}
