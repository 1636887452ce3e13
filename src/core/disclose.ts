/**
 * Progressive disclosure: the index of documents available on demand, and `read_document`, which fetches one of them
 * (whole, or one section) through the same checks as the chain: collect (provenance, secret redaction), prune
 * (retired decisions, unrelated component), trim to a token budget, and decisions for the manifest.
 *
 * The contract with the tool loop (coordinate through this signature only):
 *
 *   readDocument(snapshot: Snapshot, args: { path: string; heading?: string }, options: { tokenizer: Tokenizer;
 *                maxTokens?: number }): { text: string; decisions: Partial<Decisions>; block?: Block }
 *
 * - `snapshot` is the one the call was assembled from; `args` are the tool call's arguments as parsed from JSON
 *   (validated here: bad arguments give a refusal text, never an exception). `path` may carry `#heading`.
 * - `maxTokens` bounds the returned text, provenance wrapper and trim notice included (exact count with `tokenizer`).
 *   Default: `policy.zones.documents.max_tokens`, else `policy.zones.tool_results.max_tokens`.
 * - `text` is the tool result to send back: `<document source="…" trust="…">…</document>`, escaped, or a refusal
 *   saying why (`read_document: "docs/adr/adr-008.md" is not returned: superseded by ADR-012`).
 * - `decisions` go into the call's manifest (`mergeDecisions`): `selected` (reason `read_document: …`, with `via`),
 *   plus `trimmed` when cut to the budget; `rejected` when refused.
 * - `block` is what was returned, with exact tokens, for a caller that re-assembles; absent when refused.
 */
import * as path from 'node:path';
import { collect } from './chain/collect';
import { prune } from './chain/prune';
import { wrap, type IndexEntry } from './chain/render';
import { isSecretPath } from './redact/files';
import { headingsOf, normalizeHeading, sectionOf } from './sources/documents';
import type { Snapshot } from './sources/snapshot';
import type { Tokenizer } from './tokens';
import type { Block, Decision, Decisions, StageResult } from './types';

export interface ReadDocumentArgs {
  path: string;
  heading?: string;
}

export interface ReadDocumentOptions {
  tokenizer: Tokenizer;
  maxTokens?: number;
}

export interface ReadDocumentResult {
  text: string;
  decisions: Partial<Decisions>;
  block?: Block;
}

const DISCLOSABLE = new Set(['document', 'decision', 'source_code']);
const VIA = { via: 'read_document' };

/** Everything `read_document` may fetch for this task: documents, decisions and source files that survive prune. */
export function listAvailable(snapshot: Snapshot): StageResult<IndexEntry[]> {
  const collected = collect(snapshot);
  const pruned = prune(collected.value.blocks, snapshot.task.component);
  const docs = [...pruned.value.kept, ...pruned.value.disclosed].filter((b) => DISCLOSABLE.has(b.kind) && !b.mandatory).sort((a, b) => compare(a.source, b.source));
  return {
    value: docs.map((d) => ({ path: d.source, title: d.meta.title ?? d.source, summary: d.meta.summary, tags: d.meta.tags, estimatedTokens: d.tokens })),
    decisions: {
      indexed: docs.map((d): Decision => ({ source: d.source, kind: d.kind, reason: 'available on demand through read_document', tokens: d.tokens })),
      rejected: [...(collected.decisions.rejected ?? []), ...(pruned.decisions.rejected ?? [])],
      warnings: [...(collected.decisions.warnings ?? []), ...(pruned.decisions.warnings ?? [])],
    },
  };
}

