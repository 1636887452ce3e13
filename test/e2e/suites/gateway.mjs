// The gateway in the editor: the Agent Calls view lists the records of .context/gateway/ as they appear
// (the watcher, no reload) and its status item is contributed; screenshot of the view (docs/screenshots/agent-calls.png).
// The records are written here in the gateway's format, so the screenshot needs no model provider.
import fs from 'node:fs';
import path from 'node:path';

const record = (n, over) => ({
  id: `c${n}`,
  at: `2026-12-01T19:3${n}:00.000Z`,
  mode: 'control',
  api: 'anthropic',
  path: '/v1/messages',
  model: 'claude-sonnet-4-5',
  stream: true,
  conversation: 'conv-1',
  status: 200,
  duration_ms: 900 + n,
  usage: { input_tokens: 2100, cache_read_tokens: 0, cache_write_tokens: 9800, output_tokens: 310 },
  window: 200000,
  tokens: { encoding: 'o200k_base', system: 3200, tools: 5400, rules_and_pins: 420, messages: 3300, tool_results: [], total: 11900 },
  changes: [],
  notes: [],
  pins: { present: ['AGENTS.md'], added: [] },
  prefix_stable: true,
  received_prefix_stable: true,
  prefix_broken_by_gateway: false,
  received: { model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true, messages: [{ role: 'user', content: 'Why does the payment retry twice?' }] },
  sent_unchanged: true,
  ...over,
});

export default async function gateway(h) {
  const { page, test, expect, showViews, showContainer, shot, workspace } = h;
  const dir = path.join(workspace, '.context', 'gateway');
  const sidebar = () => page.locator('.part.sidebar');

  await test('the Agent Calls view lists the gateway records live, newest first, with tokens / window, changes and cache hit', async () => {
    await showContainer();
    await showViews();
    const header = sidebar().locator('.pane-header').filter({ hasText: /^Agent Calls$/i }).first();
    await header.waitFor({ timeout: 10_000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await sidebar().getByText('No agent call recorded yet', { exact: false }).first().waitFor({ timeout: 10_000 });
    fs.mkdirSync(dir, { recursive: true });
    const pin = { rule: 'pins-added', where: 'system', kind: 'system', reason: 'the AGENTS.md rules were not in the request', replayed: false, tokens_after: 420 };
    const offload = { rule: 'offloaded', where: 'messages[4].content[1]', kind: 'tool_result', reason: 'tool result over 6 000 tokens', replayed: false, tokens_before: 36000, tokens_after: 900 };
    const preview = { rule: 'agent-preview', where: 'messages[6].content[0]', kind: 'tool_result', reason: 'head-only preview replaced by the digest', replayed: false };
    const records = [
      record(1, { changes: [pin], prefix_stable: null, received_prefix_stable: null, pins: { present: [], added: ['AGENTS.md'] } }),
      record(2, { changes: [{ ...pin, replayed: true }, offload], usage: { input_tokens: 1300, cache_read_tokens: 9800, cache_write_tokens: 1400, output_tokens: 220 }, tokens: { ...record(2).tokens, total: 12800 } }),
      record(3, { changes: [{ ...pin, replayed: true }, { ...offload, replayed: true }, preview], usage: { input_tokens: 900, cache_read_tokens: 11200, cache_write_tokens: 800, output_tokens: 180 }, tokens: { ...record(3).tokens, total: 13700 } }),
    ];
    records.forEach((r, i) => fs.writeFileSync(path.join(dir, `call-20261201T19${30 + i + 1}00000Z-00000${i + 1}-anthropic.json`), JSON.stringify(r, null, 1)));
    const rows = sidebar().locator('.monaco-list-row').filter({ hasText: 'claude-sonnet-4-5' });
    const start = Date.now();
    while ((await rows.count()) < 3 && Date.now() - start < 30_000) await page.waitForTimeout(250);
    expect((await rows.count()) === 3, `the view shows ${await rows.count()} calls, expected 3`);
    const first = ((await rows.first().textContent()) ?? '').replace(/\s+/g, ' ');
    expect(/13\s?700 \/ 200\s?000 · 3 changes: pins-added, offloaded, agent-preview · cache hit 11\s?200 · prefix held/.test(first), `newest row: "${first}"`);
    await rows.first().hover();
    await shot('agent-calls', { locator: sidebar() });
  });
}
