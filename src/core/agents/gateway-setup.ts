import { applyEdits, findNodeAtLocation, getNodeValue, modify, type Node as JsonNode } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { InputError } from '../errors';
import { appendMember, FORMAT, jsonTree, parseCodex, position, type Merge } from './setup-config';

/**
 * `ctxctl setup AGENT --gateway [--port N]` and `--undo`: the gateway's base URL where each agent reads it. Pure:
 * text in, text out. An undo is accepted only when it is the exact inverse of the merge (the merge of the undone text
 * gives back the current text byte for byte), so `--undo` restores the file as it was before `--gateway`, and
 * removes nothing the user wrote. A value the user set differently is left alone and reported.
 */

export type GatewayAgent = 'claude-code' | 'codex' | 'cline' | 'continue' | 'copilot';
export const GATEWAY_AGENTS: GatewayAgent[] = ['claude-code', 'codex', 'cline', 'continue', 'copilot'];
export const DEFAULT_GATEWAY_PORT = 8787;
export const CODEX_PROVIDER = 'ctxctl';
/** Codex cuts a longer command output to its head and tail before the gateway sees it (the error in the middle lost). */
export const CODEX_TOOL_OUTPUT_TOKEN_LIMIT = 200_000;

/** `deleted`: the file held only what `--gateway` created; undoing it removes the file. */
export type GatewayMerge = Merge & { deleted?: boolean };

export const gatewayUrl = (port: number) => `http://127.0.0.1:${port}`;
const OUR_URL = /^http:\/\/127\.0\.0\.1:(\d{1,5})(\/v1)?$/;

// ---------------------------------------------------------------- Claude Code: env.ANTHROPIC_BASE_URL

const KEY = 'ANTHROPIC_BASE_URL';

function claudeFresh(port: number): string {
  return JSON.stringify({ env: { [KEY]: gatewayUrl(port) } }, null, 2) + '\n';
}

export function mergeClaudeGateway(existing: string | undefined, file: string, port: number): GatewayMerge {
  const url = gatewayUrl(port);
  if (existing === undefined || existing.trim() === '') {
    return { text: claudeFresh(port), notes: [`${file}: added env.${KEY} = ${url}`], changed: true };
  }
  const tree = jsonTree(existing, file);
  const env = findNodeAtLocation(tree, ['env']);
  if (env && env.type !== 'object') {
    const { line, column } = position(existing, env.offset);
    throw new InputError('"env" must be an object; nothing written', file, line, column);
  }
  const current = findNodeAtLocation(tree, ['env', KEY]);
  if (current) {
    const value = getNodeValue(current) as unknown;
    if (value === url) return { text: existing, notes: [`${file}: env.${KEY} is already ${url}`], changed: false };
    return { text: existing, notes: [`${file}: env.${KEY} is already set to ${JSON.stringify(value)}; left as it is (run --undo first if ctxctl set it, or edit it by hand to ${url})`], changed: false };
  }
  const text = env
    ? appendMember(existing, env, `${JSON.stringify(KEY)}: ${JSON.stringify(url)}`, ['env', KEY], url)
    : appendMember(existing, tree, `"env": ${JSON.stringify({ [KEY]: url }, null, 2)}`, ['env'], { [KEY]: url });
  return { text, notes: [`${file}: added env.${KEY} = ${url}`], changed: true };
}

