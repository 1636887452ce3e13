/** Models each HTTP provider is offered with, default first (the editor's picker; any other id can be typed). */
export const PROVIDER_MODELS: Record<string, readonly string[]> = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o4-mini'],
  anthropic: ['claude-sonnet-4-0', 'claude-opus-4-0', 'claude-3-7-sonnet-latest', 'claude-3-5-haiku-latest'],
};

/** True when `model` plainly belongs to another provider (gpt-4o for Anthropic, claude-… for OpenAI). */
export function modelBelongsElsewhere(provider: string, model: string): boolean {
  const m = model.toLowerCase();
  if (provider === 'anthropic') return /^(gpt-|o\d|chatgpt|text-)/.test(m);
  if (provider === 'openai') return m.startsWith('claude');
  return false;
}
