import type { ToolResult } from '../offload/results';
import type { Policy } from '../policy';
import type { Tokenizer } from '../tokens';
import { pickTrimmer } from '../trim/pick';
import { trimOptions } from './trim';

/**
 * The inline view of an offloaded result: the same evidence digest trimming produces (a test report's
 * summary and failures, a log's error and warning templates with their first occurrences), within
 * `offload.preview_tokens`, never just its head and tail. Results with no evidence form (command output, JSON)
 * have none: their head and tail stay the navigation preview. The stored payload is never touched.
 */
export function evidenceDigest(r: ToolResult, where: string, policy: Policy, tokenizer: Tokenizer): { text: string; note: string } | undefined {
  const budget = policy.offload.preview_tokens ?? 600;
  if (budget <= 0) return undefined;
  const { trimmer, format } = pickTrimmer(r.workspacePath ?? r.name, r.format, r.lines, r.name);
  if (format !== 'test' && format !== 'log') return undefined;
  const out = trimmer(r.lines, trimOptions(policy, tokenizer, budget, where));
  // A log with no error or warning has nothing to digest: its head and tail say as much as a glance would.
  if (format === 'log' && !out.templates) return undefined;
  return { text: out.text, note: `${format}: ${out.note}` };
}
