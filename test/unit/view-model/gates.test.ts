import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noTask, requestBlocked, sendBlocked, sessionBlocked } from '../../../src/view-model/gates';
import { fileOf, isBuiltin, isWholeFile } from '../../../src/view-model/source';

const ok = { task: 'fix the 400', status: 'ok' as const, trusted: true, busy: false };

describe('panel gates', () => {
  it('Send needs a task: an empty box with no task file blocks it, a task file lets it through', () => {
    assert.equal(sendBlocked({ ...ok, task: '  ' }), 'Type a task first: nothing is sent without one.');
    assert.equal(sendBlocked({ ...ok, task: '', taskFile: 'ticket.md' }), undefined);
    assert.equal(noTask({ task: '', taskFile: '' }), true);
  });

  it('Send gives the first reason that applies', () => {
    assert.equal(sendBlocked({ ...ok, trusted: false }), 'Sending needs a trusted workspace.');
    assert.equal(sendBlocked({ ...ok, busy: true }), 'Wait for the preview to finish.');
    assert.equal(sendBlocked({ ...ok, status: undefined }), 'Preview the request first.');
    assert.equal(sendBlocked({ ...ok, status: 'refused' }), 'The request would be refused: unpin or shorten a protected block.');
    assert.equal(sendBlocked({ ...ok, status: 'error' }), 'There is no valid request: see the error above.');
    assert.equal(sendBlocked({ ...ok, status: 'warning' }), undefined);
  });

  it('Copy and Export only for a valid current request', () => {
    assert.equal(requestBlocked({ status: 'refused', busy: false }), 'No valid request: it would be refused.');
    assert.equal(requestBlocked({ status: 'error', busy: false }), 'No valid request: see the error above.');
    assert.equal(requestBlocked({ status: 'ok', busy: true }), 'Wait for the preview to finish.');
    assert.equal(requestBlocked({ status: 'ok', busy: false }), undefined);
  });

  it('session actions are disabled without a session or a summary', () => {
    assert.deepEqual(sessionBlocked(undefined, false), { compact: 'No session yet: nothing to compact.', summary: 'No summary in use for this request.' });
    assert.deepEqual(sessionBlocked({ stored: 0 }, false), { compact: 'No session yet: nothing to compact.', summary: 'No summary in use for this request.' });
    assert.deepEqual(sessionBlocked({ stored: 24 }, true), {});
  });
});

describe('panel sources and the overrides file', () => {
  it('builtins are not files; a part of a file opens the file; only whole files take include, exclude and pin', () => {
    assert.equal(isBuiltin('builtin:system'), true);
    assert.equal(fileOf('builtin:index'), undefined);
    assert.equal(fileOf('.context/session.jsonl#e17'), '.context/session.jsonl');
    assert.equal(isWholeFile('docs/runbook.md#L1-L8'), false);
    assert.equal(isWholeFile('docs/runbook.md'), true);
  });
});
