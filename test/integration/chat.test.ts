import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { previewFor } from '../../src/vscode/views/panel';
import { api, root } from './api';
import { chatRequest, FakeModel, markdownText, recordingStream, requestTurn, responseTurn, textOf } from './chat-fakes';

const PROMPT = 'Why does the payment controller reject legacy payloads?';
type Meta = { sent: boolean; answer?: string; final?: number; max_input?: number; references?: string[]; refused?: boolean; restricted?: boolean; cancelled?: boolean };

async function ask(prompt: string, model: vscode.LanguageModelChat | undefined, options: { command?: string; history?: (vscode.ChatRequestTurn | vscode.ChatResponseTurn)[]; token?: vscode.CancellationToken } = {}) {
  const a = await api();
  const rec = recordingStream();
  const token = options.token ?? new vscode.CancellationTokenSource().token;
  const result = (await a.chat.handler(chatRequest(prompt, model, options.command), { history: options.history ?? [] }, rec.stream, token)) as vscode.ChatResult & { metadata: Meta };
  return { result, ...rec };
}

suite('@context chat participant', () => {
  teardown(async () => (await api()).chat.setTrust(() => vscode.workspace.isTrusted));

  test('assembles within the model envelope, checks with countTokens, streams the answer, references every workspace source sent', async () => {
    // maxInputTokens 4000 narrows the example's 14 000 window: max_input = 4000 - margin 1000.
    const model = new FakeModel(4000);
    const { result, calls, of } = await ask(PROMPT, model);
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.equal(result.metadata.max_input, 3000);
    assert.ok(result.metadata.final! <= 3000, `final ${result.metadata.final}`);
    assert.equal(model.requests.length, 1);
    assert.ok(model.counts >= 1, 'the model counted the request before it was sent');
    const sent = model.requests[0].map(textOf);
    assert.match(sent[0], /<rules source="AGENTS.md" trust="project-rule">/);
    assert.ok(sent.at(-1)!.endsWith(`<task source="task" trust="user">\n${PROMPT}\n</task>`), 'the prompt is the current task, last');
    assert.equal(result.metadata.answer, 'The controller rejects legacy payloads.');
    // Progress first, then the answer as it streamed, then the references, the budget line and the buttons.
    assert.deepEqual(calls.map((c) => c.method).filter((m, i, all) => m !== all[i - 1]), ['progress', 'markdown', 'reference', 'markdown', 'button']);
    assert.deepEqual(of('markdown').slice(0, 2), [['The controller '], ['rejects legacy payloads.']]);
    const refs = of('reference').map(([uri]) => path.relative(root(), (uri as vscode.Uri).fsPath).split(path.sep).join('/'));
    assert.deepEqual(refs, result.metadata.references);
    assert.ok(refs.includes('AGENTS.md'), refs.join(', '));
    assert.ok(!refs.includes('docs/adr/adr-008-payment-method-mandatory.md'), 'a superseded decision is not sent');
    const manifest = JSON.parse(fs.readFileSync(path.join((await api()).chat.recordDir, 'manifest.json'), 'utf8'));
    for (const r of refs) assert.ok([...manifest.selected, ...manifest.trimmed].some((d: { source: string }) => d.source.replace(/#.*$/, '') === r), `${r} is in the manifest`);
    assert.match(String(of('markdown').at(-1)![0]), new RegExp(`^\\n\\n---\\n\\*\\*Budget\\*\\* ${fmt(manifest.budget.final)} / 3\u202f000 tokens · model count [\\d\u202f]+ · Fake GPT-4o accepts 4\u202f000 · mandatory [\\d\u202f]+ · `));
    assert.deepEqual(of('button').map(([b]) => [(b as vscode.Command).title, (b as vscode.Command).command]), [
      ['Show in Panel', 'contextControl.chat.showInPanel'],
      ['Open manifest.json', 'contextControl.chat.openManifest'],
    ]);
    // Show in Panel shows this request (its budget, blocks and trace), not the panel's own assembly.
    const shown = previewFor((await api()).chat.last()!, (await api()).host.settings);
    // The status bar's rule: warning when the protected blocks take 90 % of max_input (a full fill is no warning).
    assert.deepEqual([shown.status, shown.final, shown.maxInput], [manifest.budget.mandatory >= 2700 ? 'warning' : 'ok', manifest.budget.final, 3000]);
    assert.match(shown.trace, /FINAL REQUEST/);
    await vscode.commands.executeCommand('contextControl.chat.showInPanel');
  });

  test('/preview shows the budget and the blocks in request order without sending', async () => {
    const model = new FakeModel(4000);
    const { result, of, calls } = await ask(PROMPT, model, { command: 'preview' });
    assert.equal(model.requests.length, 0, 'nothing was sent');
    assert.equal(result.metadata.sent, false);
    assert.equal(result.metadata.max_input, 3000);
    const text = markdownText(calls);
    assert.match(text, /\*\*Blocks, in request order\*\* \(nothing was sent\):/);
    const rows = [...text.matchAll(/^\| (\w+) \| ([^|]+) \| [\d ]+ \|$/gm)].map((m) => m[1]);
    assert.deepEqual(rows.slice(0, 3), ['system_instructions', 'tool_definitions', 'agents_md']);
    assert.equal(rows.at(-1), 'current_task');
    assert.match(text, /- `docs\/adr\/adr-008-payment-method-mandatory.md` \(rejected\): superseded by ADR-012/);
    assert.equal(of('reference').length, 0, 'no reference: nothing was sent');
  });

  test('refuses when the mandatory blocks exceed the model budget: the refusal, Unpin and Open Panel, nothing sent or cut', async () => {
    const a = await api();
    const pinsFile = path.join(root(), '.context', 'pins.json');
    const hadPins = fs.existsSync(pinsFile);
    const pin = await a.pins.pinFile(vscode.Uri.file(path.join(root(), 'ticket.md')));
    try {
      const model = new FakeModel(1500);
      const { result, of, calls } = await ask(PROMPT, model);
      assert.equal(model.requests.length, 0);
      assert.equal(result.metadata.refused, true);
      assert.match(markdownText(calls), /^\*\*Refused:\*\* the mandatory blocks need [\d\u202f]+ tokens but max_input is 500 \(the model accepts 1\u202f500 input tokens, less the policy's margin\)\. Nothing was sent and nothing was cut\./);
      assert.match(markdownText(calls), /\| pinned \| ticket\.md \| [\d\u202f]+ \|/);
      assert.deepEqual(of('button').map(([b]) => [(b as vscode.Command).title, (b as vscode.Command).command, (b as vscode.Command).arguments]), [
        ['Unpin ticket.md', 'contextControl.unpin', [pin!.id]],
        ['Open Panel', 'contextControl.chat.showInPanel', undefined],
      ]);
    } finally {
      await a.pins.unpin(pin!.id);
      if (!hadPins) fs.rmSync(pinsFile, { force: true });
    }
  });

  test('replays the chat history as session events, leaving out commands; off when chat.replayHistory is false', async () => {
    const history = [
      requestTurn('Where is the payment controller?'),
      responseTurn('It is src/main/java/PaymentController.java.\n\n---\n**Budget** …', { sent: true, answer: 'It is src/main/java/PaymentController.java.' }),
      requestTurn('some task', 'preview'),
      responseTurn('**Blocks** …', { sent: false }, 'preview'),
    ];
    const model = new FakeModel(6000);
    await ask(PROMPT, model, { history });
    const texts = model.requests[0].map(textOf);
    const asked = texts.findIndex((t) => t.includes('Where is the payment controller?'));
    const answered = texts.findIndex((t) => t.includes('It is src/main/java/PaymentController.java.'));
    assert.ok(asked >= 0 && answered > asked, `replayed in order (${asked}, ${answered})`);
    assert.ok(!texts.join('\n').includes('**Budget** …'), 'the budget line is not replayed as the answer');
    assert.ok(!texts.join('\n').includes('some task'), 'a /preview turn is not replayed');
    const config = vscode.workspace.getConfiguration('contextControl.chat');
    await config.update('replayHistory', false, vscode.ConfigurationTarget.Global);
    try {
      const again = new FakeModel(6000);
      await ask(PROMPT, again, { history });
      assert.ok(!again.requests[0].map(textOf).join('\n').includes('Where is the payment controller?'));
    } finally {
      await config.update('replayHistory', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('/compact shows how the older turns fold into a structured summary', async () => {
    const history = Array.from({ length: 5 }, (_, i) => [requestTurn(`Question ${i + 1} about PaymentController?`), responseTurn(`Answer ${i + 1}.`, { sent: true, answer: `Answer ${i + 1}.` })]).flat();
    const { result, calls } = await ask('', new FakeModel(6000), { command: 'compact', history });
    assert.equal(result.metadata.sent, false);
    // 10 groups, the example policy keeps the last 6 verbatim: 4 fold.
    assert.match(markdownText(calls), /^The next request folds 4 older group\(s\) \(chat-t1-user…chat-t4-assistant\) into a structured summary, [\d\u202f]+ → [\d\u202f]+ tokens \(\w+, valid\), and replays 6 group\(s\) verbatim/);
  });

  test('cancellation stops the stream; the partial answer is marked not sent', async () => {
    const cts = new vscode.CancellationTokenSource();
    const model = new FakeModel(6000, ['First part. ', 'Second part.']);
    model.afterPart = (i) => i === 0 && cts.cancel();
    const { result, of } = await ask(PROMPT, model, { token: cts.token });
    assert.equal(result.metadata.cancelled, true);
    assert.equal(result.metadata.sent, false);
    assert.equal(result.errorDetails?.message, 'Cancelled: the request was stopped and its answer is not replayed in later turns.');
    assert.deepEqual(of('markdown'), [['First part. ']]);
    assert.equal(of('reference').length, 0);
  });

  test('errors get clear messages: no model, model gone, off-topic, quota', async () => {
    const none = await ask(PROMPT, undefined);
    assert.equal(none.result.errorDetails?.message, 'No language model is available: sign in to GitHub Copilot (or install a chat model provider) and pick a model in the chat view.');
    const gone = new FakeModel(6000);
    gone.failWith = vscode.LanguageModelError.NotFound('gpt-4o was removed');
    assert.equal((await ask(PROMPT, gone)).result.errorDetails?.message, 'The model could not answer: the model is no longer available (gpt-4o was removed). Pick another with "Select Language Model".');
    const offTopic = new FakeModel(6000);
    offTopic.failWith = new vscode.LanguageModelError('Sorry, off_topic');
    assert.equal((await ask(PROMPT, offTopic)).result.errorDetails?.message, 'The model could not answer: the model declined the request as off-topic (Sorry, off_topic).');
    const quota = new FakeModel(6000);
    quota.failWith = new vscode.LanguageModelError('You have exceeded your premium request quota');
    assert.equal((await ask(PROMPT, quota)).result.errorDetails?.message, 'The model could not answer: the quota for this model is used up (You have exceeded your premium request quota). Pick another model, or try again when the quota resets.');
    assert.equal(quota.requests.length, 1, 'a used-up quota is not retried');
  });

  test('Workspace Trust off: a request sends nothing and says why; /preview works without counting with the model', async () => {
    (await api()).chat.setTrust(() => false);
    const model = new FakeModel(6000);
    const { result, of, calls } = await ask(PROMPT, model);
    assert.equal(model.requests.length, 0);
    assert.equal(result.metadata.restricted, true);
    assert.match(markdownText(calls), /^This workspace is in \*\*Restricted Mode\*\*: Context Control sends nothing to a model until you trust it\./);
    assert.deepEqual(of('button').map(([b]) => (b as vscode.Command).command), ['workbench.trust.manage']);
    const preview = await ask(PROMPT, model, { command: 'preview' });
    assert.equal(preview.result.metadata.max_input, 5000);
    assert.equal(model.counts, 0, 'the model is not even asked to count');
    assert.equal(model.requests.length, 0);
  });

  test('/explain tells why a document was or was not loaded, from the last manifest', async () => {
    await ask(PROMPT, new FakeModel(4000), { command: 'preview' });
    const adr8 = await ask('docs/adr/adr-008-payment-method-mandatory.md', undefined, { command: 'explain' });
    assert.match(markdownText(adr8.calls), /^`docs\/adr\/adr-008-payment-method-mandatory.md` in the last @context request \(task: task, .*\):\n\n- \*\*not loaded\*\* \([\d\u202f]+ tokens\): superseded by ADR-012\n$/);
    const missing = await ask('docs/nope.md', undefined, { command: 'explain' });
    assert.match(markdownText(missing.calls), /- \*\*not found\*\*: `docs\/nope.md` is not a file of the workspace\n$/);
  });
});

function fmt(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}
