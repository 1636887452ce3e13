import * as vscode from 'vscode';
import type { Assembly } from '../../core/chain/assemble';
import { ContextBudgetExceeded, InputError } from '../../core/errors';
import { ProviderError } from '../../core/providers/errors';
import { num } from '../../core/report/trace';

/** Commands the chat's buttons run. */
export const OPEN_CHAT_MANIFEST = 'contextControl.chat.openManifest';
/** Shows the chat's last request (or refusal) in the panel: blocks, zones, trace. */
export const SHOW_IN_PANEL = 'contextControl.chat.showInPanel';
export const UNPIN = 'contextControl.unpin';

/**
 * The refusal, as the participant writes it: the mandatory blocks and their figures, nothing sent, nothing cut.
 * One Unpin button per pinned block (the only mandatory blocks a person can drop from here), and Open Panel.
 */
export function streamRefusal(stream: vscode.ChatResponseStream, e: ContextBudgetExceeded, modelLimit?: number): void {
  stream.markdown(
    `**Refused:** the mandatory blocks need ${num(e.mandatoryTokens)} tokens but max_input is ${num(e.maxInput)}` +
      (modelLimit !== undefined ? ` (the model accepts ${num(modelLimit)} input tokens, less the policy's margin)` : '') +
      '. Nothing was sent and nothing was cut.\n\n| kind | source | tokens |\n| --- | --- | ---: |\n' +
      e.blocks.map((b) => `| ${b.kind} | ${cell(b.source)} | ${num(b.tokens)} |`).join('\n') +
      '\n\nUnpin a block, pick a model with a larger window, or raise the envelope in the policy.\n',
  );
  for (const b of e.blocks.filter((x) => x.kind === 'pinned')) {
    stream.button({ command: UNPIN, title: `Unpin ${b.source}`, arguments: [b.id.replace(/^pinned:/, '')] });
  }
  stream.button({ command: SHOW_IN_PANEL, title: 'Open Panel' });
}

/** A table cell: pipes and newlines would break the table. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** `/preview`: the budget, the blocks in request order (`order`: their ids, from the worker), and what was left out, without sending. */
export function previewMarkdown(assembly: Assembly, order: readonly string[], budget: string): string {
  const m = assembly.manifest;
  const byId = new Map(assembly.blocks.map((b) => [b.id, b]));
  const rows = order.flatMap((id) => byId.get(id) ?? []).map((b) => `| ${b.kind} | ${cell(b.source)} | ${num(b.tokens)} |`);
  const left = [...m.rejected.map((d) => ({ d, what: 'rejected' })), ...m.indexed.map((d) => ({ d, what: 'indexed' }))];
  return [
    `${budget}\n`,
    '**Blocks, in request order** (nothing was sent):\n',
    '| kind | source | tokens |\n| --- | --- | ---: |',
    ...rows,
    '',
    ...(m.trimmed.length ? ['**Trimmed:**', ...m.trimmed.map((d) => `- \`${d.source}\`: ${d.reason}`), ''] : []),
    ...(left.length ? ['**Not loaded:**', ...left.map(({ d, what }) => `- \`${d.source}\` (${what}): ${d.reason}`), ''] : []),
    ...(m.degraded.length ? ['**Budget ladder:**', ...m.degraded.map((d) => `- \`${d.source}\`: ${d.reason}`), ''] : []),
  ].join('\n');
}

/** What a person reads when a chat request fails; never a stack trace. */
export function chatErrorMessage(e: unknown): string {
  if (e instanceof ProviderError) {
    switch (e.kind) {
      case 'aborted':
        return 'Cancelled: the request was stopped and its answer is not replayed in later turns.';
      case 'auth':
        return `Context Control may not use this model: ${strip(e.message)}`;
      case 'rate_limit':
        return `The model is rate-limited or its quota is used up: ${strip(e.message)}`;
      case 'context_length':
        return `The model still counted the request over its limit after one smaller rebuild: ${strip(e.message)}`;
      default:
        return `The model could not answer: ${strip(e.message)}`;
    }
  }
  if (e instanceof vscode.CancellationError) return 'Cancelled: the request was stopped and its answer is not replayed in later turns.';
  if (e instanceof InputError) return `Context Control cannot assemble the context: ${e.toString()}`;
  return `Context Control failed: ${(e as Error)?.message ?? String(e)}`;
}

function strip(message: string): string {
  return message.replace(/^vscode-lm: /, '');
}