/** The `read_document` tool: see the contract at the top of this file. */
export function readDocument(snapshot: Snapshot, args: ReadDocumentArgs | Record<string, unknown>, options: ReadDocumentOptions): ReadDocumentResult {
  const { policy, task } = snapshot;
  const maxTokens = options.maxTokens ?? policy.zones.documents?.max_tokens ?? policy.zones.tool_results.max_tokens;
  const rawPath = typeof args.path === 'string' ? args.path : '';
  const [pathPart, hashHeading] = rawPath.includes('#') ? [rawPath.slice(0, rawPath.indexOf('#')), rawPath.slice(rawPath.indexOf('#') + 1)] : [rawPath, undefined];
  const heading = typeof args.heading === 'string' && args.heading.trim() ? args.heading.trim() : hashHeading?.trim() || undefined;
  const rel = workspacePath(snapshot.root, pathPart);
  const refuse = (source: string, kind: Decision['kind'], reason: string, tokens?: number): ReadDocumentResult => ({
    text: `read_document: "${rawPath}" is not returned: ${reason}`,
    decisions: { rejected: [{ source, kind, reason: `read_document: ${reason}`, ...(tokens !== undefined ? { tokens } : {}), ...(heading ? { heading } : {}), ...VIA }] },
  });
  if (!rel) return refuse(rawPath || 'read_document', 'file', 'the path must be a workspace-relative path, as listed in <available-documents>');
  if (isSecretPath(rel)) return refuse(rel, 'file', 'it is a secret file (by name): never read or sent');

  const collected = collect(snapshot);
  const block = collected.value.blocks.find((b) => b.source === rel && DISCLOSABLE.has(b.kind));
  if (!block) {
    const loaded = collected.value.blocks.find((b) => b.source === rel);
    if (loaded) return refuse(rel, loaded.kind, `it is already in the request (${loaded.kind})`);
    const earlier = collected.decisions.rejected?.find((d) => d.source === rel);
    if (earlier) return refuse(rel, earlier.kind, earlier.reason);
    return refuse(rel, 'file', 'it is not an available document (<available-documents> lists what can be read)');
  }
  const pruned = prune([block], task.component);
  const rejected = pruned.decisions.rejected?.[0];
  if (rejected) return refuse(rel, block.kind, rejected.reason, block.tokens);

  let text = block.text;
  let section: string | undefined;
  if (heading) {
    const headings = headingsOf(block.text);
    const wanted = normalizeHeading(heading);
    const exact = headings.filter((h) => normalizeHeading(h.text) === wanted);
    const partial = headings.filter((h) => normalizeHeading(h.text).includes(wanted));
    const hit = exact[0] ?? (partial.length === 1 ? partial[0] : undefined);
    if (!hit) {
      const list = headings.slice(0, 30).map((h) => `"${h.text}"`).join(', ');
      return refuse(rel, block.kind, `no section "${heading}"${partial.length > 1 ? ' (ambiguous)' : ''}; its headings: ${list || '(none)'}`);
    }
    section = hit.text;
    text = sectionOf(block.text, hit).text;
  }
  const fetched: Block = { ...block, text, meta: { ...block.meta, ...(section ? { heading: section } : {}) } };
  const render = (b: Block) => wrap(section ? { ...b, source: `${rel}#${section}` } : b);
  const what = section ? `section "${section}" fetched on demand` : 'fetched on demand';
  const full = render(fetched);
  const fullTokens = options.tokenizer.count(full);
  if (fullTokens <= maxTokens) {
    const out = { ...fetched, tokens: fullTokens, exact: true };
    return { text: full, block: out, decisions: { selected: [selectedDecision(out, what, section)] } };
  }

  const cut = trimToBudget(fetched, rel, section, maxTokens, options.tokenizer, render);
  if (!cut) return refuse(rel, block.kind, `over budget: ${fullTokens} tokens and not even its first line fits in ${maxTokens}`, fullTokens);
  const out = { ...cut.block, tokens: cut.tokens, exact: true };
  return {
    text: cut.text,
    block: out,
    decisions: {
      selected: [selectedDecision(out, `${what}, trimmed`, section)],
      trimmed: [{
        source: rel, kind: block.kind, reason: `read_document: trimmed to the budget of ${maxTokens} tokens`,
        original_lines: cut.originalLines, retained_lines: cut.retainedLines, original_tokens: fullTokens, original_tokens_exact: true,
        tokens: cut.tokens, reference: rel, ...(section ? { heading: section } : {}), ...VIA,
      }],
    },
  };
}

/** Keep the longest head that fits with a notice naming the sections left out, so the model can ask for one. */
function trimToBudget(block: Block, rel: string, section: string | undefined, maxTokens: number, tokenizer: Tokenizer, render: (b: Block) => string) {
  const lines = block.text.split('\n');
  const headings = headingsOf(block.text);
  const attempt = (k: number) => {
    const cut = headings.filter((h) => h.line < k).at(-1);
    const rest = [
      ...(cut && !headings.some((h) => h.line === k) ? [`"${cut.text}" (cut)`] : []),
      ...headings.filter((h) => h.line >= k).map((h) => `"${h.text}"`),
    ];
    const shown = rest.length > 12 ? [...rest.slice(0, 12), `… ${rest.length - 12} more`] : rest;
    const notice =
      `[trimmed: ${k} of ${lines.length} lines kept to fit ${maxTokens} tokens; the full text is ${rel}` +
      (shown.length ? `. Sections not shown in full: ${shown.join(', ')}; read_document("${rel}", heading) returns one]` : ']');
    const b: Block = { ...block, text: `${lines.slice(0, k).join('\n')}\n${notice}`, meta: { ...block.meta, ...(section ? { heading: section } : {}) } };
    const text = render(b);
    return { block: b, text, tokens: tokenizer.count(text) };
  };
  let best: (ReturnType<typeof attempt> & { k: number }) | undefined;
  for (let lo = 1, hi = lines.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    const tried = attempt(mid);
    if (tried.tokens <= maxTokens) {
      best = { ...tried, k: mid };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best ? { block: best.block, text: best.text, tokens: best.tokens, originalLines: lines.length, retainedLines: best.k } : undefined;
}

function selectedDecision(block: Block, what: string, section: string | undefined): Decision {
  return { source: block.source, kind: block.kind, reason: `read_document: ${what}`, tokens: block.tokens, zone: 'documents', ...(section ? { heading: section } : {}), ...(block.meta.id ? { id: block.meta.id } : {}), ...VIA };
}

/** A workspace-relative path from what the model wrote (`./docs/x.md`, an absolute path inside the workspace); undefined outside it. */
export function workspacePath(root: string, raw: string): string | undefined {
  const text = raw.trim().replace(/\\/g, '/');
  if (!text) return undefined;
  const rel = path.isAbsolute(text) ? path.relative(root, text).split(path.sep).join('/') : text;
  const normal = path.posix.normalize(rel).replace(/^(\.\/)+/, '');
  if (!normal || normal === '.' || normal === '..' || normal.startsWith('../') || path.posix.isAbsolute(normal)) return undefined;
  return normal;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
