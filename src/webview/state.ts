/* The panel's state and its one channel to the host. Every pane reads `ui`; only panel.ts writes it on messages. */
import type { OutgoingMessage, PanelCompare, PanelPreview, PanelSettings, ProviderFix } from '../vscode/protocol';

declare function acquireVsCodeApi(): { postMessage(m: OutgoingMessage): void; getState(): unknown; setState(s: unknown): void };

export const vscode = acquireVsCodeApi();
export const send = (m: OutgoingMessage) => vscode.postMessage(m);

export type Tab = 'blocks' | 'changes' | 'trace' | 'session' | 'answer' | 'compare';
export const TABS: [Tab, string][] = [
  ['blocks', 'Blocks'],
  ['changes', 'Changes'],
  ['trace', 'Trace'],
  ['session', 'Session'],
  ['answer', 'Answer'],
  ['compare', 'Compare'],
];

export const ui = {
  settings: { provider: 'dry-run', model: '', policyPath: '' } as PanelSettings,
  providers: [] as string[],
  policies: [] as string[],
  trusted: true,
  task: '',
  preview: undefined as PanelPreview | undefined,
  /** The preview before the current one, for "Compare with previous preview". */
  previous: undefined as PanelPreview | undefined,
  busy: false,
  sending: false,
  answer: '',
  answerNote: '',
  answerFailed: false,
  /** The user asked for a run (Preview, Ctrl+Enter) since the last failed send: its result clears the failure. */
  previewAsked: false,
  /** The button that fixes a failed send (Set API Key…). */
  answerFix: undefined as ProviderFix | undefined,
  /** The dry run's request file, shown once as a link. */
  answerFile: undefined as string | undefined,
  compare: undefined as PanelCompare | undefined,
  /** Why the comparison shown is stale (the workspace broke after it was made), until the next comparison. */
  compareStale: undefined as string | undefined,
  tab: ((vscode.getState() as { tab?: Tab } | undefined)?.tab ?? 'blocks') as Tab,
  /** The preview whose "Dropped to fit" window was asked for (once per preview). */
  fitAsked: undefined as PanelPreview | undefined,
  /** Blocks whose text is expanded, kept across re-renders. */
  open: new Set<string>(),
};

/** Whether a preview holds a request that can be sent, copied or exported. */
export const validRequest = (p: PanelPreview | undefined) => p?.status === 'ok' || p?.status === 'warning';
