import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { historyEvents, type TurnLike } from '../../../src/vscode/chat/history';

const ME = 'contextControl.context';
const md = (value: string) => ({ value: { value } });
const ask = (prompt: string, command?: string): TurnLike => ({ prompt, participant: ME, command });
const answer = (text: string, metadata: Record<string, unknown>, command?: string, participant = ME): TurnLike => ({ response: [md(text)], participant, command, result: { metadata } });

describe('chat history → session events', () => {
  it('replays answered exchanges in order, with the answer alone (not the budget line)', () => {
    const { events, skipped } = historyEvents([ask('q1'), answer('a1 text\n---\n**Budget** 1 / 2', { sent: true, answer: 'a1 text' }), ask('q2'), answer('a2', { sent: true })], ME);
    assert.deepEqual(events, [
      { id: 'chat-t1-user', type: 'user', text: 'q1' },
      { id: 'chat-t2-assistant', type: 'assistant', text: 'a1 text' },
      { id: 'chat-t3-user', type: 'user', text: 'q2' },
      { id: 'chat-t4-assistant', type: 'assistant', text: 'a2' },
    ]);
    assert.equal(skipped, 0);
  });

  it('leaves out commands, refusals, errors, cancelled answers and other participants, and counts them', () => {
    const turns: TurnLike[] = [
      ask('preview this', 'preview'),
      answer('blocks…', { sent: false }, 'preview'),
      ask('too big'),
      answer('**Refused:** …', { sent: false, refused: true }),
      ask('failing'),
      { response: [], participant: ME, result: { errorDetails: { message: 'boom' } } },
      ask('kept'),
      answer('yes', { sent: true, answer: 'yes' }),
      { prompt: 'elsewhere', participant: 'github.copilot.default' },
    ];
    const { events, skipped } = historyEvents(turns, ME);
    assert.deepEqual(events.map((e) => e.text), ['kept', 'yes']);
    assert.equal(skipped, 3);
  });
});
