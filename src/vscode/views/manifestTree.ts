import type { DecisionSection } from '../../core/types';
import type { AssemblyState } from '../assembly';
import { itemContext } from './item-context';
import { escapeMd, group, tokens, type Node } from './tree';

const SECTIONS: [DecisionSection, string, string][] = [
  ['selected', 'Selected', 'check'],
  ['rejected', 'Rejected', 'circle-slash'],
  ['trimmed', 'Trimmed', 'fold'],
  ['offloaded', 'Offloaded', 'cloud-upload'],
  ['indexed', 'Indexed', 'list-tree'],
  ['compacted', 'Compacted', 'archive'],
];

const openable = (source: string) => !/^(builtin|session|pin):/.test(source) && source !== 'task';

/** The Manifest view: the last preview or send, every decision with its reason and tokens. */
export function manifestNodes(state: AssemblyState): Node[] {
  if (state.kind === 'refused') {
    return [
      group(
        'man:refused',
        'Refused: the mandatory blocks exceed max_input',
        state.error.blocks.map((b, i) => ({
          id: `man:refused:${i}`,
          label: b.source,
          description: `${tokens(b.tokens)} · ${b.kind}`,
          icon: 'error',
          iconColor: 'list.errorForeground',
          open: openable(b.source) ? { source: b.source.replace(/#.*$/, '') } : undefined,
        })),
        'error',
      ),
    ];
  }
  if (state.kind !== 'ok') return [];
  const m = state.assembly.manifest;
  const nodes = SECTIONS.map(([key, label, icon]) =>
    group(
      `man:${key}`,
      label,
      m[key].map((d, i) => ({
        id: `man:${key}:${i}:${d.source}`,
        label: d.source,
        description: [d.reason, tokens(d.tokens)].filter(Boolean).join(' · '),
        icon,
        tooltip: Object.entries(d)
          .map(([k, v]) => `**${k}:** ${escapeMd(String(v))}`)
          .join('  \n'),
        open: openable(d.source) ? { source: d.source.replace(/#.*$/, '') } : undefined,
        contextValue: itemContext(d.kind, d.source, state.snapshot.overrides),
      })),
      icon,
      key !== 'indexed',
    ),
  );
  if (m.warnings.length) {
    nodes.push(
      group(
        'man:warnings',
        'Warnings',
        m.warnings.map((w, i) => ({ id: `man:warn:${i}`, label: `${w.source}${w.line ? `:${w.line}` : ''}`, description: w.message, icon: 'warning', iconColor: 'list.warningForeground', open: openable(w.source) ? { source: w.source, line: w.line } : undefined })),
        'warning',
      ),
    );
  }
  return nodes;
}
