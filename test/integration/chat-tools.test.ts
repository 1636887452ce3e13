import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from './api';
import { o200k } from './chat-fakes';

/** Invoke a tool the way Copilot's agent does, with a token budget and the caller's counter. */
async function invoke(name: string, input: object, tokenBudget?: number): Promise<{ text: string; tokens: number }> {
  const result = await vscode.lm.invokeTool(name, {
    input,
    toolInvocationToken: undefined,
    ...(tokenBudget !== undefined ? { tokenizationOptions: { tokenBudget, countTokens: async (t: string) => o200k.count(t) } } : {}),
  });
  const text = result.content.map((p) => (p as vscode.LanguageModelTextPart).value).join('');
  return { text, tokens: o200k.count(text) };
}

suite('Context Control language-model tools', () => {
  teardown(async () => (await api()).chat.setTrust(() => vscode.workspace.isTrusted));

  test('the four tools are contributed with schemas and registered', () => {
    const mine = vscode.lm.tools.filter((t) => ['assemble_context', 'read_document', 'search_workspace', 'inspect_offloaded'].includes(t.name));
    assert.deepEqual(mine.map((t) => t.name).sort(), ['assemble_context', 'inspect_offloaded', 'read_document', 'search_workspace']);
    for (const t of mine) assert.equal((t.inputSchema as { type: string }).type, 'object', t.name);
    assert.deepEqual((mine.find((t) => t.name === 'assemble_context')!.inputSchema as { required: string[] }).required, ['task']);
  });

  test('assemble_context returns the budgeted context and its trace within the caller tokenBudget, or refuses', async () => {
    const fits = await invoke('assemble_context', { task: 'Why does the payment controller reject legacy payloads?' }, 2500);
    assert.ok(fits.tokens <= 2500, `${fits.tokens} tokens`);
    assert.match(fits.text, /^<rules source="AGENTS.md" trust="project-rule">/);
    assert.match(fits.text, /\nContext Control trace: \d+ block\(s\), request [\d\u202f]+ \/ [\d\u202f]+ tokens\./);
    assert.ok(!fits.text.includes('adr-008-payment-method-mandatory.md"'), 'a superseded decision is not returned');
    const tiny = await invoke('assemble_context', { task: 'Why does the payment controller reject legacy payloads?' }, 300);
    assert.ok(tiny.tokens <= 300, `${tiny.tokens} tokens`);
    assert.match(tiny.text, /^assemble_context: refused: the mandatory blocks \(builtin:system, builtin:tools, AGENTS\.md, task\) need [\d\u202f]+ tokens, over the 300 available\. Nothing was cut\.$/);
  });

  test('read_document trims a document to the tokenBudget with a notice, and refuses a path outside the workspace', async () => {
    const doc = await invoke('read_document', { path: 'docs/architecture.md' }, 200);
    assert.ok(doc.tokens <= 200, `${doc.tokens} tokens`);
    assert.match(doc.text, /^docs\/architecture\.md\n\n<document source="docs\/architecture\.md"/);
    assert.match(doc.text, /\[trimmed: \d+ of \d+ lines kept to fit \d+ tokens; the full text is docs\/architecture\.md/);
    for (const outside of ['../../../etc/passwd', '/etc/passwd']) {
      const refused = await invoke('read_document', { path: outside }, 200);
      assert.equal(refused.text, `read_document: "${outside}" is not returned: the path must be a workspace-relative path, as listed in <available-documents>`);
    }
  });

  test('search_workspace cuts its matches to the tokenBudget and says how many were left out', async () => {
    const all = await invoke('search_workspace', { pattern: 'payment' });
    const total = Number(/^(\d+) matching lines? in/.exec(all.text)?.[1]);
    assert.ok(total > 10, all.text.slice(0, 200));
    const cut = await invoke('search_workspace', { pattern: 'payment' }, 150);
    assert.ok(cut.tokens <= 150, `${cut.tokens} tokens`);
    const lines = cut.text.split('\n');
    const shown = lines.length - 2;
    assert.equal(lines[0], all.text.split('\n')[0]);
    assert.equal(lines.at(-1), `[${Math.min(total, 50) - shown} more matching line(s) not shown to fit 150 tokens; narrow the pattern]`);
  });

  test('inspect_offloaded reads the head of a workspace log within the budget and refuses paths outside', async () => {
    const head = await invoke('inspect_offloaded', { path: 'application.log', op: 'head', lines: 100 }, 300);
    assert.ok(head.tokens <= 300, `${head.tokens} tokens`);
    assert.match(head.text, /^application\.log \(head\):\n {5}1 {2}/);
    assert.match(head.text, /\n\[\d+ more line\(s\) not shown to fit 300 tokens; use grep or a smaller head\]$/);
    const outside = await invoke('inspect_offloaded', { path: '/etc/passwd', op: 'head' }, 300);
    assert.equal(outside.text, 'inspect_offloaded: /etc/passwd: outside the workspace and the offload store: not inspectable');
  });

  test('in Restricted Mode every tool refuses and returns no workspace content; prepareInvocation names the document and its size', async () => {
    const a = await api();
    const prepared = await a.chat.tools.read_document.prepareInvocation!({ input: { path: 'docs/architecture.md' } as never }, new vscode.CancellationTokenSource().token);
    assert.match(String(prepared!.invocationMessage), /^Reading docs\/architecture\.md \(~[\d\u202f]+ tokens\)$/);
    a.chat.setTrust(() => false);
    for (const [name, input] of [
      ['assemble_context', { task: 'payment' }],
      ['read_document', { path: 'AGENTS.md' }],
      ['search_workspace', { pattern: 'payment' }],
      ['inspect_offloaded', { path: 'application.log', op: 'count' }],
    ] as const) {
      assert.equal((await invoke(name, input, 1000)).text, 'Context Control tools are off in Restricted Mode: a tool result goes to a model, and nothing from an untrusted workspace is sent to a model. Trust the workspace to use them.', name);
    }
  });

  test('contextControl.chat.tools off withdraws the tools without a reload, on offers them again', async () => {
    // The implementations are unregistered at once; package.json's `when` clause hides them from the chat's pickers
    // (the extension host's vscode.lm.tools list is not refreshed on a configuration change in VS Code 1.100).
    const config = vscode.workspace.getConfiguration('contextControl.chat');
    await config.update('tools', false, vscode.ConfigurationTarget.Global);
    try {
      await assert.rejects(invoke('search_workspace', { pattern: 'payment' }), /Tool search_workspace does not have an implementation registered/);
    } finally {
      await config.update('tools', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.match((await invoke('search_workspace', { pattern: 'payment' }, 1000)).text, /^\d+ matching lines in \d+ files for "payment"/);
  });
});
