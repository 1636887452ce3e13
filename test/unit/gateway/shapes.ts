import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DecisionStore } from '../../../src/core/gateway/decisions';
import type { DurableText, GatewayMode, PlanContext } from '../../../src/core/gateway/plan';
import { defaultPolicy } from '../../../src/core/policy';
import { counterFor } from '../../../src/core/tokens';

/**
 * Request shapes as the agents send them (recorded from Claude Code, Codex and Chat Completions clients, cut down),
 * the large log with one error in the middle, and a planning context over a temporary offload folder.
 */

export const SECRET = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
export const ERROR_LINE = '2026-12-01T10:15:42.118Z ERROR [payment] PaymentController: NullPointerException: paymentMethod is null (order 7781)';

/** About 140 KB of INFO lines with one ERROR line and its stack in the middle. */
export function bigLog(lines = 1500): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i === Math.floor(lines / 2)) out.push(ERROR_LINE, '    at com.shop.PaymentController.charge(PaymentController.java:88)', '    at com.shop.Checkout.run(Checkout.java:41)');
    const s = String(i % 60).padStart(2, '0');
    out.push(`2026-12-01T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${s}.000Z INFO  [worker-${i % 7}] request ${1000 + i} handled in ${(i * 37) % 400} ms status=200 path=/api/cart/${i}`);
  }
  return out.join('\n');
}

export const PIN: DurableText = { kind: 'pinned', source: 'pin:compat', text: 'Public HTTP APIs must stay backward compatible: never make an existing optional field required.', wrapped: '<pinned source="docs/api.md" label="compat">\nPublic HTTP APIs must stay backward compatible: never make an existing optional field required.\n</pinned>' };
export const RULES: DurableText = { kind: 'agents_md', source: 'AGENTS.md', text: '# Rules\n- Run ./mvnw -q verify before any commit.', wrapped: '<rules source="AGENTS.md">\n# Rules\n- Run ./mvnw -q verify before any commit.\n</rules>' };

export function anthropicRequest(log: string, extra: object[] = []): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 32000,
    stream: true,
    metadata: { user_id: 'user_abc_account__session_1111' },
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Environment: /work/ws, linux.' },
    ],
    tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: '<system-reminder>context</system-reminder>' }, { type: 'text', text: 'Why does checkout fail? Look at logs/app.log' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should read the log.', signature: 'EqQBCkYIBxgCKkDsig+/==' },
          { type: 'text', text: 'Reading the log.' },
          { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'cat logs/app.log' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: log },
          { type: 'tool_result', tool_use_id: 'toolu_01b', content: [{ type: 'text', text: `token ${SECRET}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
        ],
      },
      ...extra,
    ],
  };
}

export function responsesRequest(log: string, extra: object[] = []): Record<string, unknown> {
  return {
    model: 'gpt-5-codex',
    instructions: 'You are Codex, a coding agent.',
    stream: true,
    store: false,
    prompt_cache_key: '0199aaaa-bbbb-cccc',
    tools: [{ type: 'function', name: 'shell', description: 'Runs a shell command', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } }],
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>workspace-write</permissions>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context><cwd>/work/ws</cwd></environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Why does checkout fail?' }] },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAABencrypted==' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"command":["cat","logs/app.log"]}' },
      { type: 'function_call_output', call_id: 'call_1', output: log },
      ...extra,
    ],
  };
}

export function chatRequest(log: string, extra: object[] = []): Record<string, unknown> {
  return {
    model: 'gpt-4o',
    stream: true,
    stream_options: { include_usage: true },
    tools: [{ type: 'function', function: { name: 'run', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } } }],
    messages: [
      { role: 'system', content: 'You are a coding assistant.' },
      { role: 'user', content: [{ type: 'text', text: 'Why does checkout fail?' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'run', arguments: '{"cmd":"cat logs/app.log"}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: log },
      ...extra,
    ],
  };
}

const temps: string[] = [];
export function tempDir(prefix = 'ctxctl-gw-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(d);
  return d;
}
export function removeTemps(): void {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export function planContext(options: { mode?: GatewayMode; durable?: DurableText[]; store?: DecisionStore; agentFiles?: Record<string, string>; offloadDir?: string } = {}): PlanContext & { offloaded: string[] } {
  const dir = options.offloadDir ?? tempDir();
  const offloaded: string[] = [];
  return {
    mode: options.mode ?? 'control',
    policy: defaultPolicy(),
    tokenizer: counterFor('o200k_base'),
    durable: options.durable ?? [PIN, RULES],
    store: options.store ?? new DecisionStore(),
    offload: (name, text) => {
      const file = path.join(dir, `${name}-${text.length}.txt`);
      fs.writeFileSync(file, text);
      offloaded.push(file);
      return file;
    },
    readAgentOutput: (p) => (options.agentFiles && p in options.agentFiles ? { text: options.agentFiles[p] } : { refused: 'outside the agent folder' }),
    offloaded,
  };
}
