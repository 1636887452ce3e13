import type { Policy } from '../policy';
import { firstProse } from '../sources/documents';
import { applicability, orderInstructions } from '../sources/instructions';
import { globMatcher } from '../sources/globs';
import { leadingLines, type Snapshot } from '../sources/snapshot';
import { redact, type Redacted } from '../redact/apply';
import { ByText, TEXT_MEMO_ENTRIES } from '../relevance/by-text';
import { componentsOf } from '../relevance/components';
import { estimateTokens } from '../tokens';
import { TOOL_DEFINITIONS } from '../tools';
import type { Block, BlockKind, BlockMeta, Decision, StageResult, Trust, Warning } from '../types';

/** Default priorities by kind when no policy glob matches (higher = kept first). */
const KIND_PRIORITY: Partial<Record<BlockKind, number>> = { decision: 60, source_code: 50, tool_result: 50, document: 40 };

/**
 * Each priority rule's matcher, by the policy's list: found once per list, not once per block and rule (a matcher's
 * key costs more than the match). A policy is not changed once parsed.
 */
const ruleMatchers = new WeakMap<Policy['priorities'], ((source: string) => boolean)[]>();

export function priorityFor(policy: Policy, source: string, kind: BlockKind, own?: number): number {
  if (own !== undefined) return own;
  const rules = policy.priorities;
  let matchers = ruleMatchers.get(rules);
  if (!matchers) ruleMatchers.set(rules, (matchers = rules.map((r) => globMatcher([r.match], { dot: true }))));
  for (let i = 0; i < rules.length; i++) {
    if (rules[i].match === source || matchers[i](source)) return rules[i].priority;
  }
  return KIND_PRIORITY[kind] ?? 0;
}

export function makeBlock(
  policy: Policy,
  kind: BlockKind,
  source: string,
  trust: Trust,
  text: string,
  meta: BlockMeta = {},
  priority?: number,
): Block {
  return {
    id: `${kind}:${source}`,
    kind,
    source,
    trust,
    priority: priorityFor(policy, source, kind, priority),
    // The task is always protected: a request without its question is no request.
    mandatory: kind === 'current_task' || policy.mandatory.includes(kind),
    text,
    tokens: estimateTokens(text),
    exact: false,
    meta,
  };
}

export interface Collected {
  blocks: Block[];
  /** Tool output still as files: the trim stage decides what of them is read and kept. */
  toolOutputs: Snapshot['toolOutputs'];
}

/**
 * A document's body as it is sent (trimmed, then redacted), by the body itself. The document cache hands back the same
 * body string for an unchanged file, so a re-assembly finds it by identity; trimming made a new string at every call,
 * which the redaction memo then had to hash (a tenth of collect at 400 documents).
 */
const bodies = new ByText<Redacted>(TEXT_MEMO_ENTRIES);

