import type { Manifest } from '../../core/report/manifest';
import { toolOutputFigure } from '../../core/report/tool-output-figure';
import type { AssemblyState } from '../assembly';
import { itemContext } from './item-context';
import { signalRows } from './signals';
import { escapeMd, group, tokens, type Node } from './tree';

const STATUS_ICON: Record<string, [string, string?]> = {
  accepted: ['pass', 'testing.iconPassed'],
  proposed: ['circle-large-outline'],
  draft: ['edit'],
  superseded: ['history', 'disabledForeground'],
  deprecated: ['warning', 'list.warningForeground'],
  rejected: ['circle-slash', 'list.errorForeground'],
  'on hold': ['debug-pause', 'list.warningForeground'],
};

/** The verdict as a few words for a description: `selected`, `unrelated component`, `available on demand`. */
function shortVerdict(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (v.startsWith('rejected: superseded')) return undefined; // the status already says it
  return v.replace(/^rejected: /, '').replace(/^indexed: /, '');
}

/** The Index view: what the workspace offers, grouped; each item with its tokens, status and metadata. */
export function indexNodes(state: AssemblyState): Node[] {
  if (state.kind !== 'ok' && !(state.kind === 'refused' && state.snapshot)) return [];
  const snapshot = state.kind === 'ok' ? state.snapshot : state.snapshot!;
  const manifest = state.kind === 'ok' ? state.assembly.manifest : undefined;
  const verdict = (source: string) => {
    if (!manifest) return undefined;
    if (manifest.selected.some((s) => s.source === source)) return 'selected';
    const r = manifest.rejected.find((s) => s.source === source);
    if (r) return `rejected: ${r.reason}`;
    const i = manifest.indexed.find((s) => s.source === source);
    if (i) return `indexed: ${i.reason}`;
    return undefined;
  };
  /** One figure per source, the manifest's: exact for a block that was sent (counted), `~` for an estimate. */
  const figure = (source: string, estimate: number) => {
    const sent = manifest?.selected.find((s) => s.source === source && typeof s.tokens === 'number');
    if (sent) return tokens(Number(sent.tokens));
    const other = [...(manifest?.rejected ?? []), ...(manifest?.indexed ?? [])].find((s) => s.source === source && typeof s.tokens === 'number');
    return tokens(other ? Number(other.tokens) : estimate, true);
  };
  const relevance = (source: string) => {
    const d = [...(manifest?.selected ?? []), ...(manifest?.indexed ?? []), ...(manifest?.rejected ?? [])].find((s) => s.source === source && typeof s.relevance === 'number');
    return d ? `relevance ${Number(d.relevance).toFixed(2)}` : undefined;
  };
  const meta = (rows: [string, string | undefined][]) =>
    rows
      .filter(([, v]) => v)
      .map(([k, v]) => `**${k}:** ${escapeMd(v!)}`)
      .join('  \n');
  const instructions: Node[] = snapshot.instructions.map((a) => ({
    id: `idx:instr:${a.path}`,
    label: a.path,
    description: `${figure(a.path, Math.ceil(a.text.length / 3.6))} · ${a.mode} · ${verdict(a.path) ?? ''}`,
    icon: a.mode === 'mandatory' ? 'law' : a.mode === 'conditional' ? 'filter' : 'list-tree',
    tooltip: meta([['Source', a.path], ['Family', a.family], ['Mode', `${a.mode} (${a.rule})`], ['Applies to', a.scope ? `${a.scope}/**` : 'the whole workspace'], ['Globs', a.globs?.join(', ')], ['In this request', verdict(a.path)]]),
    open: { source: a.path, line: a.bodyLine },
    contextValue: itemContext(a.mode === 'disclosed' ? 'document' : 'agents_md', a.path, snapshot.overrides),
  }));
  const docNode = (d: (typeof snapshot.documents)[number]): Node => {
    const status = d.decision?.status ?? d.status;
    const [icon, color] = d.decision ? (STATUS_ICON[status ?? 'accepted'] ?? ['question']) : ['book'];
    const headingLine = d.body.split('\n').findIndex((l) => /^#{1,6}\s/.test(l));
    return {
      id: `idx:doc:${d.path}`,
      label: d.decision ? `${d.decision.id} ${d.title}` : d.title,
      description: [figure(d.path, Math.ceil(d.body.length / 3.6)), status === 'proposed' || status === 'draft' ? `${status}, not in force` : status, relevance(d.path), shortVerdict(verdict(d.path))].filter(Boolean).join(' · '),
      icon,
      iconColor: color,
      tooltip: meta([
        ['Path', d.path],
        ['Title', d.title],
        ['Summary', d.summary],
        ['Status', status],
        ['Superseded by', d.decision?.supersededBy.join(', ')],
        ['Supersedes', d.decision?.supersedes.join(', ')],
        ['Component', d.components?.join(', ')],
        ['Relevance', relevance(d.path)],
        ['Tags', d.tags?.join(', ')],
        ['In this request', verdict(d.path)],
      ]),
      open: { source: d.path, line: headingLine >= 0 ? d.bodyLine + headingLine : undefined },
      contextValue: itemContext('document', d.path, snapshot.overrides),
    };
  };
  const decisions = snapshot.documents.filter((d) => d.decision);
  const accepted = decisions.filter((d) => (d.decision?.status ?? 'accepted') === 'accepted' || d.decision?.status === 'proposed' || d.decision?.status === 'draft');
  const retired = decisions.filter((d) => !accepted.includes(d));
  const documents = snapshot.documents.filter((d) => !d.decision);
  /** What the request holds of a source: the sum of its sent blocks, the figure the panel shows for them. */
  const sentTokens = (source: string) => {
    const sent = state.kind === 'ok' ? state.assembly.blocks.filter((b) => b.source === source) : [];
    return sent.length ? sent.reduce((n, b) => n + b.tokens, 0) : undefined;
  };
  const logs: Node[] = snapshot.toolOutputs.map((o) => {
    const t = manifest?.trimmed.find((x) => x.source === o.path);
    return {
      id: `idx:tool:${o.path}`,
      label: o.path,
      description: toolOutputFigure(o.path, o.size, manifest, sentTokens(o.path)).label,
      icon: 'output',
      tooltip: meta([['Path', o.path], ['Size', `${o.size} bytes`], ['Format', o.format ?? String(t?.format ?? 'log')], ['Trim', t ? `${t.retained_lines} of ${t.original_lines} lines kept` : undefined], ['In this request', verdict(o.path)]]),
      open: { source: o.path },
      contextValue: itemContext('tool_result', o.path, snapshot.overrides),
    };
  });
  const offloaded: Node[] = (manifest?.offloaded ?? []).map((o) => ({
    id: `idx:off:${o.source}`,
    label: o.source,
    description: `${tokens(o.tokens)} → ${String(o.path ?? '')}`,
    icon: 'cloud-upload',
    tooltip: meta([['Source', o.source], ['Offloaded to', String(o.path ?? '')], ['Reason', o.reason]]),
    open: typeof o.path === 'string' ? { source: o.path } : undefined,
  }));
  return [
    group('idx:task', 'Task signals', taskNodes(manifest?.task), 'search', false),
    group('idx:instructions', 'Instructions', instructions, 'law'),
    group('idx:decisions', 'Decisions', [group('idx:accepted', 'Accepted', accepted.map(docNode), 'pass'), group('idx:superseded', 'Superseded and retired', retired.map(docNode), 'history')], 'milestone'),
    group('idx:documents', 'Documents', documents.map(docNode), 'book'),
    group('idx:logs', 'Logs and tool output', logs, 'output'),
    group('idx:offloaded', 'Offloaded', offloaded, 'cloud-upload'),
  ];
}

/** What the task analysis understood: one node per kind of signal. */
function taskNodes(task: Manifest['task'] | undefined): Node[] {
  return signalRows(task).map((r) => ({ id: `idx:task:${r.label}`, label: r.label, description: r.values.join(', '), icon: r.icon, tooltip: `**${r.label}:** ${escapeMd(r.values.join(', '))}` }));
}
