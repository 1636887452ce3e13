import type { Manifest } from '../../core/report/manifest';

/** What the task analysis understood, as labelled rows (empty rows left out): for the Index tree and the panel. */
export function signalRows(task: Manifest['task'] | undefined): { label: string; values: string[]; icon: string }[] {
  const s = task?.signals;
  if (!task || !s) return [];
  const rows = [
    { label: 'Components', values: (task.components ?? []).map((c) => `${c.name} (${c.from})`), icon: 'symbol-namespace' },
    { label: 'Paths', values: s.paths, icon: 'file' },
    { label: 'Identifiers', values: s.identifiers, icon: 'symbol-variable' },
    { label: 'Codes', values: s.codes, icon: 'symbol-constant' },
    { label: 'Quoted', values: s.quoted.map((q) => `"${q}"`), icon: 'quote' },
    { label: 'ADR references', values: s.adrs.map((a) => a.text), icon: 'milestone' },
    { label: 'Changed files', values: task.changed ?? [], icon: 'git-commit' },
    { label: 'Words', values: s.words.slice(0, 12), icon: 'symbol-text' },
  ];
  return rows.filter((r) => r.values.length > 0);
}
