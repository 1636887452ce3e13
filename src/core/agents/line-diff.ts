/**
 * A unified diff of two small texts (configuration files), so `ctxctl setup --write` shows exactly what it changes
 * before it writes. Longest common subsequence over lines; hunks with `context` lines around each change.
 */
export function lineDiff(before: string, after: string, label: string, context = 3): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: { mark: ' ' | '-' | '+'; text: string; ai: number; bi: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ mark: ' ', text: a[i++], ai: i, bi: ++j });
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ mark: '-', text: a[i++], ai: i, bi: j });
    else ops.push({ mark: '+', text: b[j++], ai: i, bi: j });
  }
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
    for (const o of hunk) out.push(`${o.mark}${o.text}`);
  }
  return out.join('\n') + '\n';
}
