import * as posix from 'node:path/posix';
import type { Warning } from '../types';
import { numberOf, type DecisionRef } from './adr';
import type { DocumentFile } from './documents';

/**
 * Supersession, resolved in both directions: `A superseded by B` and `B supersedes A` are the same fact. A reference
 * is resolved by file link, then id, then number, then title. A decision is retired as superseded when it says so,
 * or when a decision in force (accepted, or itself since retired) declares it supersedes it: a proposal does not
 * retire anything yet. A missing target, a self-reference or a cycle is a warning, never a crash; inside a cycle,
 * a decision keeps the status its own file declares.
 */
export function resolveSupersession(documents: DocumentFile[]): { documents: DocumentFile[]; warnings: Warning[] } {
  const decisions = documents.filter((d) => d.decision && !d.decision.template);
  const warnings: Warning[] = [];
  const find = finder(decisions);
  /** superseded path → superseder paths, with whether the edge is inferred from the superseder's `supersedes`. */
  const edges = new Map<string, { by: DocumentFile; inferred: boolean }[]>();
  const addEdge = (from: DocumentFile, by: DocumentFile, inferred: boolean) => {
    const list = edges.get(from.path) ?? [];
    if (!list.some((e) => e.by === by)) list.push({ by, inferred });
    edges.set(from.path, list);
  };
  const unresolved = new Map<string, string[]>();
  /** What each decision supersedes: the targets' ids, or the text as written when there is no such decision. */
  const resolvedSupersedes = new Map<string, string[]>();

  for (const doc of decisions) {
    const meta = doc.decision!;
    for (const ref of meta.refs.supersededBy) {
      const target = find(ref, doc);
      if (target === doc) warnings.push({ source: doc.path, message: `says it is superseded by "${ref.text}", which is itself: ignored` });
      else if (target) addEdge(doc, target, false);
      else {
        warnings.push({ source: doc.path, message: `superseded by "${ref.text}", which is not a decision in the workspace` });
        unresolved.set(doc.path, [...(unresolved.get(doc.path) ?? []), ref.text]);
      }
    }
    for (const ref of meta.refs.supersedes) {
      const target = find(ref, doc);
      if (target === doc) warnings.push({ source: doc.path, message: `says it supersedes "${ref.text}", which is itself: ignored` });
      else if (!target) {
        warnings.push({ source: doc.path, message: `supersedes "${ref.text}", which is not a decision in the workspace` });
        resolvedSupersedes.set(doc.path, [...(resolvedSupersedes.get(doc.path) ?? []), ref.text]);
      } else {
        resolvedSupersedes.set(doc.path, [...(resolvedSupersedes.get(doc.path) ?? []), target.decision!.id]);
        if (['accepted', 'superseded', 'deprecated'].includes(meta.declaredStatus)) addEdge(target, doc, true);
      }
    }
  }

  const inCycle = new Set<string>();
  for (const cycle of findCycles(decisions, edges)) {
    for (const d of cycle) inCycle.add(d.path);
    warnings.push({ source: cycle[0].path, message: `supersession cycle: ${[...cycle, cycle[0]].map((d) => d.decision!.id).join(' → ')}; each keeps the status its own file declares` });
  }

  const out = documents.map((doc) => {
    const meta = doc.decision;
    if (!meta || meta.template) return doc;
    const by = (edges.get(doc.path) ?? []).filter((e) => !(e.inferred && inCycle.has(doc.path) && inCycle.has(e.by.path)));
    const ids = [...by.map((e) => e.by.decision!.id), ...(unresolved.get(doc.path) ?? [])];
    const retired = by.length > 0 && meta.declaredStatus !== 'rejected' && meta.declaredStatus !== 'deprecated';
    const status = retired ? 'superseded' : meta.declaredStatus;
    const supersedes = [...new Set([...(resolvedSupersedes.get(doc.path) ?? []), ...decisions.filter((d) => (edges.get(d.path) ?? []).some((e) => e.by === doc && !e.inferred)).map((d) => d.decision!.id)])];
    return { ...doc, status, decision: { ...meta, status, supersededBy: [...new Set(ids)], supersedes } };
  });
  return { documents: out, warnings };
}

