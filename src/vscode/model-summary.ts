import * as vscode from 'vscode';
import type { Keys } from './secret-key';
import { formatNumber } from '../view-model/format';
import { maxInput, type Policy } from '../core/policy';
import { AnthropicProvider } from '../core/providers/anthropic';
import { OpenAIProvider } from '../core/providers/openai';
import type { Provider } from '../core/providers/provider';
import { shapeRequest } from '../core/providers/shape';
import type { CompactionInput } from '../core/session/compaction';
import { buildSummaryRequest, parseSummaryResponse } from '../core/session/model-summary';
import { counterFor, encodingForModel } from '../core/tokens';
import { requireModel, VscodeLmProvider } from './lm';
import { apiKeyFor } from './send';
import type { Settings } from './settings';

/** The configured provider, for a one-off summary request (the user asked for it: Compact Session Now). */
async function providerFor(settings: Settings, keys: Keys): Promise<Provider> {
  if (settings.provider === 'vscode-lm') return new VscodeLmProvider(await requireModel(settings.model));
  const options = { apiKey: await apiKeyFor(settings, keys), baseUrl: settings.baseUrl || undefined, stream: false };
  return settings.provider === 'anthropic' ? new AnthropicProvider(options) : new OpenAIProvider(options);
}

/**
 * Ask the configured model for the structured summary of the events that the next call folds, with the JSON schema
 * in the request. The request is budget-checked like any other; the answer is parsed here and validated by
 * compactSession before anything is stored.
 */
export async function summaryFromModel(input: CompactionInput, folded: string[], settings: Settings, policy: Policy, keys: Keys, token: vscode.CancellationToken): Promise<unknown> {
  const provider = await providerFor(settings, keys);
  const ids = new Set(folded);
  const built = buildSummaryRequest({ model: settings.model, events: input.events.filter((e) => ids.has(e.id)), constraints: input.constraints, knownSources: input.knownSources, maxOutputTokens: policy.envelope.output_reserve });
  const body = shapeRequest(built.request, provider.shape, provider.streams);
  const serialized = JSON.stringify(body);
  const tokens = counterFor(encodingForModel(settings.model, settings.encoding).encoding).count(serialized);
  const limit = Math.min(maxInput(policy), provider.limits?.maxInputTokens ?? Infinity);
  if (tokens > limit) throw new Error(`the summary request needs ${formatNumber(tokens)} tokens but max_input is ${formatNumber(limit)}: not sent (use the extractive summary, or keep fewer recent groups)`);
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const result = await provider.send({ shape: provider.shape, model: settings.model, neutral: built.request, body, serialized, stream: provider.streams }, { signal: controller.signal });
    const parsed = parseSummaryResponse(result.text);
    if (!parsed.ok) throw new Error(`the model's summary could not be read: ${parsed.reason}`);
    return parsed.value;
  } finally {
    sub.dispose();
  }
}