/** Turn the snapshot into candidate blocks. Secrets found in text are redacted and reported. */
export function collect(snapshot: Snapshot): StageResult<Collected> {
  const { policy, task } = snapshot;
  const warnings: Warning[] = [];
  /** Redact a text that starts at `firstLine` of its file; the warnings carry file lines. */
  const reported = (source: string, { text, found }: Redacted, firstLine: number) => {
    for (const f of found) warnings.push({ source, line: f.line + firstLine - 1, rule: f.rule, message: `secret redacted (${f.rule}): not sent` });
    return text;
  };
  const clean = (source: string, text: string, firstLine = 1) => reported(source, redact(text), firstLine);
  const blocks: Block[] = [];
  blocks.push(makeBlock(policy, 'system_instructions', 'builtin:system', 'harness', policy.system_instructions));
  blocks.push(makeBlock(policy, 'tool_definitions', 'builtin:tools', 'harness', JSON.stringify(TOOL_DEFINITIONS)));

  // Instruction files, root first: an AGENTS.md (or CLAUDE.md) below the root applies only when a file of the task lies
  // below its folder; conditional rules only when a file of the task matches their globs; disclosed ones go to the index.
  const rejected: Decision[] = [];
  for (const rule of orderInstructions(snapshot.instructions ?? [])) {
    if (!rule.text) {
      rejected.push({ source: rule.path, kind: 'agents_md', reason: 'empty file: nothing to load', tokens: 0 });
      continue;
    }
    if (rule.mode === 'disclosed') {
      const summary = rule.description ?? firstProse(rule.text);
      blocks.push(makeBlock(policy, 'document', rule.path, 'project-rule', clean(rule.path, rule.text, rule.bodyLine), { title: rule.title, summary, tags: ['instructions', rule.family] }));
      continue;
    }
    const verdict = applicability(rule, task.files);
    // A nested AGENTS.md of a component folder (`services/checkout/AGENTS.md`) applies when the task is about that component.
    const component = !verdict.applies && rule.mode !== 'conditional' && rule.scope ? task.components?.find((c) => componentsOf(`${rule.scope}/AGENTS.md`, undefined, snapshot.packages).some((o) => o.name === c.name && o.dir === rule.scope)) : undefined;
    if (component) blocks.push(makeBlock(policy, 'agents_md', rule.path, 'project-rule', clean(rule.path, rule.text, rule.bodyLine), { title: rule.title, summary: `applies: component ${component.name} (${component.from})` }));
    else if (verdict.applies) blocks.push(makeBlock(policy, 'agents_md', rule.path, 'project-rule', clean(rule.path, rule.text, rule.bodyLine), { title: rule.title }));
    else rejected.push({ source: rule.path, kind: 'agents_md', reason: verdict.reason ?? 'does not apply', tokens: estimateTokens(rule.text) });
  }

  for (const pin of snapshot.pins) {
    if (pin.missing) {
      rejected.push({ source: pin.source, kind: 'pinned', reason: `pinned block cannot be read: ${pin.missing}` });
      warnings.push({ source: pin.source, message: `pinned block cannot be read (${pin.missing}): it is NOT in this request; unpin it or restore the file` });
      continue;
    }
    const where = pin.startLine ? `${pin.source}#L${pin.startLine}-L${pin.endLine ?? pin.startLine}` : pin.source;
    const block = makeBlock(policy, 'pinned', where, 'user', clean(pin.source, pin.text, pin.startLine ?? 1), { title: pin.label });
    block.id = `pinned:${pin.id}`;
    blocks.push(block);
  }

  for (const doc of snapshot.documents) {
    const kind: BlockKind = doc.decision ? 'decision' : 'document';
    if (doc.decision?.template) {
      rejected.push({ source: doc.path, kind, reason: 'ADR template, not a decision', tokens: estimateTokens(doc.body) });
      continue;
    }
    blocks.push(
      makeBlock(policy, kind, doc.path, 'project-document', reported(doc.path, bodies.get(doc.body, (body) => redact(body.trim())), doc.bodyLine + leadingLines(doc.body)), {
        title: doc.title,
        summary: doc.summary,
        components: doc.components,
        tags: doc.tags,
        status: doc.decision?.status ?? doc.status,
        id: doc.decision?.id,
        supersededBy: doc.decision?.supersededBy.length ? doc.decision.supersededBy.join(', ') : undefined,
        supersedes: doc.decision?.supersedes,
      }, doc.priority),
    );
  }
  for (const file of snapshot.sourceFiles) {
    const named = task.files.includes(file.path);
    blocks.push(makeBlock(policy, 'source_code', file.path, 'project-source', clean(file.path, file.text), {
      title: file.path.replace(/^.*\//, ''),
      components: task.component && named ? [task.component] : undefined,
      ...(file.pointer ? { pointer: file.pointer } : {}),
    }));
  }
  blocks.push(makeBlock(policy, 'current_task', task.source, 'user', clean(task.source, task.text, task.firstLine ?? 1), { components: task.component ? [task.component] : undefined }));
  return {
    value: { blocks, toolOutputs: snapshot.toolOutputs },
    // The snapshot's warnings (scan, front matter, ADR lifecycle) reach the manifest through this stage.
    decisions: { warnings: [...snapshot.warnings, ...warnings], rejected },
  };
}