export function undoClaudeGateway(existing: string | undefined, file: string): GatewayMerge {
  if (existing === undefined) return { text: '', notes: [`${file}: not there; nothing to undo`], changed: false };
  const tree = jsonTree(existing, file);
  const current = findNodeAtLocation(tree, ['env', KEY]);
  const value = current ? (getNodeValue(current) as unknown) : undefined;
  const port = typeof value === 'string' ? OUR_URL.exec(value) : null;
  if (!current || !port || port[2]) return { text: existing, notes: [`${file}: ${current ? `env.${KEY} is ${JSON.stringify(value)}, not the gateway's; left as it is` : `no env.${KEY}; nothing to undo`}`], changed: false };
  const p = Number(port[1]);
  if (existing === claudeFresh(p)) return { text: '', notes: [`${file}: removed (it held only env.${KEY}, added by --gateway)`], changed: true, deleted: true };
  const env = findNodeAtLocation(tree, ['env']) as JsonNode;
  const member = (env.children?.length === 1 ? env.parent : current.parent) as JsonNode;
  const inverse = (candidate: string) => {
    try {
      return mergeClaudeGateway(candidate, file, p).text === existing;
    } catch {
      return false;
    }
  };
  const found = [removeMember(existing, member) ?? '\u0000', applyEdits(existing, modify(existing, env.children?.length === 1 ? ['env'] : ['env', KEY], undefined, FORMAT))].find(inverse);
  if (found === undefined) return { text: existing, notes: [`${file}: env.${KEY} was changed or moved since --gateway added it; left as it is (remove it by hand)`], changed: false };
  return { text: found, notes: [`${file}: removed env.${KEY} (${value})`], changed: true };
}

/** The inverse of appendMember: the comma after the previous member and the member's own line removed. */
function removeMember(text: string, member: JsonNode): string | undefined {
  const siblings = member.parent?.children ?? [];
  const i = siblings.indexOf(member);
  if (i <= 0) return undefined;
  const prevEnd = siblings[i - 1].offset + siblings[i - 1].length;
  const comma = text[prevEnd] === ',' ? 1 : 0;
  const lineStart = text.lastIndexOf('\n', member.offset);
  if (lineStart < prevEnd) return undefined;
  return text.slice(0, prevEnd) + text.slice(prevEnd + comma, lineStart) + text.slice(member.offset + member.length);
}

// ---------------------------------------------------------------- Codex: ~/.codex/config.toml

const CODEX_TOP = '# Context Control gateway (ctxctl setup codex --gateway): Codex uses the provider below, and lets long outputs through whole (the gateway trims them keeping the errors)';
const CODEX_TABLE = '# Context Control gateway (ctxctl setup codex --gateway)';
/** The same header when a newline had to be added to the file's last line first, so that --undo takes it away too. */
const CODEX_TABLE_NL = '# Context Control gateway (ctxctl setup codex --gateway; the newline before this block was added with it)';

function codexTable(port: number): string {
  return `[model_providers.${CODEX_PROVIDER}]\nname = "OpenAI through Context Control"\nbase_url = "${gatewayUrl(port)}/v1"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n`;
}

export function mergeCodexGateway(existing: string | undefined, file: string, port: number): GatewayMerge {
  const before = existing ?? '';
  const parsed = parseCodex(before, file);
  const notes: string[] = [];
  const top: string[] = [];
  if (parsed.model_provider === undefined) {
    top.push(`model_provider = "${CODEX_PROVIDER}"`);
    notes.push(`${file}: added model_provider = "${CODEX_PROVIDER}"`);
  } else if (parsed.model_provider === CODEX_PROVIDER) notes.push(`${file}: model_provider is already "${CODEX_PROVIDER}"`);
  else notes.push(`${file}: model_provider is ${JSON.stringify(parsed.model_provider)}; left as it is (run \`codex -c model_provider=${CODEX_PROVIDER}\`, or edit it, to use the gateway)`);
  const limit = parsed.tool_output_token_limit;
  if (limit === undefined) {
    top.push(`tool_output_token_limit = ${CODEX_TOOL_OUTPUT_TOKEN_LIMIT}`);
    notes.push(`${file}: added tool_output_token_limit = ${CODEX_TOOL_OUTPUT_TOKEN_LIMIT}`);
  } else if (typeof limit === 'number' && limit >= CODEX_TOOL_OUTPUT_TOKEN_LIMIT) notes.push(`${file}: tool_output_token_limit is already ${limit}`);
  else notes.push(`${file}: tool_output_token_limit is ${String(limit)}; left as it is (Codex cuts the middle of longer outputs before the gateway sees them: ${CODEX_TOOL_OUTPUT_TOKEN_LIMIT} lets them through)`);
  const provider = (parsed.model_providers as Record<string, Record<string, unknown>> | undefined)?.[CODEX_PROVIDER];
  let table = '';
  if (!provider) {
    table = codexTable(port);
    notes.push(`${file}: added model_providers.${CODEX_PROVIDER} (base_url = ${gatewayUrl(port)}/v1)`);
  } else if (provider.base_url === `${gatewayUrl(port)}/v1`) notes.push(`${file}: model_providers.${CODEX_PROVIDER} is already set up`);
  else notes.push(`${file}: model_providers.${CODEX_PROVIDER} exists with base_url ${JSON.stringify(provider.base_url)}; left as it is`);
  if (top.length === 0 && !table) return { text: before, notes, changed: false };
  const head = top.length > 0 ? `${CODEX_TOP}\n${top.join('\n')}\n${before === '' && !table ? '' : '\n'}` : '';
  const text = head + before + (table ? codexTail(before, port) : '');
  try {
    parseToml(text);
  } catch (e) {
    throw new InputError(`cannot add to this file without breaking it (${(e as Error).message.split('\n')[0]}): add the lines by hand; nothing written`, file);
  }
  return { text, notes, changed: true };
}

/** The provider table appended after `before`, with the separator --undo can tell apart. */
function codexTail(before: string, port: number): string {
  const table = codexTable(port);
  return before === '' ? `${CODEX_TABLE}\n${table}` : before.endsWith('\n') ? `\n${CODEX_TABLE}\n${table}` : `\n\n${CODEX_TABLE_NL}\n${table}`;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function undoCodexGateway(existing: string | undefined, file: string): GatewayMerge {
  if (existing === undefined) return { text: '', notes: [`${file}: not there; nothing to undo`], changed: false };
  parseCodex(existing, file);
  const table = new RegExp(`(\\n\\n${esc(CODEX_TABLE_NL)}|\\n${esc(CODEX_TABLE)}|^${esc(CODEX_TABLE)})\\n\\[model_providers\\.${CODEX_PROVIDER}\\]\\nname = "OpenAI through Context Control"\\nbase_url = "http://127\\.0\\.0\\.1:(\\d{1,5})/v1"\\nwire_api = "responses"\\nenv_key = "OPENAI_API_KEY"\\n`);
  const top = new RegExp(`^${esc(CODEX_TOP)}\\n(model_provider = "${CODEX_PROVIDER}"\\n)?(tool_output_token_limit = ${CODEX_TOOL_OUTPUT_TOKEN_LIMIT}\\n)?\\n?`);
  const t = table.exec(existing);
  const h = top.exec(existing);
  if (t && existing === mergeCodexGateway(undefined, file, Number(t[2])).text) return { text: '', notes: [`${file}: removed (it held only what --gateway added)`], changed: true, deleted: true };
  if (!t && !h) return { text: existing, notes: [`${file}: nothing of --gateway's found; nothing to undo`], changed: false };
  let text = existing;
  if (t) text = text.slice(0, t.index) + text.slice(t.index + t[0].length);
  if (h) text = text.slice(h[0].length);
  const port = t ? Number(t[2]) : DEFAULT_GATEWAY_PORT;
  // The exact inverse: on the undone text, --gateway would add this same head, and this same table after what
  // preceded it then (another block, e.g. plain setup's, may have been appended after it since).
  let again: string | undefined;
  try {
    const merged = mergeCodexGateway(text, file, port).text;
    const before = t ? text.slice(0, t.index - (h ? h[0].length : 0)) : text;
    const head = merged.endsWith(codexTail(text, port)) ? merged.slice(0, merged.length - text.length - codexTail(text, port).length) : merged.slice(0, merged.length - text.length);
    again = (t ? codexTail(before, port) === t[0] : !merged.endsWith(codexTail(text, port))) && head === (h ? h[0] : '') ? existing : undefined;
  } catch {
    again = undefined;
  }
  if (again !== existing) return { text: existing, notes: [`${file}: the lines --gateway added were changed or moved since; left as they are (remove them by hand)`], changed: false };
  const notes = [h ? `${file}: removed the lines --gateway added at the top (model_provider, tool_output_token_limit)` : '', t ? `${file}: removed model_providers.${CODEX_PROVIDER}` : ''].filter(Boolean);
  return { text, notes, changed: true, deleted: text === '' && existing !== '' ? true : undefined };
}

// ---------------------------------------------------------------- Cline, Continue, Copilot: instructions only

/**
 * Cline keeps its provider settings in the editor's extension storage, Continue's config.yaml and Copilot's model
 * list are the user's own (a list of models whose names ctxctl cannot choose): the lines to add are printed instead.
 */
export function gatewayInstructions(agent: 'cline' | 'continue' | 'copilot', port: number): string[] {
  const v1 = `${gatewayUrl(port)}/v1`;
  switch (agent) {
    case 'cline':
      return [
        'Cline keeps its provider in its own settings (not a file ctxctl can own). In Cline\'s settings:',
        `  API Provider: OpenAI Compatible, Base URL: ${v1} (your API key and model id as before)`,
        `  or API Provider: Anthropic, with "Use custom base URL": ${gatewayUrl(port)}`,
      ];
    case 'continue':
      return [
        'Continue: add apiBase to the model in your config.yaml (~/.continue/config.yaml), for example:',
        'models:',
        '  - name: GPT through Context Control',
        '    provider: openai',
        '    model: <MODEL_ID>',
        `    apiBase: ${v1}`,
        '    apiKey: <YOUR_OPENAI_API_KEY>',
      ];
    case 'copilot':
      return [
        'Copilot Chat (bring your own key): run "Chat: Manage Language Models" in VS Code, add a Custom Endpoint',
        '(OpenAI-compatible) model, and give it this URL as its endpoint:',
        `  ${v1}/chat/completions   (or ${v1}/responses for a model on the Responses API)`,
        'Copilot\'s own models (signed in with GitHub) do not go through a base URL and cannot use the gateway.',
      ];
  }
}
