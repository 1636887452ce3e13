import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { groupEvents, replayStart } from '../../../src/core/session/group';
import { defaultPolicy } from '../../../src/core/policy';
import type { SessionSummary } from '../../../src/core/session/schema';
import { parseSession } from '../../../src/core/session/file';
import type { SessionEvent } from '../../../src/core/types';
import { EXAMPLE } from '../helpers';

export const SESSION_SOURCE = '.context/session.jsonl';
export const EXAMPLE_SESSION = path.join(EXAMPLE, '.context', 'session.jsonl');

/** The example's stored session (the payment incident): 24 events, the mobile v1 point only ever a hypothesis. */
export function exampleEvents(): SessionEvent[] {
  const { events, warnings } = parseSession(fs.readFileSync(EXAMPLE_SESSION, 'utf8'), SESSION_SOURCE);
  if (warnings.length > 0) throw new Error(`example session has warnings: ${JSON.stringify(warnings)}`);
  return events;
}

/** The events the default policy folds on the example (the older groups), in group order. */
export function foldedExampleEvents(): SessionEvent[] {
  const { groups } = groupEvents(exampleEvents(), SESSION_SOURCE);
  return groups.slice(0, replayStart(groups, defaultPolicy())).flatMap((g) => g.events);
}

/** Paths of the example workspace that a summary may cite. */
export const EXAMPLE_PATHS = [
  'AGENTS.md',
  'application.log',
  'ticket.md',
  'docs/adr/adr-008-payment-method-mandatory.md',
  'docs/adr/adr-012-optional-fields-at-http-boundary.md',
  'src/main/java/com/acme/payments/api/PaymentController.java',
  'src/main/java/com/acme/payments/api/PaymentRequest.java',
];

/** A faithful summary of e01…e16: the mobile point stays an open question. */
export function faithfulSummary(): SessionSummary {
  return {
    objective: 'Restore POST /v1/payments for legacy clients that omit paymentMethod since 2.14.0 (PAY-1423).',
    established_facts: [
      'Legacy POS clients (pos-legacy/4.x) do not send paymentMethod.',
      'Commit 3e91c7a added @NotNull to PaymentRequest.paymentMethod and removed the fallback to PaymentMethod.CARD.',
    ],
    decisions: ['Keep validation of provided values.', 'No revert of 3e91c7a.'],
    completed_actions: ['Ran read_logs on application.log for 400 BAD_REQUEST (c1).', 'Ran grep for paymentMethod in src/main/java (c3).'],
    unresolved_questions: ['Does the mobile client still use v1 of the API? Not confirmed: the mobile team was asked.'],
    next_step: ['Run the contract suite on payloads without paymentMethod.'],
    sources: ['application.log', 'src/main/java/com/acme/payments/api/PaymentRequest.java', 'e15'],
  };
}

/** A fresh folder holding `files` (paths relative to it). Removed by the caller with `fs.rmSync`. */
export function tempWorkspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-session-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

export const jsonl = (events: object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
