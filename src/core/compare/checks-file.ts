import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { InputError, nearest, type QuickFix } from '../errors';
import { replaceFix } from '../quick-fix';

/**
 * `.context/checks.yaml`: a list of context checks ("this evidence must survive"). Each case names a task and what
 * its request must hold; `answer` expectations are checked only when a provider actually answers. Every case and
 * every expectation keeps its line, so a failure points at the line that states it.
 */

export const CHECKS_FILE = '.context/checks.yaml';

export type EvidenceKind = 'max_tokens' | 'select' | 'reject' | 'contains' | 'excludes';
export type AnswerKind = 'mentions' | 'cites' | 'not_claims';

export interface Expectation<K extends string = EvidenceKind | AnswerKind> {
  kind: K;
  /** The path, string or number the case states. */
  value: string;
  /** 1-based line of the expectation in the checks file. */
  line: number;
}

export interface CheckCase {
  name: string;
  task: string;
  policy?: string;
  /** 1-based line where the case starts. */
  line: number;
  evidence: Expectation<EvidenceKind>[];
  answer: Expectation<AnswerKind>[];
}

const CASE_KEYS = ['name', 'task', 'policy', 'max_tokens', 'select', 'reject', 'contains', 'excludes', 'answer'];
const LIST_KEYS: EvidenceKind[] = ['select', 'reject', 'contains', 'excludes'];
const ANSWER_KEYS: AnswerKind[] = ['mentions', 'cites', 'not_claims'];

/** Parse and validate a checks file's text. Errors name `file:line:col`; unknown keys suggest the nearest valid one. */
export function parseChecks(text: string, file: string): CheckCase[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number | undefined) => lineCounter.linePos(offset ?? 0);
  const fail = (node: YamlNode | null | undefined, message: string, fix?: QuickFix): never => {
    const p = pos(node?.range?.[0]);
    throw new InputError(message, file, p.line, p.col, fix);
  };
  const rename = (node: YamlNode, from: string, to: string): QuickFix | undefined => (node.range ? replaceFix(text, node.range[0], node.range[1], to, 'replace', `Replace "${from}" with "${to}"`) : undefined);
  if (doc.errors.length > 0) {
    const p = pos(doc.errors[0].pos[0]);
    throw new InputError(`invalid YAML: ${doc.errors[0].message.split('\n')[0]}`, file, p.line, p.col);
  }
  const root = doc.contents as YamlNode | null;
  if (!isSeq(root)) return fail(root, 'the checks file must be a list of cases (- name: …, task: …)');
  if (root.items.length === 0) return fail(root, 'the checks file has no case');
  const names = new Set<string>();
  return root.items.map((item, i) => {
    const node = item as YamlNode;
    if (!isMap(node)) return fail(node, `case ${i + 1} must be a mapping with name, task and expectations`);
    const line = pos(node.range?.[0]).line;
    const c: CheckCase = { name: '', task: '', line, evidence: [], answer: [] };
    const seen = new Set<string>();
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode;
      const key = isScalar(keyNode) ? String(keyNode.value) : '';
      const value = pair.value as YamlNode | null;
      if (!CASE_KEYS.includes(key)) {
        const hint = nearest(key, CASE_KEYS) as string;
        fail(keyNode, `unknown key "${key}" in case ${i + 1}; did you mean "${hint}"? (keys: ${CASE_KEYS.join(', ')})`, rename(keyNode, key, hint));
      }
      seen.add(key);
      const where = `case ${i + 1}${c.name ? ` ("${c.name}")` : ''}: ${key}`;
      if (key === 'name' || key === 'task' || key === 'policy') c[key] = text1(value, where, fail);
      else if (key === 'max_tokens') {
        if (!isScalar(value) || typeof value.value !== 'number' || !Number.isInteger(value.value) || value.value <= 0) fail(value, `${where} must be a positive whole number`);
        c.evidence.push({ kind: 'max_tokens', value: String((value as { value: number }).value), line: pos(value?.range?.[0]).line });
      } else if (key === 'answer') {
        if (!isMap(value)) return fail(value, `${where} must be a mapping with mentions, cites and/or not_claims`);
        for (const sub of value.items) {
          const subKey = isScalar(sub.key) ? String(sub.key.value) : '';
          if (!(ANSWER_KEYS as string[]).includes(subKey)) {
            const hint = nearest(subKey, ANSWER_KEYS) as string;
            fail(sub.key as YamlNode, `unknown key "answer.${subKey}" in case ${i + 1}; did you mean "${hint}"? (keys: ${ANSWER_KEYS.join(', ')})`, rename(sub.key as YamlNode, subKey, hint));
          }
          for (const e of strings(sub.value as YamlNode, `${where}.${subKey}`, fail, pos)) c.answer.push({ kind: subKey as AnswerKind, ...e });
        }
      } else {
        for (const e of strings(value, where, fail, pos)) c.evidence.push({ kind: key as EvidenceKind, ...e });
      }
    }
    for (const required of ['name', 'task'] as const) if (!seen.has(required)) fail(node, `case ${i + 1} has no "${required}"`);
    if (names.has(c.name)) fail(node, `two cases are named "${c.name}": names must be unique (they name the tests)`);
    names.add(c.name);
    if (c.evidence.length + c.answer.length === 0) fail(node, `case "${c.name}" states no expectation: add max_tokens, ${LIST_KEYS.join(', ')} or answer`);
    c.evidence.sort((a, b) => a.line - b.line);
    return c;
  });
}

function text1(node: YamlNode | null, where: string, fail: (n: YamlNode | null | undefined, m: string) => never): string {
  if (!isScalar(node) || typeof node.value !== 'string' || node.value.trim() === '') return fail(node, `${where} must be a non-empty string`);
  return node.value;
}

/** A string or a list of strings, each with its own line. */
function strings(
  node: YamlNode | null,
  where: string,
  fail: (n: YamlNode | null | undefined, m: string) => never,
  pos: (offset: number | undefined) => { line: number },
): { value: string; line: number }[] {
  const items = isSeq(node) ? (node.items as YamlNode[]) : [node];
  if (isSeq(node) && node.items.length === 0) fail(node, `${where} is an empty list`);
  return items.map((item) => {
    if (!isScalar(item) || (typeof item.value !== 'string' && typeof item.value !== 'number') || String(item.value).trim() === '') {
      return fail(item, `${where} must be a string or a list of non-empty strings`);
    }
    return { value: String(item.value), line: pos(item.range?.[0]).line };
  });
}
