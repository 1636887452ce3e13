/**
 * A unified diff of two small texts (configuration files), so `ctxctl setup --write` shows exactly what it changes
 * before it writes. Longest common subsequence over lines; hunks with `context` lines around each change.
 */
export function lineDiff(before: string, after: string, label: string, context = 3): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const ops: { mark: ' ' | '-' | '+'; text: string; ai: number; bi: number }[] = [];
  // The lines both start and end with are kept as they are; only the rest goes through the subsequence table, and
  // that table only while it is small: a merge changes a few lines, and a file of any size stays linear.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  for (let k = 0; k < head; k++) ops.push({ mark: ' ', text: a[k], ai: k + 1, bi: k + 1 });
  middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail), head, ops);
  for (let k = tail; k > 0; k--) ops.push({ mark: ' ', text: a[a.length - k], ai: a.length - k + 1, bi: b.length - k + 1 });
  const changed = ops.map((o, k) => (o.mark !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  const out = [`--- ${label}`, `+++ ${label}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(ops.length - 1, changed[k] + context);
    while (k + 1 < changed.length && changed[k + 1] - context <= end + 1) end = Math.min(ops.length - 1, changed[++k] + context);
    k++;
    const hunk = ops.slice(start, end + 1);
    const aStart = hunk.find((o) => o.mark !== '+')?.ai ?? ops[start].ai;
    const bStart = hunk.find((o) => o.mark !== '-')?.bi ?? ops[start].bi;
    const aLen = hunk.filter((o) => o.mark !== '+').length;
    const bLen = hunk.filter((o) => o.mark !== '-').length;
    out.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@`);
    for (const o of hunk) out.push(`${o.mark}${shown(o.text)}`);
  }
  return out.join('\n') + '\n';
}

/** Above this many cells the subsequence table is not built: the changed lines are shown as removed, then added. */
const MAX_TABLE_CELLS = 1_000_000;
/** A line longer than this is shown by its start and its length (a one-line file of megabytes stays readable). */
const MAX_SHOWN_CHARS = 400;

function shown(line: string): string {
  return line.length > MAX_SHOWN_CHARS ? `${line.slice(0, 200)}… (${line.length} characters)` : line;
}

function middle(a: string[], b: string[], offset: number, ops: { mark: ' ' | '-' | '+'; text: string; ai: number; bi: number }[]): void {
  if ((a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS) {
    a.forEach((text, k) => ops.push({ mark: '-', text, ai: offset + k + 1, bi: offset }));
    b.forEach((text, k) => ops.push({ mark: '+', text, ai: offset + a.length, bi: offset + k + 1 }));
    return;
  }
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ mark: ' ', text: a[i++], ai: offset + i, bi: offset + ++j });
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ mark: '-', text: a[i++], ai: offset + i, bi: offset + j });
    else ops.push({ mark: '+', text: b[j++], ai: offset + i, bi: offset + j });
  }
}