/** Resolve a reference from one decision: file link (relative to it), then id, then number, then title. */
function finder(decisions: DocumentFile[]): (ref: DecisionRef, from: DocumentFile) => DocumentFile | undefined {
  const byPath = new Map(decisions.map((d) => [d.path, d]));
  const norm = (t: string) => t.toLowerCase().replace(/^(adr[-_ ]?)?\d+\s*[.:)-]\s*/i, '').replace(/[^a-z0-9]+/g, ' ').trim();
  const nearest = (matches: DocumentFile[], from: DocumentFile) => {
    const dir = posix.dirname(from.path);
    return matches.find((d) => posix.dirname(d.path) === dir) ?? (matches.length === 1 ? matches[0] : undefined);
  };
  // Each way a reference names a decision, indexed once (a filter over every decision per reference was quadratic in a
  // workspace of many decision records); each list keeps the decisions' order, as the filters did.
  const group = <K>(key: (d: DocumentFile) => K | undefined) => {
    const out = new Map<K, DocumentFile[]>();
    for (const d of decisions) {
      const k = key(d);
      if (k === undefined) continue;
      const list = out.get(k);
      if (list) list.push(d);
      else out.set(k, [d]);
    }
    return out;
  };
  const order = new Map(decisions.map((d, i) => [d, i]));
  const byBase = group((d) => (d.path.includes('/') ? posix.basename(d.path) : undefined));
  const byId = group((d) => d.decision!.id.toLowerCase());
  const byStem = group((d) => d.path.replace(/^.*\//, '').replace(/\.[^.]+$/, ''));
  const byNumber = group((d) => d.decision!.number);
  let byTitle: Map<string, DocumentFile[]> | undefined;
  return (ref, from) => {
    if (ref.target && !/^[a-z]+:/i.test(ref.target)) {
      const file = decodeURIComponent(ref.target.split('#')[0]);
      const hit = byPath.get(posix.normalize(posix.join(posix.dirname(from.path), file))) ?? nearest(byBase.get(posix.basename(file)) ?? [], from);
      if (hit) return hit;
    }
    const text = ref.text.trim();
    const named = [...new Set([...(byId.get(text.toLowerCase()) ?? []), ...(byStem.get(text) ?? [])])].sort((a, b) => order.get(a)! - order.get(b)!);
    if (named.length > 0) return nearest(named, from) ?? named[0];
    const n = numberOf(text);
    if (n !== undefined) {
      const numbered = byNumber.get(n) ?? [];
      if (numbered.length > 0) return nearest(numbered, from) ?? numbered[0];
    }
    const title = norm(text);
    byTitle ??= group((d) => norm(d.title));
    const titled = title ? (byTitle.get(title) ?? []) : [];
    return titled.length > 0 ? (nearest(titled, from) ?? titled[0]) : undefined;
  };
}

/** Every cycle of the superseded-by graph, each once, found by depth-first search in path order. */
function findCycles(decisions: DocumentFile[], edges: Map<string, { by: DocumentFile }[]>): DocumentFile[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: DocumentFile[] = [];
  const cycles: DocumentFile[][] = [];
  const visit = (doc: DocumentFile) => {
    state.set(doc.path, 'open');
    stack.push(doc);
    for (const { by } of [...(edges.get(doc.path) ?? [])].sort((a, b) => a.by.path.localeCompare(b.by.path))) {
      const s = state.get(by.path);
      if (s === 'open') cycles.push(stack.slice(stack.indexOf(by)));
      else if (s === undefined) visit(by);
    }
    stack.pop();
    state.set(doc.path, 'done');
  };
  for (const doc of [...decisions].sort((a, b) => a.path.localeCompare(b.path))) if (!state.has(doc.path)) visit(doc);
  return cycles;
}
