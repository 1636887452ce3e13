import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { answerLimit, codexAnswerChars, cutChars, mcpClientOf, sizedAssembly, CODEX_DEFAULT_ANSWER_CHARS } from '../../../src/core/agents/mcp-answer-size';
import type { ToolAnswer } from '../../../src/core/agents/workspace-tools';
import type { Manifest } from '../../../src/core/report/manifest';
import { num, renderShortTrace } from '../../../src/core/report/trace';
import { ContextEngine } from '../../../src/core/engine';
import { diskHost } from '../../../src/host/disk';
import { EXAMPLE, REPO } from '../helpers';

/** A fake assembly: `perToken` characters of text for each token of budget, so the size follows max_input. */
function fakeRun(perToken: number, calls: (number | undefined)[]) {
  return (max?: number): ToolAnswer => {
    calls.push(max);
    const budget = max ?? 10_000;
    return { text: Array.from({ length: Math.ceil((budget * perToken) / 50) }, (_, i) => `line ${i} `.padEnd(49, '.')).join('\n'), isError: false, manifest: { budget: { max_input: budget } } as unknown as Manifest };
  };
}

describe('agents: MCP answers sized for the client', () => {
  it('knows the clients by their handshake name', () => {
    assert.deepEqual(['claude-code', 'codex-mcp-client', 'Codex', 'ctxctl-test', undefined].map(mcpClientOf), ['claude-code', 'codex', 'codex', 'other', 'other']);
    assert.equal(answerLimit('codex')!.maxChars, CODEX_DEFAULT_ANSWER_CHARS);
    assert.equal(answerLimit('claude-code')!.maxChars, 45_000);
    assert.equal(answerLimit('other'), undefined);
    assert.equal(answerLimit('other', 30_000)!.maxChars, 30_000);
    assert.equal(codexAnswerChars(12_000), 36_000);
  });

  it('an answer over the limit is assembled again at a smaller budget until it fits, and says so', () => {
    const calls: (number | undefined)[] = [];
    const limit = answerLimit('codex')!;
    const out = sizedAssembly(fakeRun(4, calls), undefined, limit);
    assert.ok(out.text.length <= limit.maxChars, `${out.text.length}`);
    assert.equal(calls[0], undefined);
    assert.ok(calls.length >= 2 && (calls[1] as number) < 10_000);
    const first = out.text.split('\n')[0];
    assert.equal(first, `[Context Control] Sized for the client: ${limit.label}; assembled at max_input ${num(calls.at(-1)!)} instead of ${num(10_000)} tokens (${num(39_999)} characters at first).`);
  });

  it('an answer within the limit, an error, or no limit: unchanged and assembled once', () => {
    for (const [limit, perToken] of [[answerLimit('claude-code'), 4], [undefined, 40]] as const) {
      const calls: (number | undefined)[] = [];
      const out = sizedAssembly(fakeRun(perToken, calls), 5000, limit);
      assert.deepEqual(calls, [5000]);
      assert.equal(out.text, fakeRun(perToken, [])(5000).text);
    }
    const refused: ToolAnswer = { text: 'x'.repeat(50_000), isError: true };
    assert.equal(sizedAssembly(() => refused, undefined, answerLimit('codex')), refused);
  });

  it('what cannot be made small enough is cut at whole lines with a notice, never over the limit', () => {
    const limit = { client: 'codex' as const, maxChars: 300, label: 'Codex keeps 300' };
    const text = Array.from({ length: 20 }, (_, i) => `line ${i} ${'x'.repeat(30)}`).join('\n');
    const cut = cutChars(text, limit);
    assert.ok(cut.length <= 300, `${cut.length}`);
    assert.match(cut, /^line 0 x+\n/);
    assert.match(cut, /\n\[cut: \d of 20 lines kept \(769 characters in all\); Codex keeps 300\. Ask with a smaller max_input, or read what you need with read_document\]$/);
  });

  it('ctxctl mcp: a Codex client gets assemble_context within 11 000 characters; --answer-chars sets the limit', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-size-'));
    fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
    try {
      for (const [args, max] of [[[], CODEX_DEFAULT_ANSWER_CHARS], [['--answer-chars', '20000'], 20_000]] as const) {
        const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(REPO, 'dist', 'cli.js'), 'mcp', '--workspace', root, ...args], stderr: 'pipe' });
        const client = new Client({ name: 'codex-mcp-client', version: '0.171.0' });
        await client.connect(transport);
        try {
          const r = (await client.callTool({ name: 'assemble_context', arguments: { task: 'ticket.md' } }, undefined, { timeout: 300_000 })) as { content: { text: string }[]; isError?: boolean };
          const text = r.content.map((c) => c.text).join('');
          assert.equal(r.isError ?? false, false, text);
          assert.ok(text.length <= max, `${text.length} > ${max}`);
          assert.match(text, /^\[Context Control\] Sized for the client: .*; assembled at max_input .+? instead of .+? tokens \(.+? characters at first\)\.\n\[Context Control\] Context budget: /);
          assert.match(text, /FINAL REQUEST/);
        } finally {
          await client.close();
        }
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('agents: an answer keeps its trace short before it is cut', () => {
  const trace = ['MODEL REQUEST BUDGET', '  Maximum input            2 248', '', 'DOCUMENTS', '  a.md  REJECTED  superseded', '  b.md  REJECTED  unrelated', '', 'SESSION', '  24 stored events', '', 'FINAL REQUEST', '  2 207 / 2 248 tokens'].join('\n');
  const text = `[Context Control] Context budget: 2 207 of 2 248 tokens\n\n<working-context>\n</working-context>\n\n${trace}\n`;

  it('sized to its limit with the short trace when the smallest budget is still too long, and says so', () => {
    const padded = text.replace('DOCUMENTS\n', `DOCUMENTS\n${'  c.md  REJECTED  not relevant\n'.repeat(40)}`);
    const limit = { client: 'codex' as const, maxChars: 600, label: 'Codex keeps 600' };
    // The short form comes from the manifest (renderShortTrace); here, the text it gives for this trace.
    const shortText = `[Context Control] Context budget: 2 207 of 2 248 tokens\n\n<working-context>\n</working-context>\n\nMODEL REQUEST BUDGET\n  Maximum input            2 248\n\nFINAL REQUEST\n  2 207 / 2 248 tokens\n`;
    const answer = { text: padded, isError: false, manifest: { budget: { max_input: 2248 } } as unknown as Manifest, short: () => ({ text: shortText, left: 43 }) };
    const out = sizedAssembly(() => answer, undefined, limit);
    assert.ok(out.text.length <= 600, `${out.text.length}`);
    assert.equal(out.text.split('\n')[0], `[Context Control] Sized for the client: Codex keeps 600; the trace keeps its budget and its final request (43 rows left out, all in the manifest) (${num(padded.length)} characters at first).`);
    assert.equal(out.text.slice(out.text.indexOf('\n') + 1), shortText);
  });

  it('on the example, a 10 000-character limit: the smallest budget that assembles is still too long, so the trace is the manifest\'s short form', () => {
    const engine = new ContextEngine(diskHost, EXAMPLE);
    const limit = { client: 'codex' as const, maxChars: 10_000, label: `Codex keeps ${num(10_000)}` };
    const out = sizedAssembly((max) => engine.tools.assembleContext({ task: 'ticket.md', max_input: max }), undefined, limit);
    assert.ok(out.text.length <= 10_000, `${out.text.length}`);
    const short = renderShortTrace(out.manifest!);
    assert.ok(short.left > 0);
    const [note, ...rest] = out.text.split('\n');
    assert.match(note, new RegExp(`^\\[Context Control\\] Sized for the client: Codex keeps ${num(10_000)}; the trace keeps its budget and its final request \\(${short.left} rows left out, all in the manifest\\); assembled at max_input ${num(out.manifest!.budget.max_input)} instead of ${num(11_000)} tokens`));
    const text = rest.join('\n');
    assert.ok(text.endsWith(`\n\n${short.text}`), 'the answer ends with the short trace');
    assert.ok(!/\nDOCUMENTS\n|\nSESSION\n|\nTOOL OUTPUT\n/.test(text), 'no other section of the trace');
  });

  it('without a short form (a hook\'s context, no trace) the answer is cut with its notice', () => {
    const limit = { client: 'codex' as const, maxChars: 200, label: 'Codex keeps 200' };
    const out = sizedAssembly(() => ({ text: text.repeat(3), isError: false }), undefined, limit);
    assert.ok(out.text.length <= 200, `${out.text.length}`);
    assert.match(out.text, /\[cut: \d+ of \d+ lines kept .*Codex keeps 200\./);
  });
});
