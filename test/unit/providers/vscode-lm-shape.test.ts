import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NeutralRequest } from '../../../src/core/chain/render';
import { serializeRequest, shapeRequest } from '../../../src/core/providers/shape';
import { TOOL_DEFINITIONS } from '../../../src/core/tools';

describe('the vscode-lm shape (no system role)', () => {
  const neutral: NeutralRequest = {
    model: 'copilot-gpt-4o',
    system: 'You are a coding agent.',
    messages: [
      { role: 'user', content: '<working-context>rules</working-context>', blocks: ['agents_md:AGENTS.md'] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_document', arguments: '{"path":"docs/runbook.md"}' }], blocks: ['g'] },
      { role: 'tool', toolCallId: 'call_1', content: '<tool-output>runbook</tool-output>', blocks: ['g'] },
      { role: 'user', content: '<task>Fix it.</task>', blocks: ['current_task:task'] },
    ],
    tools: TOOL_DEFINITIONS,
    maxOutputTokens: 2000,
  };

  it('puts the system text first in the first user message, tool results in user messages, and is serializable', () => {
    assert.deepEqual(shapeRequest(neutral, 'vscode-lm'), {
      model: 'copilot-gpt-4o',
      messages: [
        { role: 'user', content: [{ type: 'text', value: 'You are a coding agent.' }, { type: 'text', value: '<working-context>rules</working-context>' }] },
        { role: 'assistant', content: [{ type: 'tool_call', callId: 'call_1', name: 'read_document', input: { path: 'docs/runbook.md' } }] },
        { role: 'user', content: [{ type: 'tool_result', callId: 'call_1', content: [{ type: 'text', value: '<tool-output>runbook</tool-output>' }] }, { type: 'text', value: '<task>Fix it.</task>' }] },
      ],
      tools: TOOL_DEFINITIONS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
      maxOutputTokens: 2000,
    });
    assert.equal(serializeRequest(neutral, 'vscode-lm', true), serializeRequest(neutral, 'vscode-lm', false), 'streaming is not part of the body');
  });
});
