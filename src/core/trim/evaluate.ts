import { hostFs as fs } from '../host';
import * as path from 'node:path';
import { trimToolOutputs } from '../chain/trim';
import type { Policy } from '../policy';
import { fileLines } from '../sources/scan';
import type { Tokenizer } from '../tokens';
import { STREAM_CHUNK_BYTES } from './lines';
import { isTemplateRow, TEMPLATES_HEADING } from './log-rows';
import { templatePattern } from './templates';

/**
 * The tool-output evaluation (`npm run eval`, and the floors the unit suite asserts): each corpus log is trimmed as
 * the chain trims a workspace log at the given policy, then scored against its ground truth: which error and
 * warning templates are in the text sent, and whether the reason's figures are those of the text.
 */

export interface TruthTemplate {
  severity: 'error' | 'warn';
  template: string;
}

export interface EvalRow {
  system: string;
  format: string;
  lines: number;
  kept: number;
  total: number;
  missing: string[];
  tokensBefore: number;
  tokensAfter: number;
  /** Figures of the reason checked against the text, and how many were right. */
  reasonChecked: number;
  reasonRight: number;
  note: string;
}

/** The truth templates found in the text (verbatim, in a row, or as a clipped row up to its marker). */
export function templatesKept(text: string, truth: TruthTemplate[]): { kept: TruthTemplate[]; missing: TruthTemplate[] } {
  const lines = text.split('\n');
  const kept: TruthTemplate[] = [];
  const missing: TruthTemplate[] = [];
  for (const t of truth) {
    const re = templatePattern(t.template);
    (lines.some((l) => re.test(l)) ? kept : missing).push(t);
  }
  return { kept, missing };
}

/**
 * Check the figures a log trim's reason gives against its text: `kept e of E error templates`, `w of W warning
 * templates`, `(N lines`, `K templates left out`. Returns how many figures were checked and how many were right.
 */
export function checkReason(note: string, text: string): { checked: number; right: number } {
  const lines = text.split('\n');
  const rows = lines.filter(isTemplateRow);
  let checked = 0;
  let right = 0;
  const check = (ok: boolean) => {
    checked++;
    if (ok) right++;
  };
  const e = /kept (\d+) of (\d+) error templates/.exec(note);
  const w = /(\d+) of (\d+) warning templates/.exec(note);
  if (e) check(Number(e[1]) === rows.filter((l) => l.startsWith('  E ')).length);
  if (w) check(Number(w[1]) === rows.filter((l) => l.startsWith('  W ')).length);
  const n = /\((\d+) lines/.exec(note);
  if (n && (e || w)) {
    const verbatim = lines.filter((l) => l !== '' && l !== TEMPLATES_HEADING && !isTemplateRow(l) && !l.startsWith('… ') && !/^ {2,4}(?:… |line \d)/.test(l)).length;
    check(Number(n[1]) === verbatim);
  }
  const left = /; (\d+) templates? left out/.exec(note);
  if (left) {
    const said = Number(left[1]);
    const total = (e ? Number(e[2]) - Number(e[1]) : 0) + (w ? Number(w[2]) - Number(w[1]) : 0);
    const marker = /^… (\d+) more templates? left out/m.exec(text);
    check(said === total && Number(marker?.[1] ?? 0) === said);
  }
  return { checked, right };
}

/** Trim and score every `NAME.log` of `dir` that has a `NAME.truth.json` beside it. */
export function evaluateCorpus(dir: string, policy: Policy, tokenizer: Tokenizer): EvalRow[] {
  const rows: EvalRow[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.log')).sort()) {
    const truthFile = path.join(dir, file.replace(/\.log$/, '.truth.json'));
    if (!fs.existsSync(truthFile)) continue;
    const truth = JSON.parse(fs.readFileSync(truthFile, 'utf8')) as { system: string; format: string; templates: TruthTemplate[] };
    const abs = path.join(dir, file);
    const size = fs.statSync(abs).size;
    const whole = fs.readFileSync(abs, 'utf8');
    const out = trimToolOutputs([{ path: file, size, lines: () => fileLines(abs, STREAM_CHUNK_BYTES) }], policy, tokenizer);
    const block = out.value[0];
    const decision = out.decisions.trimmed?.[0];
    const { kept, missing } = templatesKept(block.text, truth.templates);
    const reason = checkReason(String(decision?.reason ?? ''), block.text);
    rows.push({
      system: truth.system,
      format: truth.format,
      lines: whole.split('\n').length - (whole.endsWith('\n') ? 1 : 0),
      kept: kept.length,
      total: truth.templates.length,
      missing: missing.map((m) => `${m.severity}: ${m.template}`),
      tokensBefore: tokenizer.count(whole),
      tokensAfter: block.tokens,
      reasonChecked: reason.checked,
      reasonRight: reason.right,
      note: String(decision?.reason ?? 'kept whole'),
    });
  }
  return rows;
}
